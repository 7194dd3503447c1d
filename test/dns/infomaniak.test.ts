// The Infomaniak API client against its fake: what it changes, what it keeps, how many requests it
// spends, and how each failure Infomaniak can give ends up in Infomaniak's own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createInfomaniakApi } from "../../src/dns/services/infomaniak";
import {
  INFOMANIAK_FAKE_TOKEN,
  type InfomaniakFake,
  type InfomaniakFault,
  startInfomaniakFake,
} from "../fakes/infomaniak";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: InfomaniakFake;

beforeEach(() => {
  fake = startInfomaniakFake();
  fake.addZone("example.com");
  fake.addRecord("example.com", { source: "home", type: "A", target: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { source: "@", type: "A", target: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { source: "@", type: "MX", target: "10 mail.example.com", ttl: 3600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createInfomaniakApi(
      { token: options.token ?? INFOMANIAK_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");

describe("the description", () => {
  test("verify sends nothing and says why", async () => {
    const outcome = await client().verify();
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toContain("first update");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the zone, lists it once, and PUTs the address with the TTL it read", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const id = home()[0]!.id;
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: String(id),
      zoneId: "example.com",
      message: `Infomaniak record ${id}, ttl 1800`,
    });
    expect(home()).toMatchObject([{ target: NEW_IP, ttl: 1800 }]);
    // home.example.com is no zone (404), example.com is; its listing is also the read.
    expect(requestLines()).toEqual([
      "GET /2/zones/home.example.com/records",
      "GET /2/zones/example.com/records",
      `PUT /2/zones/example.com/records/${id}`,
    ]);
    expect(fake.requests[2]?.body).toEqual({ source: "home", type: "A", target: NEW_IP, ttl: 1800 });
    expect(fake.requests[2]?.headers.authorization).toBe(`Bearer ${INFOMANIAK_FAKE_TOKEN}`);
  });

  test("steady state (zone known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /2/zones/example.com/records",
      `PUT /2/zones/example.com/records/${home()[0]!.id}`,
    ]);
  });

  test("the apex is the record named @, and the zone's other records stay", async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "example.com" });
    expect(fake.records("example.com", "@", "A")).toMatchObject([{ target: NEW_IP, ttl: 600 }]);
    expect(fake.records("example.com", "@", "MX")).toMatchObject([{ target: "10 mail.example.com" }]);
    expect(fake.zones.get("example.com")).toHaveLength(3);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 300, its name relative to the zone", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: "example.com" }), NEW_IP);
    const [created] = fake.records("example.com", "new", "A");
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: String(created!.id),
      zoneId: "example.com",
      message: `Infomaniak record ${created!.id}, ttl 300`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({ source: "new", type: "A", target: NEW_IP, ttl: 300 });
    expect(fake.writes()).toBe(1);
  });

  test("an AAAA record for the apex, with the TTL from config", async () => {
    await client().writeRecord(
      target("example.com", { zone_id: "example.com", ttl: 900 }, { recordType: "AAAA" }),
      "2001:db8::7",
    );
    expect(fake.records("example.com", "@", "AAAA")).toMatchObject([{ target: "2001:db8::7", ttl: 900 }]);
  });

  test("a TTL Infomaniak refuses comes back in its words", async () => {
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: "example.com", ttl: 30 }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Infomaniak: Validation failed: The ttl attribute must be at least 60 (validation_failed, HTTP 422)",
    });
  });
});

describe("zone discovery", () => {
  for (const status of [403, 422] as const) {
    test(`a candidate name answered ${status} (not a zone this token sees) is passed over, not taken as final`, async () => {
      fake.foreignZoneStatus = status;
      const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
      expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "example.com" });
      expect(home()).toMatchObject([{ target: NEW_IP }]);
    });
  }

  test("no candidate is a zone and some answered 403: the failure says the token may not see the zone, and is retried", async () => {
    fake.foreignZoneStatus = 403;
    const outcome = await client().writeRecord(target("host.other.org"), NEW_IP);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      message: expect.stringMatching(/no zone of this account holds host\.other\.org.*403.*dns:read/),
    });
    expect(outcome).not.toHaveProperty("stopRetrying");
  });
});

describe("failures keep Infomaniak's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: InfomaniakFault; token?: string })[] = [
    // A 403 may be a missing scope or a zone the token may not see: not final, unlike a refused token.
    {
      name: "token without the DNS scopes",
      fault: { status: 403 },
      message: "Infomaniak: Access denied (forbidden, HTTP 403)",
      cause: "credentials",
    },
    {
      name: "429 without Retry-After",
      fault: { status: 429 },
      message: "Infomaniak: Too many requests (too_many_requests, HTTP 429)",
      cause: "throttled",
    },
    {
      name: "a 200 whose envelope says error",
      fault: { status: 400, envelopeOnly: true, code: "zone_locked", description: "The zone is being transferred" },
      message: "Infomaniak: The zone is being transferred (zone_locked, HTTP 200)",
      cause: "unreachable",
    },
  ];
  failureTests(
    cases,
    async ({ fault, token }) => {
      if (fault) fake.fault(fault);
      return client({ token, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", { zone_id: "example.com" }),
        NEW_IP,
      );
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ target: OLD_IP }]);
    },
  );

  test("a failing PUT is reported and nothing changed", async () => {
    fake.fault({ status: 500 }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "unreachable" });
    expect(home()).toMatchObject([{ target: OLD_IP, ttl: 1800 }]);
  });
});
