// The NS1 client against its fake: the record read by zone, full name and type; an update that sends
// only the answer list (the answer's meta kept) and leaves the TTL, filters and record meta alone; a
// record that links elsewhere left alone; and every failure NS1 can give, in its own words.

import { describe, expect, test } from "bun:test";
import { nextPage, ns1 } from "../../src/dns/services/ns1";
import { NS1_FAKE_KEY, NS1_ZONE_DEFAULT_TTL, type Ns1Fault, startNs1Fake } from "../fakes/ns1";
import { type FailureCase, fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startNs1Fake, (fake) => {
  fake.addZone("example.com");
  fake.addRecord("example.com", {
    domain: "home.example.com",
    type: "A",
    answers: [OLD_IP],
    ttl: 1800,
    meta: { note: "the NAS" },
    filters: [{ filter: "up", config: {} }],
  });
  fake.addRecord("example.com", { domain: "example.com", type: "A", answers: [OLD_IP], ttl: 600 });
  fake.addRecord("example.com", { domain: "home.example.com", type: "AAAA", answers: ["2001:db8::1"], ttl: 900 });
});
const client = (key = NS1_FAKE_KEY) => serviceClient("ns1", fake.url, { api_key: key });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home.example.com", "A")!;
const known = { zone_id: "example.com" };

test("the description names the sealed key, the record types, a pace under the documented limits and the real service", () => {
  expect(ns1).toMatchObject({ type: "ns1", recordTypes: ["A", "AAAA"], defaultApiUrl: "https://api.nsone.net/v1" });
  expect(ns1.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
  // Under the POST bucket NS1 documents as an example: 300 per 300 s.
  for (const limit of ns1.rateLimits ?? []) expect(limit.requests / limit.perSeconds).toBeLessThan(1);
});

test("verify: a valid key is accepted, read-only", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 zone)" });
  expect(requestLines()).toEqual(["GET /zones"]);
});

describe("writeRecord on an existing record", () => {
  test("finds the zone, reads the record, POSTs only its answers; TTL, filters, meta and the rest of the zone stay; then one read and one write", async () => {
    const others = () => structuredClone(fake.zones.get("example.com")!.records.filter((r) => r !== home()));
    const before = others();
    expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
      ok: true,
      action: "updated",
      externalId: "home.example.com/A",
      zoneId: "example.com",
      message: "NS1 record home.example.com/A, ttl 1800",
    });
    expect(fake.requests[2]?.body).toEqual({ answers: [{ answer: [NEW_IP], meta: { note: "the NAS" } }] });
    expect(home()).toMatchObject({
      ttl: 1800,
      filters: [{ filter: "up", config: {} }],
      answers: [{ answer: [NEW_IP], meta: { note: "the NAS" } }],
    });
    expect(others()).toEqual(before);
    await client().writeRecord(target("home.example.com", known), OLD_IP);
    expect(requestLines()).toEqual([
      "GET /zones",
      "GET /zones/example.com/home.example.com/A",
      "POST /zones/example.com/home.example.com/A",
      "GET /zones/example.com/home.example.com/A",
      "POST /zones/example.com/home.example.com/A",
    ]);
  });

  test("a record that links to another one is left alone, and says which", async () => {
    fake.addRecord("example.com", {
      domain: "alias.example.com",
      type: "A",
      answers: [OLD_IP],
      link: "home.example.com",
    });
    expect(await client().writeRecord(target("alias.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message:
        "NS1: alias.example.com A links to home.example.com, whose answers it serves; ddnsd changes only a record with its own answer — update home.example.com instead",
    });
    expect(fake.writes()).toBe(0);
  });
});

test("a missing record is created with a PUT; without a TTL from config it gets the zone's default", async () => {
  expect(withoutHeld(await client().writeRecord(target("new.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "created",
    externalId: "new.example.com/A",
    zoneId: "example.com",
    message: `NS1 record new.example.com/A, ttl ${NS1_ZONE_DEFAULT_TTL}`,
  });
  expect(fake.requests.at(-1)).toMatchObject({
    method: "PUT",
    path: "/zones/example.com/new.example.com/A",
    body: { zone: "example.com", domain: "new.example.com", type: "A", answers: [{ answer: [NEW_IP] }] },
  });
  expect(fake.record("example.com", "new.example.com", "A")?.ttl).toBe(NS1_ZONE_DEFAULT_TTL);
});

describe("zone discovery", () => {
  test("a secondary zone is not NS1's to change: the name is written in the zone above", async () => {
    fake.addZone("sub.example.com", { secondary: true });
    const outcome = await client().writeRecord(target("x.sub.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "example.com" });
  });

  test("the zone list is followed page by page through its Link headers", async () => {
    for (let i = 0; i < 5; i++) fake.addZone(`d${i}.net`);
    fake.addZone("zz.org");
    fake.zonesPerPage = 2;
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "zz.org" });
    expect(fake.requests.filter((r) => r.path === "/zones").map((r) => r.query.after ?? "")).toEqual([
      "",
      "d0.net",
      "d2.net",
      "d4.net",
    ]);
  });

  test("a next page outside the API is never followed with the key", () => {
    const api = "https://api.nsone.net/v1";
    expect(nextPage(`<${api}/zones?after=a.com>; rel="next"`, api)).toBe("/zones?after=a.com");
    expect(nextPage('<http://api.nsone.net/v1/zones?after=a.com>; rel="next"', api)).toBe("/zones?after=a.com");
    expect(nextPage('<https://elsewhere.example/v1/zones>; rel="next"', api)).toBeUndefined();
    expect(nextPage(`<${api}/zones?after=a.com>; rel="prev"`, api)).toBeUndefined();
    expect(nextPage(null, api)).toBeUndefined();
  });

  test("a key limited to other zones finds none", async () => {
    fake.keys.set("limited", new Set(["other.org"]));
    expect(await client("limited").writeRecord(target("home.example.com"), NEW_IP)).toMatchObject({
      ok: false,
      cause: "refused",
      message: "NS1: no zone of this account holds home.example.com",
    });
  });
});

describe("failures keep NS1's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: Ns1Fault }>(
    [
      // A key without the permission.
      fails(
        { status: 403, message: "insufficient permissions" },
        "NS1: insufficient permissions (HTTP 403)",
        "credentials",
        STOP,
      ),
      fails({ status: 429 }, "NS1: rate limit exceeded (HTTP 429)", "throttled"),
      fails({ status: 500 }, "NS1: internal server error (HTTP 500)", "unreachable"),
    ],
    ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject({ ttl: 1800, answers: [{ answer: [OLD_IP] }] });
    },
  );
});
