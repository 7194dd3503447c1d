// The Hostinger client against its fake: what it changes, what it keeps, how many requests it
// spends, and how every failure Hostinger can give ends up as Hostinger's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createHostingerApi, hostinger } from "../../src/dns/services/hostinger";
import {
  HOSTINGER_DEFAULT_TTL,
  HOSTINGER_FAKE_TOKEN,
  type HostingerFake,
  type HostingerFault,
  startHostingerFake,
} from "../fakes/hostinger";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: HostingerFake;

beforeEach(() => {
  fake = startHostingerFake();
  fake.addZone("example.com");
  fake.addSet("example.com", { name: "home", type: "A", contents: [OLD_IP], ttl: 1800 });
  fake.addSet("example.com", { name: "@", type: "A", contents: [OLD_IP], ttl: 600 });
  fake.addSet("example.com", { name: "home", type: "TXT", contents: ['"keep me"'], ttl: 300 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createHostingerApi(
      { api_token: options.token ?? HOSTINGER_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.set("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("names the token with the page where it is made, the record types, the TTL range and the real service", () => {
    expect(hostinger.type).toBe("hostinger");
    expect(hostinger.credentials.map((c) => [c.key, c.secret])).toEqual([["api_token", true]]);
    expect(hostinger.credentials[0]?.url).toBe("https://hpanel.hostinger.com/profile/api");
    expect(hostinger.recordTypes).toEqual(["A", "AAAA"]);
    expect(hostinger.defaultApiUrl).toBe("https://developers.hostinger.com");
    expect(hostinger.canVerify).toBe(true);
  });
});

describe("verify", () => {
  test("a valid token is accepted, read-only, with the domain count", async () => {
    fake.addZone("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (2 domains)" });
    expect(requestLines()).toEqual(["GET /api/domains/v1/portfolio"]);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${HOSTINGER_FAKE_TOKEN}`);
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the zone by asking for the name and its parents, reads it, and replaces only the set with the TTL it read", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home/A",
      zoneId: "example.com",
      message: "Hostinger record home/A, ttl 1800",
    });
    expect(home()).toMatchObject({ ttl: 1800, records: [{ content: NEW_IP }] });
    expect(requestLines()).toEqual([
      "GET /api/dns/v1/zones/home.example.com",
      "GET /api/dns/v1/zones/example.com",
      "GET /api/dns/v1/zones/example.com",
      "PUT /api/dns/v1/zones/example.com",
    ]);
    expect(fake.requests[3]?.body).toEqual({
      overwrite: true,
      zone: [{ name: "home", type: "A", ttl: 1800, records: [{ content: NEW_IP }] }],
    });
    expect(fake.set("example.com", "home", "TXT")?.records).toEqual([{ content: '"keep me"', is_disabled: false }]);
  });

  test("a disabled record stays disabled: its address changes, its state is sent back", async () => {
    home()!.records[0]!.is_disabled = true;
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: "home/A" });
    expect(home()?.records).toEqual([{ content: NEW_IP, is_disabled: true }]);
    expect(fake.requests.at(-1)?.body).toEqual({
      overwrite: true,
      zone: [{ name: "home", type: "A", ttl: 1800, records: [{ content: NEW_IP, is_disabled: true }] }],
    });
  });

  test("steady state (zone known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual(["GET /api/dns/v1/zones/example.com", "PUT /api/dns/v1/zones/example.com"]);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 14400", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: "new/A",
      zoneId: "example.com",
      message: `Hostinger record new/A, ttl ${HOSTINGER_DEFAULT_TTL}`,
    });
    expect(fake.set("example.com", "new", "A")).toMatchObject({ ttl: 14400, records: [{ content: NEW_IP }] });
    expect(fake.requests.at(-1)?.body).toEqual({
      overwrite: true,
      zone: [{ name: "new", type: "A", ttl: 14400, records: [{ content: NEW_IP }] }],
    });
  });
});

describe("zone discovery", () => {
  test("a wrong token stops the search at once", async () => {
    const outcome = await client({ token: "wrong" }).writeRecord(target("a.b.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "credentials", stopRetrying: true });
    expect(fake.requests).toHaveLength(1);
  });
});

describe("failures keep Hostinger's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: HostingerFault; token?: string })[] = [
    {
      name: "429 without Retry-After names no wait",
      fault: { status: 429 },
      message: "Hostinger: Too Many Attempts. (HTTP 429)",
      cause: "throttled",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "Hostinger: Internal server error (HTTP 500)",
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
      expect(home()?.records[0]?.content).toBe(OLD_IP);
    },
  );

  test("a refused PUT is reported in Hostinger's words with the field's; the record and its TTL stay", async () => {
    fake.fault(
      { status: 422, message: "The given data was invalid.", errors: { "zone.0.ttl": ["The zone.0.ttl is invalid."] } },
      1,
      (r) => r.method === "PUT",
    );
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Hostinger: The given data was invalid.: The zone.0.ttl is invalid. (HTTP 422)",
    });
    expect(home()).toMatchObject({ ttl: 1800, records: [{ content: OLD_IP }] });
  });
});
