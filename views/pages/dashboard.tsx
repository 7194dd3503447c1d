// The dashboard: first steps while there is nothing to watch; then the answer to "is everything
// OK?", the public address, the figures of the last day, two charts and every domain with its state
// and an "Update now" button.
// Everything below the heading refreshes itself (LiveRegion), with the time it is from.

import { Html } from "@elysiajs/html";
import type { DetectionFailure } from "../../src/ip/detect";
import type { PublicIpState } from "../../src/ip/public-ip";
import type { DomainView } from "../../src/modules/domains/service";
import type { DailyIpChanges, DashboardMetrics, HourlyUpdates } from "../../src/modules/metrics/service";
import {
  domainStatus,
  type Flash,
  Ip,
  LiveRegion,
  sortDomains,
  TimeAgo,
  UPDATABLE,
  type UpdateConditions,
} from "../components";
import { type BoxProblem, BoxProblemsBanner, boxProblems } from "../fragments/box-problems";
import { IpChangesChart, UpdatesChart } from "../fragments/charts";
import { DomainRow } from "../fragments/domain-row";
import { type ShownAnswer, SourceAnswers } from "../fragments/source-answers";
import type { SourceMarkContext } from "../fragments/source-mark";
import { msg } from "../i18n";
import { Layout, PageHeader } from "../layout";

/** Without JavaScript the dashboard reloads itself this often. */
const NO_SCRIPT_REFRESH_SECONDS = 60;

export interface DashboardPageProps {
  user: string;
  flash?: Flash | null;
  now: number;
  publicIp: PublicIpState;
  metrics: DashboardMetrics;
  scheduler: "running" | "stopped";
  lastCheckAt: string | null;
  hourly: HourlyUpdates[];
  daily: DailyIpChanges[];
  domains: DomainView[];
  /** What each domain's updates depend on (its provider, its address's detection). */
  conditions?: (domain: DomainView) => UpdateConditions;
  intervalSeconds: number;
  /** Each address source asked so far with its own newest answer (the address card). */
  answers?: ShownAnswer[];
  /** The system's sources and DDNS_PUSH_STALE_AFTER: each domain row says where its address comes from. */
  sources?: SourceMarkContext;
}

function Stat({
  label,
  value,
  detail,
  tone,
}: {
  label: string;
  value: string;
  detail?: JSX.Element;
  tone?: "ok" | "fail";
}) {
  return (
    <div class={["card stat", tone && `stat-${tone}`]}>
      <div class="stat-label">{label}</div>
      <div class="stat-value">{value}</div>
      {detail ? <div class="stat-detail">{detail}</div> : ""}
    </div>
  );
}

function Address({
  family,
  ip,
  checked,
  failure,
  banner,
}: {
  family: string;
  ip: string | null;
  checked: boolean;
  failure: DetectionFailure | null;
  /** The banner's problem that says this failure: the card links to it rather than saying it again. */
  banner?: BoxProblem;
}) {
  return (
    <div class={["address", failure && "address-failing"]}>
      <span class="address-family">{family}</span>
      {ip !== null ? (
        <span class="address-value">
          <Ip ip={ip} />
          {failure ? <span class="muted small"> {msg().dashboard.lastDetected}</span> : ""}
        </span>
      ) : (
        <span class="muted">
          {failure !== null && banner !== undefined ? (
            msg().dashboard.notFoundSeeAbove((text) => `<a href="#${banner.id}">${text}</a>`)
          ) : failure !== null ? (
            <span safe>{msg().dashboard.notFound(failure.error)}</span>
          ) : checked ? (
            msg().dashboard.noneFound
          ) : (
            msg().dashboard.detecting
          )}
        </span>
      )}
    </div>
  );
}

/** What to do first, in order, with the steps already done ticked. */
function FirstSteps({ providers }: { providers: number }) {
  const words = msg().dashboard;
  return (
    <section class="card first-steps" aria-labelledby="first-steps-title">
      <h2 id="first-steps-title" class="card-title">
        {words.firstSteps}
      </h2>
      <ol class="steps">
        <li class={providers > 0 ? "step-done" : undefined}>
          {providers > 0
            ? words.providerAdded(providers)
            : words.addProvider((text) => `<a href="/providers/new">${text}</a>`)}
        </li>
        <li>{words.addDomain((text) => `<a href="/domains/new">${text}</a>`)}</li>
        <li>{words.watch}</li>
      </ol>
    </section>
  );
}

/**
 * The answer to "is everything OK?", first on the page: how many records are OK of those ddnsd
 * keeps, and how many need a person (failing), leading to them; records waiting for an address or
 * a first update are said apart, as they need no one yet.
 */
