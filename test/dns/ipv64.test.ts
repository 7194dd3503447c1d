// The IPv64.net client against its fake: get_domains read first, the update URL called with the
// domain's own update hash only when the address differs, never a delete, and IPv64's refusals.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget, RecordType } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createIpv64Api, ipv64 } from "../../src/dns/services/ipv64";
import { IPV64_FAKE_API_KEY, type Ipv64Fake, startIpv64Fake } from "../fakes/ipv64";

const OLD_V4 = "198.51.100.1";
const NEW_V4 = "203.0.113.7";
const OLD_V6 = "2001:db8::1";
const NEW_V6 = "2001:db8::7";

let fake: Ipv64Fake;

beforeEach(() => {
  fake = startIpv64Fake();
  fake.addDomain("home.ipv64.net");
  fake.addRecord("home.ipv64.net", { praefix: "", type: "A", content: OLD_V4, ttl: 60 });
  fake.addRecord("home.ipv64.net", { praefix: "", type: "AAAA", content: OLD_V6, ttl: 60 });
  fake.addRecord("home.ipv64.net", { praefix: "nas", type: "A", content: OLD_V4, ttl: 300 });
});

afterEach(async () => {
  await fake.stop();
});

function client(apiKey = IPV64_FAKE_API_KEY) {
  return zoneClient(createIpv64Api({ apiKey }, { baseUrl: fake.url, fetch, timeoutMs: 2000, userAgent: "ddnsd/test" }));
}

function target(hostname: string, recordType: RecordType = "A", config: RecordConfig = {}): RecordTarget {
  return { hostname, recordType, externalId: null, config };
}

const hash = () => fake.domains.get("home.ipv64.net")!.domain_update_hash;
const updates = () => fake.requests.filter((r) => r.path === "/nic/update");

describe("the description", () => {
  test("one secret API key, A and AAAA, no TTL of its own, paced under 3 requests in 10 s", () => {
    expect(ipv64.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
    expect(ipv64.recordTypes).toEqual(["A", "AAAA"]);
    expect(ipv64.ttl).toBeNull();
    for (const limit of ipv64.rateLimits ?? []) if (limit.perSeconds === 10) expect(limit.requests).toBeLessThan(3);
  });
});

describe("verify", () => {
  test("get_domains with the Bearer key, nothing written", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 domain)" });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${IPV64_FAKE_API_KEY}`);
    expect(updates()).toHaveLength(0);
  });
});

describe("writes", () => {
  test("the domain itself: one listing, then the update URL with its hash and ip=; the AAAA stays", async () => {
    const outcome = await client().writeRecord(target("home.ipv64.net"), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "home.ipv64.net" });
    expect(fake.requests).toHaveLength(2);
    expect(updates()[0]?.query).toEqual({ key: hash(), domain: "home.ipv64.net", ip: NEW_V4 });
    expect(fake.recordsOf("home.ipv64.net", "", "A")[0]).toMatchObject({ content: NEW_V4, ttl: 60 });
    expect(fake.recordsOf("home.ipv64.net", "", "AAAA")[0]?.content).toBe(OLD_V6);
  });

  test("AAAA goes in ip6=", async () => {
    await client().writeRecord(target("home.ipv64.net", "AAAA"), NEW_V6);
    expect(updates()[0]?.query).toEqual({ key: hash(), domain: "home.ipv64.net", ip6: NEW_V6 });
    expect(fake.recordsOf("home.ipv64.net", "", "AAAA")[0]?.content).toBe(NEW_V6);
  });

  test("a name inside the domain is named by praefix", async () => {
    expect(await client().writeRecord(target("nas.home.ipv64.net"), NEW_V4)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(updates()[0]?.query).toEqual({ key: hash(), domain: "home.ipv64.net", praefix: "nas", ip: NEW_V4 });
    expect(fake.recordsOf("home.ipv64.net", "nas", "A")[0]).toMatchObject({ content: NEW_V4, ttl: 300 });
  });

  test("a missing record is added with add_record, never by deleting anything", async () => {
    const outcome = await client().writeRecord(target("pi.home.ipv64.net"), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.requests.at(-1)).toMatchObject({ method: "POST", path: "/api" });
    expect(new URLSearchParams(fake.requests.at(-1)?.body as string).toString()).toBe(
      `add_record=home.ipv64.net&praefix=pi&type=A&content=${NEW_V4}`,
    );
    expect(fake.recordsOf("home.ipv64.net", "pi", "A")[0]?.content).toBe(NEW_V4);
    expect(fake.requests.some((r) => r.method === "DELETE" || r.query.del_record !== undefined)).toBe(false);
  });

  test("the update hash never appears in a message", async () => {
    fake.fault({ status: 500, body: `boom ${hash()}` }, 1, "/nic/update");
    const outcome = await client().writeRecord(target("home.ipv64.net"), NEW_V4);
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome)).not.toContain(hash());
  });
});

