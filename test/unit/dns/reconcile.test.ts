// The one policy of every zone service, tested once against a service kept in memory: read before
// writing, skip what is already there, update only the one set, create only when allowed, keep what
// the config does not decide, never delete, leave a set of several addresses alone, and look a
// stale configured zone up again once.

import { describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget, RecordType, Step } from "../../../src/dns/provider";
import {
  type DesiredSettings,
  type RecordSet,
  type TxtApi,
  type Zone,
  type ZoneApi,
  zoneClient,
  zonesNamed,
} from "../../../src/dns/reconcile";

interface StoredSet {
  id: string;
  values: string[];
  ttl: number;
}

/** A zone service in memory: zones by id, sets by "name type"; every call is logged. */
function memoryService(zones: Record<string, string>, sets: Record<string, StoredSet> = {}) {
  const calls: string[] = [];
  const stored = new Map(Object.entries(sets));
  let next = 1;
  const api: ZoneApi = {
    service: "Memory",
    async verify() {
      calls.push("verify");
      return { ok: true, detail: "fine" };
    },
    async findZone(hostname, configured): Promise<Step<Zone>> {
      calls.push(`findZone ${configured ?? ""}`.trim());
      // A configured id is taken as it is; a stale one shows when its records are read.
      if (configured !== undefined) return { ok: true, value: { id: configured, name: null } };
      const best = Object.entries(zones)
        .filter(([, name]) => hostname === name || hostname.endsWith(`.${name}`))
        .sort(([, a], [, b]) => b.length - a.length)[0];
      return best
        ? { ok: true, value: { id: best[0], name: best[1] } }
        : { ok: false, cause: "refused", message: `Memory: no zone for ${hostname}` };
    },
    async zoneName(zoneId) {
      calls.push(`zoneName ${zoneId}`);
      return { ok: true, value: zones[zoneId] ?? "" };
    },
    async readRecordSet(zone, hostname, type) {
      calls.push(`read ${hostname} ${type}`);
      if (!(zone.id in zones)) return { ok: false, cause: "refused", message: "Memory: no such zone", staleZone: true };
      const set = stored.get(`${hostname} ${type}`);
      return { ok: true, value: set ? { id: set.id, values: set.values, ttl: set.ttl } : null };
    },
    async updateRecordSet(
      _zone,
      hostname,
      type,
      current,
      address,
      settings: DesiredSettings,
    ): Promise<Step<RecordSet>> {
      calls.push(`update ${hostname} ${type}`);
      const set = { id: current.id, values: [address], ttl: settings.ttl ?? current.ttl ?? 3600 };
      stored.set(`${hostname} ${type}`, set);
      return { ok: true, value: set };
    },
    async createRecordSet(_zone, hostname, type, address, settings) {
      calls.push(`create ${hostname} ${type}`);
      const set = { id: `r${next++}`, values: [address], ttl: settings.ttl ?? 3600 };
      stored.set(`${hostname} ${type}`, set);
      return { ok: true, value: set };
    },
    describe: (set) => [`ttl ${set.ttl}`],
  };
  return { api, client: zoneClient(api), calls, stored };
}

function target(hostname: string, config: RecordConfig = {}, recordType: RecordType = "A"): RecordTarget {
  return { hostname, recordType, externalId: null, config };
}

