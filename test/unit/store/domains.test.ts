import { describe, expect, jest, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../../src/db";
import { createLogger } from "../../../src/log";
import { createStore } from "../../../src/store";
import { HELD_AT_MOST_MS } from "../../../src/store/held-checks";
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
    expect(store.domains.due(500)).toEqual([
      { id: soon, recordType: "AAAA", addressSource: null, config: {}, pushedIp: null },
    ]);
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

  test("holdChecked: a check's facts are read back, not written, until the domain's next write", () => {
    const { store, database, provider, domain } = memoryStore();
    const p = provider();
    const a = domain(p, "a.example.com");
    const b = domain(p, "b.example.com");
    const off = domain(p, "off.example.com");
    database.sqlite.run("UPDATE domains SET next_run_at = 100");
    database.sqlite.run("UPDATE domains SET is_enabled = 0 WHERE id = ?", [off]);
    const onDisk = () =>
      database.sqlite
        .query<{ next: number | null; checked: number | null }, []>(
          "SELECT next_run_at AS next, last_checked_at AS checked FROM domains ORDER BY id",
        )
        .all();
    const writes = database.sqlite.writes;
    store.domains.holdChecked(a, { lastCheckedAt: 150, nextRunAt: 900 });
    store.domains.holdChecked(b, { lastCheckedAt: 160, nextRunAt: 200 });
    store.domains.holdChecked(off, { lastCheckedAt: 170, nextRunAt: 300 });
    expect(onDisk()).toEqual(Array(3).fill({ next: 100, checked: null }));
    // Counted as writes, so that what is served again until a write is made again.
    expect(database.sqlite.writes).toBe(writes + 2);
    expect(store.domains.find(a)).toMatchObject({ lastCheckedAt: 150, nextRunAt: 900 });
    expect(store.domains.list().map((row) => row.nextRunAt)).toEqual([900, 200, 100]);
    expect(store.domains.withProvider(b)?.domain.lastCheckedAt).toBe(160);
    expect(store.domains.due(500).map((row) => row.id)).toEqual([b]);
    expect(store.domains.dueTimes()).toEqual([
      { id: b, at: 200 },
      { id: a, at: 900 },
    ]);
    expect(store.domains.scheduledAfter(250).map((row) => row.id)).toEqual([a]);
    // The domain's next write takes its held facts along; what it sets itself wins.
    store.domains.update(a, { failureCount: 1, nextRunAt: 1000 });
    expect(onDisk()[0]).toEqual({ next: 1000, checked: 150 });
    // A row written past the store keeps what was written.
    database.sqlite.run("UPDATE domains SET next_run_at = 50 WHERE id = ?", [b]);
    expect(store.domains.find(b)).toMatchObject({ nextRunAt: 50, lastCheckedAt: null });
    store.domains.holdChecked(b, { lastCheckedAt: 180, nextRunAt: 400 });
    store.domains.writeHeld();
    expect(onDisk()[1]).toEqual({ next: 400, checked: 180 });
  });

  test("what is held is written before the database closes", () => {
    const dir = mkdtempSync(join(tmpdir(), "ddnsd-held-"));
    try {
      const log = createLogger({ level: "error", format: "json", write: () => {} });
      const first = openDatabase(dir, log);
      const store = createStore(first.db, first.sqlite);
      const now = Date.now();
      first.sqlite.run(
        "INSERT INTO providers (name, type, credentials, created_at, updated_at) VALUES ('p', 'duckdns', 'sealed', ?, ?)",
        [now, now],
      );
      first.sqlite.run(
        "INSERT INTO domains (provider_id, domain_name, record_type, config, next_run_at, created_at, updated_at) VALUES (1, 'a.example.com', 'A', '{}', 10, ?, ?)",
        [now, now],
      );
      store.domains.holdChecked(1, { lastCheckedAt: 20, nextRunAt: 30 });
      first.sqlite.close();
      const again = openDatabase(dir, log);
      expect(createStore(again.db, again.sqlite).domains.find(1)).toMatchObject({ lastCheckedAt: 20, nextRunAt: 30 });
      again.sqlite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("what is held is written an hour after the first fact held, once", () => {
    jest.useFakeTimers();
    try {
      const { store, database, provider, domain } = memoryStore();
      const a = domain(provider());
      const checked = () =>
        database.sqlite
          .query<{ at: number | null }, [number]>("SELECT last_checked_at AS at FROM domains WHERE id = ?")
          .get(a)!.at;
      store.domains.holdChecked(a, { lastCheckedAt: 1 });
      jest.advanceTimersByTime(HELD_AT_MOST_MS / 2);
      store.domains.holdChecked(a, { lastCheckedAt: 2 });
      expect(checked()).toBeNull();
      jest.advanceTimersByTime(HELD_AT_MOST_MS / 2);
      expect(checked()).toBe(2);
      store.domains.holdChecked(a, { lastCheckedAt: 3 });
      jest.advanceTimersByTime(HELD_AT_MOST_MS - 1);
      expect(checked()).toBe(2);
      jest.advanceTimersByTime(1);
      expect(checked()).toBe(3);
    } finally {
      jest.useRealTimers();
    }
  });
});
