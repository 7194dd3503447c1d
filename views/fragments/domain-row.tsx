// One domain as a table row, on the dashboard (state at a glance) or in the domain list (with its
// controls). "Update now" and the on/off switch swap the row for a fresh one, so the new address,
// status and next run show at once, with the update's outcome under the status.

import { Html } from "@elysiajs/html";
import type { DomainView } from "../../src/modules/domains/service";
import { Badge, DomainStatus, EnabledSwitch, TimeAgo } from "../components";
import { every, millis } from "../format";

export type DomainRowView = "dashboard" | "list";

/** What "Update now" came back with: the forced update's answer, or the error it was refused with. */
export interface UpdateResult {
  ok: boolean;
  message: string;
  durationMs?: number;
}

export interface DomainRowProps {
  domain: DomainView;
  view: DomainRowView;
  now: number;
  intervalSeconds: number;
  result?: UpdateResult | null;
}

export function domainRowId(id: number): string {
  return `domain-${id}`;
}

export function ScheduleWords({ cron, intervalSeconds }: { cron: string | null; intervalSeconds: number }) {
  if (cron === null) return <span class="muted">{every(intervalSeconds)} (default)</span>;
  return <code safe>{cron}</code>;
}

function UpdateButton({ domain, view }: { domain: DomainView; view: DomainRowView }) {
  return (
    <button
      type="button"
      class="button button-small"
      hx-post={`/domains/${domain.id}/update`}
      hx-vals={JSON.stringify({ view })}
      hx-target={`#${domainRowId(domain.id)}`}
      hx-swap="outerHTML"
      hx-disabled-elt="this"
      disabled={!domain.is_enabled}
      title={domain.is_enabled ? "Detect the public IP and write it now" : "Enable the domain to update it"}
    >
      Update now
    </button>
  );
}

function Result({ result }: { result: UpdateResult }) {
  return (
    <p class={["update-result", result.ok ? "update-result-ok" : "update-result-fail"]} role="status">
      <strong>{result.ok ? "Updated" : "Failed"}</strong>
      {result.durationMs !== undefined ? ` · ${millis(result.durationMs)}` : ""}
      <span class="update-message" safe>
        {result.message}
      </span>
    </p>
  );
}

export function DomainRow({ domain, view, now, intervalSeconds, result }: DomainRowProps) {
  const ip = domain.last_known_ip;
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
      {ip === null ? <span class="muted">—</span> : <code safe>{ip}</code>}
    </td>
  );
  const status = (
    <td data-label="Status" class="cell-status">
      <DomainStatus domain={domain} />
      {result ? <Result result={result} /> : ""}
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
          <TimeAgo at={domain.next_run_at} now={now} />
        </td>
        <td class="cell-actions">
          <UpdateButton domain={domain} view={view} />
        </td>
      </tr>
    );
  }

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
          next <TimeAgo at={domain.next_run_at} now={now} />
        </div>
      </td>
      <td data-label="Enabled">
        <EnabledSwitch
          url={`/domains/${domain.id}/enabled`}
          enabled={domain.is_enabled}
          label={`Updates for ${domain.domain_name}`}
          target={`#${domainRowId(domain.id)}`}
        />
      </td>
      <td class="cell-actions">
        <div class="actions">
          <UpdateButton domain={domain} view={view} />
          <a class="button button-small button-quiet" href={`/domains/${domain.id}/edit`}>
            Edit
          </a>
          <a class="button button-small button-quiet" href={`/domains/${domain.id}/history`}>
            History
          </a>
          <form
            method="post"
            action={`/domains/${domain.id}/delete`}
            hx-confirm={`Delete ${domain.domain_name} (${domain.record_type}) and its history? The DNS record at the provider is left as it is.`}
          >
            <button type="submit" class="button button-small button-danger">
              Delete
            </button>
          </form>
        </div>
      </td>
    </tr>
  );
}
