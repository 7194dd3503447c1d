// The Prometheus figures (docs/api.md, prometheus), written in the text exposition format by hand: a few
// counters and one histogram do not need a client library, and none of it costs idle memory.
// Format: https://prometheus.io/docs/instrumenting/exposition_formats/ (text format 0.0.4).
// Counters live in memory and start at 0 with each process, as Prometheus expects of counters;
// the gauges are read from the database at each scrape.

import type { IpFamily } from "../../net/address";
import type { DomainQueries } from "../../store/domains";
import type { MetricsQueries } from "../../store/metrics";
import type { EventSink, RecordedUpdate } from "../../updater/events";
import { isPushStale } from "../../updater/push-stale";
import { VERSION } from "../../util/package";

/** Seconds; a provider call takes from tens of milliseconds to the whole DDNS_HTTP_TIMEOUT. */
const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const familyLabel = (family: IpFamily) => (family === 4 ? "ipv4" : "ipv6");

/** A counter or histogram series per label set, keyed by the rendered labels. */
class Series<T> {
  readonly values = new Map<string, T>();
  constructor(private readonly initial: () => T) {}
  at(labels: Record<string, string>): T {
    const key = renderLabels(labels);
    let value = this.values.get(key);
    if (value === undefined) this.values.set(key, (value = this.initial()));
    return value;
  }
}

interface Histogram {
  buckets: number[];
  sum: number;
  count: number;
}

/** What the exposition reads besides its own counters. */
export interface MetricsSources {
  /** The gauges and a provider's type, read from the database. */
  queries: Pick<MetricsQueries, "providerType" | "domainStates" | "lastSuccesses">;
  /** When the process started, ms since the epoch. */
  startedAt: number;
  /** Each record whose name servers were asked: whether every one serves its address (updater/propagation.ts). */
  served?: () => readonly { domain: string; recordType: string; served: boolean }[];
  /** The push-only records and how long one may wait for a push (DDNS_PUSH_STALE_AFTER); none when absent. */
  pushes?: { domains: Pick<DomainQueries, "pushOnly">; staleAfterSeconds: number };
}

/** The counters the update path feeds (an EventSink), and the exposition of everything. */
export class UpdateMetrics implements EventSink {
  private readonly updates = new Series(() => ({ n: 0 }));
  private readonly durations = new Series<Histogram>(() => ({
    buckets: DURATION_BUCKETS.map(() => 0),
    sum: 0,
    count: 0,
  }));
  private readonly ipChanges = new Series(() => ({ n: 0 }));
  private readonly detectionFailures = new Series(() => ({ n: 0 }));
  constructor(private readonly sources: MetricsSources) {
    // Both families are shown from the start, so a rate() over them never starts from a missing series.
    for (const family of [4, 6] as const) {
      this.ipChanges.at({ family: familyLabel(family) });
      this.detectionFailures.at({ family: familyLabel(family) });
    }
  }

  detected(family: IpFamily, detection: { ok: boolean }): void {
    if (!detection.ok) this.detectionFailures.at({ family: familyLabel(family) }).n++;
  }

  recorded({ before, outcome, trigger }: RecordedUpdate): void {
    // A detection failure (or a refused pushed address) is no update of the record.
    if (outcome.failure === "detection" || outcome.failure === "disabled") return;
    const providerType = this.providerType(before.providerId);
    this.updates.at({
      provider_type: providerType,
      result: outcome.result === "updated" ? "success" : "failure",
      trigger,
    }).n++;
    const histogram = this.durations.at({ provider_type: providerType });
    const seconds = outcome.durationMs / 1000;
    DURATION_BUCKETS.forEach((bound, i) => {
      if (seconds <= bound) histogram.buckets[i]!++;
    });
    histogram.sum += seconds;
    histogram.count++;
    if (outcome.changed) this.ipChanges.at({ family: outcome.recordType === "AAAA" ? "ipv6" : "ipv4" }).n++;
  }

  /** Read at each update: a provider without domains may change its type. */
  private providerType(providerId: number): string {
    return this.sources.queries.providerType(providerId) ?? "unknown";
  }

