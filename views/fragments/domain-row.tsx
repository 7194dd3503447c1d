// One domain as a table row, on the dashboard (state at a glance) or in the domain list (with its
// controls). "Update now" and the on/off switch are real forms; htmx swaps the row for a fresh one
// (the new address, status and next run at once, the outcome under the status), and without
// JavaScript they come back to the page with the outcome as a notice. Every control's accessible
// name says which domain and record type it acts on, and its id keeps focus on it after a swap.

import { Html } from "@elysiajs/html";
import type { DomainView } from "../../src/modules/domains/service";
import type { HistoryFailureCause } from "../../src/store/rows";
import {
  ActionForm,
  Badge,
  DeleteForm,
  DomainStatus,
  detectionAdvice,
  EnabledSwitch,
  failureExplained,
  Ip,
  sentence,
  TimeAgo,
  UPDATABLE,
  type UpdateConditions,
} from "../components";
import { every, millis } from "../format";
import { msg } from "../i18n";
import { type BoxProblems, NO_BOX_PROBLEMS, SeeAbove } from "./box-problems";
import { serviceLabel } from "./credential-field";
import { PropagationMark } from "./propagation-mark";
import { SourceMark, type SourceMarkContext } from "./source-mark";

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
      /** How many attempts in a row failed the same way, and since when (from its history row). */
      count?: number;
      firstAt?: number | null;
    };

/** How long after "Update now" its outcome stays in the row when it went well (a failure stays until the next attempt). */
const MANUAL_RESULT_KEPT_MS = 15 * 60_000;

/**
 * What the row says under the status, from the domain's newest attempt (its history row), so the
 * list's refresh shows what "Update now" showed: a failure's cause and next step until the next
 * attempt, and a manual update's outcome for a while. Nothing for a disabled domain.
 */
export function attemptResult(
  domain: Pick<DomainView, "is_enabled">,
  conditions: UpdateConditions,
  now: number,
): UpdateResult | null {
  const latest = conditions.latest;
  if (!latest || !domain.is_enabled || !conditions.providerEnabled) return null;
  if (latest.ok) {
    if (latest.trigger !== "manual" || now - latest.at > MANUAL_RESULT_KEPT_MS) return null;
    return {
      ok: true,
      changed: latest.previousIp !== latest.ip,
      ip: latest.ip,
      previousIp: latest.previousIp,
      durationMs: latest.durationMs,
    };
  }
  if (latest.cause === "disabled") return null;
  return {
    ok: false,
    failure: latest.cause === "detection" ? "detection" : "provider",
    cause: latest.cause,
    detail: latest.message,
    count: latest.count,
    firstAt: latest.firstAt,
  };
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
  /** Just added or saved: marked, and scrolled to (client.js; without it the address's #fragment). */
  landed?: boolean;
  /** Its Delete takes focus: the row after one just deleted in place. */
  focusDelete?: boolean;
  /** The appliance's problems the page's banner says: a row they cover links there instead of repeating them. */
  box?: BoxProblems;
}

/** The domain list's element (a Delete answers with it) and its filters' form (a Delete carries them along). */
export const DOMAIN_LIST_ID = "domain-list";
export const DOMAIN_FILTERS_ID = "domain-filters";
/** The hidden field carrying the list's page, which a row's Delete sends with the filters. */
export const DOMAIN_PAGE_FIELD_ID = "domain-list-page";

function domainRowId(id: number): string {
  return `domain-${id}`;
}

/** "home.example.com (A)": how a control names the record it acts on. */
export function recordName(domain: Pick<DomainView, "domain_name" | "record_type">): string {
  return `${domain.domain_name} (${domain.record_type})`;
}

/**
 * The update's outcome as a sentence a person reads: a failure by its cause, in the service's own
 * words (`serviceLabel`: the name its messages start with), and what to do next; the provider's
 * own record ids and TTLs stay in the history's detail.
 */
export function updateSentence(result: UpdateResult, providerName: string, serviceLabel?: string): string {
  const words = msg().domainRow;
  if (result.ok) {
    if (result.changed) return words.nowPointsAt(result.ip, result.previousIp);
    return words.alreadyPointed(result.ip);
  }
  // The echo services' own answers are on the dashboard's address card, not in every row.
  if (result.failure === "detection") return words.notDetected(detectionAdvice(result.detail));
  if (result.failure === "provider") {
    const { said, next } = failureExplained(result.cause, providerName, result.detail, serviceLabel);
    return words.saidNext(sentence(said, providerName), next);
  }
  return /[.!?]$/.test(result.detail) ? result.detail : `${result.detail}.`;
}

