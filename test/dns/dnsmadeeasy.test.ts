// The DNS Made Easy client against its fake: the signature (checked against a published vector), the
// domain found by name, the record read with filters and PUT back whole with only its value changed,
// the rate limit's 400, the clock check, and every failure in DNS Made Easy's own words.

import { afterEach, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createDnsMadeEasyApi, dnsmadeeasy, dnsmeSignature } from "../../src/dns/services/dnsmadeeasy";
import {
  DNSME_FAKE_KEY,
  DNSME_FAKE_SECRET,
  type DnsmeFake,
  type DnsmeFault,
  startDnsmeFake,
} from "../fakes/dnsmadeeasy";
import { target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: DnsmeFake;
let domainId: number;

beforeEach(() => {
  fake = startDnsmeFake();
  domainId = fake.addDomain("example.com");
  fake.addRecord("example.com", {
    name: "home",
    type: "A",
    value: OLD_IP,
    ttl: 600,
    dynamicDns: true,
    password: "ddns-pass",
    monitor: true,
  });
  fake.addRecord("example.com", { name: "", type: "A", value: OLD_IP, ttl: 86400 });
  fake.addRecord("example.com", { name: "home", type: "AAAA", value: "2001:db8::1", ttl: 900 });
});

afterEach(async () => {
  setSystemTime();
  await fake.stop();
});

function client(options: { key?: string; secret?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createDnsMadeEasyApi(
      { api_key: options.key ?? DNSME_FAKE_KEY, secret_key: options.secret ?? DNSME_FAKE_SECRET },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () =>
  fake.requests.map((r) => `${r.method} ${r.path}${r.query.domainname ? `?domainname=${r.query.domainname}` : ""}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the signature", () => {
  test("matches the vector in go-acme/lego's DNS Made Easy client tests (providers/dns/dnsmadeeasy/internal/client_test.go)", () => {
    // Secret "secret", the date 2015-06-02 02:36:07 UTC as Go's RFC1123 writes it.
    expect(dnsmeSignature("secret", "Tue, 02 Jun 2015 02:36:07 UTC")).toBe("6b6c8432119c31e1d3776eb4cd3abd92fae4a71c");
  });

  test("every request carries the key, the current time as an HTTP date and that date's signature", async () => {
    setSystemTime(new Date("2026-11-25T13:30:00Z"));
    await client().verify();
    const headers = fake.requests[0]!.headers;
    expect(headers["x-dnsme-apikey"]).toBe(DNSME_FAKE_KEY);
    expect(headers["x-dnsme-requestdate"]).toBe("Wed, 25 Nov 2026 13:30:00 GMT");
    expect(headers["x-dnsme-hmac"]).toBe(dnsmeSignature(DNSME_FAKE_SECRET, "Wed, 25 Nov 2026 13:30:00 GMT"));
  });
});

describe("the description", () => {
  test("names the key and sealed secret, the record types, a pace under 150 per 5 minutes and the real service", () => {
    expect(dnsmadeeasy.type).toBe("dnsmadeeasy");
    expect(dnsmadeeasy.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["api_key", false],
      ["secret_key", true],
    ]);
    expect(dnsmadeeasy.recordTypes).toEqual(["A", "AAAA"]);
    expect(dnsmadeeasy.defaultApiUrl).toBe("https://api.dnsmadeeasy.com/V2.0");
    for (const limit of dnsmadeeasy.rateLimits ?? []) expect(limit.requests / limit.perSeconds).toBeLessThan(150 / 300);
  });
});

describe("verify", () => {
  test("valid keys are accepted, read-only", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 domain)" });
    expect(requestLines()).toEqual(["GET /dns/managed"]);
    expect(fake.writes()).toBe(0);
  });

  test("a wrong secret is refused in DNS Made Easy's words", async () => {
    expect(await client({ secret: "wrong" }).verify()).toMatchObject({
      ok: false,
      detail: "DNS Made Easy: Invalid HMAC (HTTP 403)",
    });
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain by name, reads the record and PUTs it back whole with the new value", async () => {
    const id = home()[0]!.id;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: String(id),
      zoneId: "example.com",
      message: `DNS Made Easy record ${id}, ttl 600`,
    });
    expect(requestLines()).toEqual([
      "GET /dns/managed/name?domainname=home.example.com",
      "GET /dns/managed/name?domainname=example.com",
      `GET /dns/managed/${domainId}/records`,
      `PUT /dns/managed/${domainId}/records/${id}`,
    ]);
    expect(fake.requests[2]?.query).toEqual({ recordName: "home", type: "A" });
  });

  test("the record keeps its TTL and every other setting (dynamic DNS, its password, monitoring)", async () => {
    const before = { ...home()[0]! };
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(home()).toEqual([{ ...before, value: NEW_IP }]);
  });

  test("steady state (domain known from config): the id by name, one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /dns/managed/name?domainname=example.com",
      `GET /dns/managed/${domainId}/records`,
      `PUT /dns/managed/${domainId}/records/${home()[0]!.id}`,
    ]);
  });

  test("a TTL from config is sent", async () => {
    await client().writeRecord(target("home.example.com", { ...known, ttl: 60 }), NEW_IP);
    expect(home()).toMatchObject([{ value: NEW_IP, ttl: 60, dynamicDns: true }]);
  });

  test("nothing else in the domain is touched and nothing is deleted", async () => {
    const others = () =>
      structuredClone(fake.domains.get(domainId)!.records.filter((r) => !(r.name === "home" && r.type === "A")));
    const before = others();
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(others()).toEqual(before);
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 1800 and saves its id", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const [created] = fake.records("example.com", "new", "A");
    expect(created).toMatchObject({ value: NEW_IP, ttl: 1800, gtdLocation: "DEFAULT" });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: String(created!.id),
      zoneId: "example.com",
      message: `DNS Made Easy record ${created!.id}, ttl 1800`,
    });
  });

  test("creates it with the TTL from config, in the longest managed domain", async () => {
    fake.addDomain("sub.example.com");
    await client().writeRecord(target("a.sub.example.com", { ttl: 300 }), NEW_IP);
    expect(fake.records("sub.example.com", "a", "A")).toMatchObject([{ value: NEW_IP, ttl: 300 }]);
  });
});

describe("failures keep DNS Made Easy's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: DnsmeFault;
    key?: string;
    message: string | RegExp;
    cause: FailureCause;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "the rate limit (a 400)",
      fault: { status: 400, error: "Rate limit exceeded" },
      message: "DNS Made Easy: Rate limit exceeded (HTTP 400)",
      cause: "throttled",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "DNS Made Easy: Internal server error (HTTP 500)",
      cause: "unreachable",
    },
  ];
  for (const { name, fault, key, message, cause, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ key, timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.retryAfterSeconds).toBeUndefined();
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(outcome.cause).toBe(cause);
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ value: OLD_IP, ttl: 600 }]);
    });
  }

  test('the real rate limit: past 150 requests in 5 minutes every request is refused as "slow down"', async () => {
    fake.requestLimit = 2;
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "throttled",
      message: "DNS Made Easy: Rate limit exceeded (HTTP 400)",
    });
    expect(home()).toMatchObject([{ value: OLD_IP }]);
  });

  test("a clock that is off is named, and does not stop retries", async () => {
    fake.clockOffsetMs = 20 * 60 * 1000;
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.message).toMatch(
      /^DNS Made Easy: Request sent with date header too far out of sync\..* \(check this machine's clock\) \(HTTP 403\)$/,
    );
    expect(outcome.cause).toBe("refused");
    expect(outcome.stopRetrying).toBeUndefined();
  });

  test("a refused PUT is reported in DNS Made Easy's words; the record stays", async () => {
    fake.fault({ status: 400, error: "Record is locked by a pending action." }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "DNS Made Easy: Record is locked by a pending action. (HTTP 400)",
    });
    expect(home()).toMatchObject([{ value: OLD_IP, ttl: 600 }]);
  });
});
