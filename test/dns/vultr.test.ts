// The Vultr client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure Vultr can give ends up as Vultr's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createVultrApi } from "../../src/dns/services/vultr";
import {
  startVultrFake,
  VULTR_FAKE_API_KEY,
  VULTR_FAKE_FENCED_KEY,
  type VultrFake,
  type VultrFault,
} from "../fakes/vultr";
import { type FailureCase, failureTests, target } from "./support";

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

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("verify", () => {
  test("a valid key is accepted, read-only, with the domain count", async () => {
    fake.addDomain("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (2 domains)" });
    expect(requestLines()).toEqual(["GET /domains"]);
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${VULTR_FAKE_API_KEY}`);
    expect(fake.writes()).toBe(0);
  });

  test("a key from an address its access control does not allow is refused in Vultr's words", async () => {
    expect(await client({ apiKey: VULTR_FAKE_FENCED_KEY }).verify()).toMatchObject({
      ok: false,
      detail: "Vultr: Unauthorized IP address: 127.0.0.1 (HTTP 401)",
    });
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the records, and PATCHes only the address: three requests", async () => {
    const id = home()!.id;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: "example.com",
      message: `Vultr record ${id}, ttl 1800`,
    });
    expect(home()).toMatchObject({ data: NEW_IP, ttl: 1800 });
    expect(requestLines()).toEqual([
      "GET /domains",
      "GET /domains/example.com/records",
      `PATCH /domains/example.com/records/${id}`,
    ]);
    expect(fake.requests[2]?.body).toEqual({ data: NEW_IP });
  });

  test("steady state (domain known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /domains/example.com/records",
      `PATCH /domains/example.com/records/${home()!.id}`,
    ]);
  });

  test("a TTL from config is sent; the same address with another TTL is written", async () => {
    await client().writeRecord(target("home.example.com", { ...known, ttl: 900 }), OLD_IP);
    expect(home()).toMatchObject({ data: OLD_IP, ttl: 900 });
    expect(fake.requests.at(-1)?.body).toEqual({ data: OLD_IP, ttl: 900 });
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
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: created!.id,
      zoneId: "example.com",
      message: `Vultr record ${created!.id}, ttl 300`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({ name: "new", type: "A", data: NEW_IP, ttl: 300 });
  });
});

describe("domain discovery", () => {
  test("the domain listing follows the cursor", async () => {
    for (let i = 0; i < 520; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
    fake.addDomain("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "zz.org" });
    expect(fake.requests.filter((r) => r.path === "/domains")).toHaveLength(2);
  });
});

describe("failures keep Vultr's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: VultrFault; apiKey?: string })[] = [
    {
      name: "address not allowed by the key's access control",
      apiKey: VULTR_FAKE_FENCED_KEY,
      message: "Vultr: Unauthorized IP address: 127.0.0.1 (HTTP 401)",
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "user without the right",
      fault: { status: 403 },
      message: "Vultr: Unauthorized (HTTP 403)",
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "429 without Retry-After names no wait",
      fault: { status: 429 },
      message: /\(HTTP 429\)$/,
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
      expect(home()?.data).toBe(OLD_IP);
    },
  );

  test("a refused PATCH is reported in Vultr's words; the record stays", async () => {
    fake.fault({ status: 400, error: "Unable to update record." }, 1, (r) => r.method === "PATCH");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Vultr: Unable to update record. (HTTP 400)" });
    expect(home()).toMatchObject({ data: OLD_IP, ttl: 1800 });
  });
});