function AtAGlance({
  domains,
  conditions,
}: {
  domains: DomainView[];
  conditions: (domain: DomainView) => UpdateConditions;
}) {
  const counts = { ok: 0, failed: 0, waiting: 0, kept: 0 };
  for (const domain of domains) {
    const key = domainStatus(domain, conditions(domain)).key;
    if (key === "disabled") continue;
    counts.kept++;
    if (key === "ok") counts.ok++;
    else if (key === "failed") counts.failed++;
    else counts.waiting++;
  }
  const tone = counts.failed > 0 ? "fail" : counts.waiting > 0 ? "info" : "ok";
  const words = msg().dashboard;
  const headline =
    counts.kept === 0
      ? words.noneOn
      : counts.ok === counts.kept
        ? counts.kept === 1
          ? words.theOneOk
          : words.allOk(counts.kept)
        : words.someOk(counts.ok, counts.kept);
  return (
    <p class={["at-a-glance", `at-a-glance-${tone}`]} id="at-a-glance">
      <strong>{headline}</strong>
      {counts.failed > 0 ? (
        <>
          {" · "}
          <a href="/domains?status=failed">{words.needYou(counts.failed)}</a>
        </>
      ) : (
        ""
      )}
      {counts.waiting > 0 ? ` · ${words.waiting(counts.waiting)}` : ""}
    </p>
  );
}

/** Up to this many domains the dashboard lists them all; beyond, only those that need a person. */
const DASHBOARD_LISTS_ALL_UP_TO = 10;

/**
 * The domains the dashboard lists, and how many of the others it sums up: a long list keeps only
 * the domains that need a person (failing, not checked, never tried), so the page stays short on a
 * phone; the fine and the switched-off ones are a line leading to the Domains page.
 */
function foldHealthy(
  domains: DomainView[],
  conditions: (domain: DomainView) => UpdateConditions,
): { shown: DomainView[]; folded: { total: number; ok: number; disabled: number } } {
  if (domains.length <= DASHBOARD_LISTS_ALL_UP_TO) return { shown: domains, folded: { total: 0, ok: 0, disabled: 0 } };
  const shown: DomainView[] = [];
  const folded = { total: 0, ok: 0, disabled: 0 };
  for (const domain of domains) {
    const key = domainStatus(domain, conditions(domain)).key;
    if (key === "ok" || key === "disabled") {
      folded[key]++;
      folded.total++;
    } else shown.push(domain);
  }
  return { shown, folded };
}

function FoldedSummary({
  folded,
  all,
  shown,
}: {
  folded: { total: number; ok: number; disabled: number };
  all: number;
  shown: number;
}) {
  const words = msg().dashboard;
  const parts = [
    folded.ok > 0 ? words.foldedOk(folded.ok) : "",
    folded.disabled > 0 ? words.foldedOff(folded.disabled) : "",
  ];
  const head = shown === 0 ? words.noneNeeding(all) : words.moreDomains(folded.total);
  return (
    <p class="folded-summary">
      {words.folded(head, parts.filter(Boolean))}
      <a href="/domains">{words.seeAll(all)}</a>
    </p>
  );
}

