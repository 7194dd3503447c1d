// The DigitalOcean client (its primitives under the reconciler) against its fake: what it changes
// and keeps, that it never rewrites what is there, the FQDN filter with relative answers, paged
// listings, and how DigitalOcean's errors and both kinds of 429 reach the history with their cause.
// The policy is tested in test/unit/dns/reconcile.test.ts.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createDigitalOceanApi, digitalocean } from "../../src/dns/services/digitalocean";
import {
  DIGITALOCEAN_FAKE_TOKEN,
  type DigitalOceanFake,
  type DigitalOceanFault,
  type DigitalOceanRecord,
  startDigitalOceanFake,
} from "../fakes/digitalocean";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: DigitalOceanFake;
let home: DigitalOceanRecord;

beforeEach(() => {
  fake = startDigitalOceanFake();
  fake.addDomain("example.com");
  home = fake.addRecord("example.com", { type: "A", name: "home", data: OLD_IP, ttl: 300 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createDigitalOceanApi(
      { token: options.token ?? DIGITALOCEAN_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

function target(hostname: string, fields: Partial<RecordTarget> = {}, config: RecordConfig = {}): RecordTarget {
  return { hostname, recordType: "A", externalId: null, config, ...fields };
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);

describe("the service description", () => {
  test("credentials, TTL rule and pacing as docs/services/README.md and docs/services/digitalocean.md say", () => {
    expect(digitalocean.type).toBe("digitalocean");
    expect(digitalocean.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
    expect(digitalocean.recordTypes).toEqual(["A", "AAAA"]);
    expect(digitalocean.ttl).toMatchObject({ min: 30 });
    expect(digitalocean.defaultApiUrl).toBe("https://api.digitalocean.com/v2");
    // One window keeps both documented limits: at most 250 in any minute and 5,000 in any hour.
    expect(digitalocean.rateLimits).toHaveLength(1);
    const { requests, perSeconds } = digitalocean.rateLimits![0]!;
    expect(requests * Math.ceil(60 / perSeconds)).toBeLessThan(250);
    expect(requests * Math.ceil(3600 / perSeconds)).toBeLessThan(5000);
  });
});

describe("verify", () => {
  test("a good token reads the account, with a Bearer header", async () => {
    expect(await client().verify()).toEqual({
      ok: true,
      detail: "Token accepted (account owner@example.net, status active)",
    });
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/account" });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${DIGITALOCEAN_FAKE_TOKEN}`);
    expect(fake.writes()).toBe(0);
  });

  test("a bad token: DigitalOcean's words", async () => {
    expect(await client({ token: "dop_v1_revoked" }).verify()).toMatchObject({
      ok: false,
      detail: "DigitalOcean: Unable to authenticate you. (unauthorized, HTTP 401)",
    });
  });
});

describe("writeRecord on an existing record", () => {
  test("lists domains, reads the record by FQDN, PATCHes only type and data; the ttl stays", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: String(home.id),
      zoneId: "example.com",
      message: `DigitalOcean record ${home.id}, ttl 300`,
    });
    expect(fake.record("example.com", "home", "A")).toMatchObject({ data: NEW_IP, ttl: 300 });
    expect(requestLines()).toEqual([
      "GET /domains",
      "GET /domains/example.com/records",
      `PATCH /domains/example.com/records/${home.id}`,
    ]);
    expect(fake.requests[1]?.query).toEqual({ type: "A", name: "home.example.com", per_page: "200", page: "1" });
    // The description marks `type` required on the PATCH too.
    expect(fake.requests[2]?.body).toEqual({ type: "A", data: NEW_IP });
  });

  test("the steady state (domain from config.zone_id) is one read and one PATCH", async () => {
    const outcome = await client().writeRecord(
      target("home.example.com", { externalId: String(home.id) }, { zone_id: "example.com" }),
      NEW_IP,
    );
    expect(outcome.ok).toBe(true);
    expect(requestLines()).toEqual([
      "GET /domains/example.com/records",
      `PATCH /domains/example.com/records/${home.id}`,
    ]);
  });

  test("the address held with another ttl than the config's: the ttl is written, the address kept", async () => {
    const outcome = await client().writeRecord(
      target("home.example.com", {}, { zone_id: "example.com", ttl: 60 }),
      OLD_IP,
    );
    expect(outcome).toMatchObject({ ok: true, action: "updated", message: `DigitalOcean record ${home.id}, ttl 60` });
    expect(fake.record("example.com", "home", "A")).toMatchObject({ data: OLD_IP, ttl: 60 });
  });

  for (const trusted of [false, true]) {
    test(`an external id of another record is not followed: the record is found by name (${trusted ? "trusted" : "untrusted"})`, async () => {
      const other = fake.addRecord("example.com", { type: "A", name: "other", data: "198.51.100.9" });
      const before = JSON.stringify(other);
      const outcome = await client().writeRecord(
        target("home.example.com", { externalId: String(other.id) }, { zone_id: "example.com" }),
        NEW_IP,
      );
      expect(outcome).toMatchObject({ ok: true, externalId: String(home.id) });
      expect(JSON.stringify(other)).toBe(before);
      expect(home.data).toBe(NEW_IP);
    });
  }
});

describe("writeRecord on a missing record", () => {
  test("creates it (201) with the relative name and ttl 1800", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.record("example.com", "new", "A");
    expect(created).toMatchObject({ data: NEW_IP, ttl: 1800 });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: String(created!.id),
      zoneId: "example.com",
      message: `DigitalOcean record ${created!.id}, ttl 1800`,
    });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "POST",
      path: "/domains/example.com/records",
      body: { type: "A", name: "new", data: NEW_IP, ttl: 1800 },
    });
  });

  test("the apex is created as @", async () => {
    await client().writeRecord(target("example.com", { recordType: "AAAA" }), "2001:db8::7");
    expect(fake.record("example.com", "@", "AAAA")?.data).toBe("2001:db8::7");
  });
});

