// The Bunny DNS client against its fake: what it changes, what it keeps, how many requests it
// spends, and how every failure bunny.net can give ends up as its own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createBunnyApi } from "../../src/dns/services/bunny";
import { BUNNY_FAKE_API_KEY, type BunnyFake, type BunnyFault, type BunnyZone, startBunnyFake } from "../fakes/bunny";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: BunnyFake;
let example: BunnyZone;

beforeEach(() => {
  fake = startBunnyFake();
  example = fake.addZone("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", value: OLD_IP, ttl: 1800, comment: "the house" });
  fake.addRecord("example.com", { name: "", type: "A", value: OLD_IP, ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { apiKey?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createBunnyApi(
      { api_key: options.apiKey ?? BUNNY_FAKE_API_KEY },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = () => ({ zone_id: String(example.Id) });

describe("verify", () => {
  test("a valid key is accepted, read-only, with the zone count", async () => {
    fake.addZone("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (2 DNS zones)" });
    expect(requestLines()).toEqual(["GET /dnszone"]);
    expect(fake.requests[0]?.headers.accesskey).toBe(BUNNY_FAKE_API_KEY);
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the zone, reads it, and POSTs the record with the new address: three requests", async () => {
    const id = String(home()!.Id);
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: String(example.Id),
      message: `Bunny record ${id}, ttl 1800`,
    });
    expect(home()).toMatchObject({ Value: NEW_IP, Ttl: 1800, Comment: "the house" });
    expect(requestLines()).toEqual([
      "GET /dnszone",
      `GET /dnszone/${example.Id}`,
      `POST /dnszone/${example.Id}/records/${id}`,
    ]);
    expect(fake.requests[2]?.body).toEqual({ Type: 0, Name: "home", Value: NEW_IP, Ttl: 1800 });
  });

  test("steady state (zone id known): the zone with its records, then one write", async () => {
    await client().writeRecord(target("home.example.com", known()), NEW_IP);
    expect(requestLines()).toEqual([`GET /dnszone/${example.Id}`, `POST /dnszone/${example.Id}/records/${home()!.Id}`]);
  });

  test("a TTL from config replaces the one read; the same address with another TTL is written", async () => {
    await client().writeRecord(target("home.example.com", { ...known(), ttl: 900 }), OLD_IP);
    expect(home()).toMatchObject({ Value: OLD_IP, Ttl: 900 });
    expect(fake.writes()).toBe(1);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.record("example.com", "new", "A");
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: String(created!.Id),
      zoneId: String(example.Id),
      message: `Bunny record ${created!.Id}, ttl 300`,
    });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "PUT",
      body: { Type: 0, Name: "new", Value: NEW_IP, Ttl: 300 },
    });
  });

  test("with the zone id known, the zone's name comes from the zone read; an AAAA at the apex", async () => {
    const outcome = await client().writeRecord(
      target("example.com", { ...known(), ttl: 3600 }, { recordType: "AAAA" }),
      "2001:db8::7",
    );
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.record("example.com", "", "AAAA")).toMatchObject({ Value: "2001:db8::7", Ttl: 3600 });
  });
});

describe("zone discovery", () => {
  test("the zone listing is followed page by page", async () => {
    for (let i = 0; i < 1005; i++) fake.addZone(`d${i}.net`);
    const last = fake.addZone("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: String(last.Id) });
    expect(fake.requests.filter((r) => r.path === "/dnszone").map((r) => r.query.page)).toEqual(["1", "2"]);
  });

  test("a configured zone that does not hold the name is refused before any write", async () => {
    const other = fake.addZone("other.org");
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: String(other.Id) }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: `Bunny: zone ${other.Id} is other.org, which does not hold home.example.com; correct config.zone_id or remove it`,
    });
    expect(fake.writes()).toBe(0);
  });
});

describe("failures keep bunny.net's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: BunnyFault; apiKey?: string })[] = [
    {
      name: "key without the right",
      fault: { status: 403, errorKey: "forbidden", message: "Access denied" },
      message: "Bunny: Access denied (forbidden, HTTP 403)",
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "429 without Retry-After names no wait",
      fault: { status: 429 },
      message: /\(error_429, HTTP 429\)$/,
      cause: "throttled",
    },
  ];
  failureTests(
    cases,
    async ({ fault, apiKey }) => {
      if (fault) fake.fault(fault);
      return client({ apiKey, timeoutMs: 1000 }).writeRecord(target("home.example.com", known()), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.Value).toBe(OLD_IP);
    },
  );

  test("a refused update is reported in bunny.net's words; the record stays", async () => {
    fake.fault(
      { status: 400, errorKey: "validation_error", message: "The record is locked" },
      1,
      (r) => r.method === "POST",
    );
    const outcome = await client().writeRecord(target("home.example.com", known()), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Bunny: The record is locked (validation_error, HTTP 400)",
    });
    expect(home()).toMatchObject({ Value: OLD_IP, Ttl: 1800 });
  });
});
