// The NameSilo client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure NameSilo can give (most of them HTTP 200 with a reply code) ends up as
// NameSilo's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createNamesiloApi, namesilo } from "../../src/dns/services/namesilo";
import {
  NAMESILO_DEFAULT_TTL,
  NAMESILO_FAKE_API_KEY,
  type NamesiloFake,
  type NamesiloFault,
  startNamesiloFake,
} from "../fakes/namesilo";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: NamesiloFake;

beforeEach(() => {
  fake = startNamesiloFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", value: OLD_IP, ttl: 86400 });
  fake.addRecord("example.com", { host: "", type: "A", value: OLD_IP, ttl: 3600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { apiKey?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createNamesiloApi(
      { api_key: options.apiKey ?? NAMESILO_FAKE_API_KEY },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.path} ${r.query.domain ?? ""}`.trim());
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("names the credential with the page where it is made, the record types, the TTL range and the real service", () => {
    expect(namesilo.type).toBe("namesilo");
    expect(namesilo.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
    expect(namesilo.credentials[0]?.url).toBe("https://www.namesilo.com/account/api-manager");
    expect(namesilo.recordTypes).toEqual(["A", "AAAA"]);
    expect(namesilo.ttl).toMatchObject({ min: 3600, max: 2592000 });
    expect(namesilo.defaultApiUrl).toBe("https://www.namesilo.com/api");
    expect(namesilo.canVerify).toBe(true);
  });
});

describe("verify", () => {
  test("a valid key is accepted, read-only", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted" });
    expect(fake.requests.map((r) => r.path)).toEqual(["/listDomains"]);
    expect(fake.requests[0]?.query).toMatchObject({ version: "1", type: "json", key: NAMESILO_FAKE_API_KEY });
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain by trying the name and its parents, reads the records, and updates with the TTL it read", async () => {
    const id = home()!.record_id;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const now = home()!;
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: now.record_id,
      zoneId: "example.com",
      message: `NameSilo record ${now.record_id}, ttl 86400`,
    });
    expect(now).toMatchObject({ value: NEW_IP, ttl: 86400 });
    expect(requestLines()).toEqual([
      "/dnsListRecords home.example.com",
      "/dnsListRecords example.com",
      "/dnsListRecords example.com",
      "/dnsUpdateRecord example.com",
    ]);
    expect(fake.requests[3]?.query).toMatchObject({ rrid: id, rrhost: "home", rrvalue: NEW_IP, rrttl: "86400" });
  });

  test("steady state (domain known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual(["/dnsListRecords example.com", "/dnsUpdateRecord example.com"]);
  });

  test("the TTL survives the update that would reset it; a TTL from config replaces it", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(home()?.ttl).toBe(86400);
    await client().writeRecord(target("home.example.com", { ...known, ttl: 7200 }), NEW_IP);
    expect(home()).toMatchObject({ value: NEW_IP, ttl: 7200 });
  });

  test("a domain with one record, listed as a bare object, is read", async () => {
    fake.addDomain("solo.org");
    fake.addRecord("solo.org", { host: "home", type: "A", value: OLD_IP, ttl: 3600 });
    const outcome = await client().writeRecord(target("home.solo.org", { zone_id: "solo.org" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.domains.get("solo.org")).toHaveLength(1);
    expect(fake.record("solo.org", "home", "A")?.value).toBe(NEW_IP);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with NameSilo's default TTL", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    const created = fake.record("example.com", "new", "A")!;
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: created.record_id,
      zoneId: "example.com",
      message: `NameSilo record ${created.record_id}, ttl ${NAMESILO_DEFAULT_TTL}`,
    });
    expect(fake.requests.at(-1)?.query).toMatchObject({ rrtype: "A", rrhost: "new", rrvalue: NEW_IP, rrttl: "7207" });
  });
});

describe("domain discovery", () => {
  test("a wrong key stops the search at once", async () => {
    const outcome = await client({ apiKey: "wrong" }).writeRecord(target("a.b.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "credentials", stopRetrying: true });
    expect(fake.requests).toHaveLength(1);
  });
});

describe("failures keep NameSilo's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: NamesiloFault; apiKey?: string })[] = [
    {
      name: "a sub-account's key",
      fault: { code: 112 },
      message: "NameSilo: API not available to Sub-Accounts (code 112, HTTP 200)",
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "a key restricted to other addresses",
      fault: { code: 113 },
      message: "NameSilo: This API account cannot be accessed from your IP (code 113, HTTP 200)",
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "internal error",
      fault: { code: 201 },
      message: "NameSilo: Internal system error (code 201, HTTP 200)",
      cause: "unreachable",
    },
    {
      name: "general error",
      fault: { code: 210, detail: "Try again later" },
      message: "NameSilo: Try again later (code 210, HTTP 200)",
      cause: "refused",
    },
    {
      name: "429 without Retry-After names no wait",
      fault: { status: 429 },
      message: "NameSilo: Too many requests (code 429, HTTP 429)",
      cause: "throttled",
    },
  ];
  failureTests(
    cases,
    async ({ fault, apiKey }) => {
      if (fault) fake.fault(fault);
      return client({ apiKey, timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.value).toBe(OLD_IP);
    },
  );

  test("a refused update is reported in NameSilo's words; the record and its TTL stay", async () => {
    fake.fault({ code: 280, detail: "DNS modification error: the domain is locked" }, 1, "/dnsUpdateRecord");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "NameSilo: DNS modification error: the domain is locked (code 280, HTTP 200)",
    });
    expect(home()).toMatchObject({ value: OLD_IP, ttl: 86400 });
  });

  test("the key never appears in a message", async () => {
    fake.fault("malformed");
    const outcome = await client().verify();
    expect(outcome.detail).not.toContain(NAMESILO_FAKE_API_KEY);
  });
});
