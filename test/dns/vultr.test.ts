// The Vultr client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure Vultr can give ends up as Vultr's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import type { FailureCause, RecordConfig, RecordTarget } from "../../src/dns/provider";
import { createVultrApi, vultr } from "../../src/dns/vultr";
import { startVultrFake, VULTR_FAKE_API_KEY, VULTR_FAKE_FENCED_KEY, type VultrFake, type VultrFault } from "../fakes/vultr";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: VultrFake;

beforeEach(() => {
  fake = startVultrFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", data: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { name: "", type: "A", data: OLD_IP, ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { apiKey?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createVultrApi(
      { api_key: options.apiKey ?? VULTR_FAKE_API_KEY },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

function target(hostname: string, config: RecordConfig = {}, fields: Partial<RecordTarget> = {}): RecordTarget {
  return { hostname, recordType: "A", externalId: null, config, ...fields };
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("names the credential, the record types, the TTL range and the real service", () => {
    expect(vultr.type).toBe("vultr");
    expect(vultr.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
    expect(vultr.recordTypes).toEqual(["A", "AAAA"]);
    expect(vultr.defaultApiUrl).toBe("https://api.vultr.com/v2");
    expect(vultr.canVerify).toBe(true);
  });

  test("createClient builds a working client from normalised credentials", async () => {
    const built = vultr.createClient({ api_key: VULTR_FAKE_API_KEY }, {}, { baseUrl: fake.url, fetch, timeoutMs: 2000, userAgent: "ddnsd/test" });
    expect((await built.verify()).ok).toBe(true);
    expect(fake.requests[0]?.headers["user-agent"]).toBe("ddnsd/test");
  });
});

describe("verify", () => {
  test("a valid key is accepted, read-only, with the domain count", async () => {
    fake.addDomain("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (2 domains)" });
    expect(requestLines()).toEqual(["GET /domains"]);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${VULTR_FAKE_API_KEY}`);
    expect(fake.writes()).toBe(0);
  });

  test("a key from an address its access control does not allow is refused in Vultr's words", async () => {
    expect(await client({ apiKey: VULTR_FAKE_FENCED_KEY }).verify()).toMatchObject({ ok: false, detail: "Vultr: Unauthorized IP address: 127.0.0.1 (HTTP 401)" });
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the records, and PATCHes only the address: three requests", async () => {
    const id = home()!.id;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({ ok: true, action: "updated", externalId: id, zoneId: "example.com", message: `Vultr record ${id}, ttl 1800` });
    expect(home()).toMatchObject({ data: NEW_IP, ttl: 1800 });
    expect(requestLines()).toEqual(["GET /domains", "GET /domains/example.com/records", `PATCH /domains/example.com/records/${id}`]);
    expect(fake.requests[2]?.body).toEqual({ data: NEW_IP });
  });

  test("steady state (domain known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual(["GET /domains/example.com/records", `PATCH /domains/example.com/records/${home()!.id}`]);
  });

  test("an address already there is not written again: zero writes", async () => {
    const outcome = await client().writeRecord(target("home.example.com", known), OLD_IP);
    expect(outcome).toMatchObject({ ok: true, action: "unchanged", message: expect.stringContaining("ttl 1800") });
    expect(fake.writes()).toBe(0);
  });

  test("an AAAA record is changed without touching the A of the same name", async () => {
    const aaaa = fake.addRecord("example.com", { name: "home", type: "AAAA", data: "2001:db8::1", ttl: 120 });
    const outcome = await client().writeRecord(target("home.example.com", {}, { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: aaaa.id });
    expect(aaaa).toMatchObject({ data: "2001:db8::7", ttl: 120 });
    expect(home()?.data).toBe(OLD_IP);
  });

  test("the same IPv6 address written another way counts as already there", async () => {
    fake.addRecord("example.com", { name: "home", type: "AAAA", data: "2001:DB8:0:0::7" });
    const outcome = await client().writeRecord(target("home.example.com", known, { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.writes()).toBe(0);
  });

  test("a TTL from config is sent; the same address with another TTL is written", async () => {
    await client().writeRecord(target("home.example.com", { ...known, ttl: 900 }), OLD_IP);
    expect(home()).toMatchObject({ data: OLD_IP, ttl: 900 });
    expect(fake.requests.at(-1)?.body).toEqual({ data: OLD_IP, ttl: 900 });
  });

  test("the apex is the record named \"\"", async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "example.com" });
    expect(fake.record("example.com", "", "A")).toMatchObject({ data: NEW_IP, ttl: 600 });
    expect(home()?.data).toBe(OLD_IP);
  });

  test("a name with several records is left alone", async () => {
    fake.addRecord("example.com", { name: "rr", type: "A", data: "198.51.100.1" });
    fake.addRecord("example.com", { name: "rr", type: "A", data: "198.51.100.2" });
    const outcome = await client().writeRecord(target("rr.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(fake.writes()).toBe(0);
  });

  test("the records are read page by page, following the cursor", async () => {
    for (let i = 0; i < 600; i++) fake.addRecord("example.com", { name: `h${i}`, type: "A", data: OLD_IP });
    fake.addRecord("example.com", { name: "last", type: "A", data: OLD_IP });
    const outcome = await client().writeRecord(target("last.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    const reads = fake.requests.filter((r) => r.path.endsWith("/records")).map((r) => r.query);
    expect(reads).toHaveLength(2);
    expect(reads[0]).toEqual({ per_page: "500" });
    expect(reads[1]?.cursor).toBeString();
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.record("example.com", "new", "A");
    expect(outcome).toEqual({ ok: true, action: "created", externalId: created!.id, zoneId: "example.com", message: `Vultr record ${created!.id}, ttl 300` });
    expect(fake.requests.at(-1)?.body).toEqual({ name: "new", type: "A", data: NEW_IP, ttl: 300 });
  });

  test("creates it with the TTL from config; an AAAA at the apex", async () => {
    await client().writeRecord(target("example.com", { ttl: 3600 }, { recordType: "AAAA" }), "2001:db8::7");
    expect(fake.record("example.com", "", "AAAA")).toMatchObject({ data: "2001:db8::7", ttl: 3600 });
  });

  test("create_if_missing false refuses and writes nothing", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { create_if_missing: false }), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Vultr: record new.example.com A does not exist and create_if_missing is false" });
    expect(fake.writes()).toBe(0);
  });
});

describe("domain discovery", () => {
  test("the longest domain at a label boundary wins: a delegated sub-zone holds its names", async () => {
    fake.addDomain("b.example.com");
    fake.addDomain("ample.com");
    const outcome = await client().writeRecord(target("x.a.b.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "b.example.com" });
    expect(fake.record("b.example.com", "x.a", "A")?.data).toBe(NEW_IP);
  });

  test("the domain listing follows the cursor", async () => {
    for (let i = 0; i < 520; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
    fake.addDomain("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "zz.org" });
    expect(fake.requests.filter((r) => r.path === "/domains")).toHaveLength(2);
  });

  test("no domain holding the name: a failure naming it, nothing written", async () => {
    fake.addDomain("xample.com");
    expect(await client().writeRecord(target("host.ample.com"), NEW_IP)).toEqual({ ok: false, cause: "refused", message: "Vultr: no domain of this account holds host.ample.com" });
    expect(fake.writes()).toBe(0);
  });

  test("a configured domain that does not hold the name is refused without a request", async () => {
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "other.org" }), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Vultr: config.zone_id other.org does not hold home.example.com; correct config.zone_id or remove it" });
    expect(fake.requests).toHaveLength(0);
  });

  test("a configured domain that left the account is looked up afresh, once", async () => {
    const outcome = await client().writeRecord(target("new.sub.example.com", { zone_id: "sub.example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "example.com" });
    expect(requestLines()).toEqual(["GET /domains/sub.example.com/records", "GET /domains", "GET /domains/example.com/records", "POST /domains/example.com/records"]);
  });
});

describe("failures keep Vultr's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: VultrFault | "timeout";
    apiKey?: string;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    { name: "revoked key", apiKey: "revoked", message: "Vultr: Invalid API token. (HTTP 401)", stopRetrying: true, cause: "credentials" },
    { name: "address not allowed by the key's access control", apiKey: VULTR_FAKE_FENCED_KEY, message: "Vultr: Unauthorized IP address: 127.0.0.1 (HTTP 401)", stopRetrying: true, cause: "credentials" },
    { name: "user without the right", fault: { status: 403 }, message: "Vultr: Unauthorized (HTTP 403)", stopRetrying: true, cause: "credentials" },
    { name: "429 with Retry-After", fault: { status: 429, retryAfter: 15 }, message: /^Vultr: Rate limit reached.* \(HTTP 429\)$/, retryAfterSeconds: 15, cause: "throttled" },
    { name: "429 without Retry-After names no wait", fault: { status: 429 }, message: /\(HTTP 429\)$/, cause: "throttled" },
    { name: "500", fault: { status: 500 }, message: "Vultr: Internal server error (HTTP 500)", cause: "unreachable" },
    { name: "502 HTML page", fault: "html", message: /^Vultr: unreadable answer \(HTTP 502\): "<!DOCTYPE html>/, cause: "unreachable" },
    { name: "malformed JSON", fault: "malformed", message: /^Vultr: unreadable answer \(HTTP 200\)/, cause: "unreachable" },
    { name: "timeout", fault: "timeout", message: "Vultr: no answer within 200ms", cause: "unreachable" },
  ];
  for (const { name, fault, apiKey, message, cause, retryAfterSeconds, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ apiKey, timeoutMs: 200 }).writeRecord(target("home.example.com", known), NEW_IP);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.retryAfterSeconds).toBe(retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(outcome.cause).toBe(cause);
      expect(fake.requests).toHaveLength(1);
      expect(home()?.data).toBe(OLD_IP);
    });
  }

  test("a refused PATCH is reported in Vultr's words; the record stays", async () => {
    fake.fault({ status: 400, error: "Unable to update record." }, 1, (r) => r.method === "PATCH");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Vultr: Unable to update record. (HTTP 400)" });
    expect(home()).toMatchObject({ data: OLD_IP, ttl: 1800 });
  });

  test("a service that cannot be reached", async () => {
    const gone = startVultrFake();
    const url = gone.url;
    await gone.stop();
    const outcome = await client({ baseUrl: url }).verify();
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toStartWith("Vultr: request failed: ");
  });
});
