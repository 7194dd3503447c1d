// The Spaceship client against its fake: a change of address is the new record added first and then
// exactly the old one deleted; a failure between the two leaves both addresses (and the next run
// leaves them alone); what it keeps, how many requests it spends, how it pages, and how every
// failure Spaceship can give ends up in Spaceship's own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createSpaceshipApi, spaceship } from "../../src/dns/services/spaceship";
import {
  SPACESHIP_FAKE_KEY,
  SPACESHIP_FAKE_SECRET,
  type SpaceshipFake,
  type SpaceshipFault,
  startSpaceshipFake,
} from "../fakes/spaceship";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: SpaceshipFake;

beforeEach(() => {
  fake = startSpaceshipFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", address: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { name: "@", type: "A", address: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { name: "@", type: "AAAA", address: "2001:db8::1", ttl: 600 });
  fake.addRecord("example.com", { name: "www", type: "A", address: OLD_IP, ttl: 3600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { key?: string; secret?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createSpaceshipApi(
      { api_key: options.key ?? SPACESHIP_FAKE_KEY, api_secret: options.secret ?? SPACESHIP_FAKE_SECRET },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };
const snapshot = () => structuredClone(fake.domains.get("example.com")!);

describe("the description", () => {
  test("names the key and secret (both sealed), the record types, the TTL range and the real service", () => {
    expect(spaceship.type).toBe("spaceship");
    expect(spaceship.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["api_key", true],
      ["api_secret", true],
    ]);
    expect(spaceship.recordTypes).toEqual(["A", "AAAA"]);
    expect(spaceship.ttl).toMatchObject({ min: 60, max: 3600 });
    expect(spaceship.defaultApiUrl).toBe("https://spaceship.dev/api");
    // Under the documented 300 requests per user in 300 seconds.
    for (const limit of spaceship.rateLimits ?? []) expect(limit.requests / limit.perSeconds).toBeLessThan(1);
  });
});

describe("verify", () => {
  test("a valid key is accepted, read-only", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 domain)" });
    expect(requestLines()).toEqual(["GET /v1/domains"]);
    expect(fake.requests[0]?.query).toEqual({ take: "1", skip: "0" });
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("adds the new record with the old TTL, then deletes exactly the old one", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home/A",
      zoneId: "example.com",
      message: "Spaceship record home/A, ttl 1800",
    });
    expect(home()).toMatchObject([{ address: NEW_IP, ttl: 1800 }]);
    expect(requestLines()).toEqual([
      "GET /v1/domains",
      "GET /v1/dns/records/example.com",
      "PUT /v1/dns/records/example.com",
      "DELETE /v1/dns/records/example.com",
    ]);
    expect(fake.requests[2]?.body).toEqual({
      force: false,
      items: [{ type: "A", name: "home", address: NEW_IP, ttl: 1800 }],
    });
    expect(fake.requests[3]?.body).toEqual([{ type: "A", name: "home", address: OLD_IP }]);
  });

  test("steady state (domain known from config): one read, the add and the delete", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /v1/dns/records/example.com",
      "PUT /v1/dns/records/example.com",
      "DELETE /v1/dns/records/example.com",
    ]);
    expect(fake.requests[0]?.query).toEqual({ take: "500", skip: "0" });
  });

  test("a TTL from config is sent with the new record", async () => {
    await client().writeRecord(target("home.example.com", { ...known, ttl: 300 }), NEW_IP);
    expect(home()).toMatchObject([{ address: NEW_IP, ttl: 300 }]);
  });

  test("a new TTL for the address already there is one PUT of the same record, and nothing is deleted", async () => {
    const outcome = await client().writeRecord(target("home.example.com", { ...known, ttl: 300 }), OLD_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", message: "Spaceship record home/A, ttl 300" });
    expect(home()).toMatchObject([{ address: OLD_IP, ttl: 300 }]);
    expect(requestLines()).toEqual(["GET /v1/dns/records/example.com", "PUT /v1/dns/records/example.com"]);
  });

  test("an AAAA at the apex (named @) is changed; the apex's A and every other record stay", async () => {
    const outcome = await client().writeRecord(target("example.com", known, { recordType: "AAAA" }), "2001:db8::7");
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: "@/AAAA" });
    expect(fake.records("example.com", "@", "AAAA")).toMatchObject([{ address: "2001:db8::7", ttl: 600 }]);
    expect(fake.records("example.com", "@", "A")).toMatchObject([{ address: OLD_IP, ttl: 600 }]);
    expect(fake.requests.at(-1)?.body).toEqual([{ type: "AAAA", name: "@", address: "2001:db8::1" }]);
  });

  test("nothing but the one old record is deleted: every other record stays as it was", async () => {
    const others = () => snapshot().filter((r) => r.name !== "home");
    const before = others();
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(others()).toEqual(before);
    const deletes = fake.requests.filter((r) => r.method === "DELETE");
    expect(deletes.map((r) => r.body)).toEqual([[{ type: "A", name: "home", address: OLD_IP }]]);
  });

  test("a record of one of Spaceship's own features is not replaced", async () => {
    fake.addRecord("example.com", { name: "go", type: "A", address: OLD_IP, group: "product" });
    const outcome = await client().writeRecord(target("go.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message:
        "Spaceship: go.example.com A belongs to Spaceship's product feature, so ddnsd leaves it alone; change it at Spaceship or use another name",
    });
    expect(fake.writes()).toBe(0);
  });

  test("the records are read page by page", async () => {
    for (let i = 0; i < 520; i++) fake.addRecord("example.com", { name: `h${i}`, type: "A", address: OLD_IP });
    fake.addRecord("example.com", { name: "last", type: "A", address: OLD_IP, ttl: 900 });
    const outcome = await client().writeRecord(target("last.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.records("example.com", "last", "A")).toMatchObject([{ address: NEW_IP, ttl: 900 }]);
    expect(fake.requests.filter((r) => r.method === "GET").map((r) => r.query.skip)).toEqual(["0", "500"]);
  });
});