export function ScheduleWords({ cron, intervalSeconds }: { cron: string | null; intervalSeconds: number }) {
  if (cron === null)
    return (
      <span class="muted">
        {every(intervalSeconds)}
        <span class="schedule-default"> {msg().domainRow.byDefault}</span>
      </span>
    );
  return <code safe>{cron}</code>;
}

function UpdateButton({
  domain,
  view,
  providerEnabled,
}: {
  domain: DomainView;
  view: DomainRowView;
  providerEnabled: boolean;
}) {
  const updatable = domain.is_enabled && providerEnabled;
  const words = msg().domainRow;
  return (
    <ActionForm url={`/domains/${domain.id}/update`} target={`#${domainRowId(domain.id)}`} fields={{ view }}>
      <button
        type="submit"
        id={`update-${domain.id}`}
        class="button button-small"
        disabled={!updatable}
        aria-label={words.updateNowName(recordName(domain))}
        title={updatable ? words.updateTitle : domain.is_enabled ? words.enableProvider : words.enableDomain}
      >
        {words.updateNow}
      </button>
    </ActionForm>
  );
}

function Result({
  result,
  domain,
  now,
  serviceLabel,
  fresh,
}: {
  result: UpdateResult;
  domain: DomainView;
  now: number;
  serviceLabel?: string;
  /** The answer to "Update now" just pressed, not the newest attempt read back (a phone hides that one when it went well). */
  fresh: boolean;
}) {
  const repeated = !result.ok && result.count !== undefined && result.count > 1;
  const words = msg().domainRow;
  return (
    <p
      class={["update-result", result.ok ? "update-result-ok" : "update-result-fail", !fresh && "update-result-past"]}
      role="status"
    >
      <span safe>{updateSentence(result, domain.provider_name, serviceLabel)}</span>
      {result.ok ? <span class="muted"> ({millis(result.durationMs)})</span> : ""}
      {repeated ? (
        <span class="muted small repeat-note">
          {" "}
          {!result.ok && result.firstAt
            ? words.repeatedSince(result.count!, String(<TimeAgo at={result.firstAt} now={now} />))
            : words.repeated(result.count!)}
        </span>
      ) : (
        ""
      )}
      {!result.ok && result.failure === "provider" && result.cause === "credentials" ? (
        <>
          {" "}
          <a href={`/providers/${domain.provider_id}/edit`}>{words.editProvider}</a>
        </>
      ) : (
        ""
      )}
      {!result.ok && result.failure === "provider" && result.cause === "refused" ? (
        <>
          {" "}
          <a href={`/domains/${domain.id}/edit`} aria-label={words.editDomainName(recordName(domain))}>
            {words.editDomain}
          </a>
        </>
      ) : (
        ""
      )}
      {!result.ok && (result.failure === "provider" || result.failure === "detection") ? (
        <>
          {" "}
          <a href={`/domains/${domain.id}/history`} aria-label={words.seeHistoryName(recordName(domain))}>
            {words.seeHistory}
          </a>
        </>
      ) : (
        ""
      )}
    </p>
  );
}

/** When the domain is next updated: never while it or its provider is disabled, whatever time is stored. */
export function NextRun({
  domain,
  conditions,
  now,
  prefix = "",
}: {
  domain: DomainView;
  conditions: UpdateConditions;
  now: number;
  prefix?: string;
}) {
  const words = msg().domainRow;
  if (!domain.is_enabled) return <span class="muted">{words.notScheduledDisabled}</span>;
  if (!conditions.providerEnabled) return <span class="muted">{words.notScheduledProvider}</span>;
  // A push-only record is written when its router pushes, never on a schedule.
  if (domain.address_source === "push")
    return (
      <>
        {words.onPush}{" "}
        {domain.pushed_at === null ? (
          <span class="muted">{words.noPushYet}</span>
        ) : (
          <TimeAgo at={domain.pushed_at} now={now} />
        )}
      </>
    );
  return (
    <>
      {prefix}
      <TimeAgo at={domain.next_run_at} now={now} />
    </>
  );
}