describe("the zone reconciler", () => {
  test("a set already holding the address is read and left alone", async () => {
    const { client, calls } = memoryService(
      { z1: "example.com" },
      { "home.example.com A": { id: "r9", values: ["192.0.2.1"], ttl: 300 } },
    );
    expect(await client.writeRecord(target("home.example.com"), "192.0.2.1")).toEqual({
      ok: true,
      action: "unchanged",
      held: ["192.0.2.1"],
      externalId: "r9",
      zoneId: "z1",
      message: "Memory record r9, ttl 300",
    });
    expect(calls).toEqual(["findZone", "read home.example.com A"]);
  });

  test("IPv6 addresses are compared as addresses, however they are written", async () => {
    const { client, calls } = memoryService(
      { z1: "example.com" },
      { "home.example.com AAAA": { id: "r9", values: ["2001:0DB8:0:0::1"], ttl: 300 } },
    );
    expect(await client.writeRecord(target("home.example.com", {}, "AAAA"), "2001:db8::1")).toMatchObject({
      ok: true,
      action: "unchanged",
    });
    expect(calls.filter((c) => c.startsWith("update"))).toEqual([]);
  });

  test("a set with another address is updated, keeping its TTL", async () => {
    const { client, stored } = memoryService(
      { z1: "example.com" },
      { "home.example.com A": { id: "r9", values: ["192.0.2.1"], ttl: 300 } },
    );
    expect(await client.writeRecord(target("home.example.com"), "192.0.2.2")).toMatchObject({
      ok: true,
      action: "updated",
      externalId: "r9",
    });
    expect(stored.get("home.example.com A")).toEqual({ id: "r9", values: ["192.0.2.2"], ttl: 300 });
  });

  test("the right address with a TTL the config does not ask for is updated", async () => {
    const { client, stored } = memoryService(
      { z1: "example.com" },
      { "home.example.com A": { id: "r9", values: ["192.0.2.1"], ttl: 300 } },
    );
    expect(await client.writeRecord(target("home.example.com", { ttl: 60 }), "192.0.2.1")).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(stored.get("home.example.com A")?.ttl).toBe(60);
  });

  test("a set of several addresses is left alone, with the reason", async () => {
    const { client, calls } = memoryService(
      { z1: "example.com" },
      { "www.example.com A": { id: "r9", values: ["192.0.2.1", "192.0.2.9"], ttl: 300 } },
    );
    const outcome = await client.writeRecord(target("www.example.com"), "192.0.2.2");
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(!outcome.ok && outcome.message).toContain("holds 2 addresses (192.0.2.1, 192.0.2.9)");
    expect(calls.some((c) => c.startsWith("update"))).toBe(false);
  });

  test("a missing set is created with the config's settings", async () => {
    const { client, stored } = memoryService({ z1: "example.com" });
    expect(await client.writeRecord(target("new.example.com", { ttl: 120 }), "192.0.2.3")).toEqual({
      ok: true,
      action: "created",
      held: [],
      externalId: "r1",
      zoneId: "z1",
      message: "Memory record r1, ttl 120",
    });
    expect(stored.get("new.example.com A")?.values).toEqual(["192.0.2.3"]);
  });

  test("create_if_missing false: nothing is created, and the history says why", async () => {
    const { client, calls } = memoryService({ z1: "example.com" });
    expect(await client.writeRecord(target("new.example.com", { create_if_missing: false }), "192.0.2.3")).toEqual({
      ok: false,
      cause: "refused",
      message: "Memory: record new.example.com A does not exist and create_if_missing is false",
    });
    expect(calls.some((c) => c.startsWith("create"))).toBe(false);
  });

  test("a zone known only by a configured id is named before anything is created in it", async () => {
    const { client, calls } = memoryService({ z1: "example.com", z2: "other.org" });
    expect(await client.writeRecord(target("new.example.com", { zone_id: "z2" }), "192.0.2.3")).toEqual({
      ok: false,
      cause: "refused",
      message: "Memory: zone z2 is other.org, which does not hold new.example.com; correct config.zone_id or remove it",
    });
    expect(calls).toEqual(["findZone z2", "read new.example.com A", "zoneName z2"]);
  });

  test("a stale configured zone is looked up again, once", async () => {
    const { client, calls, stored } = memoryService(
      { z1: "example.com" },
      { "home.example.com A": { id: "r9", values: ["192.0.2.1"], ttl: 300 } },
    );
    expect(await client.writeRecord(target("home.example.com", { zone_id: "gone" }), "192.0.2.2")).toMatchObject({
      ok: true,
      action: "updated",
      zoneId: "z1",
    });
    expect(calls).toEqual([
      "findZone gone",
      "read home.example.com A",
      "findZone",
      "read home.example.com A",
      "update home.example.com A",
    ]);
    expect(stored.get("home.example.com A")?.values).toEqual(["192.0.2.2"]);
  });

  test("a failure is passed on without the reconciler's own marks", async () => {
    const { client } = memoryService({});
    expect(await client.writeRecord(target("home.example.com", { zone_id: "gone" }), "192.0.2.2")).toEqual({
      ok: false,
      cause: "refused",
      message: "Memory: no zone for home.example.com",
    });
  });
});

