// The GoDaddy client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure GoDaddy can give ends up as GoDaddy's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createGodaddyApi, godaddy } from "../../src/dns/services/godaddy";
import {
  GODADDY_FAKE_KEY,
  GODADDY_FAKE_SECRET,
  type GodaddyFake,
  type GodaddyFault,
  startGodaddyFake,
} from "../fakes/godaddy";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: GodaddyFake;

beforeEach(() => {
  fake = startGodaddyFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", data: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { name: "@", type: "A", data: OLD_IP, ttl: 900 });
  fake.addRecord("example.com", { name: "@", type: "MX", data: "mail.example.com", ttl: 3600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { key?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createGodaddyApi(
      { key: options.key ?? GODADDY_FAKE_KEY, secret: GODADDY_FAKE_SECRET },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("names the credentials, the record types, the TTL range, the pace and the real service", () => {
    expect(godaddy.type).toBe("godaddy");
    expect(godaddy.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["key", false],
      ["secret", true],
    ]);
    expect(godaddy.recordTypes).toEqual(["A", "AAAA"]);
    expect(godaddy.ttl).toMatchObject({ min: 600, max: 604800 });
    expect(godaddy.defaultApiUrl).toBe("https://api.godaddy.com/v1");
    // GoDaddy allows 60 a minute per endpoint.
    for (const limit of godaddy.rateLimits ?? []) expect(limit.requests / limit.perSeconds).toBeLessThan(60 / 60);
    expect(godaddy.rateLimits?.length).toBeGreaterThan(0);
  });

  test("the help warns that GoDaddy opens its API only to accounts with 10 or more domains or a Discount Domain Club plan", () => {
    const help = `${godaddy.summary} ${godaddy.credentials.map((c) => c.help).join(" ")}`;
    expect(help).toContain("10 or more domains");
    expect(help).toContain("Discount Domain Club");
  });
});

describe("verify", () => {
  test("a valid key is accepted, read-only", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "Key accepted" });
    expect(requestLines()).toEqual(["GET /domains"]);
    expect(fake.writes()).toBe(0);
  });

  test("an account GoDaddy keeps out of its API is told why", async () => {
    fake.accessDenied = true;
    const outcome = await client().verify();
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toBe(
      "GoDaddy: Authenticated user is not allowed access — GoDaddy opens its DNS API only to accounts with 10 or more domains or a Discount Domain Club plan (ACCESS_DENIED, HTTP 403)",
    );
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the set and PUTs it with the TTL it read: three requests", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home/A",
      zoneId: "example.com",
      message: "GoDaddy record home/A, ttl 1800",
    });
    expect(home()).toEqual([{ name: "home", type: "A", data: NEW_IP, ttl: 1800 }]);
    expect(requestLines()).toEqual([
      "GET /domains",
      "GET /domains/example.com/records/A/home",
      "PUT /domains/example.com/records/A/home",
    ]);
    expect(fake.requests[2]?.body).toEqual([{ data: NEW_IP, ttl: 1800 }]);
  });

  test("steady state (domain known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /domains/example.com/records/A/home",
      "PUT /domains/example.com/records/A/home",
    ]);
  });

  test("an AAAA set is changed without touching the A of the same name", async () => {
    fake.addRecord("example.com", { name: "home", type: "AAAA", data: "2001:db8::1", ttl: 3600 });
    const outcome = await client().writeRecord(
      target("home.example.com", known, { recordType: "AAAA" }),
      "2001:db8::7",
    );
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: "home/AAAA" });
    expect(fake.records("example.com", "home", "AAAA")).toEqual([
      { name: "home", type: "AAAA", data: "2001:db8::7", ttl: 3600 },
    ]);
    expect(home()[0]?.data).toBe(OLD_IP);
  });

  test("the TTL survives the PUT; a TTL from config replaces it", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(home()[0]?.ttl).toBe(1800);
    await client().writeRecord(target("home.example.com", { ...known, ttl: 7200 }), NEW_IP);
    expect(home()).toEqual([{ name: "home", type: "A", data: NEW_IP, ttl: 7200 }]);
  });

  test("the apex is the set named @; the apex's other records stay", async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "example.com", externalId: "@/A" });
    expect(fake.records("example.com", "@", "A")).toEqual([{ name: "@", type: "A", data: NEW_IP, ttl: 900 }]);
    expect(fake.records("example.com", "@", "MX")).toHaveLength(1);
    expect(home()[0]?.data).toBe(OLD_IP);
  });

  test("nothing else in the domain is touched and nothing is deleted", async () => {
    const before = fake.domains
      .get("example.com")!
      .filter((r) => !(r.name === "home" && r.type === "A"))
      .map((r) => ({ ...r }));
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(fake.domains.get("example.com")!.filter((r) => !(r.name === "home" && r.type === "A"))).toEqual(before);
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 600", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: "new/A",
      zoneId: "example.com",
      message: "GoDaddy record new/A, ttl 600",
    });
    expect(fake.records("example.com", "new", "A")).toEqual([{ name: "new", type: "A", data: NEW_IP, ttl: 600 }]);
  });
});

describe("domain discovery", () => {
  test("the domain listing is followed page by page, each page after the last domain seen", async () => {
    for (let i = 0; i < 1005; i++) fake.addDomain(`d${String(i).padStart(4, "0")}.net`);
    fake.addDomain("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "zz.org" });
    const listings = fake.requests.filter((r) => r.path === "/domains");
    expect(listings.map((r) => r.query.marker)).toEqual([undefined, "d0999.net"]);
  });
});

describe("failures keep GoDaddy's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: GodaddyFault; key?: string })[] = [
    {
      name: "account kept out of the API",
      fault: { status: 403 },
      message:
        /^GoDaddy: Authenticated user is not allowed access — .*10 or more domains.* \(ACCESS_DENIED, HTTP 403\)$/,
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "429 names its wait in the body",
      fault: { status: 429, retryAfterSec: 30 },
      message: "GoDaddy: Too many requests received within interval (TOO_MANY_REQUESTS, HTTP 429)",
      retryAfterSeconds: 30,
      cause: "throttled",
    },
    {
      name: "429 naming no wait",
      fault: { status: 429 },
      message: "GoDaddy: Too many requests received within interval (TOO_MANY_REQUESTS, HTTP 429)",
      cause: "throttled",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "GoDaddy: Internal server error (INTERNAL_SERVER_ERROR, HTTP 500)",
      cause: "unreachable",
    },
  ];
  failureTests(
    cases,
    async ({ fault, key }) => {
      if (fault) fake.fault(fault);
      return client({ key, timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toEqual([{ name: "home", type: "A", data: OLD_IP, ttl: 1800 }]);
    },
  );

  test("a refused PUT is reported with GoDaddy's field errors; the record and its TTL stay", async () => {
    fake.fault(
      { status: 422, fields: [{ code: "INVALID_VALUE", message: "Record is locked", path: "records[0]" }] },
      1,
      (r) => r.method === "PUT",
    );
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message:
        "GoDaddy: Request body doesn't fulfill schema, see details in `fields`; records[0]: Record is locked (INVALID_BODY, HTTP 422)",
    });
    expect(home()).toEqual([{ name: "home", type: "A", data: OLD_IP, ttl: 1800 }]);
  });
});
