// The dynv6 REST client against its fake: records changed by a PATCH naming only their data, the
// apex through the zone's own field, nothing written twice, nothing deleted, and dynv6's refusals.

import { describe, expect, test } from "bun:test";
import type { RecordType } from "../../src/dns/provider";
import { DYNV6_FAKE_TOKEN, startDynv6Fake } from "../fakes/dynv6";
import { serviceClient, target as targetOf, useFake } from "./support";

const OLD_V4 = "198.51.100.1";
const NEW_V4 = "203.0.113.7";
const OLD_V6 = "2001:db8::1";
const NEW_V6 = "2001:db8::7";

const fake = useFake(startDynv6Fake, (fake) => {
  fake.addZone("home.dynv6.net", { ipv4address: OLD_V4, ipv6prefix: OLD_V6 });
  fake.addRecord("home.dynv6.net", { name: "nas", type: "A", data: OLD_V4 });
  fake.addRecord("home.dynv6.net", { name: "nas", type: "AAAA", data: OLD_V6 });
  fake.addRecord("home.dynv6.net", { name: "", type: "MX", data: "mail.example.net." });
});
const client = () => serviceClient("dynv6", fake.url, { token: DYNV6_FAKE_TOKEN });
const target = (hostname: string, recordType: RecordType = "A", config = {}) =>
  targetOf(hostname, config, { recordType });
const lines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const zone = () => fake.zoneNamed("home.dynv6.net")!;

describe("verify", () => {
  test("a working token is accepted without a write", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (1 zone)" });
    expect(lines()).toEqual(["GET /zones"]);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${DYNV6_FAKE_TOKEN}`);
  });
});

describe("a record in the zone", () => {
  test("found by listing zones and records, then PATCHed with its data only; an AAAA in a saved zone read by id", async () => {
    const outcome = await client().writeRecord(target("nas.home.dynv6.net"), NEW_V4);
    const record = fake.recordsOf("home.dynv6.net", "nas", "A")[0]!;
    expect(outcome).toMatchObject({
      ok: true,
      action: "updated",
      externalId: String(record.id),
      zoneId: String(zone().id),
    });
    expect(lines()).toEqual([
      "GET /zones",
      `GET /zones/${zone().id}/records`,
      `PATCH /zones/${zone().id}/records/${record.id}`,
    ]);
    expect(fake.requests[2]?.body).toEqual({ data: NEW_V4 });
    expect(record.data).toBe(NEW_V4);
    // The other family and the zone's apex are untouched.
    expect(fake.recordsOf("home.dynv6.net", "nas", "AAAA")[0]?.data).toBe(OLD_V6);
    expect([zone().ipv4address, zone().ipv6prefix]).toEqual([OLD_V4, OLD_V6]);

    // An AAAA, with the zone id saved by the earlier write: the zone is read by id.
    fake.clearRequests();
    const known = { zone_id: String(zone().id) };
    expect(await client().writeRecord(target("nas.home.dynv6.net", "AAAA", known), NEW_V6)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(lines()[0]).toBe(`GET /zones/${zone().id}`);
    expect(fake.recordsOf("home.dynv6.net", "nas", "AAAA")[0]?.data).toBe(NEW_V6);
  });

  test("a missing record is created with its relative name; nothing is deleted", async () => {
    const before = zone().records.length;
    const outcome = await client().writeRecord(target("pi.home.dynv6.net"), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", body: { name: "pi", type: "A", data: NEW_V4 } });
    expect(zone().records).toHaveLength(before + 1);
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
  });

  // dynv6 expands an AAAA record's `data` behind the zone's IPv6 prefix when it is a MAC address or
  // an interface id, and lists the result as `expandedData` (api-spec models/record.yml).
  for (const [kind, data] of [
    ["a MAC address", "02:11:22:33:44:55"],
    ["an interface id", "::11:22ff:fe33:4455"],
  ] as const) {
    test(`an AAAA record whose data is ${kind} following the zone's prefix is left alone, for good`, async () => {
      fake.addRecord("home.dynv6.net", { name: "tv", type: "AAAA", data, expandedData: "2001:db8::11:22ff:fe33:4455" });
      const outcome = await client().writeRecord(target("tv.home.dynv6.net", "AAAA"), NEW_V6);
      expect(outcome).toMatchObject({
        ok: false,
        cause: "refused",
        stopRetrying: true,
        message: expect.stringContaining(data),
      });
      expect(fake.writes()).toBe(0);
      expect(fake.recordsOf("home.dynv6.net", "tv", "AAAA")[0]?.data).toBe(data);
    });
  }
});

describe("the apex: the zone's own field", () => {
  test("A: a PATCH of the zone naming ipv4address only, the AAAA staying; AAAA: ipv6prefix only", async () => {
    const outcome = await client().writeRecord(target("home.dynv6.net"), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: "zone/ipv4address" });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "PATCH",
      path: `/zones/${zone().id}`,
      body: { ipv4address: NEW_V4 },
    });
    expect([zone().ipv4address, zone().ipv6prefix]).toEqual([NEW_V4, OLD_V6]);
    expect(zone().records).toHaveLength(3);
    expect(await client().writeRecord(target("home.dynv6.net", "AAAA"), NEW_V6)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(fake.requests.at(-1)?.body).toEqual({ ipv6prefix: NEW_V6 });
    expect([zone().ipv4address, zone().ipv6prefix]).toEqual([NEW_V4, NEW_V6]);
  });

  test("an empty field is set when records may be created, not otherwise", async () => {
    zone().ipv4address = "";
    expect(
      await client().writeRecord(target("home.dynv6.net", "A", { create_if_missing: false }), NEW_V4),
    ).toMatchObject({ ok: false });
    expect(fake.writes()).toBe(0);
    expect(await client().writeRecord(target("home.dynv6.net"), NEW_V4)).toMatchObject({ ok: true, action: "created" });
    expect(zone().ipv4address).toBe(NEW_V4);
  });

  test("a zone holding an IPv6 prefix is never given an address in its place", async () => {
    zone().ipv6prefix = "2001:db8:1::/64";
    const outcome = await client().writeRecord(target("home.dynv6.net", "AAAA"), NEW_V6);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: expect.stringContaining("IPv6 prefix 2001:db8:1::/64"),
    });
    expect(fake.writes()).toBe(0);
    expect(zone().ipv6prefix).toBe("2001:db8:1::/64");
  });
});

describe("several addresses for one name", () => {
  const set = { addressSet: { wanted: [NEW_V4, "203.0.113.8"], published: null } };

  test("a name under the zone holds them as records of its own, the old one reused", async () => {
    expect(
      await client().writeRecord(targetOf("nas.home.dynv6.net", {}, { recordType: "A", ...set }), NEW_V4),
    ).toMatchObject({ ok: true, action: "updated", removed: [OLD_V4] });
    expect(fake.recordsOf("home.dynv6.net", "nas", "A").map((r) => r.data)).toEqual([NEW_V4, "203.0.113.8"]);
    expect(fake.recordsOf("home.dynv6.net", "nas", "AAAA").map((r) => r.data)).toEqual([OLD_V6]);
  });

  test("the zone's own name holds one address: a set there is refused, nothing written", async () => {
    const written = await client().writeRecord(targetOf("home.dynv6.net", {}, { recordType: "A", ...set }), NEW_V4);
    expect(written).toMatchObject({ ok: false, cause: "refused" });
    expect(written.ok ? "" : written.message).toContain("the zone's own name holds one A address");
    expect(zone().ipv4address).toBe(OLD_V4);
    expect(fake.writes()).toBe(0);
  });
});
