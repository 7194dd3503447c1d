// A domain's update history, newest first and paged, beside the timeline of the addresses its
// record has held.

import { Html } from "@elysiajs/html";
import type { DomainView, HistoryView, IpPeriod } from "../../src/modules/domains/service";
import type { HistoryFailureCause } from "../../src/store/rows";
import {
  Badge,
  DomainStatus,
  failureExplained,
  Ip,
  Pager,
  TimeAgo,
  UPDATABLE,
  type UpdateConditions,
} from "../components";
import { duration, fullTime, millis, plural, shortTime } from "../format";
import { serviceLabel } from "../fragments/credential-field";
import { attemptResult, NextRun, ScheduleWords, updateSentence } from "../fragments/domain-row";
import { PropagationMark } from "../fragments/propagation-mark";
import { Layout, PageHeader } from "../layout";

/** A history row with its failure's cause (kept for the pages; the API's answer has none). */
export type HistoryRowView = HistoryView & { failure_cause: HistoryFailureCause | null };

export interface HistoryPageProps {
  user: string;
  now: number;
  intervalSeconds: number;
  domain: DomainView;
  /** What the domain's updates depend on (its provider, its address's detection). */
  conditions?: UpdateConditions;
  rows: HistoryRowView[];
  timeline: IpPeriod[];
  /** 1-based. */
  page: number;
  pages: number;
  total: number;
}

/** What started an update, in words: a router pushing its address is not the schedule. */
const TRIGGER_LABELS: Record<HistoryView["trigger"], string> = {
  manual: "Manual",
  schedule: "Schedule",
  push: "Router push",
  repair: "Repair (changed outside ddnsd)",
  refresh: "Refresh (kept alive)",
};

