// The DigitalOcean client (its primitives under the reconciler) against its fake: what it changes
// and keeps, the FQDN filter with relative answers, paged listings, and how DigitalOcean's errors and
// both kinds of 429 reach the history with their cause. The policy is tested in
// test/unit/dns/reconcile.test.ts.

import { describe, expect, test } from "bun:test";
import { digitalocean } from "../../src/dns/services/digitalocean";
import { DIGITALOCEAN_FAKE_TOKEN, type DigitalOceanFault, startDigitalOceanFake } from "../fakes/digitalocean";
import {
  type FailureCase,
  fails,
  failureTests,
  serviceClient,
  target,
  useFake,
  waits,
  withoutHeld,
  wrote,
} from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startDigitalOceanFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { type: "A", name: "home", data: OLD_IP, ttl: 300 });
});
const client = (token = DIGITALOCEAN_FAKE_TOKEN) => serviceClient("digitalocean", fake.url, { token });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A")!;
const known = { zone_id: "example.com" };
/** How DigitalOcean's 429 ends, whichever wait it names. */
const SLOW_DOWN = /\(too_many_requests, HTTP 429\)$/;

test("the description: one secret token, TTL from 30, paced under both documented limits", () => {
  expect(digitalocean.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
  expect(digitalocean.ttl).toMatchObject({ min: 30 });
  expect(digitalocean.defaultApiUrl).toBe("https://api.digitalocean.com/v2");
  // One window keeps both documented limits: at most 250 in any minute and 5,000 in any hour.
  expect(digitalocean.rateLimits).toHaveLength(1);
  const { requests, perSeconds } = digitalocean.rateLimits![0]!;
  expect(requests * Math.ceil(60 / perSeconds)).toBeLessThan(250);
  expect(requests * Math.ceil(3600 / perSeconds)).toBeLessThan(5000);
});

test("verify: a good token reads the account, with a Bearer header", async () => {
  expect(await client().verify()).toEqual({
    ok: true,
    detail: "Token accepted (account owner@example.net, status active)",
  });
  expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/account" });
  expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${DIGITALOCEAN_FAKE_TOKEN}`);
  expect(fake.writes()).toBe(0);
});

describe("an existing record", () => {
  test("lists domains, reads the record by FQDN, PATCHes only type and data, the ttl kept; then one read and one PATCH", async () => {
    const { id } = home();
    expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual(
      wrote("updated", String(id), "example.com", `DigitalOcean record ${id}, ttl 300`),
    );
    expect(home()).toMatchObject({ data: NEW_IP, ttl: 300 });
    expect(fake.requests[1]?.query).toEqual({ type: "A", name: "home.example.com", per_page: "200", page: "1" });
    // The description marks `type` required on the PATCH too.
    expect(fake.requests[2]?.body).toEqual({ type: "A", data: NEW_IP });
    await client().writeRecord(target("home.example.com", known, { externalId: String(id) }), OLD_IP);
    expect(requestLines()).toEqual([
      "GET /domains",
      "GET /domains/example.com/records",
      `PATCH /domains/example.com/records/${id}`,
      "GET /domains/example.com/records",
      `PATCH /domains/example.com/records/${id}`,
    ]);
  });

  test("an external id of another record is not followed: the record is found by name", async () => {
    const other = fake.addRecord("example.com", { type: "A", name: "other", data: "198.51.100.9" });
    const before = JSON.stringify(other);
    const outcome = await client().writeRecord(
      target("home.example.com", known, { externalId: String(other.id) }),
      NEW_IP,
    );
    expect(outcome).toMatchObject({ ok: true, externalId: String(home().id) });
    expect(JSON.stringify(other)).toBe(before);
    expect(home().data).toBe(NEW_IP);
  });
});

test("a missing record is created (201) with the relative name and ttl 1800", async () => {
  const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
  const created = fake.record("example.com", "new", "A")!;
  expect(created).toMatchObject({ data: NEW_IP, ttl: 1800 });
  expect(withoutHeld(outcome)).toEqual(
    wrote("created", String(created.id), "example.com", `DigitalOcean record ${created.id}, ttl 1800`),
  );
  expect(fake.requests.at(-1)).toMatchObject({
    method: "POST",
    path: "/domains/example.com/records",
    body: { type: "A", name: "new", data: NEW_IP, ttl: 1800 },
  });
});

test("domains and records on a later page are read too: a round robin of 202 addresses is seen whole and left alone", async () => {
  for (let i = 0; i < 250; i++) fake.addDomain(`d${i}.net`);
  for (let i = 0; i < 201; i++) fake.addRecord("example.com", { type: "A", name: "rr", data: `198.51.100.${i % 250}` });
  fake.addRecord("example.com", { type: "A", name: "rr", data: NEW_IP });
  expect(await client().writeRecord(target("rr.example.com"), "203.0.113.99")).toMatchObject({
    ok: false,
    cause: "refused",
    message: expect.stringContaining("holds 202 addresses"),
  });
  expect(fake.requests.filter((r) => r.path === "/domains").map((r) => r.query.page)).toEqual(["1", "2"]);
  expect(fake.requests.filter((r) => r.path.endsWith("/records")).map((r) => r.query.page)).toEqual(["1", "2"]);
  expect(fake.writes()).toBe(0);
});

describe("failures keep DigitalOcean's words, say their cause and leave the record alone", () => {
  type Arrange = { fault?: DigitalOceanFault; readOnly?: boolean; ip?: string };
  failureTests<FailureCase & { arrange: Arrange }>(
    [
      fails(
        { readOnly: true },
        "DigitalOcean: You do not have access for the attempted action. (forbidden, HTTP 403)",
        "credentials",
      ),
      fails(
        { ip: "2001:db8::7" },
        "DigitalOcean: IP address did not match IPv4 format. (unprocessable_entity, HTTP 422)",
        "refused",
      ),
      // No wait named: the client invents none; the updater decides the pause and says it.
      fails({ fault: { status: 429 } }, SLOW_DOWN, "throttled"),
      // Passed on as named; the updater caps every pause at an hour.
      fails({ fault: { status: 429, retryAfter: 86400 } }, SLOW_DOWN, "throttled", waits(86400)),
    ],
    async ({ arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      if (arrange.readOnly) fake.readOnlyTokens.add("dop_v1_readonly");
      const token = arrange.readOnly ? "dop_v1_readonly" : undefined;
      return client(token).writeRecord(target("home.example.com", known), arrange.ip ?? NEW_IP);
    },
    () => expect(home().data).toBe(OLD_IP),
  );

  test("an hourly 429 with only ratelimit-reset pauses until the reset", async () => {
    fake.fault({ status: 429, reset: 900 });
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    // The reset is an epoch in whole seconds, so the wait is 900 give or take the rounding on each side.
    const pause = outcome.ok ? 0 : (outcome.retryAfterSeconds ?? 0);
    expect(pause).toBeGreaterThanOrEqual(899);
    expect(pause).toBeLessThanOrEqual(901);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "throttled",
      message: expect.stringMatching(SLOW_DOWN),
    });
  });

  test("the fake's own per-minute limit: past it, one request and a pause, no retry loop", async () => {
    fake.limit = { perMinute: 1, burst: true };
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "throttled" });
    expect(outcome.ok ? 0 : outcome.retryAfterSeconds).toBeGreaterThan(50);
    expect(fake.requests).toHaveLength(2);
    expect(home().data).toBe(OLD_IP);
  });
});

describe("the fake plays DigitalOcean", () => {
  const call = (method: string, path: string, body?: unknown) =>
    fetch(fake.url + path, {
      method,
      headers: { Authorization: `Bearer ${DIGITALOCEAN_FAKE_TOKEN}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));

  test("the name filter wants the FQDN (a relative name finds nothing); PUT without ttl resets it, PATCH keeps it", async () => {
    expect((await call("GET", "/domains/example.com/records?type=A&name=home")).body.domain_records).toEqual([]);
    const records = await call("GET", "/domains/example.com/records?type=A&name=home.example.com");
    expect(records.body.domain_records).toHaveLength(1);
    const record = home();
    await call("PATCH", `/domains/example.com/records/${record.id}`, { type: "A", data: NEW_IP });
    expect(record.ttl).toBe(300);
    await call("PUT", `/domains/example.com/records/${record.id}`, { type: "A", name: "home", data: OLD_IP });
    expect(record.ttl).toBe(1800);
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
});