/** A service whose zone id is its name, offering only the listing: the reconciler searches it. */
function listingService(names: string[], zoneOwner?: string) {
  const calls: string[] = [];
  const written: string[] = [];
  const api: ZoneApi = {
    service: "Listing",
    ...(zoneOwner ? { zoneOwner } : {}),
    verify: async () => ({ ok: true, detail: "fine" }),
    async listZones() {
      calls.push("list");
      return { ok: true, value: zonesNamed(names) };
    },
    async readRecordSet(zone, hostname, type) {
      calls.push(`read ${zone.id} ${hostname} ${type}`);
      return { ok: true, value: null };
    },
    updateRecordSet: async () => ({ ok: false, cause: "refused", message: "not here" }),
    async createRecordSet(zone, hostname, _type, address) {
      written.push(`${zone.id} ${hostname}`);
      return { ok: true, value: { id: "r1", values: [address] } };
    },
  };
  return { api, client: zoneClient(api), calls, written };
}

describe("the zone search over a service's zone listing", () => {
  test("the longest listed zone holding the name wins, compared lowercase without a trailing dot", async () => {
    const { client, calls, written } = listingService(["Example.com.", "b.example.com", "example.org"]);
    expect(await client.writeRecord(target("a.b.example.com"), "192.0.2.3")).toMatchObject({
      ok: true,
      action: "created",
      zoneId: "b.example.com",
    });
    expect(calls).toEqual(["list", "read b.example.com a.b.example.com A"]);
    expect(written).toEqual(["b.example.com a.b.example.com"]);
  });

  test("a zone is never a mere suffix: notexample.com does not hold home.example.com", async () => {
    const { client } = listingService(["notexample.com"]);
    expect(await client.writeRecord(target("home.example.com"), "192.0.2.3")).toEqual({
      ok: false,
      cause: "refused",
      message: "Listing: no zone of this account holds home.example.com",
    });
  });

  test("the refusal names whose zones were searched when the service says", async () => {
    const { client } = listingService([], "this project");
    expect(await client.writeRecord(target("home.example.com"), "192.0.2.3")).toMatchObject({
      message: "Listing: no zone of this project holds home.example.com",
    });
  });

  test("a configured zone is used without listing, and one that does not hold the name is refused", async () => {
    const { client, calls } = listingService(["example.com"]);
    expect(
      await client.writeRecord(target("home.example.com", { zone_id: " Example.com " }), "192.0.2.3"),
    ).toMatchObject({ ok: true, zoneId: "example.com" });
    expect(calls).toEqual(["read example.com home.example.com A"]);
    expect(await client.writeRecord(target("home.example.com", { zone_id: "other.org" }), "192.0.2.3")).toEqual({
      ok: false,
      cause: "refused",
      message: "Listing: config.zone_id other.org does not hold home.example.com; correct config.zone_id or remove it",
    });
  });

  test("a service offering no zone listing, no zone probe and no search of its own is refused when its client is built", () => {
    const { listZones: _, ...bare } = listingService([]).api;
    expect(() => zoneClient({ ...bare, service: "None" })).toThrow(
      "None: a zone service offers listZones, hasZone or findZone",
    );
  });
});