describe("failures", () => {
  test("a wrong API key stops retrying", async () => {
    expect(await client("wrong").writeRecord(target("home.ipv64.net"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
    });
    expect(updates()).toHaveLength(0);
  });

  test("an update hash the updater refuses stops retrying", async () => {
    fake.fault({ status: 401, body: "Unauthorized" }, 1, "/nic/update");
    expect(await client().writeRecord(target("home.ipv64.net"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
    });
  });

  test("429 is a slow-down with its wait", async () => {
    fake.fault({ status: 429, retryAfter: 10 });
    expect(await client().writeRecord(target("home.ipv64.net"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "throttled",
      retryAfterSeconds: 10,
    });
  });

  test("get_domains refused inside an HTTP 200 is a refused key, not an account without domains", async () => {
    fake.fault({ status: 200, json: { status: "401 Unauthorized", info: "Unauthorized" } }, 2, "/api");
    expect(await client().verify()).toMatchObject({ ok: false, detail: expect.stringContaining("Unauthorized") });
    expect(await client().writeRecord(target("home.ipv64.net"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
    });
    expect(updates()).toHaveLength(0);
  });

  for (const text of ["overcommited", "Updater Account Limit reached"]) {
    test(`an update answered "${text}" (over the account's daily limit) is a slow-down`, async () => {
      fake.fault({ status: 200, text }, 1, "/nic/update");
      const outcome = await client().writeRecord(target("home.ipv64.net"), NEW_V4);
      expect(outcome).toMatchObject({ ok: false, cause: "throttled", message: expect.stringContaining(text) });
      expect(outcome).not.toHaveProperty("stopRetrying");
      expect(fake.recordsOf("home.ipv64.net", "", "A")[0]?.content).toBe(OLD_V4);
    });
  }

  test("an update answer that is neither good nor nochg is no success", async () => {
    fake.fault({ status: 200, text: "911" }, 1, "/nic/update");
    expect(await client().writeRecord(target("home.ipv64.net"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "unreachable",
      message: expect.stringContaining("911"),
    });
  });

  for (const text of ["success", "no change", '{"info":"success","status":"success"}']) {
    test(`IPv64's own words of success, "${text}", are a success`, async () => {
      fake.fault({ status: 200, text }, 1, "/nic/update");
      expect(await client().writeRecord(target("home.ipv64.net"), NEW_V4)).toMatchObject({
        ok: true,
        action: "updated",
      });
    });
  }

  test("nochg is a success", async () => {
    fake.fault({ status: 200, text: `nochg ${NEW_V4}` }, 1, "/nic/update");
    expect(await client().writeRecord(target("home.ipv64.net"), NEW_V4)).toMatchObject({ ok: true, action: "updated" });
  });

  test("a gateway's page is no usable answer", async () => {
    fake.fault("html");
    expect(await client().writeRecord(target("home.ipv64.net"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "unreachable",
    });
  });
});