describe("domain discovery and paging", () => {
  test("more than a page of domains: the next pages are read until none is named", async () => {
    for (let i = 0; i < 250; i++) fake.addDomain(`d${i}.net`);
    fake.addDomain("lab.example.com");
    const outcome = await client().writeRecord(target("x.lab.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "lab.example.com" });
    expect(fake.requests.filter((r) => r.path === "/domains").map((r) => r.query.page)).toEqual(["1", "2"]);
  });

  test("records on a later page are read too: a round robin of 202 addresses is seen whole and left alone", async () => {
    for (let i = 0; i < 201; i++)
      fake.addRecord("example.com", { type: "A", name: "rr", data: `198.51.100.${i % 250}` });
    fake.addRecord("example.com", { type: "A", name: "rr", data: NEW_IP });
    const outcome = await client().writeRecord(
      target("rr.example.com", {}, { zone_id: "example.com" }),
      "203.0.113.99",
    );
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      message: expect.stringContaining("holds 202 addresses"),
    });
    expect(fake.requests.filter((r) => r.method === "GET").map((r) => r.query.page)).toEqual(["1", "2"]);
    expect(fake.writes()).toBe(0);
  });
});

describe("failures keep DigitalOcean's words, say their cause and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: DigitalOceanFault;
    token?: string;
    readOnly?: boolean;
    ip?: string;
    message: string | RegExp;
    cause: string;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "a token without write scopes",
      readOnly: true,
      message: "DigitalOcean: You do not have access for the attempted action. (forbidden, HTTP 403)",
      cause: "credentials",
    },
    {
      name: "an address of the wrong family",
      ip: "2001:db8::7",
      message: "DigitalOcean: IP address did not match IPv4 format. (unprocessable_entity, HTTP 422)",
      cause: "refused",
    },
    {
      name: "burst 429 with retry-after",
      fault: { status: 429, retryAfter: 12 },
      message: "DigitalOcean: API rate limit exceeded. (too_many_requests, HTTP 429)",
      cause: "throttled",
      retryAfterSeconds: 12,
    },
    // No wait named: the client invents none; the updater decides the pause and says it.
    {
      name: "429 naming nothing",
      fault: { status: 429 },
      message: /\(too_many_requests, HTTP 429\)$/,
      cause: "throttled",
    },
    // Passed on as named; the updater caps every pause at an hour.
    {
      name: "429 naming a day",
      fault: { status: 429, retryAfter: 86400 },
      message: /\(too_many_requests, HTTP 429\)$/,
      cause: "throttled",
      retryAfterSeconds: 86400,
    },
  ];
  for (const { name, fault, token, readOnly, ip, message, cause, retryAfterSeconds, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      if (readOnly) fake.readOnlyTokens.add("dop_v1_readonly");
      const outcome = await client({ token: readOnly ? "dop_v1_readonly" : token, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", {}, { zone_id: "example.com" }),
        ip ?? NEW_IP,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.cause).toBe(cause as never);
      expect(outcome.retryAfterSeconds).toBe(retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(home.data).toBe(OLD_IP);
    });
  }

  test("an hourly 429 with only ratelimit-reset pauses until the reset", async () => {
    fake.fault({ status: 429, reset: 900 });
    const outcome = await client().writeRecord(target("home.example.com", {}, { zone_id: "example.com" }), NEW_IP);
    // The reset is an epoch in whole seconds, so the wait is 900 give or take the rounding on each side.
    const pause = outcome.ok ? 0 : (outcome.retryAfterSeconds ?? 0);
    expect(pause).toBeGreaterThanOrEqual(899);
    expect(pause).toBeLessThanOrEqual(901);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "throttled",
      message: expect.stringMatching(/\(too_many_requests, HTTP 429\)$/),
    });
  });

  test("the fake's own per-minute limit: past it, one request and a pause, no retry loop", async () => {
    fake.limit = { perMinute: 1, burst: true };
    const outcome = await client().writeRecord(target("home.example.com", {}, { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "throttled" });
    expect(outcome.ok ? 0 : outcome.retryAfterSeconds).toBeGreaterThan(50);
    expect(fake.requests).toHaveLength(2);
    expect(home.data).toBe(OLD_IP);
  });
});

