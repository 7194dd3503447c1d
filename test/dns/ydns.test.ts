// The YDNS client against its fake: one request per write naming the address, the family's record
// only, and YDNS's refusals in its own words (those that never succeed stop retrying).

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordTarget, RecordType } from "../../src/dns/provider";
import { createYdnsClient, ydns } from "../../src/dns/services/ydns";
import { startYdnsFake, YDNS_FAKE_PASSWORD, YDNS_FAKE_USER, type YdnsFake } from "../fakes/ydns";

const NEW_V4 = "203.0.113.7";
const NEW_V6 = "2001:db8::7";
const OLD_V6 = "2001:db8::1";

let fake: YdnsFake;

beforeEach(() => {
  fake = startYdnsFake();
  fake.hosts.set("home.ydns.eu", { A: "198.51.100.1", AAAA: OLD_V6 });
});

afterEach(async () => {
  await fake.stop();
});

function client(password = YDNS_FAKE_PASSWORD) {
  return createYdnsClient(
    { username: YDNS_FAKE_USER, password },
    { baseUrl: fake.url, fetch, timeoutMs: 2000, userAgent: "ddnsd/test" },
  );
}

function target(hostname: string, recordType: RecordType = "A", siblings?: RecordTarget["siblings"]): RecordTarget {
  return { hostname, recordType, externalId: null, config: {}, ...(siblings ? { siblings } : {}) };
}

describe("the description", () => {
  test("API username shown, API password secret, A and AAAA, cannot verify", async () => {
    expect(ydns.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["username", false],
      ["password", true],
    ]);
    expect(ydns.recordTypes).toEqual(["A", "AAAA"]);
    expect(ydns.canVerify).toBe(false);
    expect((await client().verify()).ok).toBe(false);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("writes", () => {
  test("A: one GET /update/?host&ip with Basic auth; the AAAA record stays", async () => {
    const outcome = await client().writeRecord(target("home.ydns.eu"), NEW_V4);
    expect(outcome).toMatchObject({
      ok: true,
      action: "updated",
      externalId: "home.ydns.eu",
      message: "YDNS host home.ydns.eu",
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]).toMatchObject({
      method: "GET",
      path: "/update/",
      query: { host: "home.ydns.eu", ip: NEW_V4 },
    });
    expect(fake.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${YDNS_FAKE_USER}:${YDNS_FAKE_PASSWORD}`).toString("base64")}`,
    );
    expect(fake.hosts.get("home.ydns.eu")).toEqual({ A: NEW_V4, AAAA: OLD_V6 });
  });

  test("AAAA names only its own address, even with an A sibling", async () => {
    await client().writeRecord(target("home.ydns.eu", "AAAA", { ipv4: "192.0.2.1" }), NEW_V6);
    expect(fake.requests[0]?.query).toEqual({ host: "home.ydns.eu", ip: NEW_V6 });
    expect(fake.hosts.get("home.ydns.eu")?.AAAA).toBe(NEW_V6);
  });

  test("the published server's `ok` is a success too", async () => {
    fake.success = "ok";
    expect(await client().writeRecord(target("home.ydns.eu"), NEW_V4)).toMatchObject({ ok: true, action: "updated" });
  });
});

describe("refusals", () => {
  test("badauth (401) stops retrying", async () => {
    expect(await client("wrong").writeRecord(target("home.ydns.eu"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
      message: expect.stringContaining("badauth"),
    });
  });

  test("a host that is not the account's (404) stops retrying", async () => {
    expect(await client().writeRecord(target("other.ydns.eu"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: expect.stringContaining("host not found"),
    });
  });

  test("a 400 stops retrying, in YDNS's words", async () => {
    fake.fault({ status: 400, body: "invalid ip address (x)" });
    expect(await client().writeRecord(target("home.ydns.eu"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: "YDNS: invalid ip address (x) (HTTP 400)",
    });
  });

  test("a 429 is a slow-down with its wait; a 5xx is retried", async () => {
    fake.fault({ status: 429, retryAfter: 90 }, 1);
    expect(await client().writeRecord(target("home.ydns.eu"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "throttled",
      retryAfterSeconds: 90,
    });
    fake.fault("html", 1);
    expect(await client().writeRecord(target("home.ydns.eu"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "unreachable",
    });
    expect(JSON.stringify(fake.requests.map((r) => r.query))).not.toContain(YDNS_FAKE_PASSWORD);
  });
});
