// The DNSimple client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure DNSimple can give ends up as DNSimple's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createDnsimpleApi } from "../../src/dns/services/dnsimple";
import {
  DNSIMPLE_FAKE_ACCOUNT,
  DNSIMPLE_FAKE_TOKEN,
  type DnsimpleFake,
  type DnsimpleFault,
  startDnsimpleFake,
} from "../fakes/dnsimple";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const A = `/${DNSIMPLE_FAKE_ACCOUNT}`;

let fake: DnsimpleFake;

beforeEach(() => {
  fake = startDnsimpleFake();
  fake.addZone("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", content: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { name: "", type: "A", content: OLD_IP, ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; accountId?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createDnsimpleApi(
      { account_id: options.accountId ?? DNSIMPLE_FAKE_ACCOUNT, token: options.token ?? DNSIMPLE_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("verify", () => {
  test("a valid token for the account is accepted, read-only, with the zone count", async () => {
    fake.addZone("other.org");
    expect(await client().verify()).toEqual({
      ok: true,
      detail: `Token accepted (2 zones in account ${DNSIMPLE_FAKE_ACCOUNT})`,
    });
    expect(requestLines()).toEqual([`GET ${A}/zones`]);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${DNSIMPLE_FAKE_TOKEN}`);
    expect(fake.writes()).toBe(0);
  });

  test("a wrong token, and a token for another account, are refused in DNSimple's words", async () => {
    expect(await client({ token: "wrong" }).verify()).toMatchObject({
      ok: false,
      detail: "DNSimple: Authentication failed (HTTP 401)",
    });
    expect(await client({ accountId: "999" }).verify()).toMatchObject({
      ok: false,
      detail: "DNSimple: Account `999` not found (HTTP 404)",
    });
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the zone, reads the name's records, and PATCHes only the address: three requests", async () => {
    const id = String(home()!.id);
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: "example.com",
      message: `DNSimple record ${id}, ttl 1800`,
    });
    expect(home()).toMatchObject({ content: NEW_IP, ttl: 1800 });
    expect(requestLines()).toEqual([
      `GET ${A}/zones`,
      `GET ${A}/zones/example.com/records`,
      `PATCH ${A}/zones/example.com/records/${id}`,
    ]);
    expect(fake.requests[1]?.query).toEqual({ name: "home", type: "A", page: "1", per_page: "100" });
    expect(fake.requests[2]?.body).toEqual({ content: NEW_IP });
  });

  test("steady state (zone known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual([
      `GET ${A}/zones/example.com/records`,
      `PATCH ${A}/zones/example.com/records/${home()!.id}`,
    ]);
  });

  test("a TTL from config is sent; the same address with another TTL is written", async () => {
    await client().writeRecord(target("home.example.com", { ...known, ttl: 900 }), OLD_IP);
    expect(home()).toMatchObject({ content: OLD_IP, ttl: 900 });
    expect(fake.requests.at(-1)?.body).toEqual({ content: OLD_IP, ttl: 900 });
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 3600", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.record("example.com", "new", "A");
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: String(created!.id),
      zoneId: "example.com",
      message: `DNSimple record ${created!.id}, ttl 3600`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({ name: "new", type: "A", content: NEW_IP, ttl: 3600 });
  });

  test("a TTL DNSimple refuses is reported in its words", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { ttl: 30 }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "DNSimple: Validation failed; ttl: must be greater than or equal to 60 (HTTP 400)",
    });
  });
});

describe("zone discovery", () => {
  test("the longest zone at a label boundary wins; secondary zones are skipped", async () => {
    fake.addZone("b.example.com");
    fake.addZone("a.b.example.com", { secondary: true });
    fake.addZone("ample.com");
    const outcome = await client().writeRecord(target("x.a.b.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "b.example.com" });
    expect(fake.record("b.example.com", "x.a", "A")?.content).toBe(NEW_IP);
  });

  test("the zone listing is followed page by page", async () => {
    for (let i = 0; i < 120; i++) fake.addZone(`d${String(i).padStart(3, "0")}.net`);
    fake.addZone("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "zz.org" });
    expect(fake.requests.filter((r) => r.path === `${A}/zones`).map((r) => r.query.page)).toEqual(["1", "2"]);
  });
});

describe("failures keep DNSimple's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: DnsimpleFault; token?: string })[] = [
    {
      name: "token without the right",
      fault: { status: 403 },
      message: "DNSimple: Permission Denied (HTTP 403)",
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "429 with neither header names no wait",
      fault: { status: 429, reset: false },
      message: "DNSimple: API rate limit exceeded (HTTP 429)",
      cause: "throttled",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "DNSimple: Internal server error (HTTP 500)",
      cause: "unreachable",
    },
  ];
  failureTests(
    cases,
    async ({ fault, token }) => {
      if (fault) fake.fault(fault);
      return client({ token, timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.content).toBe(OLD_IP);
    },
  );

  test("a 429 naming only the end of its window (X-RateLimit-Reset) pauses until then", async () => {
    fake.fault({ status: 429, resetInSeconds: 1800 });
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "throttled",
      message: "DNSimple: API rate limit exceeded (HTTP 429)",
    });
    const wait = outcome.ok ? undefined : outcome.retryAfterSeconds;
    expect(wait).toBeGreaterThanOrEqual(1795);
    expect(wait).toBeLessThanOrEqual(1801);
  });

  test("a refused PATCH is reported in DNSimple's words; the record stays", async () => {
    fake.fault({ status: 400, message: "Zone is locked" }, 1, (r) => r.method === "PATCH");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "DNSimple: Zone is locked (HTTP 400)" });
    expect(home()).toMatchObject({ content: OLD_IP, ttl: 1800 });
  });
});