  /** The whole exposition. */
  render(): string {
    const lines: string[] = [];
    const family = (name: string, type: string, help: string) =>
      lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

    family("ddnsd_build_info", "gauge", "The running ddnsd build; always 1.");
    lines.push(`ddnsd_build_info${renderLabels({ version: VERSION })} 1`);

    family(
      "ddnsd_domains",
      "gauge",
      "Domains by state: ok (last write succeeded), failing, pending (never written), disabled (it or its provider).",
    );
    const states = { ok: 0, failing: 0, pending: 0, disabled: 0 };
    for (const row of this.sources.queries.domainStates()) {
      states[row.state] = row.n;
    }
    for (const [state, n] of Object.entries(states)) lines.push(`ddnsd_domains${renderLabels({ state })} ${n}`);

    family(
      "ddnsd_updates_total",
      "counter",
      "Writes to DNS services since start, by provider type, result (success, failure) and trigger (schedule, manual, push, repair, refresh).",
    );
    for (const [labels, { n }] of this.updates.values) lines.push(`ddnsd_updates_total${labels} ${n}`);

    family(
      "ddnsd_update_duration_seconds",
      "histogram",
      "Time an update took, detection and the provider's answer included.",
    );
    for (const [labels, histogram] of this.durations.values) {
      const inner = labels.slice(1, -1);
      DURATION_BUCKETS.forEach((bound, i) =>
        lines.push(`ddnsd_update_duration_seconds_bucket{${inner},le="${bound}"} ${histogram.buckets[i]}`),
      );
      lines.push(`ddnsd_update_duration_seconds_bucket{${inner},le="+Inf"} ${histogram.count}`);
      lines.push(`ddnsd_update_duration_seconds_sum${labels} ${histogram.sum}`);
      lines.push(`ddnsd_update_duration_seconds_count${labels} ${histogram.count}`);
    }

    family("ddnsd_ip_changes_total", "counter", "Records that now hold a new address, by family.");
    for (const [labels, { n }] of this.ipChanges.values) lines.push(`ddnsd_ip_changes_total${labels} ${n}`);

    family("ddnsd_detection_failures_total", "counter", "Failed detections of the public address, by family.");
    for (const [labels, { n }] of this.detectionFailures.values)
      lines.push(`ddnsd_detection_failures_total${labels} ${n}`);

    family(
      "ddnsd_record_last_success_timestamp_seconds",
      "gauge",
      "When each record was last written successfully (Unix seconds), within the kept history.",
    );
    for (const row of this.sources.queries.lastSuccesses()) {
      if (row.at !== null)
        lines.push(
          `ddnsd_record_last_success_timestamp_seconds${renderLabels({ domain: row.domain, record_type: row.record_type })} ${row.at / 1000}`,
        );
    }

    family(
      "ddnsd_record_served",
      "gauge",
      "1 when every name server of the record's zone answers its address, 0 while one lags or does not answer; absent until its name servers were asked.",
    );
    for (const row of this.sources.served?.() ?? []) {
      lines.push(
        `ddnsd_record_served${renderLabels({ domain: row.domain, record_type: row.recordType })} ${row.served ? 1 : 0}`,
      );
    }

    family(
      "ddnsd_push_stale",
      "gauge",
      "Push-only records (address_source push): 1 when no push came for DDNS_PUSH_STALE_AFTER, else 0.",
    );
    const pushes = this.sources.pushes;
    const now = Date.now();
    for (const row of pushes?.domains.pushOnly() ?? []) {
      const stale = isPushStale(row, now, pushes!.staleAfterSeconds) ? 1 : 0;
      lines.push(`ddnsd_push_stale${renderLabels({ domain: row.domainName, record_type: row.recordType })} ${stale}`);
    }

    const memory = process.memoryUsage();
    const cpu = process.cpuUsage();
    family("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.");
    lines.push(`process_resident_memory_bytes ${memory.rss}`);
    family("process_heap_bytes", "gauge", "JavaScript heap in use, in bytes.");
    lines.push(`process_heap_bytes ${memory.heapUsed}`);
    family("process_cpu_user_seconds_total", "counter", "User CPU time spent in seconds.");
    lines.push(`process_cpu_user_seconds_total ${cpu.user / 1e6}`);
    family("process_cpu_system_seconds_total", "counter", "System CPU time spent in seconds.");
    lines.push(`process_cpu_system_seconds_total ${cpu.system / 1e6}`);
    family("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.");
    lines.push(`process_cpu_seconds_total ${(cpu.user + cpu.system) / 1e6}`);
    family("process_start_time_seconds", "gauge", "Start time of the process since the Unix epoch in seconds.");
    lines.push(`process_start_time_seconds ${Math.floor(this.sources.startedAt / 1000)}`);
    return `${lines.join("\n")}\n`;
  }
}

/** `{a="x",b="y"}`, with `\`, `"` and newlines escaped as the format asks. */
function renderLabels(labels: Record<string, string>): string {
  const escape = (value: string) => value.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n");
  return `{${Object.entries(labels)
    .map(([name, value]) => `${name}="${escape(value)}"`)
    .join(",")}}`;
}