export function DashboardPage(props: DashboardPageProps) {
  const { metrics, now } = props;
  const rate = metrics.success_rate_24h;
  const empty = props.domains.length === 0;
  const checked = props.publicIp.checkedAt !== null;
  const { failures } = props.publicIp;
  const needed = (family: "A" | "AAAA", ip: string | null) =>
    ip !== null || props.domains.some((d) => d.record_type === family && d.is_enabled);
  const v4Failure = failures.ipv4 !== null && needed("A", props.publicIp.ipv4) ? failures.ipv4 : null;
  const v6Failure = failures.ipv6 !== null && needed("AAAA", props.publicIp.ipv6) ? failures.ipv6 : null;
  const conditions = props.conditions ?? (() => UPDATABLE);
  // Failing first: what needs a person is at the top however many domains there are.
  const domains = sortDomains(props.domains, "status", conditions);
  const failingNow = domains.filter((domain) => domainStatus(domain, conditions(domain)).key === "failed").length;
  const { shown, folded } = foldHealthy(domains, conditions);
  // The card's failures (a family needed, or no address at all) are the box's, said once in the banner.
  const shownV4Failure = v4Failure ?? (props.publicIp.ipv4 === null ? failures.ipv4 : null);
  const box = boxProblems(
    domains,
    conditions,
    [shownV4Failure, v6Failure].filter((failure) => failure !== null),
  );
  const words = msg().dashboard;
  const table = msg().domains;
  const bannerOf = (failure: DetectionFailure | null) =>
    failure === null ? undefined : box.problems.find((problem) => problem.key === failure.error);
  return (
    <Layout
      title={msg().nav.dashboard}
      user={props.user}
      section="dashboard"
      flash={props.flash}
      refreshSeconds={NO_SCRIPT_REFRESH_SECONDS}
    >
      <PageHeader title={msg().nav.dashboard} />
      {empty ? <FirstSteps providers={metrics.total_providers} /> : ""}

      <LiveRegion id="dashboard-live" url="/" now={now}>
        {empty ? "" : <AtAGlance domains={domains} conditions={conditions} />}
        <BoxProblemsBanner box={box} now={now} />
        <section class="card public-ip" aria-labelledby="public-ip-title">
          <h2 id="public-ip-title" class="card-title">
            {words.publicAddress}
          </h2>
          <div class="addresses">
            <Address
              family="IPv4"
              ip={props.publicIp.ipv4}
              checked={checked}
              failure={shownV4Failure}
              banner={bannerOf(shownV4Failure)}
            />
            <Address
              family="IPv6"
              ip={props.publicIp.ipv6}
              checked={checked}
              failure={v6Failure}
              banner={bannerOf(v6Failure)}
            />
          </div>
          <SourceAnswers answers={props.answers ?? []} now={now} />
          <p class="muted small">{words.checked(String(<TimeAgo at={props.publicIp.checkedAt} now={now} />))}</p>
        </section>

        {empty ? (
          ""
        ) : (
          <>
            <section class="stats" aria-label={words.figures}>
              <Stat
                label={msg().common.domains}
                value={String(metrics.total_domains)}
                detail={words.active(metrics.active_domains)}
              />
              <Stat
                label={words.attemptsOk}
                value={rate === null ? "—" : `${rate}%`}
                detail={words.attemptsDetail(
                  metrics.total_updates_24h - metrics.failed_updates_24h,
                  metrics.total_updates_24h,
                )}
                // Retries that later succeeded lower the rate without anything failing now: red only when a domain is failing.
                tone={rate === null ? undefined : rate >= 95 ? "ok" : failingNow > 0 ? "fail" : undefined}
              />
              <Stat
                label={words.failedUpdates}
                value={String(metrics.failed_updates_24h)}
                tone={metrics.failed_updates_24h > 0 ? "fail" : undefined}
                detail={
                  failingNow > 0 ? (
                    <a href="/domains?status=failed">{words.failingNow(failingNow)}</a>
                  ) : metrics.failed_updates_24h > 0 ? (
                    words.noneFailingNow
                  ) : undefined
                }
              />
              <Stat
                label={words.activeProviders}
                value={String(metrics.active_providers)}
                detail={words.ofTotal(metrics.total_providers)}
              />
              <Stat
                label={words.scheduler}
                value={props.scheduler === "running" ? words.running : words.stopped}
                tone={props.scheduler === "running" ? "ok" : "fail"}
                detail={words.lastCheck(String(<TimeAgo at={props.lastCheckAt} now={now} />))}
              />
            </section>

            <section class="charts">
              <div class="card">
                <h2 class="card-title">{words.updatesPerHour}</h2>
                <UpdatesChart hours={props.hourly} />
              </div>
              <div class="card">
                <h2 class="card-title">{words.changesPerDay}</h2>
                <IpChangesChart days={props.daily} />
              </div>
            </section>

            <section class="card" aria-labelledby="domains-title">
              <div class="card-header">
                <h2 id="domains-title" class="card-title">
                  {msg().common.domains}
                </h2>
                <a class="button button-small button-quiet" href="/domains/new">
                  {table.add}
                </a>
              </div>
              {shown.length === 0 ? (
                ""
              ) : (
                <div class="table-wrap">
                  <table class="table responsive domain-table">
                    <thead>
                      <tr>
                        <th scope="col">{table.domain}</th>
                        <th scope="col">{table.ipAddress}</th>
                        <th scope="col">{table.status}</th>
                        <th scope="col">{words.lastChange}</th>
                        <th scope="col">{words.nextRun}</th>
                        <th scope="col">
                          <span class="visually-hidden">{msg().common.actions}</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((domain) => (
                        <DomainRow
                          domain={domain}
                          view="dashboard"
                          now={now}
                          intervalSeconds={props.intervalSeconds}
                          conditions={conditions(domain)}
                          sources={props.sources}
                          box={box}
                        />
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              {folded.total > 0 ? <FoldedSummary folded={folded} all={domains.length} shown={shown.length} /> : ""}
            </section>
          </>
        )}
      </LiveRegion>
    </Layout>
  );
}
