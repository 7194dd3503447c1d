// The Prometheus exposition built from its own sources only (the metrics queries and the start
// time), without a database or an app: the counters the update path's events feed, and the gauges
// read at each scrape.

import { describe, expect, test } from "bun:test";
import { type MetricsSources, UpdateMetrics } from "../../src/modules/prometheus/service";
import type { DomainRow } from "../../src/store/rows";
import type { RecordedUpdate } from "../../src/updater/events";
import type { UpdateOutcome } from "../../src/updater/outcome";

function sources(): MetricsSources {
  return {
    queries: {
      providerType: (id) => (id === 1 ? "cloudflare" : null),
      domainStates: () => [
        { state: "ok", n: 2 },
        { state: "failing", n: 1 },
      ],
      lastSuccesses: () => [
        { domain: "home.example.com", record_type: "A", at: 1_700_000_000_000 },
        { domain: "never.example.com", record_type: "AAAA", at: null },
      ],
    },
    startedAt: 1_700_000_123_456,
  };
}

function recorded(providerId: number, outcome: Partial<UpdateOutcome>): RecordedUpdate {
  return {
    before: { providerId } as DomainRow,
    trigger: "schedule",
    outcome: {
      domainId: 1,
      hostname: "home.example.com",
      recordType: "A",
      result: "updated",
      failure: null,
      ip: "203.0.113.7",
      previousIp: "203.0.113.6",
      changed: true,
      written: true,
      message: "Updated",
      durationMs: 300,
      historyId: 1,
      ...outcome,
    },
  };
}

const lines = (metrics: UpdateMetrics) => metrics.render().split("\n");

describe("UpdateMetrics from its sources alone", () => {
  test("an update counts by provider type, result and trigger; its duration lands in its bucket; a changed address counts by family", () => {
    const metrics = new UpdateMetrics(sources());
    metrics.recorded(recorded(1, {}));
    metrics.recorded(recorded(2, { result: "failed", failure: "provider", changed: false, durationMs: 40 }));
    const text = lines(metrics);
    expect(text).toContain('ddnsd_updates_total{provider_type="cloudflare",result="success",trigger="schedule"} 1');
    expect(text).toContain('ddnsd_updates_total{provider_type="unknown",result="failure",trigger="schedule"} 1');
    expect(text).toContain('ddnsd_update_duration_seconds_bucket{provider_type="cloudflare",le="0.25"} 0');
    expect(text).toContain('ddnsd_update_duration_seconds_bucket{provider_type="cloudflare",le="0.5"} 1');
    expect(text).toContain('ddnsd_update_duration_seconds_bucket{provider_type="unknown",le="0.05"} 1');
    expect(text).toContain('ddnsd_ip_changes_total{family="ipv4"} 1');
    expect(text).toContain('ddnsd_ip_changes_total{family="ipv6"} 0');
  });

  test("a failed detection counts for its family, and is no update", () => {
    const metrics = new UpdateMetrics(sources());
    metrics.detected(6, { ok: false });
    metrics.detected(4, { ok: true });
    metrics.recorded(recorded(1, { result: "failed", failure: "detection", changed: false }));
    const text = lines(metrics);
    expect(text).toContain('ddnsd_detection_failures_total{family="ipv6"} 1');
    expect(text).toContain('ddnsd_detection_failures_total{family="ipv4"} 0');
    expect(text.some((line) => line.startsWith("ddnsd_updates_total{"))).toBe(false);
  });

  test("the gauges are the queries' answers at each scrape, and the start time the one handed in", () => {
    const text = lines(new UpdateMetrics(sources()));
    expect(text).toContain('ddnsd_domains{state="ok"} 2');
    expect(text).toContain('ddnsd_domains{state="failing"} 1');
    expect(text).toContain('ddnsd_domains{state="pending"} 0');
    expect(text).toContain(
      'ddnsd_record_last_success_timestamp_seconds{domain="home.example.com",record_type="A"} 1700000000',
    );
    expect(text.some((line) => line.includes("never.example.com"))).toBe(false);
    expect(text).toContain("process_start_time_seconds 1700000123");
  });

  test("ddnsd_record_served: 1 for a record every name server serves, 0 for one they do not (yet)", () => {
    const served = () => [
      { domain: "home.example.com", recordType: "A", served: true },
      { domain: "home.example.com", recordType: "AAAA", served: false },
    ];
    const text = lines(new UpdateMetrics({ ...sources(), served }));
    expect(text).toContain("# TYPE ddnsd_record_served gauge");
    expect(text).toContain('ddnsd_record_served{domain="home.example.com",record_type="A"} 1');
    expect(text).toContain('ddnsd_record_served{domain="home.example.com",record_type="AAAA"} 0');
  });
});
