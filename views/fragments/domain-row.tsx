// One domain as a table row, on the dashboard (state at a glance) or in the domain list (with its
// controls). "Update now" and the on/off switch are real forms; htmx swaps the row for a fresh one
// (the new address, status and next run at once, the outcome under the status), and without
// JavaScript they come back to the page with the outcome as a notice. Every control's accessible
// name says which domain and record type it acts on, and its id keeps focus on it after a swap.

import { Html } from "@elysiajs/html";
import { SourceMark, type SourceMarkContext } from "./source-mark";
import type { HistoryFailureCause } from "../../src/store/rows";
import type { DomainView } from "../../src/modules/domains/service";
import { ActionForm, Badge, causeWords, DomainStatus, EnabledSwitch, Ip, TimeAgo, UPDATABLE, type UpdateConditions } from "../components";
import { every, millis } from "../format";
import { PropagationMark } from "./propagation-mark";

export type DomainRowView = "dashboard" | "list";

/** What "Update now" came back with: the forced update's answer, or the status and sentence it was refused with. */
export type UpdateResult =
  | { ok: true; changed: boolean; ip: string | null; previousIp: string | null; durationMs: number }
  | {
      ok: false;
      /** Refused (disabled), the address not detected, the provider failed, or its outcome waiting for disk space. */
      failure: "refused" | "detection" | "provider" | "storage";
      /** The provider failure's cause, as its history row keeps it (absent: not known). */
      cause?: HistoryFailureCause | null;
      detail: string;
    };

/** What to do about a provider failure of this cause. */
function causeAdvice(cause: HistoryFailureCause | null | undefined): string {
  switch (cause) {
    case "unreachable":
      return "Check this machine's connection and the service's address; it is tried again on its own.";
    case "credentials":
      return "Correct them in the provider's settings.";
    case "throttled":
      return "It is tried again after the pause the service asked for.";
    default:
      return "Its history has the details.";
  }
}

export interface DomainRowProps {
  domain: DomainView;
  view: DomainRowView;
  now: number;
  intervalSeconds: number;
  /** Its provider enabled, its address detectable; by default both. */
  conditions?: UpdateConditions;
  result?: UpdateResult | null;
  /** Where the page knows the system's sources: each row says where its address comes from. */
  sources?: SourceMarkContext;
}

function domainRowId(id: number): string {
  return `domain-${id}`;
}

/** "home.example.com (A)": how a control names the record it acts on. */
export function recordName(domain: Pick<DomainView, "domain_name" | "record_type">): string {
  return `${domain.domain_name} (${domain.record_type})`;
}

/**
 * The update's outcome as a sentence a person reads; the provider's own words (record ids, TTL)
 * stay in the history's detail.
 */
export function updateSentence(result: UpdateResult, providerName: string): string {
  if (result.ok) {
    if (result.changed) return `Now points at ${result.ip}${result.previousIp ? ` (was ${result.previousIp})` : ""}.`;
    return `Already pointed at ${result.ip}; nothing to change.`;
  }
  if (result.failure === "detection") return "The public address could not be detected. Check this machine's internet connection, then try again.";
  if (result.failure === "provider") {
    const words = causeWords(result.cause, providerName);
    if (words === null) return `${providerName} did not accept the update. Its history says why.`;
    const sentence = words.charAt(0).toUpperCase() + words.slice(1);
    return result.cause === "refused" ? `${sentence}: ${result.detail.replace(/[.!?]?$/, ".")}` : `${sentence}. ${causeAdvice(result.cause)}`;
  }
  return /[.!?]$/.test(result.detail) ? result.detail : `${result.detail}.`;
}

export function ScheduleWords({ cron, intervalSeconds }: { cron: string | null; intervalSeconds: number }) {
  if (cron === null) return <span class="muted">{every(intervalSeconds)} (default)</span>;
  return <code safe>{cron}</code>;
}

function UpdateButton({ domain, view, providerEnabled }: { domain: DomainView; view: DomainRowView; providerEnabled: boolean }) {
  const updatable = domain.is_enabled && providerEnabled;
  return (
    <ActionForm url={`/domains/${domain.id}/update`} target={`#${domainRowId(domain.id)}`} fields={{ view }}>
      <button
        type="submit"
        id={`update-${domain.id}`}
        class="button button-small"
        disabled={!updatable}
        aria-label={`Update now: ${recordName(domain)}`}
        title={updatable ? "Detect the public IP and write it now" : domain.is_enabled ? "Enable its provider to update it" : "Enable the domain to update it"}
      >
        Update now
      </button>
    </ActionForm>
  );
}