describe("the fake plays DigitalOcean", () => {
  const call = (method: string, path: string, body?: unknown) =>
    fetch(fake.url + path, {
      method,
      headers: { Authorization: `Bearer ${DIGITALOCEAN_FAKE_TOKEN}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));

  test("the name filter wants the FQDN: a relative name finds nothing", async () => {
    expect((await call("GET", "/domains/example.com/records?type=A&name=home")).body.domain_records).toEqual([]);
    expect(
      (await call("GET", "/domains/example.com/records?type=A&name=home.example.com")).body.domain_records,
    ).toHaveLength(1);
  });

  test("PUT without ttl resets it (the stricter reading); PATCH keeps it", async () => {
    await call("PATCH", `/domains/example.com/records/${home.id}`, { type: "A", data: NEW_IP });
    expect(home.ttl).toBe(300);
    await call("PUT", `/domains/example.com/records/${home.id}`, { type: "A", name: "home", data: OLD_IP });
    expect(home.ttl).toBe(1800);
  });

  test("reset() empties the service and restores the token and modes, on the same URL", async () => {
    fake.tokens.clear();
    fake.limit = { perMinute: 1, burst: true };
    fake.putResetsTtl = false;
    fake.fault({ status: 500 });
    fake.reset();
    expect([fake.domains.size, fake.records.size, fake.limit, fake.putResetsTtl] as unknown[]).toEqual([
      0,
      0,
      null,
      true,
    ]);
    expect((await call("GET", "/domains")).body.domains).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  test("lists are paged with links and meta", async () => {
    for (let i = 0; i < 25; i++) fake.addDomain(`d${i}.net`);
    const first = await call("GET", "/domains");
    expect(first.body.domains).toHaveLength(20);
    expect(first.body.meta).toEqual({ total: 26 });
    expect(first.body.links.pages.next).toContain("page=2");
  });
});