export function DomainRow({
  domain,
  view,
  now,
  intervalSeconds,
  conditions = UPDATABLE,
  result,
  sources,
  landed = false,
  focusDelete = false,
  box = NO_BOX_PROBLEMS,
}: DomainRowProps) {
  const words = msg().domainRow;
  const table = msg().domains;
  const name = (
    <td data-label={table.domain} class="cell-domain">
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
    <td data-label={table.ipAddress} class="cell-ip">
      <Ip ip={domain.last_known_ip} />
      {sources ? <SourceMark domain={domain} context={sources} /> : ""}
    </td>
  );
  // What "Update now" answered, or else the newest attempt as its history row keeps it: the same
  // words either way, so the list's refresh keeps them.
  // A detection failure the banner explains is said there once; a just-pressed "Update now" keeps its answer.
  const notDetected = result == null ? box.detection.get(domain.id) : undefined;
  const newest = result ?? attemptResult(domain, conditions, now);
  const shown = notDetected && newest !== null && !newest.ok && newest.failure === "detection" ? null : newest;
  const liveCheck = box.liveCheck.get(domain.id);
  const label = conditions.providerType === undefined ? undefined : serviceLabel(conditions.providerType);
  const status = (
    <td data-label={table.status} class="cell-status">
      <DomainStatus
        domain={domain}
        conditions={conditions}
        explained={(shown !== null && !shown.ok) || notDetected !== undefined}
      />
      {notDetected ? <SeeAbove problem={notDetected} what={words.addressNotDetected} /> : ""}
      {liveCheck ? (
        <SeeAbove problem={liveCheck} what={words.liveCheckPaused} />
      ) : (
        <PropagationMark propagation={domain.propagation} />
      )}
      {shown ? <Result result={shown} domain={domain} now={now} serviceLabel={label} fresh={result != null} /> : ""}
    </td>
  );

  if (view === "dashboard") {
    return (
      <tr id={domainRowId(domain.id)}>
        {name}
        {address}
        {status}
        <td data-label={msg().dashboard.lastChange} class="cell-last">
          <TimeAgo at={domain.last_changed_at} now={now} />
        </td>
        <td data-label={msg().dashboard.nextRun} class="cell-next">
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
    <tr id={domainRowId(domain.id)} class={landed ? "row-landed" : undefined} data-landed={landed ? "" : undefined}>
      {name}
      <td data-label={table.provider} class="cell-provider" safe>
        {domain.provider_name}
      </td>
      {address}
      {status}
      <td data-label={table.schedule} class="cell-schedule">
        <ScheduleWords cron={domain.cron_schedule} intervalSeconds={intervalSeconds} />
        <div class="muted small">
          <NextRun domain={domain} conditions={conditions} now={now} prefix={`${words.nextPrefix} `} />
        </div>
      </td>
      <td data-label={table.enabled} class="cell-enabled">
        <EnabledSwitch
          url={`/domains/${domain.id}/enabled`}
          enabled={domain.is_enabled}
          label={words.updatesFor(record)}
          target={`#${domainRowId(domain.id)}`}
          id={`enabled-${domain.id}`}
        />
      </td>
      <td class="cell-actions">
        <div class="actions">
          <UpdateButton domain={domain} view={view} providerEnabled={conditions.providerEnabled} />
          <a
            class="button button-small button-quiet"
            href={`/domains/${domain.id}/edit`}
            aria-label={msg().common.editName(record)}
          >
            {msg().common.edit}
          </a>
          <a
            class="button button-small button-quiet"
            href={`/domains/${domain.id}/history`}
            aria-label={msg().history.title(record)}
          >
            {words.history}
          </a>
          <DeleteForm
            url={`/domains/${domain.id}/delete`}
            list={DOMAIN_LIST_ID}
            include={[DOMAIN_FILTERS_ID, DOMAIN_PAGE_FIELD_ID]}
            question={words.deleteQuestion(record)}
            label={msg().common.deleteName(record)}
            id={`delete-${domain.id}`}
            autofocus={focusDelete}
          />
        </div>
      </td>
    </tr>
  );
}
