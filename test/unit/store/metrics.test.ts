import { describe, expect, test } from "bun:test";
import type { HistoryInsert } from "../../../src/db/disk";
import { memoryStore } from "./support";

function row(domainId: number, timestamp: number, fields: Partial<HistoryInsert> = {}): HistoryInsert {
  return {
    domainId,
    ipAddress: "192.0.2.1",
    previousIp: null,
    status: "SUCCESS",
    message: "ok",
    trigger: "schedule",
    durationMs: 10,
    timestamp,
    ...fields,
  };
}

describe("store: metrics", () => {
  test("an empty database counts nothing", () => {
    const { store } = memoryStore();
    expect(store.metrics.domainCounts()).toEqual({ total: 0, active: 0 });
    expect(store.metrics.providersByType()).toEqual([]);
    expect(store.metrics.updatesSince(0)).toEqual({ total: 0, failed: 0, ips: 0 });
    expect(store.metrics.lastUpdateAt()).toBeNull();
    expect(store.metrics.lastCheckedAt()).toBeNull();
    expect(store.metrics.domainStates()).toEqual([]);
    expect(store.metrics.databaseSizeBytes()).toBeGreaterThan(0);
  });

  test("domain and provider counts follow what is enabled", () => {
    const { store, database, provider, domain } = memoryStore();
    const home = provider("home");
    const off = provider("off");
    domain(home, "a.example.com");
    const b = domain(home, "b.example.com");
    domain(off, "c.example.com");
    database.sqlite.run("UPDATE providers SET is_enabled = 0 WHERE id = ?", [off]);
    database.sqlite.run("UPDATE domains SET last_update_status = 'SUCCESS', last_checked_at = 77 WHERE id = ?", [b]);
    expect(store.metrics.domainCounts()).toEqual({ total: 3, active: 2 });
    expect(store.metrics.providersByType()).toEqual([{ type: "duckdns", count: 2, active: 1 }]);
    expect(store.metrics.providerType(home)).toBe("duckdns");
    expect(store.metrics.providerType(999)).toBeNull();
    expect(store.metrics.lastCheckedAt()).toBe(77);
    expect(new Map(store.metrics.domainStates().map((s) => [s.state, s.n]))).toEqual(
      new Map([
        ["pending", 1],
        ["ok", 1],
        ["disabled", 1],
      ]),
    );
  });

  test("history aggregates: since a time, per provider, per range, address changes, last successes", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider();
    const a = domain(p, "a.example.com");
    const b = domain(p, "b.example.com", "AAAA");
    store.history.append(row(a, 100, { ipAddress: "192.0.2.1", previousIp: null }), 50);
    store.history.append(row(a, 200, { ipAddress: "192.0.2.1", previousIp: "192.0.2.1", durationMs: 30 }), 50);
    store.history.append(row(a, 300, { ipAddress: "192.0.2.2", status: "FAILED", failureCause: "refused" }), 50);
    store.history.append(row(b, 400, { ipAddress: "2001:db8::1", previousIp: "2001:db8::2" }), 50);

    expect(store.metrics.updatesSince(200)).toEqual({ total: 3, failed: 1, ips: 3 });
    expect(store.metrics.lastUpdateAt()).toBe(400);
    expect(store.metrics.outcomesBetween(100, 301)).toEqual({ success: 2, failed: 1 });
    expect(store.metrics.outcomesBetween(500, 600)).toEqual({ success: 0, failed: 0 });
    // The first write and the AAAA change count; the same address again and the failure do not.
    expect(store.metrics.ipChangesBetween(0, 1000)).toBe(2);
    expect(store.metrics.lastSuccesses()).toEqual([
      { domain: "a.example.com", record_type: "A", at: 200 },
      { domain: "b.example.com", record_type: "AAAA", at: 400 },
    ]);
    const [stats] = store.metrics.providerStats(150);
    expect(stats).toMatchObject({
      id: p,
      name: "home",
      type: "duckdns",
      is_enabled: 1,
      total_domains: 2,
      updates: 3,
      successful: 2,
      last_at: 400,
    });
    expect(stats!.avg_ms).toBeCloseTo(50 / 3);
    expect(store.metrics.providerStats(1000)[0]).toMatchObject({
      updates: null,
      successful: null,
      avg_ms: null,
      last_at: 400,
    });
  });

  test("address changes: one network change that moves several records to one address is one", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider();
    const a = domain(p, "a.example.com");
    const b = domain(p, "b.example.com");
    store.history.append(row(a, 100, { ipAddress: "192.0.2.9", previousIp: "192.0.2.1" }), 50);
    store.history.append(row(b, 110, { ipAddress: "192.0.2.9", previousIp: "192.0.2.1" }), 50);
    expect(store.metrics.ipChangesBetween(0, 1000)).toBe(1);
    store.history.append(row(a, 200, { ipAddress: "192.0.2.10", previousIp: "192.0.2.9" }), 50);
    expect(store.metrics.ipChangesBetween(0, 1000)).toBe(2);
    // A record changed outside ddnsd and put back is no change of the network's address.
    store.history.append(row(b, 300, { ipAddress: "192.0.2.10", previousIp: "203.0.113.66", trigger: "repair" }), 50);
    store.history.append(row(b, 310, { ipAddress: "192.0.2.11", previousIp: "203.0.113.66", trigger: "repair" }), 50);
    expect(store.metrics.ipChangesBetween(0, 1000)).toBe(2);
  });

  test("a row of folded repeats counts each attempt; a failed detection (no address) none", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider();
    const a = domain(p, "a.example.com");
    const refused = { ipAddress: "192.0.2.2", status: "FAILED", failureCause: "refused", durationMs: 20 } as const;
    const undetected = { ipAddress: null, status: "FAILED", failureCause: "detection", message: "no answer" } as const;
    for (const at of [1000, 2000, 3000]) store.history.append(row(a, at, refused), 50);
    for (const at of [4000, 5000]) store.history.append(row(a, at, undetected), 50);
    store.history.append(row(a, 6000, { durationMs: 60 }), 50);
    expect(store.history.count(a)).toBe(3);
    expect(store.metrics.updatesSince(0)).toEqual({ total: 4, failed: 3, ips: 2 });
    expect(store.metrics.outcomesBetween(0, 10_000)).toEqual({ success: 1, failed: 3 });
    expect(store.metrics.providerStats(0)[0]).toMatchObject({ updates: 4, successful: 1, avg_ms: 30 });
  });
});
