import { describe, expect, test } from "bun:test";
import { memoryStore } from "./support";

describe("store: domains", () => {
  test("withProvider: a domain with its provider, undefined for an unknown id", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider("home");
    const a = domain(p, "home.example.com", "AAAA");
    const loaded = store.domains.withProvider(a);
    expect(loaded?.domain).toMatchObject({ id: a, providerId: p, domainName: "home.example.com", recordType: "AAAA" });
    expect(loaded?.provider).toMatchObject({ id: p, name: "home", type: "duckdns" });
    expect(store.domains.withProvider(a + 1)).toBeUndefined();
  });

  test("existingIds keeps only the ids of domains", () => {
    const { store, provider, domain } = memoryStore();
    const a = domain(provider());
    expect(store.domains.existingIds([a, a + 100])).toEqual(new Set([a]));
    expect(store.domains.existingIds([])).toEqual(new Set());
  });

  test("enabledNamed: the enabled records of enabled providers with that name, A first", () => {
    const { store, database, provider, domain } = memoryStore();
    const home = provider("home");
    const off = provider("off");
    const other = provider("other");
    const aaaa = domain(home, "home.example.com", "AAAA");
    const a = domain(home, "home.example.com", "A");
    domain(home, "other.example.com", "A");
    domain(off, "home.example.com", "A");
    const disabled = domain(other, "home.example.com", "A");
    database.sqlite.run("UPDATE providers SET is_enabled = 0 WHERE id = ?", [off]);
    database.sqlite.run("UPDATE domains SET is_enabled = 0 WHERE id = ?", [disabled]);
    expect(store.domains.enabledNamed("home.example.com")).toEqual([
      { id: a, recordType: "A", addressSource: null },
      { id: aaaa, recordType: "AAAA", addressSource: null },
    ]);
  });

  test("makeDueOfType: the enabled, scheduled domains of that type fall due; their ids", () => {
    const { store, database, provider, domain } = memoryStore();
    const p = provider();
    const a = domain(p, "a.example.com", "A");
    const aaaa = domain(p, "a.example.com", "AAAA");
    const disabled = domain(p, "b.example.com", "A");
    const stopped = domain(p, "c.example.com", "A");
    database.sqlite.run("UPDATE domains SET next_run_at = 5000");
    database.sqlite.run("UPDATE domains SET is_enabled = 0 WHERE id = ?", [disabled]);
    database.sqlite.run("UPDATE domains SET next_run_at = NULL WHERE id = ?", [stopped]);
    expect(store.domains.makeDueOfType("A", 1000)).toEqual([a]);
    const nextRuns = database.sqlite
      .query<{ id: number; next: number | null }, []>("SELECT id, next_run_at AS next FROM domains ORDER BY id")
      .all();
    expect(nextRuns).toEqual([
      { id: a, next: 1000 },
      { id: aaaa, next: 5000 },
      { id: disabled, next: 5000 },
      { id: stopped, next: null },
    ]);
  });

  test("idsOfProvider, resumeStopped (enabled, stopped domains of that provider only) and delete", () => {
    const { store, database, provider, domain } = memoryStore();
    const p = provider("p");
    const q = provider("q");
    const stopped = domain(p, "a.example.com");
    const scheduled = domain(p, "b.example.com");
    const disabled = domain(p, "c.example.com");
    const elsewhere = domain(q, "a.example.com");
    database.sqlite.run("UPDATE domains SET next_run_at = NULL");
    database.sqlite.run("UPDATE domains SET next_run_at = 9000 WHERE id = ?", [scheduled]);
    database.sqlite.run("UPDATE domains SET is_enabled = 0 WHERE id = ?", [disabled]);
    expect(store.domains.idsOfProvider(p).sort()).toEqual([stopped, scheduled, disabled].sort());
    store.domains.resumeStopped(p, 1000);
    const nextRuns = database.sqlite
      .query<{ next: number | null }, []>("SELECT next_run_at AS next FROM domains ORDER BY id")
      .all();
    expect(nextRuns.map((row) => row.next)).toEqual([1000, 9000, null, null]);
    store.domains.delete(stopped);
    expect(store.domains.existingIds([stopped, elsewhere])).toEqual(new Set([elsewhere]));
  });

  test("create, find, update, list oldest first; with the provider's name", () => {
    const { store, provider } = memoryStore();
    const p = provider("home");
    const fields = {
      providerId: p,
      externalId: null,
      config: { ttl: 60 },
      cronSchedule: null,
      isEnabled: true,
      nextRunAt: 5,
      createdAt: 1,
      updatedAt: 1,
    };
    const a = store.domains.create({ ...fields, domainName: "a.example.com", recordType: "A" });
    const b = store.domains.create({ ...fields, domainName: "b.example.com", recordType: "AAAA" });
    expect(store.domains.find(a)).toMatchObject({
      id: a,
      domainName: "a.example.com",
      config: { ttl: 60 },
      lastKnownIp: null,
      failureCount: 0,
    });
    store.domains.update(a, { lastKnownIp: "192.0.2.1", failureCount: 2, config: {} });
    expect(store.domains.find(a)).toMatchObject({
      lastKnownIp: "192.0.2.1",
      failureCount: 2,
      config: {},
      domainName: "a.example.com",
    });
    expect(store.domains.find(b + 1)).toBeUndefined();
    expect(store.domains.list().map((row) => row.id)).toEqual([a, b]);
    expect(store.domains.listWithProviderName().map((row) => [row.domain.id, row.providerName])).toEqual([
      [a, "home"],
      [b, "home"],
    ]);
    expect(store.domains.findWithProviderName(b)).toMatchObject({
      domain: { id: b, recordType: "AAAA" },
      providerName: "home",
    });
    expect(store.domains.findWithProviderName(b + 1)).toBeUndefined();
  });

  test("sameRecord: another domain of that provider, hostname and type, never the one excepted", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider("p");
    const q = provider("q");
    const a = domain(p, "home.example.com", "A");
    expect(store.domains.sameRecord(p, "home.example.com", "A")).toBe(a);
    expect(store.domains.sameRecord(p, "home.example.com", "A", a)).toBeUndefined();
    expect(store.domains.sameRecord(p, "home.example.com", "AAAA")).toBeUndefined();
    expect(store.domains.sameRecord(q, "home.example.com", "A")).toBeUndefined();
  });

  test("due: enabled domains of enabled providers, soonest first; with a time, only those due and not paused", () => {
    const { store, database, provider, domain } = memoryStore();
    const p = provider("p");
    const paused = provider("paused");
    const off = provider("off");
    const later = domain(p, "later.example.com");
    const soon = domain(p, "soon.example.com", "AAAA");
    const held = domain(paused, "held.example.com");
    domain(off, "off.example.com");
    const disabled = domain(p, "disabled.example.com");
    database.sqlite.run("UPDATE domains SET next_run_at = 100");
    database.sqlite.run("UPDATE domains SET next_run_at = 900 WHERE id = ?", [later]);
    database.sqlite.run("UPDATE domains SET next_run_at = 50 WHERE id = ?", [soon]);
    database.sqlite.run("UPDATE domains SET is_enabled = 0 WHERE id = ?", [disabled]);
    database.sqlite.run("UPDATE providers SET paused_until = 600 WHERE id = ?", [paused]);
    database.sqlite.run("UPDATE providers SET is_enabled = 0 WHERE id = ?", [off]);
    expect(store.domains.due(500)).toEqual([{ id: soon, recordType: "AAAA", addressSource: null }]);
    expect(store.domains.due(1000).map((row) => row.id)).toEqual([soon, held, later]);
    expect(store.domains.due().map((row) => row.id)).toEqual([soon, held, later]);
  });

  test("dueTimes: each scheduled domain's next run, or its provider's pause end when later, soonest first", () => {
    const { store, database, provider, domain } = memoryStore();
    const p = provider("p");
    const paused = provider("paused");
    const a = domain(p, "a.example.com");
    const b = domain(paused, "b.example.com");
    const stopped = domain(p, "c.example.com");
    database.sqlite.run("UPDATE domains SET next_run_at = 300 WHERE id = ?", [a]);
    database.sqlite.run("UPDATE domains SET next_run_at = 100 WHERE id = ?", [b]);
    database.sqlite.run("UPDATE domains SET next_run_at = NULL WHERE id = ?", [stopped]);
    expect(store.domains.dueTimes()).toEqual([
      { id: b, at: 100 },
      { id: a, at: 300 },
    ]);
    database.sqlite.run("UPDATE providers SET paused_until = 700 WHERE id = ?", [paused]);
    expect(store.domains.dueTimes()).toEqual([
      { id: a, at: 300 },
      { id: b, at: 700 },
    ]);
  });

  test("scheduledAfter: the domains whose next run lies after the time, with their cron", () => {
    const { store, database, provider, domain } = memoryStore();
    const p = provider();
    const interval = domain(p, "a.example.com");
    const cron = domain(p, "b.example.com");
    const past = domain(p, "c.example.com");
    database.sqlite.run("UPDATE domains SET next_run_at = 5000");
    database.sqlite.run("UPDATE domains SET cron_schedule = '0 * * * *' WHERE id = ?", [cron]);
    database.sqlite.run("UPDATE domains SET next_run_at = 10 WHERE id = ?", [past]);
    expect(store.domains.scheduledAfter(1000).sort((x, y) => x.id - y.id)).toEqual([
      { id: interval, cron: null, next: 5000 },
      { id: cron, cron: "0 * * * *", next: 5000 },
    ]);
  });

  test("updateIfEnabled changes an enabled domain only", () => {
    const { store, database, provider, domain } = memoryStore();
    const p = provider();
    const on = domain(p, "on.example.com");
    const off = domain(p, "off.example.com");
    database.sqlite.run("UPDATE domains SET is_enabled = 0 WHERE id = ?", [off]);
    store.domains.updateIfEnabled(on, { lastCheckedAt: 42 });
    store.domains.updateIfEnabled(off, { lastCheckedAt: 42 });
    expect(store.domains.find(on)?.lastCheckedAt).toBe(42);
    expect(store.domains.find(off)?.lastCheckedAt).toBeNull();
  });

  test("siblings: the same hostname's other record types at the same provider", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider("p");
    const q = provider("q");
    domain(p, "home.example.com", "A");
    const aaaa = domain(p, "home.example.com", "AAAA");
    domain(p, "other.example.com", "AAAA");
    domain(q, "home.example.com", "AAAA");
    expect(store.domains.siblings(p, "home.example.com", "A").map((row) => row.id)).toEqual([aaaa]);
    expect(store.domains.siblings(q, "home.example.com", "AAAA")).toEqual([]);
  });
});
