// The LuaDNS client against its fake: records found by their full names, PUT back with the name and
// TTL read, nothing written twice or deleted, and LuaDNS's refusals in its own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget, RecordType } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createLuadnsApi, luadns } from "../../src/dns/services/luadns";
import { LUADNS_FAKE_EMAIL, LUADNS_FAKE_KEY, type LuadnsFake, startLuadnsFake } from "../fakes/luadns";

const OLD_V4 = "198.51.100.1";
const NEW_V4 = "203.0.113.7";
const OLD_V6 = "2001:db8::1";
const NEW_V6 = "2001:db8::7";

let fake: LuadnsFake;

beforeEach(() => {
  fake = startLuadnsFake();
  fake.addZone("example.org");
  fake.addRecord("example.org", { hostname: "example.org", type: "A", content: OLD_V4, ttl: 86400 });
  fake.addRecord("example.org", { hostname: "home.example.org", type: "A", content: OLD_V4, ttl: 600 });
  fake.addRecord("example.org", { hostname: "home.example.org", type: "AAAA", content: OLD_V6, ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(apiKey = LUADNS_FAKE_KEY) {
  return zoneClient(
    createLuadnsApi(
      { email: LUADNS_FAKE_EMAIL, apiKey },
      { baseUrl: fake.url, fetch, timeoutMs: 2000, userAgent: "ddnsd/test" },
    ),
  );
}

function target(hostname: string, recordType: RecordType = "A", config: RecordConfig = {}): RecordTarget {
  return { hostname, recordType, externalId: null, config };
}

const zoneId = () => fake.zoneNamed("example.org")!.id;
const lines = () => fake.requests.map((r) => `${r.method} ${r.path}`);

describe("the description", () => {
  test("e-mail shown, API key secret, A and AAAA, paced under 1200 per 5 minutes", () => {
    expect(luadns.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["email", false],
      ["api_key", true],
    ]);
    expect(luadns.recordTypes).toEqual(["A", "AAAA"]);
    expect(luadns.defaultApiUrl).toBe("https://api.luadns.com/v1");
    for (const limit of luadns.rateLimits ?? [])
      expect(limit.requests / limit.perSeconds).toBeLessThanOrEqual(1200 / 300);
  });
});

describe("verify", () => {
  test("Basic auth with Accept: application/json; nothing written", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: `API key accepted for ${LUADNS_FAKE_EMAIL} (1 zone)` });
    const request = fake.requests[0]!;
    expect(request.headers.authorization).toBe(
      `Basic ${Buffer.from(`${LUADNS_FAKE_EMAIL}:${LUADNS_FAKE_KEY}`).toString("base64")}`,
    );
    expect(request.headers.accept).toBe("application/json");
    expect(fake.writes()).toBe(0);
  });
});

describe("writes", () => {
  test("a record: listed, then PUT with its full name and the TTL it had", async () => {
    const outcome = await client().writeRecord(target("home.example.org"), NEW_V4);
    const record = fake.recordsOf("example.org", "home.example.org", "A")[0]!;
    expect(outcome).toMatchObject({
      ok: true,
      action: "updated",
      externalId: String(record.id),
      zoneId: String(zoneId()),
      message: `LuaDNS record ${record.id}, ttl 600`,
    });
    expect(lines()).toEqual([
      "GET /zones",
      `GET /zones/${zoneId()}/records`,
      `PUT /zones/${zoneId()}/records/${record.id}`,
    ]);
    expect(fake.requests[2]?.body).toEqual({ name: "home.example.org.", type: "A", content: NEW_V4, ttl: 600 });
    expect(record).toMatchObject({ content: NEW_V4, ttl: 600 });
    expect(fake.recordsOf("example.org", "home.example.org", "AAAA")[0]?.content).toBe(OLD_V6);
  });

  test("AAAA with the saved zone id: two requests", async () => {
    const outcome = await client().writeRecord(
      target("home.example.org", "AAAA", { zone_id: String(zoneId()) }),
      NEW_V6,
    );
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(lines()).toHaveLength(2);
    expect(fake.recordsOf("example.org", "home.example.org", "AAAA")[0]?.content).toBe(NEW_V6);
  });

  test("the apex, and a TTL the config names", async () => {
    expect(await client().writeRecord(target("example.org", "A", { ttl: 120 }), NEW_V4)).toMatchObject({
      ok: true,
      action: "updated",
    });
    expect(fake.recordsOf("example.org", "example.org", "A")[0]).toMatchObject({ content: NEW_V4, ttl: 120 });
  });

  test("a missing record is created (TTL 300), in a zone given by id only after checking its name", async () => {
    const outcome = await client().writeRecord(target("new.example.org", "A", { zone_id: String(zoneId()) }), NEW_V4);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.requests.at(-1)).toMatchObject({
      method: "POST",
      body: { name: "new.example.org.", type: "A", content: NEW_V4, ttl: 300 },
    });
    expect(lines()).toContain(`GET /zones/${zoneId()}`);
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
  });

  test("a generated record is left alone", async () => {
    fake.addRecord("example.org", {
      hostname: "gen.example.org",
      type: "A",
      content: OLD_V4,
      ttl: 300,
      generated: true,
    });
    expect(await client().writeRecord(target("gen.example.org"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "refused",
      stopRetrying: true,
    });
    expect(fake.writes()).toBe(0);
  });
});

describe("failures", () => {
  test("a wrong key stops retrying", async () => {
    expect(await client("wrong").writeRecord(target("home.example.org"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "credentials",
      stopRetrying: true,
      message: "LuaDNS: Invalid API Key (HTTP 401)",
    });
  });

  test("429 pauses for its Retry-After", async () => {
    fake.fault({ status: 429, retryAfter: 300 });
    expect(await client().writeRecord(target("home.example.org"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "throttled",
      retryAfterSeconds: 300,
    });
  });

  test("a refused body is reported field by field", async () => {
    const outcome = await client().writeRecord(target("home.example.org", "A", { ttl: -1 }), NEW_V4);
    expect(outcome).toMatchObject({ ok: false, cause: "refused", message: "LuaDNS: ttl invalid TTL (HTTP 400)" });
  });

  test("a gateway's page is no usable answer", async () => {
    fake.fault("html");
    expect(await client().writeRecord(target("home.example.org"), NEW_V4)).toMatchObject({
      ok: false,
      cause: "unreachable",
    });
  });
});
