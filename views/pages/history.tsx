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
  LocalTime,
  Pager,
  TimeAgo,
  UPDATABLE,
  type UpdateConditions,
} from "../components";
import { duration, millis } from "../format";
import { serviceLabel } from "../fragments/credential-field";
import { attemptResult, NextRun, ScheduleWords, updateSentence } from "../fragments/domain-row";
import { PropagationMark } from "../fragments/propagation-mark";
import { msg } from "../i18n";
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

function Timeline({ periods, now }: { periods: IpPeriod[]; now: number }) {
  const words = msg().history;
  if (periods.length === 0) return <p class="empty">{words.noAddress}</p>;
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
              <LocalTime at={from} />
              {period.until === null ? (
                words.untilNow
              ) : (
                <>
                  {" "}
                  → <LocalTime at={until} />
                </>
              )}
              <span class="muted"> · {duration((until - from) / 1000)}</span>
            </span>
            {period.until === null ? <Badge tone="ok">{words.current}</Badge> : ""}
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
  providerName = msg().history.theProvider,
  serviceLabel?: string,
): string {
  const words = msg().history;
  if (row.status === "FAILED") {
    if (row.failure_cause !== null)
      return words.failed(failureExplained(row.failure_cause, providerName, row.message, serviceLabel).said);
    // A row from before causes were kept.
    if (row.ip_address === null) return words.failedOld;
    return words.failedRefused;
  }
  if (row.previous_ip !== null && row.previous_ip !== row.ip_address) return words.changedTo(String(row.ip_address));
  if (row.previous_ip === null) return words.setTo(String(row.ip_address));
  return words.upToDate;
}

export function HistoryPage(props: HistoryPageProps) {
  const { domain, now } = props;
  const conditions = props.conditions ?? UPDATABLE;
  // A failure's cause in the service's words and the next step, as the domain's row says it.
  const attempt = attemptResult(domain, conditions, now);
  const failure = attempt !== null && !attempt.ok ? attempt : null;
  const words = msg().history;
  return (
    <Layout title={words.title(domain.domain_name)} user={props.user} section="domains">
      <PageHeader title={domain.domain_name}>
        <a class="button button-quiet" href={`/domains/${domain.id}/edit`}>
          {msg().common.edit}
        </a>
        <a class="button button-quiet" href="/domains">
          {msg().common.allDomains}
        </a>
      </PageHeader>
      <section class="card summary">
        <dl class="facts">
          <div>
            <dt>{words.record}</dt>
            <dd>
              {words.recordAt(
                String(<Badge tone="idle">{domain.record_type}</Badge>),
                String(<span safe>{domain.provider_name}</span>),
              )}
            </dd>
          </div>
          <div>
            <dt>{words.address}</dt>
            <dd>
              <Ip ip={domain.last_known_ip} />
            </dd>
          </div>
          <div>
            <dt>{words.nameServers}</dt>
            <dd>
              <PropagationMark propagation={domain.propagation} full />
            </dd>
          </div>
          <div>
            <dt>{words.status}</dt>
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
            <dt>{words.schedule2}</dt>
            <dd>
              <ScheduleWords cron={domain.cron_schedule} intervalSeconds={props.intervalSeconds} />
            </dd>
          </div>
          <div>
            <dt>{words.lastChecked}</dt>
            <dd>
              <TimeAgo at={domain.last_checked_at} now={now} />
            </dd>
          </div>
          <div>
            <dt>{words.nextRun}</dt>
            <dd>
              <NextRun domain={domain} conditions={props.conditions ?? UPDATABLE} now={now} />
            </dd>
          </div>
        </dl>
      </section>
      <div class="history-grid">
        <section class="card" aria-labelledby="timeline-title">
          <h2 id="timeline-title" class="card-title">
            {words.held}
          </h2>
          <Timeline periods={props.timeline} now={now} />
        </section>
        <section class="card" aria-labelledby="updates-title">
          <div class="card-header">
            <h2 id="updates-title" class="card-title">
              {words.updates}
            </h2>
            <span class="muted small">{words.count(props.total)}</span>
          </div>
          {props.rows.length === 0 ? (
            <p class="empty">{words.empty}</p>
          ) : (
            <div class="table-wrap">
              <table class="table responsive history-table">
                <thead>
                  <tr>
                    <th scope="col">{words.when}</th>
                    <th scope="col">{words.status}</th>
                    <th scope="col">{words.ipAddress}</th>
                    <th scope="col">{words.previous}</th>
                    <th scope="col">{words.trigger}</th>
                    <th scope="col">{words.took}</th>
                    <th scope="col">{words.what}</th>
                  </tr>
                </thead>
                <tbody>
                  {props.rows.map((row) => (
                    <tr>
                      <td data-label={words.when} class="nowrap">
                        <LocalTime at={Date.parse(row.timestamp)} seconds />
                        {row.repeat_count > 1 && row.first_timestamp !== null ? (
                          <div class="muted small repeat-note">
                            {words.times(row.repeat_count)} <LocalTime at={Date.parse(row.first_timestamp)} seconds />
                          </div>
                        ) : (
                          ""
                        )}
                      </td>
                      <td data-label={words.status}>
                        <Badge tone={row.status === "SUCCESS" ? "ok" : "fail"}>
                          {row.status === "SUCCESS" ? words.success : words.failedBadge}
                        </Badge>
                      </td>
                      <td data-label={words.ipAddress}>
                        <Ip ip={row.ip_address} />
                      </td>
                      <td data-label={words.previous}>
                        <Ip ip={row.previous_ip} />
                      </td>
                      <td data-label={words.trigger}>{words[row.trigger]}</td>
                      <td data-label={words.took} class="nowrap">
                        {millis(row.duration_ms)}
                      </td>
                      <td data-label={words.what} class="cell-message">
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
                          {/* The updater's and the service's own words, in English as the API keeps them. */}
                          <p class="muted small" lang="en" safe>
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
            label={words.pages}
            page={props.page}
            pages={props.pages}
            href={(p) => `/domains/${domain.id}/history?page=${p}`}
            previous={words.newer}
            next={words.older}
          />
        </section>
      </div>
    </Layout>
  );
}
