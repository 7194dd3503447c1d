// The IONOS DNS API client against its fake: what it changes, what it keeps, how many requests it
// spends, and how every failure IONOS can give ends up as IONOS's own words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createIonosApi, ionos } from "../../src/dns/services/ionos";
import { IONOS_FAKE_API_KEY, type IonosFake, type IonosFault, startIonosFake } from "../fakes/ionos";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: IonosFake;
let zoneId: string;

beforeEach(() => {
  fake = startIonosFake();
  zoneId = fake.addZone("example.com");
  fake.addRecord("example.com", { name: "home.example.com", type: "A", content: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { name: "example.com", type: "A", content: OLD_IP, ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { apiKey?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createIonosApi(
      { api_key: options.apiKey ?? IONOS_FAKE_API_KEY },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home.example.com", "A");
const known = () => ({ zone_id: zoneId });

describe("the description", () => {
  test("names the key with the page where it is made and its form, the record types and the real service", () => {
    expect(ionos.type).toBe("ionos");
    expect(ionos.credentials.map((c) => [c.key, c.secret])).toEqual([["api_key", true]]);
    expect(ionos.credentials[0]?.url).toBe("https://developer.hosting.ionos.com/keys");
    expect(ionos.credentials[0]?.validate?.("justonepart")).toBeString();
    expect(ionos.credentials[0]?.validate?.(IONOS_FAKE_API_KEY)).toBeUndefined();
    expect(ionos.defaultApiUrl).toBe("https://api.hosting.ionos.com/dns");
  });
});

describe("verify", () => {
  test("a valid key is accepted, read-only, with the zone count", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 zone)" });
    expect(requestLines()).toEqual(["GET /v1/zones"]);
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("lists the zones, reads the name's records, and PUTs the record with what it read", async () => {
    const id = home()!.id;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId,
      message: `IONOS record ${id}, ttl 1800`,
    });
    expect(home()).toMatchObject({ content: NEW_IP, ttl: 1800, disabled: false });
    expect(requestLines()).toEqual([
      "GET /v1/zones",
      `GET /v1/zones/${zoneId}`,
      `PUT /v1/zones/${zoneId}/records/${id}`,
    ]);
    expect(fake.requests[1]?.query).toEqual({ recordName: "home.example.com", recordType: "A" });
    expect(fake.requests[2]?.body).toEqual({ content: NEW_IP, ttl: 1800, prio: 0, disabled: false });
  });

  test("steady state (zone known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known()), NEW_IP);
    expect(requestLines()).toEqual([`GET /v1/zones/${zoneId}`, `PUT /v1/zones/${zoneId}/records/${home()!.id}`]);
  });

  test("a disabled record stays disabled; a TTL from config replaces the one read", async () => {
    fake.addRecord("example.com", { name: "off.example.com", type: "A", content: OLD_IP, ttl: 3600, disabled: true });
    await client().writeRecord(target("off.example.com", { ...known(), ttl: 900 }), NEW_IP);
    expect(fake.record("example.com", "off.example.com", "A")).toMatchObject({
      content: NEW_IP,
      ttl: 900,
      disabled: true,
    });
  });

  test("an AAAA record is changed without touching the A of the same name; the apex is the zone's name", async () => {
    fake.addRecord("example.com", { name: "example.com", type: "AAAA", content: "2001:db8::1", ttl: 7200 });
    const outcome = await client().writeRecord(target("example.com", known(), { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.record("example.com", "example.com", "AAAA")).toMatchObject({ content: "2001:db8::7", ttl: 7200 });
    expect(fake.record("example.com", "example.com", "A")?.content).toBe(OLD_IP);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 3600", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.record("example.com", "new.example.com", "A")!;
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: created.id,
      zoneId,
      message: `IONOS record ${created.id}, ttl 3600`,
    });
    expect(fake.requests.at(-1)?.body).toEqual([
      { name: "new.example.com", type: "A", content: NEW_IP, ttl: 3600, prio: 0, disabled: false },
    ]);
  });

  test("in a zone known only by its id, its name is checked first", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { ...known(), ttl: 300 }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(requestLines()).toEqual([
      `GET /v1/zones/${zoneId}`,
      `GET /v1/zones/${zoneId}`,
      `POST /v1/zones/${zoneId}/records`,
    ]);
    expect(fake.record("example.com", "new.example.com", "A")?.ttl).toBe(300);
  });

  test("a configured zone that does not hold the name creates nothing", async () => {
    const other = fake.addZone("other.org");
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: other }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(fake.writes()).toBe(0);
  });
});

describe("failures keep IONOS's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: IonosFault;
    apiKey?: string;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "429 without Retry-After names no wait",
      fault: { status: 429 },
      message: "IONOS: Too many requests. (TOO_MANY_REQUESTS, HTTP 429)",
      cause: "throttled",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "IONOS: Internal server error. (INTERNAL_SERVER_ERROR, HTTP 500)",
      cause: "unreachable",
    },
  ];
  failureTests(
    cases,
    async ({ fault, apiKey }) => {
      if (fault) fake.fault(fault);
      return client({ apiKey, timeoutMs: 1000 }).writeRecord(target("home.example.com", known()), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.content).toBe(OLD_IP);
    },
  );

  test("a refused PUT is reported in IONOS's words; the record and its TTL stay", async () => {
    fake.fault({ status: 400, code: "INVALID_RECORD", message: "Record is invalid." }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", known()), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "IONOS: Record is invalid. (INVALID_RECORD, HTTP 400)",
    });
    expect(home()).toMatchObject({ content: OLD_IP, ttl: 1800 });
  });
});