function Result({ result, domain }: { result: UpdateResult; domain: DomainView }) {
  return (
    <p class={["update-result", result.ok ? "update-result-ok" : "update-result-fail"]} role="status">
      <span safe>{updateSentence(result, domain.provider_name)}</span>
      {result.ok ? <span class="muted"> ({millis(result.durationMs)})</span> : ""}
      {!result.ok && result.failure === "provider" ? (
        <>
          {" "}
          <a href={`/domains/${domain.id}/history`}>See the history</a>
        </>
      ) : (
        ""
      )}
    </p>
  );
}

/** When the domain is next updated: never while it or its provider is disabled, whatever time is stored. */
export function NextRun({ domain, conditions, now, prefix = "" }: { domain: DomainView; conditions: UpdateConditions; now: number; prefix?: string }) {
  if (!domain.is_enabled) return <span class="muted">not scheduled (disabled)</span>;
  if (!conditions.providerEnabled) return <span class="muted">not scheduled (provider disabled)</span>;
  return (
    <>
      {prefix}
      <TimeAgo at={domain.next_run_at} now={now} />
    </>
  );
}

export function DomainRow({ domain, view, now, intervalSeconds, conditions = UPDATABLE, result, sources }: DomainRowProps) {
  const name = (
    <td data-label="Domain" class="cell-domain">
      <a href={`/domains/${domain.id}/history`} class="domain-link" safe>
        {domain.domain_name}
      </a>{" "}
      <Badge tone="idle">{domain.record_type}</Badge>
      {view === "dashboard" ? (
        <div class="muted small" safe>
          {domain.provider_name}
        </div>
      ) : (
        ""
      )}
    </td>
  );
  const address = (
    <td data-label="IP address" class="cell-ip">
      <Ip ip={domain.last_known_ip} />
      {sources ? <SourceMark domain={domain} context={sources} /> : ""}
    </td>
  );
  const status = (
    <td data-label="Status" class="cell-status">
      <DomainStatus domain={domain} conditions={conditions} />
      <PropagationMark propagation={domain.propagation} />
      {result ? <Result result={result} domain={domain} /> : ""}
    </td>
  );

  if (view === "dashboard") {
    return (
      <tr id={domainRowId(domain.id)}>
        {name}
        {address}
        {status}
        <td data-label="Last change">
          <TimeAgo at={domain.last_changed_at} now={now} />
        </td>
        <td data-label="Next run">
          <NextRun domain={domain} conditions={conditions} now={now} />
        </td>
        <td class="cell-actions">
          <UpdateButton domain={domain} view={view} providerEnabled={conditions.providerEnabled} />
        </td>
      </tr>
    );
  }

  const record = recordName(domain);
  return (
    <tr id={domainRowId(domain.id)}>
      {name}
      <td data-label="Provider" safe>
        {domain.provider_name}
      </td>
      {address}
      {status}
      <td data-label="Schedule" class="cell-schedule">
        <ScheduleWords cron={domain.cron_schedule} intervalSeconds={intervalSeconds} />
        <div class="muted small">
          <NextRun domain={domain} conditions={conditions} now={now} prefix="next " />
        </div>
      </td>
      <td data-label="Enabled">
        <EnabledSwitch
          url={`/domains/${domain.id}/enabled`}
          enabled={domain.is_enabled}
          label={`Updates for ${record}`}
          target={`#${domainRowId(domain.id)}`}
          id={`enabled-${domain.id}`}
        />
      </td>
      <td class="cell-actions">
        <div class="actions">
          <UpdateButton domain={domain} view={view} providerEnabled={conditions.providerEnabled} />
          <a class="button button-small button-quiet" href={`/domains/${domain.id}/edit`} aria-label={`Edit ${record}`}>
            Edit
          </a>
          <a class="button button-small button-quiet" href={`/domains/${domain.id}/history`} aria-label={`History of ${record}`}>
            History
          </a>
          <form
            method="post"
            action={`/domains/${domain.id}/delete`}
            hx-confirm={`Delete ${record} and its history? The DNS record at the provider is left as it is.`}
          >
            <button type="submit" class="button button-small button-danger" aria-label={`Delete ${record}`}>
              Delete
            </button>
          </form>
        </div>
      </td>
    </tr>
  );
}
