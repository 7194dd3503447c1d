// The Gcore client against its fake: the token header, the one RRset it replaces (everything else of
// the set sent back as read), what it keeps, and its failures in Gcore's words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createGcoreApi, gcore } from "../../src/dns/services/gcore";
import { GCORE_FAKE_TOKEN, type GcoreFake, type GcoreFault, startGcoreFake } from "../fakes/gcore";
import { target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const SETS = "/v2/zones/example.com";

let fake: GcoreFake;

beforeEach(() => {
  fake = startGcoreFake();
  fake.addZone("example.com");
  fake.addRrset("example.com", { name: "home.example.com", type: "A", contents: [OLD_IP], ttl: 300 });
  fake.addRrset("example.com", { name: "example.com", type: "A", contents: [OLD_IP], ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number } = {}) {
  return zoneClient(
    createGcoreApi(
      { api_token: options.token ?? GCORE_FAKE_TOKEN },
      { baseUrl: fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.rrset("example.com", "home.example.com", "A");
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("one secret token; the real service", async () => {
    expect(gcore.credentials.map((c) => [c.key, c.secret])).toEqual([["api_token", true]]);
    expect(gcore.defaultApiUrl).toBe("https://api.gcore.com/dns");
    const built = gcore.createClient(
      { api_token: GCORE_FAKE_TOKEN },
      {},
      { baseUrl: fake.url, fetch, timeoutMs: 2000, userAgent: "ddnsd/test" },
    );
    expect(await built.verify()).toEqual({ ok: true, detail: "API token accepted (1 zone)" });
    expect(fake.requests[0]?.headers.authorization).toBe(`APIKey ${GCORE_FAKE_TOKEN}`);
  });
});

describe("writeRecord", () => {
  test("an existing set: one PUT of the set as read with the new address", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toMatchObject({
      ok: true,
      action: "updated",
      zoneId: "example.com",
      externalId: "home.example.com/A",
      message: expect.stringContaining("ttl 300"),
    });
    expect(home()).toMatchObject({ ttl: 300, resource_records: [{ content: [NEW_IP], enabled: true }] });
    expect(requestLines()).toEqual([
      "GET /v2/zones",
      `GET ${SETS}/home.example.com/A`,
      `PUT ${SETS}/home.example.com/A`,
    ]);
    expect(fake.requests[0]?.query).toEqual({ limit: "1000", offset: "0" });
    expect(fake.requests[2]?.body).toEqual({
      ttl: 300,
      resource_records: [{ content: [NEW_IP], enabled: true, meta: {} }],
      meta: {},
    });
  });

  test("an address already there is not written; a TTL from config is; the apex is the zone's own name", async () => {
    expect(await client().writeRecord(target("home.example.com", known), OLD_IP)).toMatchObject({
      action: "unchanged",
    });
    expect(fake.writes()).toBe(0);
    await client().writeRecord(target("home.example.com", { ...known, ttl: 60 }), NEW_IP);
    expect(home()).toMatchObject({ ttl: 60, resource_records: [{ content: [NEW_IP] }] });
    await client().writeRecord(target("example.com", known), NEW_IP);
    expect(fake.rrset("example.com", "example.com", "A")).toMatchObject({
      ttl: 600,
      resource_records: [{ content: [NEW_IP] }],
    });
    expect(fake.zones.get("example.com")!.rrsets.size).toBe(2);
  });

  test("the set's filters, meta and a record's own meta and flag are kept", async () => {
    const filters = [{ type: "geodns" }, { type: "first_n", limit: 1 }];
    const set = fake.addRrset("example.com", {
      name: "geo.example.com",
      type: "A",
      contents: [OLD_IP],
      ttl: 120,
      filters,
      meta: { notes: "router" },
    });
    set.resource_records[0]!.meta = { countries: ["de"] };
    set.resource_records[0]!.enabled = false;
    expect(await client().writeRecord(target("geo.example.com", known), NEW_IP)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(fake.rrset("example.com", "geo.example.com", "A")).toMatchObject({
      ttl: 120,
      filters,
      meta: { notes: "router" },
      resource_records: [{ content: [NEW_IP], enabled: false, meta: { countries: ["de"] } }],
    });
  });

  test("a dynamic set's pickers (its geo-balancing chain) are kept", async () => {
    const pickers = [
      { type: "geodns", strict: true },
      { type: "first_n", limit: 1 },
    ];
    fake.addRrset("example.com", { name: "near.example.com", type: "A", contents: [OLD_IP], pickers });
    expect(await client().writeRecord(target("near.example.com", known), NEW_IP)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(fake.rrset("example.com", "near.example.com", "A")).toMatchObject({
      pickers,
      resource_records: [{ content: [NEW_IP] }],
    });
  });

  test("a missing AAAA set is created with POST and TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known, { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.rrset("example.com", "new.example.com", "AAAA")).toMatchObject({
      ttl: 300,
      resource_records: [{ content: ["2001:db8::7"] }],
    });
    expect(requestLines()).toEqual([
      `GET ${SETS}/new.example.com/AAAA`,
      `GET ${SETS}`,
      `POST ${SETS}/new.example.com/AAAA`,
    ]);
  });

  test("the zone list is read page by page; the longest zone wins; none is a failure naming the name", async () => {
    fake.maxPerPage = 1;
    fake.addZone("lab.example.com");
    fake.addZone("other.net");
    expect(await client().writeRecord(target("pi.lab.example.com"), NEW_IP)).toMatchObject({
      ok: true,
      action: "created",
      zoneId: "lab.example.com",
    });
    expect(fake.requests.filter((r) => r.path === "/v2/zones").map((r) => r.query.offset)).toEqual(["0", "1", "2"]);
    expect(await client().writeRecord(target("x.nowhere.org"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Gcore: no zone of this account holds x.nowhere.org",
    });
  });

  test("a wrong token is refused in Gcore's words and stops retries", async () => {
    expect(await client({ token: "wrong" }).writeRecord(target("home.example.com"), NEW_IP)).toEqual({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
      message: "Gcore: Invalid authentication credentials (HTTP 401)",
    });
  });
});

describe("failures keep Gcore's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault: GcoreFault;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
  }[] = [
    {
      name: "a refusal",
      fault: { status: 400, error: "ttl: invalid" },
      message: "Gcore: ttl: invalid (HTTP 400)",
      cause: "refused",
    },
    { name: "500", fault: { status: 500 }, message: "Gcore: internal server error (HTTP 500)", cause: "unreachable" },
  ];
  for (const { name, fault, message, cause, retryAfterSeconds } of cases) {
    test(name, async () => {
      fake.fault(fault);
      const outcome = await client({ timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.retryAfterSeconds).toBe(retryAfterSeconds);
      expect(outcome.cause).toBe(cause);
      expect(home()?.resource_records[0]?.content).toEqual([OLD_IP]);
    });
  }
});
