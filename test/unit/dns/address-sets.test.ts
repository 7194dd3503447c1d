// The set rules of a name with several addresses (src/dns/address-sets.ts), as a table, and the
// reconciler applying them against a service kept in memory: written whole only where the service
// holds sets, refused in its name elsewhere, created only when allowed.

import { describe, expect, test } from "bun:test";
import { planSet } from "../../../src/dns/address-sets";
import type { RecordTarget } from "../../../src/dns/provider";
import { type RecordSet, type ZoneApi, zoneClient } from "../../../src/dns/reconcile";

const [A, B, C, F] = ["203.0.113.1", "203.0.113.2", "203.0.113.3", "198.51.100.9"];

describe("what a set of addresses is to become", () => {
  const rows: [
    string,
    string[],
    string[],
    string[] | null,
    { next: string[]; removed: string[]; foreign: string[]; holds: boolean },
  ][] = [
    [
      "first write: what the name holds is taken as ddnsd's",
      [F],
      [A, B],
      null,
      { next: [A, B], removed: [F], foreign: [], holds: false },
    ],
    ["a second source's address added", [A], [A, B], [A], { next: [A, B], removed: [], foreign: [], holds: false }],
    [
      "ddnsd's address no longer wanted removed",
      [A, B],
      [A],
      [A, B],
      { next: [A], removed: [B], foreign: [], holds: false },
    ],
    [
      "someone else's address left alone beside a change",
      [A, B, F],
      [A, C],
      [A, B],
      { next: [A, C, F], removed: [B], foreign: [F], holds: false },
    ],
    [
      "the set as wanted, beside a foreign one: nothing to write",
      [B, F, A],
      [A, B],
      [A, B],
      { next: [A, B, F], removed: [], foreign: [F], holds: true },
    ],
    [
      "a foreign address where ddnsd's was: ddnsd's put back beside it",
      [F],
      [A],
      [A],
      { next: [A, F], removed: [], foreign: [F], holds: false },
    ],
    [
      "IPv6 compared as addresses",
      ["2001:DB8::1"],
      ["2001:db8:0::1"],
      ["2001:db8::1"],
      { next: ["2001:db8:0::1"], removed: [], foreign: [], holds: true },
    ],
  ];
  for (const [name, held, wanted, published, plan] of rows)
    test(name, () => {
      expect(planSet(held, wanted, published)).toEqual(plan);
    });
});

/** A zone service in memory holding one set per name; `sets: false`: one that writes one address per name. */
function memory(held: string[] | null, sets = true) {
  const calls: string[] = [];
  let stored: RecordSet | null = held === null ? null : { id: "r1", values: held, ttl: 300 };
  const api: ZoneApi = {
    service: "Memory",
    verify: async () => ({ ok: true, detail: "fine" }),
    findZone: async () => ({ ok: true, value: { id: "z1", name: "example.com" } }),
    readRecordSet: async () => ({ ok: true, value: stored }),
    updateRecordSet: async (_z, _h, _t, current, address) => {
      calls.push(`update ${address}`);
      stored = { ...current, values: [address] };
      return { ok: true, value: stored };
    },
    createRecordSet: async (_z, _h, _t, address) => {
      calls.push(`create ${address}`);
      stored = { id: "r2", values: [address], ttl: 300 };
      return { ok: true, value: stored };
    },
    ...(sets
      ? {
          writeAddressSet: async (
            _z: unknown,
            _h: string,
            _t: unknown,
            current: RecordSet | null,
            addresses: readonly string[],
          ) => {
            calls.push(`set ${addresses.join(" ")}`);
            stored = { id: current?.id ?? "r3", values: [...addresses], ttl: current?.ttl ?? 300 };
            return { ok: true as const, value: stored };
          },
        }
      : {}),
  };
  return { client: zoneClient(api), calls, read: () => stored?.values };
}

function target(wanted: string[], published: string[] | null, config: Record<string, unknown> = {}): RecordTarget {
  return { hostname: "home.example.com", recordType: "A", externalId: null, config, addressSet: { wanted, published } };
}

describe("the reconciler with a list of sources", () => {
  test("a set beside a foreign address is written whole, and the history says the foreign one was left alone", async () => {
    const { client, calls, read } = memory([A, B, F]);
    const outcome = await client.writeRecord(target([A, C], [A, B]), A);
    expect(outcome).toMatchObject({ ok: true, action: "updated", held: [A, B, F], removed: [B], foreign: [F] });
    expect(!outcome.ok || outcome.message).toContain(`removed: ${B}`);
    expect(!outcome.ok || outcome.message).toContain(`left alone: ${F}`);
    expect(calls).toEqual([`set ${A} ${C} ${F}`]);
    expect(read()).toEqual([A, C, F]);
  });

  test("a set already as wanted is not written", async () => {
    const { client, calls } = memory([B, A]);
    expect(await client.writeRecord(target([A, B], [A, B]), A)).toMatchObject({ ok: true, action: "unchanged" });
    expect(calls).toEqual([]);
  });

  test("one address wanted where one is held goes the one-address way", async () => {
    const { client, calls } = memory([B]);
    expect(await client.writeRecord(target([A], [B]), A)).toMatchObject({ ok: true, action: "updated" });
    expect(calls).toEqual([`update ${A}`]);
  });

  test("a missing set is created whole, unless create_if_missing is false", async () => {
    const made = memory(null);
    expect(await made.client.writeRecord(target([A, B], null), A)).toMatchObject({ ok: true, action: "created" });
    expect(made.read()).toEqual([A, B]);
    const kept = memory(null);
    const refused = await kept.client.writeRecord(target([A, B], null, { create_if_missing: false }), A);
    expect(refused).toMatchObject({ ok: false, cause: "refused" });
    expect(kept.calls).toEqual([]);
  });

  test("a service that holds one address per name refuses a set, and one with a foreign address beside, writing nothing", async () => {
    const two = memory([A], false);
    const refused = await two.client.writeRecord(target([A, B], [A]), A);
    expect(refused).toMatchObject({ ok: false, cause: "refused" });
    expect(!refused.ok && refused.message).toBe(
      `Memory: ddnsd writes one address per name there, so home.example.com A cannot hold ${A}, ${B}; set config.addresses to "first"`,
    );
    const foreign = memory([B, F], false);
    const kept = await foreign.client.writeRecord(target([A], [B]), A);
    expect(!kept.ok && kept.message).toContain("holds 2 addresses");
    expect([...two.calls, ...foreign.calls]).toEqual([]);
  });
});
