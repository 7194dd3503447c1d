// The NS1 client against its fake: the record read by zone, full name and type; an update that sends
// only the answer list (the answer's meta kept) and leaves the TTL, filters and record meta alone; a
// record that links elsewhere left alone; and every failure NS1 can give, in its own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createNs1Api, nextPage, ns1 } from "../../src/dns/services/ns1";
import { NS1_FAKE_KEY, NS1_ZONE_DEFAULT_TTL, type Ns1Fake, type Ns1Fault, startNs1Fake } from "../fakes/ns1";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: Ns1Fake;

beforeEach(() => {
  fake = startNs1Fake();
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

afterEach(async () => {
  await fake.stop();
});

function client(options: { key?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createNs1Api(
      { api_key: options.key ?? NS1_FAKE_KEY },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home.example.com", "A")!;
const addresses = (zone: string, domain: string, type: string) =>
  fake.record(zone, domain, type)?.answers.map((a) => a.answer[0]);
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("names the sealed key, the record types, a pace under the documented limits and the real service", () => {
    expect(ns1.type).toBe("ns1");
    expect(ns1.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
    expect(ns1.recordTypes).toEqual(["A", "AAAA"]);
    expect(ns1.defaultApiUrl).toBe("https://api.nsone.net/v1");
    // Under the POST bucket NS1 documents as an example: 300 per 300 s.
    for (const limit of ns1.rateLimits ?? []) expect(limit.requests / limit.perSeconds).toBeLessThan(1);
  });
});

describe("verify", () => {
  test("a valid key is accepted, read-only", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 zone)" });
    expect(requestLines()).toEqual(["GET /zones"]);
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the zone, reads the record and POSTs only its answers: three requests", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home.example.com/A",
      zoneId: "example.com",
      message: "NS1 record home.example.com/A, ttl 1800",
    });
    expect(requestLines()).toEqual([
      "GET /zones",
      "GET /zones/example.com/home.example.com/A",
      "POST /zones/example.com/home.example.com/A",
    ]);
    expect(fake.requests[2]?.body).toEqual({ answers: [{ answer: [NEW_IP], meta: { note: "the NAS" } }] });
  });

  test("the TTL, the filter chain and the answer's meta stay", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(home()).toMatchObject({
      ttl: 1800,
      filters: [{ filter: "up", config: {} }],
      answers: [{ answer: [NEW_IP], meta: { note: "the NAS" } }],
    });
  });

  test("steady state (zone known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /zones/example.com/home.example.com/A",
      "POST /zones/example.com/home.example.com/A",
    ]);
  });

  test("a TTL from config is sent with the answers", async () => {
    await client().writeRecord(target("home.example.com", { ...known, ttl: 60 }), NEW_IP);
    expect(fake.requests.at(-1)?.body).toMatchObject({ ttl: 60 });
    expect(home().ttl).toBe(60);
  });

  test("nothing else in the zone is touched and nothing is deleted", async () => {
    const others = () => structuredClone(fake.zones.get("example.com")!.records.filter((r) => r !== home()));
    const before = others();
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(others()).toEqual(before);
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
  });

  test("a record that links to another one is left alone, and says which", async () => {
    fake.addRecord("example.com", {
      domain: "alias.example.com",
      type: "A",
      answers: [OLD_IP],
      link: "home.example.com",
    });
    const outcome = await client().writeRecord(target("alias.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message:
        "NS1: alias.example.com A links to home.example.com, whose answers it serves; ddnsd changes only a record with its own answer — update home.example.com instead",
    });
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with a PUT; without a TTL from config it gets the zone's default", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    expect(outcome).toEqual({
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
});

describe("zone discovery", () => {
  test("the longest zone holding the name wins; a secondary zone is not NS1's to change", async () => {
    fake.addZone("sub.example.com", { secondary: true });
    fake.addZone("b.example.com");
    const outcome = await client().writeRecord(target("x.sub.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "example.com" });
    const nested = await client().writeRecord(target("x.b.example.com"), NEW_IP);
    expect(nested).toMatchObject({ ok: true, action: "created", zoneId: "b.example.com" });
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
    expect(nextPage('<https://api.nsone.net/v1/zones?after=a.com>; rel="next"', "https://api.nsone.net/v1")).toBe(
      "/zones?after=a.com",
    );
    expect(nextPage('<http://api.nsone.net/v1/zones?after=a.com>; rel="next"', "https://api.nsone.net/v1")).toBe(
      "/zones?after=a.com",
    );
    expect(nextPage('<https://elsewhere.example/v1/zones>; rel="next"', "https://api.nsone.net/v1")).toBeUndefined();
    expect(
      nextPage('<https://api.nsone.net/v1/zones?after=a.com>; rel="prev"', "https://api.nsone.net/v1"),
    ).toBeUndefined();
    expect(nextPage(null, "https://api.nsone.net/v1")).toBeUndefined();
  });

  test("a key limited to other zones finds none", async () => {
    fake.keys.set("limited", new Set(["other.org"]));
    expect(await client({ key: "limited" }).writeRecord(target("home.example.com"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "NS1: no zone of this account holds home.example.com",
    });
  });
});

describe("failures keep NS1's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: Ns1Fault;
    key?: string;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "a key without the permission",
      fault: { status: 403, message: "insufficient permissions" },
      message: "NS1: insufficient permissions (HTTP 403)",
      stopRetrying: true,
      cause: "credentials",
    },
    { name: "429", fault: { status: 429 }, message: "NS1: rate limit exceeded (HTTP 429)", cause: "throttled" },
    { name: "500", fault: { status: 500 }, message: "NS1: internal server error (HTTP 500)", cause: "unreachable" },
  ];
  failureTests(
    cases,
    async ({ fault, key }) => {
      if (fault) fake.fault(fault);
      return client({ key, timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(addresses("example.com", "home.example.com", "A")).toEqual([OLD_IP]);
    },
  );

  test("a refused POST is reported in NS1's words; the record stays", async () => {
    fake.fault({ status: 400, message: "zone is locked" }, 1, (r) => r.method === "POST");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "NS1: zone is locked (HTTP 400)" });
    expect(home()).toMatchObject({ ttl: 1800, answers: [{ answer: [OLD_IP] }] });
  });
});