describe("a failure between the add and the delete", () => {
  test("leaves both addresses (never none) and says so; the next run leaves the set alone", async () => {
    fake.fault({ status: 500 }, 1, (r) => r.method === "DELETE");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "unreachable",
      message: `Spaceship: added ${NEW_IP} to home.example.com A but could not delete the old record ${OLD_IP}, so the name holds both addresses and ddnsd leaves it alone until one is removed at Spaceship: Internal server error. (HTTP 500)`,
    });
    expect(home().map((r) => r.address)).toEqual([OLD_IP, NEW_IP]);

    fake.clearRequests();
    const next = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(next).toMatchObject({ ok: false, cause: "refused" });
    expect(next.ok ? "" : next.message).toContain(`holds 2 addresses (${OLD_IP}, ${NEW_IP})`);
    expect(fake.writes()).toBe(0);
    expect(home().map((r) => r.address)).toEqual([OLD_IP, NEW_IP]);
  });

  test("a refused add deletes nothing: the old address stays", async () => {
    fake.fault({ status: 422, detail: "Validation failed." }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "Spaceship: Validation failed. (HTTP 422)" });
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
    expect(home()).toMatchObject([{ address: OLD_IP, ttl: 1800 }]);
  });
});

describe("writeRecord on a missing record", () => {
  test("adds it with TTL 3600", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: "new/A",
      zoneId: "example.com",
      message: "Spaceship record new/A, ttl 3600",
    });
    expect(fake.records("example.com", "new", "A")).toMatchObject([{ address: NEW_IP, ttl: 3600 }]);
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
  });

  test("adds it with the TTL from config, in the longest domain that holds the name", async () => {
    fake.addDomain("sub.example.com");
    await client().writeRecord(target("a.b.sub.example.com", { ttl: 120 }), NEW_IP);
    expect(fake.records("sub.example.com", "a.b", "A")).toMatchObject([{ address: NEW_IP, ttl: 120 }]);
  });
});

describe("domain discovery", () => {
  test("the domain list is followed page by page", async () => {
    for (let i = 0; i < 120; i++) fake.addDomain(`d${i}.net`);
    fake.addDomain("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "zz.org" });
    expect(fake.requests.filter((r) => r.path === "/v1/domains").map((r) => r.query.skip)).toEqual(["0", "100"]);
  });
});

describe("failures keep Spaceship's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: SpaceshipFault;
    secret?: string;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "a key without the permission",
      fault: { status: 403 },
      message: "Spaceship: Forbidden (HTTP 403)",
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "429 naming no wait",
      fault: { status: 429 },
      message: "Spaceship: Too many requests. (HTTP 429)",
      cause: "throttled",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "Spaceship: Internal server error. (HTTP 500)",
      cause: "unreachable",
    },
  ];
  failureTests(
    cases,
    async ({ fault, secret }) => {
      if (fault) fake.fault(fault);
      return client({ secret, timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ address: OLD_IP, ttl: 1800 }]);
    },
  );

  test("a validation answer names the fields", async () => {
    const outcome = await client().writeRecord(target("home.example.com", { ...known, ttl: 7200 }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Spaceship: Validation failed.; ttl: The ttl must be between 60 and 3600. (HTTP 422)",
    });
    expect(home()).toMatchObject([{ address: OLD_IP, ttl: 1800 }]);
  });
});
