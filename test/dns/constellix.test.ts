// The Constellix client against the faithful fake: what it changes, what it keeps (TTL, note), how
// many requests it spends, and how every failure ends up as Constellix's own words. The security
// token is checked against the format the lego client's test asserts and against an HMAC-SHA1
// computed independently with WebCrypto; the fake checks every request's token.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createConstellixApi, securityToken } from "../../src/dns/services/constellix";
import {
  CONSTELLIX_FAKE_API_KEY,
  CONSTELLIX_FAKE_SECRET,
  type ConstellixFake,
  type ConstellixFault,
  startConstellixFake,
} from "../fakes/constellix";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: ConstellixFake;
let domainId: string;

beforeEach(() => {
  fake = startConstellixFake();
  domainId = String(fake.addDomain("example.com").id);
  fake.addRecord("example.com", { type: "A", name: "home", values: [OLD_IP], ttl: 1800, note: "home router" });
  fake.addRecord("example.com", { type: "A", name: "", values: [OLD_IP], ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { apiKey?: string; secret?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createConstellixApi(
      { api_key: options.apiKey ?? CONSTELLIX_FAKE_API_KEY, secret_key: options.secret ?? CONSTELLIX_FAKE_SECRET },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");

describe("the security token", () => {
  test("is apiKey:base64(HMAC-SHA1(secret, epoch ms)):epoch ms", async () => {
    const epochMs = 1700000000123;
    const token = securityToken("api", "secret", epochMs);
    // The shape lego's TestTokenTransport_RoundTrip asserts: 28 base64 characters, 13 digits.
    expect(token).toMatch(/^api:[^:]{28}:\d{13}$/);
    // The HMAC computed a second way, with WebCrypto, as the API documentation's Postman script does with CryptoJS.
    const key = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode("secret"),
      { name: "HMAC", hash: "SHA-1" },
      false,
      ["sign"],
    );
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(String(epochMs))));
    expect(token).toBe(`api:${Buffer.from(mac).toString("base64")}:${epochMs}`);
  });
});

describe("verify", () => {
  test("a valid key pair is accepted, read-only", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted" });
    expect(requestLines()).toEqual(["GET /domains"]);
    expect(fake.writes()).toBe(0);
  });

  test("the secret key never travels", async () => {
    await client().verify();
    expect(fake.requests[0]?.headers["x-cns-security-token"]).toStartWith(`${CONSTELLIX_FAKE_API_KEY}:`);
    expect(JSON.stringify(fake.requests)).not.toContain(CONSTELLIX_FAKE_SECRET);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain by exact name, reads the record, and PUTs it back with only the address changed", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const [record] = home();
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: String(record!.id),
      zoneId: domainId,
      message: `Constellix record ${record!.id}, ttl 1800`,
    });
    expect(record).toMatchObject({
      ttl: 1800,
      note: "home router",
      roundRobin: [{ value: NEW_IP, disableFlag: false }],
    });
    expect(requestLines()).toEqual([
      "GET /domains/search",
      "GET /domains/search",
      `GET /domains/${domainId}/records/A/search`,
      `GET /domains/${domainId}/records/A/${record!.id}`,
      `PUT /domains/${domainId}/records/A/${record!.id}`,
    ]);
    expect(fake.requests.slice(0, 3).map((r) => r.query.exact)).toEqual(["home.example.com", "example.com", "home"]);
    expect(fake.requests[4]?.body).toMatchObject({
      name: "home",
      ttl: 1800,
      note: "home router",
      value: [NEW_IP],
      roundRobin: [{ value: NEW_IP, disableFlag: false }],
    });
  });

  test("with the domain known, a change costs four requests: the domain named, the record searched and read, the PUT", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP);
    const id = home()[0]!.id;
    expect(requestLines()).toEqual([
      `GET /domains/${domainId}`,
      `GET /domains/${domainId}/records/A/search`,
      `GET /domains/${domainId}/records/A/${id}`,
      `PUT /domains/${domainId}/records/A/${id}`,
    ]);
  });

  test("the TTL from config is written, the note kept", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: domainId, ttl: 300 }), NEW_IP);
    expect(home()[0]).toMatchObject({ ttl: 300, note: "home router" });
  });

  test("a pool record is left alone", async () => {
    fake.addRecord("example.com", { type: "A", name: "pooled", values: [], recordOption: "pools" });
    const outcome = await client().writeRecord(target("pooled.example.com", { zone_id: domainId }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message:
        "Constellix: pooled.example.com A is a pools record; ddnsd changes only a plain one, so nothing was written",
    });
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 3600 from the answer's id", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const [record] = fake.records("example.com", "new", "A");
    expect(record).toMatchObject({ ttl: 3600, roundRobin: [{ value: NEW_IP, disableFlag: false }] });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: String(record!.id),
      zoneId: domainId,
      message: `Constellix record ${record!.id}, ttl 3600`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({
      name: "new",
      ttl: 3600,
      roundRobin: [{ value: NEW_IP, disableFlag: false }],
    });
  });

  test("at the apex of a domain without one, with the TTL from config", async () => {
    const other = fake.addDomain("other.org");
    const outcome = await client().writeRecord(target("other.org", { ttl: 120 }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: String(other.id) });
    expect(fake.records("other.org", "", "A")[0]).toMatchObject({ ttl: 120 });
  });
});

describe("failures keep Constellix's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: ConstellixFault;
    apiKey?: string;
    secret?: string;
    message: string | RegExp;
    cause: FailureCause;
    stopRetrying?: boolean;
    retryAfterSeconds?: number;
  }[] = [
    {
      name: "unknown API key",
      apiKey: "unknown",
      message: "Constellix: Unable to authenticate token (HTTP 401)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "wrong secret key",
      secret: "wrong",
      message: "Constellix: Unable to authenticate token (HTTP 401)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "a user without access to the domain",
      fault: { status: 403, errors: ["Access denied"] },
      message: "Constellix: Access denied (HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "slow down (429)",
      fault: { status: 429, errors: ["Too many requests"] },
      message: "Constellix: Too many requests (HTTP 429)",
      cause: "throttled",
    },
    {
      name: "slow down naming a wait",
      fault: { status: 429, errors: ["Too many requests"], retryAfter: 12 },
      message: "Constellix: Too many requests (HTTP 429)",
      cause: "throttled",
      retryAfterSeconds: 12,
    },
  ];
  failureTests(
    cases,
    async ({ fault, apiKey, secret }) => {
      if (fault) fake.fault(fault);
      return client({ apiKey, secret, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", { zone_id: domainId }),
        NEW_IP,
      );
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()[0]).toMatchObject({ ttl: 1800, roundRobin: [{ value: OLD_IP }] });
    },
  );

  test("a value Constellix refuses is a refusal in its words", async () => {
    fake.fault({ status: 400, errors: ["Invalid A record value"] }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: domainId }), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Constellix: Invalid A record value (HTTP 400)" });
  });
});