describe("the zone search over a service that answers for one name at a time", () => {
  function probingService(zones: string[], failOn?: string, noZoneHint?: ZoneApi["noZoneHint"]) {
    const asked: string[] = [];
    const api: ZoneApi = {
      service: "Probe",
      ...(noZoneHint ? { noZoneHint } : {}),
      verify: async () => ({ ok: true, detail: "fine" }),
      async hasZone(name) {
        asked.push(name);
        if (name === failOn) return { ok: false, cause: "credentials", message: "Probe: key refused" };
        return { ok: true, value: zones.includes(name) };
      },
      readRecordSet: async () => ({ ok: true, value: null }),
      updateRecordSet: async () => ({ ok: false, cause: "refused", message: "not here" }),
      createRecordSet: async (_zone, _hostname, _type, address) => ({
        ok: true,
        value: { id: "r1", values: [address] },
      }),
    };
    return { client: zoneClient(api), asked };
  }

  test("the hostname and each parent are asked, longest first, until one is the account's", async () => {
    const { client, asked } = probingService(["example.com", "b.example.com"]);
    expect(await client.writeRecord(target("a.b.example.com"), "192.0.2.3")).toMatchObject({
      ok: true,
      zoneId: "b.example.com",
    });
    expect(asked).toEqual(["a.b.example.com", "b.example.com"]);
  });

  test("none of them: the one refusal; a failed question ends the search with its failure", async () => {
    const none = probingService([]);
    expect(await none.client.writeRecord(target("home.example.com"), "192.0.2.3")).toEqual({
      ok: false,
      cause: "refused",
      message: "Probe: no zone of this account holds home.example.com",
    });
    expect(none.asked).toEqual(["home.example.com", "example.com"]);
    const refused = probingService(["example.com"], "home.example.com");
    expect(await refused.client.writeRecord(target("home.example.com"), "192.0.2.3")).toEqual({
      ok: false,
      cause: "credentials",
      message: "Probe: key refused",
    });
    expect(refused.asked).toEqual(["home.example.com"]);
  });

  test("the service's hint for the names it was asked about follows the refusal", async () => {
    const { client } = probingService([], undefined, (hostname) => ` (asked about ${hostname} and its parents)`);
    expect(await client.writeRecord(target("home.example.com"), "192.0.2.3")).toEqual({
      ok: false,
      cause: "refused",
      message: "Probe: no zone of this account holds home.example.com (asked about home.example.com and its parents)",
    });
  });
});

describe("one ACME challenge value (docs/certificates.md)", () => {
  /** The memory service with TXT values by name: adds and removes are logged, and take one value each. */
  function txtService(values: Record<string, string[]>) {
    const { api, calls } = memoryService({ z1: "example.com" });
    const held = new Map(Object.entries(values).map(([name, list]) => [name, [...list]]));
    const txt: TxtApi = {
      async read(_zone, name) {
        calls.push(`read ${name} TXT`);
        return { ok: true, value: [...(held.get(name) ?? [])] };
      },
      async add(_zone, name, _current, value) {
        calls.push(`add ${name} ${value}`);
        held.set(name, [...(held.get(name) ?? []), value]);
        return { ok: true, value: undefined };
      },
      async remove(_zone, name, _current, value) {
        calls.push(`remove ${name} ${value}`);
        held.set(
          name,
          (held.get(name) ?? []).filter((v) => v !== value),
        );
        return { ok: true, value: undefined };
      },
    };
    return { client: zoneClient(api, txt), calls, held };
  }
  const NAME = "_acme-challenge.home.example.com";
  const change = (action: "add" | "remove", value: string) => ({
    hostname: "home.example.com",
    name: NAME,
    value,
    action,
    config: {},
    written: [],
  });

  test.each([
    ["add beside another value", "add", ["keep"], "new", ["keep", "new"], true],
    ["add of a value already there: nothing written", "add", ["keep", "new"], "new", ["keep", "new"], false],
    ["remove of exactly that value", "remove", ["keep", "new"], "new", ["keep"], true],
    ["remove of a value not there: nothing written", "remove", ["keep"], "new", ["keep"], false],
  ] as const)("%s", async (_name, action, before, value, after, writes) => {
    const { client, calls, held } = txtService({ [NAME]: [...before] });
    const outcome = await client.writeTxt!(change(action, value));
    expect(outcome).toMatchObject({ ok: true, action: writes ? "updated" : "unchanged", zoneId: "z1" });
    expect(held.get(NAME)).toEqual([...after]);
    // Read first, always; at most one write, and of that one value.
    expect(calls).toEqual(["findZone", `read ${NAME} TXT`, ...(writes ? [`${action} ${NAME} ${value}`] : [])]);
  });

  test("a service without TXT primitives offers no writeTxt", () => {
    expect(zoneClient(memoryService({ z1: "example.com" }).api).writeTxt).toBeUndefined();
  });
});