function Timeline({ periods, now }: { periods: IpPeriod[]; now: number }) {
  if (periods.length === 0) return <p class="empty">No address written yet.</p>;
  return (
    <ol class="timeline">
      {periods.map((period) => {
        const from = Date.parse(period.from);
        const until = period.until === null ? now : Date.parse(period.until);
        return (
          <li class={["timeline-item", period.until === null && "timeline-current"]}>
            <span class="timeline-ip">
              <Ip ip={period.ip} />
            </span>
            <span class="timeline-when">
              <time datetime={period.from} title={fullTime(from)}>
                {shortTime(from, now)}
              </time>
              {period.until === null ? " → now" : ` → ${shortTime(until, now)}`}
              <span class="muted"> · {duration((until - from) / 1000)}</span>
            </span>
            {period.until === null ? <Badge tone="ok">current</Badge> : ""}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * A history row in a sentence a person reads; the stored message (the provider's own words, record
 * ids and all) is the detail under it.
 */
function historySentence(
  row: Pick<HistoryRowView, "status" | "ip_address" | "previous_ip" | "message" | "failure_cause">,
  providerName = "the provider",
  serviceLabel?: string,
): string {
  if (row.status === "FAILED") {
    if (row.failure_cause !== null)
      return `Failed: ${failureExplained(row.failure_cause, providerName, row.message, serviceLabel).said}.`;
    // A row from before causes were kept.
    if (row.ip_address === null) return "Failed: the public address could not be detected, or the update was refused.";
    return "Failed: the provider did not accept the update.";
  }
  if (row.previous_ip !== null && row.previous_ip !== row.ip_address) return `Changed to ${row.ip_address}.`;
  if (row.previous_ip === null) return `Set to ${row.ip_address}.`;
  return "Already up to date.";
}

export function HistoryPage(props: HistoryPageProps) {
  const { domain, now } = props;
  const conditions = props.conditions ?? UPDATABLE;
  // A failure's cause in the service's words and the next step, as the domain's row says it.
  const attempt = attemptResult(domain, conditions, now);
  const failure = attempt !== null && !attempt.ok ? attempt : null;
  return (
    <Layout title={`History of ${domain.domain_name}`} user={props.user} section="domains">
      <PageHeader title={domain.domain_name}>
        <a class="button button-quiet" href={`/domains/${domain.id}/edit`}>
          Edit
        </a>
        <a class="button button-quiet" href="/domains">
          All domains
        </a>
      </PageHeader>
      <section class="card summary">
        <dl class="facts">
          <div>
            <dt>Record</dt>
            <dd>
              <Badge tone="idle">{domain.record_type}</Badge> at <span safe>{domain.provider_name}</span>
            </dd>
          </div>
          <div>
            <dt>Address</dt>
            <dd>
              <Ip ip={domain.last_known_ip} />
            </dd>
          </div>
          <div>
            <dt>Name servers</dt>
            <dd>
              <PropagationMark propagation={domain.propagation} full />
            </dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>
              <DomainStatus domain={domain} conditions={conditions} explained={failure !== null} />
              {failure ? (
                <p class="update-result update-result-fail" safe>
                  {updateSentence(
                    failure,
                    domain.provider_name,
                    conditions.providerType === undefined ? undefined : serviceLabel(conditions.providerType),
                  )}
                </p>
              ) : (
                ""
              )}
            </dd>
          </div>
          <div>
            <dt>Schedule</dt>
            <dd>
              <ScheduleWords cron={domain.cron_schedule} intervalSeconds={props.intervalSeconds} />
            </dd>
          </div>
          <div>
            <dt>Last checked</dt>
            <dd>
              <TimeAgo at={domain.last_checked_at} now={now} />
            </dd>
          </div>
          <div>
            <dt>Next run</dt>
            <dd>
              <NextRun domain={domain} conditions={props.conditions ?? UPDATABLE} now={now} />
            </dd>
          </div>
        </dl>
      </section>
      <div class="history-grid">
        <section class="card" aria-labelledby="timeline-title">
          <h2 id="timeline-title" class="card-title">
            Addresses held
          </h2>
          <Timeline periods={props.timeline} now={now} />
        </section>
        <section class="card" aria-labelledby="updates-title">
          <div class="card-header">
            <h2 id="updates-title" class="card-title">
              Updates
            </h2>
            <span class="muted small">{plural(props.total, "update")}, newest first</span>
          </div>
          {props.rows.length === 0 ? (
            <p class="empty">
              No updates yet. The first one runs shortly after the domain is added, or use “Update now”.
            </p>
          ) : (
            <div class="table-wrap">
              <table class="table responsive history-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Status</th>
                    <th scope="col">IP address</th>
                    <th scope="col">Previous</th>
                    <th scope="col">Trigger</th>
                    <th scope="col">Took</th>
                    <th scope="col">What happened</th>
                  </tr>
                </thead>
                <tbody>
                  {props.rows.map((row) => (
                    <tr>
                      <td data-label="When" class="nowrap">
                        <time datetime={row.timestamp} title={fullTime(Date.parse(row.timestamp))}>
                          {shortTime(Date.parse(row.timestamp), now)}
                        </time>
                        {row.repeat_count > 1 && row.first_timestamp !== null ? (
                          <div class="muted small repeat-note">
                            {row.repeat_count} times since{" "}
                            <time datetime={row.first_timestamp} title={fullTime(Date.parse(row.first_timestamp))}>
                              {shortTime(Date.parse(row.first_timestamp), now)}
                            </time>
                          </div>
                        ) : (
                          ""
                        )}
                      </td>
                      <td data-label="Status">
                        <Badge tone={row.status === "SUCCESS" ? "ok" : "fail"}>
                          {row.status === "SUCCESS" ? "Success" : "Failed"}
                        </Badge>
                      </td>
                      <td data-label="IP address">
                        <Ip ip={row.ip_address} />
                      </td>
                      <td data-label="Previous">
                        <Ip ip={row.previous_ip} />
                      </td>
                      <td data-label="Trigger">{TRIGGER_LABELS[row.trigger]}</td>
                      <td data-label="Took" class="nowrap">
                        {millis(row.duration_ms)}
                      </td>
                      <td data-label="What happened" class="cell-message">
                        <details>
                          <summary safe>
                            {historySentence(
                              row,
                              domain.provider_name,
                              props.conditions?.providerType === undefined
                                ? undefined
                                : serviceLabel(props.conditions.providerType),
                            )}
                          </summary>
                          <p class="muted small" safe>
                            {row.message}
                          </p>
                        </details>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pager
            label="History pages"
            page={props.page}
            pages={props.pages}
            href={(p) => `/domains/${domain.id}/history?page=${p}`}
            previous="← Newer"
            next="Older →"
          />
        </section>
      </div>
    </Layout>
  );
}
