// The dynv6 REST client against its fake: records changed by a PATCH naming only their data, the
// apex through the zone's own field, nothing written twice, nothing deleted, and dynv6's refusals.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget, RecordType } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createDynv6Api } from "../../src/dns/services/dynv6";
import { DYNV6_FAKE_TOKEN, type Dynv6Fake, startDynv6Fake } from "../fakes/dynv6";

const OLD_V4 = "198.51.100.1";
const NEW_V4 = "203.0.113.7";
const OLD_V6 = "2001:db8::1";
const NEW_V6 = "2001:db8::7";

let fake: Dynv6Fake;

beforeEach(() => {
  fake = startDynv6Fake();
  fake.addZone("home.dynv6.net", { ipv4address: OLD_V4, ipv6prefix: OLD_V6 });
  fake.addRecord("home.dynv6.net", { name: "nas", type: "A", data: OLD_V4 });
  fake.addRecord("home.dynv6.net", { name: "nas", type: "AAAA", data: OLD_V6 });
  fake.addRecord("home.dynv6.net", { name: "", type: "MX", data: "mail.example.net." });
});

afterEach(async () => {
  await fake.stop();
});

function client(token = DYNV6_FAKE_TOKEN) {
  return zoneClient(createDynv6Api({ token }, { baseUrl: fake.url, fetch, timeoutMs: 2000, userAgent: "ddnsd/test" }));
}

function target(hostname: string, recordType: RecordType = "A", config: RecordConfig = {}): RecordTarget {
  return { hostname, recordType, externalId: null, config };
}

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
  test("found by listing zones and records, then PATCHed with its data only", async () => {
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
  });

  test("AAAA, with the zone id saved by an earlier write: the zone is read by id", async () => {
    const outcome = await client().writeRecord(
      target("nas.home.dynv6.net", "AAAA", { zone_id: String(zone().id) }),
      NEW_V6,
    );
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(lines()[0]).toBe(`GET /zones/${zone().id}`);
    expect(fake.recordsOf("home.dynv6.net", "nas", "AAAA")[0]?.data).toBe(NEW_V6);
  });

  test("a record that already holds the address is not written", async () => {
    const outcome = await client().writeRecord(target("nas.home.dynv6.net"), OLD_V4);
    expect(outcome).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.writes()).toBe(0);
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
  test("A: a PATCH of the zone naming ipv4address only; the AAAA stays", async () => {
    const outcome = await client().writeRecord(target("home.dynv6.net"), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: "zone/ipv4address" });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "PATCH",
      path: `/zones/${zone().id}`,
      body: { ipv4address: NEW_V4 },
    });
    expect([zone().ipv4address, zone().ipv6prefix]).toEqual([NEW_V4, OLD_V6]);
    expect(zone().records).toHaveLength(3);
  });

  test("AAAA: ipv6prefix only; an address already there is not written", async () => {
    expect(await client().writeRecord(target("home.dynv6.net", "AAAA"), NEW_V6)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(fake.requests.at(-1)?.body).toEqual({ ipv6prefix: NEW_V6 });
    fake.clearRequests();
    expect(await client().writeRecord(target("home.dynv6.net", "AAAA"), "2001:DB8:0::7")).toMatchObject({
      ok: true,
      action: "unchanged",
    });
    expect(fake.writes()).toBe(0);
    expect(zone().ipv4address).toBe(OLD_V4);
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

describe("failures", () => {
  test("a wrong token stops retrying", async () => {
    const outcome = await client("wrong").writeRecord(target("nas.home.dynv6.net"), NEW_V4);
    expect(outcome).toMatchObject({ ok: false, cause: "credentials", stopRetrying: true });
    expect(fake.writes()).toBe(0);
  });

  test("a 429 is a slow-down with the wait it names", async () => {
    fake.fault({ status: 429, retryAfter: 90 });
    expect(await client().writeRecord(target("nas.home.dynv6.net"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "throttled",
      retryAfterSeconds: 90,
    });
  });

  test("a validation error is refused in dynv6's words", async () => {
    fake.fault({ status: 422, message: "Validation failed" }, 1, (r) => r.method === "PATCH");
    const outcome = await client().writeRecord(target("nas.home.dynv6.net"), NEW_V4);
    expect(outcome).toMatchObject({ ok: false, cause: "refused", message: "dynv6: Validation failed (HTTP 422)" });
  });

  test("a gateway's error page is no usable answer", async () => {
    fake.fault("html");
    expect(await client().writeRecord(target("nas.home.dynv6.net"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "unreachable",
    });
  });
});
