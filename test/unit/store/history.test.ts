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
    durationMs: 5,
    timestamp,
    ...fields,
  };
}

describe("store: history", () => {
  test("append returns the row's id and keeps only the newest rows of that domain", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider();
    const a = domain(p, "a.example.com");
    const b = domain(p, "b.example.com");
    store.history.append(row(b, 1), 2);
    const ids = [1, 2, 3, 4].map((t) => store.history.append(row(a, t * 1000), 2));
    expect(new Set(ids).size).toBe(4);
    expect(store.history.list(a, 10).map((r) => r.id)).toEqual([ids[3]!, ids[2]!]);
    expect(store.history.count(a)).toBe(2);
    expect(store.history.count(b)).toBe(1); // another domain's rows are never cut
  });

  test("appendToMessage adds words to the end of one row's message; a row gone is no error", () => {
    const { store, provider, domain } = memoryStore();
    const a = domain(provider());
    const first = store.history.append(row(a, 1000, { message: "Updated a" }), 10);
    const second = store.history.append(row(a, 2000, { message: "Updated b" }), 10);
    store.history.appendToMessage(first, "; served by 2 of 2 name servers after 3 s");
    store.history.appendToMessage(second + 100, "; nothing");
    expect(store.history.list(a, 10).map((r) => r.message)).toEqual([
      "Updated b",
      "Updated a; served by 2 of 2 name servers after 3 s",
    ]);
  });

  test("a message is at most 2,000 characters, as written and with words added later", () => {
    const { store, provider, domain } = memoryStore();
    const a = domain(provider());
    const long = "x".repeat(60_000);
    const first = store.history.append(row(a, 1000, { message: long }), 10);
    const second = store.history.append(row(a, 2000, { message: "Updated b" }), 10);
    store.history.appendToMessage(second, `; not served after 10 min: ${long}`);
    const [b, x] = store.history.list(a, 10);
    expect(x!.id).toBe(first);
    expect(x!.message).toBe(`${"x".repeat(1999)}…`);
    expect(b!.message).toStartWith("Updated b; not served after 10 min: xxx");
    expect(b!.message).toHaveLength(2000);
  });

  test("the same failure again is counted on the newest row, with the time of the last; any difference is a row of its own", () => {
    const { store, provider, domain } = memoryStore();
    const a = domain(provider());
    const failure = {
      status: "FAILED",
      failureCause: "refused",
      message: "Cloudflare: no active zone found for home.example.com",
    } as const;
    const first = store.history.append(row(a, 1000, failure), 10);
    expect(store.history.append(row(a, 2000, failure), 10)).toBe(first);
    expect(store.history.append(row(a, 3000, { ...failure, durationMs: 9 }), 10)).toBe(first);
    expect(store.history.list(a, 10)).toMatchObject([
      { id: first, repeatCount: 3, firstTimestamp: 1000, timestamp: 3000, durationMs: 9 },
    ]);
    // Another message, another cause, a success, or a push: each a row of its own.
    const other = store.history.append(row(a, 4000, { ...failure, message: "Cloudflare: another reason" }), 10);
    expect(other).not.toBe(first);
    expect(
      store.history.append(
        row(a, 5000, { ...failure, message: "Cloudflare: another reason", failureCause: "unreachable" }),
        10,
      ),
    ).not.toBe(other);
    const ok = store.history.append(row(a, 6000), 10);
    expect(store.history.append(row(a, 7000), 10)).not.toBe(ok); // successes are never folded
    const scheduled = store.history.append(row(a, 8000, failure), 10);
    expect(store.history.append(row(a, 9000, { ...failure, trigger: "manual" }), 10)).not.toBe(scheduled);
    expect(store.history.count(a)).toBe(7);
    expect(store.history.list(a, 10).filter((r) => r.repeatCount > 1).length).toBe(1);
  });

  test("a repeat folds only within the clock hour of the row's first attempt, so a row's attempts are one hour's", () => {
    const { store, provider, domain } = memoryStore();
    const a = domain(provider());
    const failure = { status: "FAILED", failureCause: "refused", message: "Cloudflare: no zone" } as const;
    const hour = 3_600_000;
    const first = store.history.append(row(a, 5 * hour + 1000, failure), 10);
    expect(store.history.append(row(a, 5 * hour + 59 * 60_000, failure), 10)).toBe(first);
    const next = store.history.append(row(a, 6 * hour + 1000, failure), 10);
    expect(next).not.toBe(first);
    expect(store.history.append(row(a, 6 * hour + 2000, failure), 10)).toBe(next);
    expect(store.history.list(a, 10).map((r) => [r.repeatCount, r.firstTimestamp, r.timestamp])).toEqual([
      [2, 6 * hour + 1000, 6 * hour + 2000],
      [2, 5 * hour + 1000, 5 * hour + 59 * 60_000],
    ]);
  });

  test("rows of the same time are cut oldest id first", () => {
    const { store, provider, domain } = memoryStore();
    const a = domain(provider());
    const ids = [1, 2, 3].map(() => store.history.append(row(a, 5000), 2));
    expect(store.history.list(a, 10).map((r) => r.id)).toEqual([ids[2]!, ids[1]!]);
  });

  test("lastSuccessAt: the newest successful row's time, of that domain only; null without one", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider();
    const a = domain(p, "a.example.com");
    const b = domain(p, "b.example.com");
    expect(store.history.lastSuccessAt(a)).toBeNull();
    store.history.append(row(a, 1000), 10);
    store.history.append(row(a, 2000, { trigger: "refresh" }), 10);
    store.history.append(row(a, 3000, { status: "FAILED", failureCause: "unreachable" }), 10);
    store.history.append(row(b, 4000), 10);
    expect(store.history.lastSuccessAt(a)).toBe(2000);
    expect(store.history.lastSuccessAt(b)).toBe(4000);
  });

  test("list pages newest first; deleteForDomain removes only that domain's rows", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider();
    const a = domain(p, "a.example.com");
    const b = domain(p, "b.example.com");
    for (const t of [1, 2, 3]) store.history.append(row(a, t), 10);
    store.history.append(row(b, 1), 10);
    expect(store.history.list(a, 1, 1).map((r) => r.timestamp)).toEqual([2]);
    store.history.deleteForDomain(a);
    expect(store.history.count(a)).toBe(0);
    expect(store.history.count(b)).toBe(1);
  });

  test("addressStarts: when each address was first written, newest first, from successful rows only", () => {
    const { store, provider, domain } = memoryStore();
    const a = domain(provider());
    store.history.append(row(a, 1, { ipAddress: "192.0.2.1" }), 50);
    store.history.append(row(a, 2, { ipAddress: "192.0.2.1" }), 50);
    store.history.append(row(a, 3, { ipAddress: "192.0.2.9", status: "FAILED", failureCause: "refused" }), 50);
    store.history.append(row(a, 4, { ipAddress: "192.0.2.2" }), 50);
    store.history.append(row(a, 5, { ipAddress: "192.0.2.1" }), 50);
    expect(store.history.addressStarts(a, 10)).toEqual([
      { ip: "192.0.2.1", at: 5 },
      { ip: "192.0.2.2", at: 4 },
      { ip: "192.0.2.1", at: 1 },
    ]);
    expect(store.history.addressStarts(a, 1)).toEqual([{ ip: "192.0.2.1", at: 5 }]);
  });

  test("newest and causes read each domain's newest row and the failure causes", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider();
    const a = domain(p, "a.example.com");
    const b = domain(p, "b.example.com");
    const failed = store.history.append(row(a, 1, { status: "FAILED", failureCause: "refused" }), 10);
    const ok = store.history.append(row(a, 2), 10);
    store.history.append(row(b, 1, { status: "FAILED", failureCause: "detection" }), 10);
    const newest = store.history.newest();
    expect([...newest.entries()].map(([id, r]) => [id, r.id, r.failureCause])).toEqual([
      [a, ok, null],
      [b, newest.get(b)!.id, "detection"],
    ]);
    expect(store.history.causes([failed, ok])).toEqual(
      new Map([
        [failed, "refused"],
        [ok, null],
      ]),
    );
    expect(store.history.causes([])).toEqual(new Map());
  });

  test("newestAtService passes over detection failures: what the service last answered stands through an outage", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider();
    const a = domain(p, "a.example.com");
    const b = domain(p, "b.example.com");
    const refused = store.history.append(row(a, 1, { status: "FAILED", failureCause: "credentials" }), 10);
    store.history.append(
      row(a, 2, { status: "FAILED", failureCause: "detection", message: "IPv4 detection failed" }),
      10,
    );
    store.history.append(row(b, 1, { status: "FAILED", failureCause: "detection" }), 10);
    const atService = store.history.newestAtService();
    expect([...atService.entries()].map(([id, r]) => [id, r.id, r.failureCause])).toEqual([
      [a, refused, "credentials"],
    ]);
    expect(store.history.newest().get(a)?.failureCause).toBe("detection");
  });

  test("a transaction that throws writes nothing", () => {
    const { store, provider, domain } = memoryStore();
    const a = domain(provider());
    expect(() =>
      store.transaction((tx) => {
        tx.history.append(row(a, 1), 10);
        throw new Error("undone");
      }),
    ).toThrow("undone");
    expect(store.history.count(a)).toBe(0);
  });
});
