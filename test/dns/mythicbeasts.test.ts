// The Mythic Beasts client against its fake: the one host/type selection read and replaced with the
// one record (its TTL kept), nothing else touched, the zones the key may use, and how every failure
// Mythic Beasts can give ends up in its own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createMythicBeastsApi } from "../../src/dns/services/mythicbeasts";
import {
  MYTHICBEASTS_FAKE_KEY,
  MYTHICBEASTS_FAKE_SECRET,
  type MythicBeastsFake,
  type MythicBeastsFault,
  startMythicBeastsFake,
} from "../fakes/mythicbeasts";
import { failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: MythicBeastsFake;

beforeEach(() => {
  fake = startMythicBeastsFake();
  fake.addZone("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", data: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { host: "@", type: "A", data: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { host: "@", type: "MX", data: "mx.mythic-beasts.com.", ttl: 300 });
  fake.addRecord("example.com", { host: "home", type: "AAAA", data: "2001:db8::1", ttl: 900 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { keyId?: string; secret?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createMythicBeastsApi(
      { key_id: options.keyId ?? MYTHICBEASTS_FAKE_KEY, secret: options.secret ?? MYTHICBEASTS_FAKE_SECRET },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("verify", () => {
  test("a valid key is accepted, read-only", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 zone)" });
    expect(requestLines()).toEqual(["GET /zones"]);
    expect(fake.writes()).toBe(0);
  });

  test("a wrong secret is refused in Mythic Beasts' words", async () => {
    expect(await client({ secret: "wrong" }).verify()).toMatchObject({
      ok: false,
      detail: "Mythic Beasts: Authentication failed (HTTP 401)",
    });
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the zone, reads the host's A records and replaces them with the one new record: three requests", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home/A",
      zoneId: "example.com",
      message: "Mythic Beasts record home/A, ttl 1800",
    });
    expect(home()).toEqual([{ host: "home", type: "A", data: NEW_IP, ttl: 1800 }]);
    expect(requestLines()).toEqual([
      "GET /zones",
      "GET /zones/example.com/records/home/A",
      "PUT /zones/example.com/records/home/A",
    ]);
    expect(fake.requests[2]?.body).toEqual({ records: [{ host: "home", ttl: 1800, type: "A", data: NEW_IP }] });
  });

  test("steady state (zone known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual(["GET /zones/example.com/records/home/A", "PUT /zones/example.com/records/home/A"]);
  });

  test("a TTL from config is sent; without it the record's TTL is kept", async () => {
    await client().writeRecord(target("home.example.com", { ...known, ttl: 120 }), NEW_IP);
    expect(home()).toMatchObject([{ data: NEW_IP, ttl: 120 }]);
  });

  test("the apex is the host @; the apex's MX stays", async () => {
    const outcome = await client().writeRecord(target("example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: "@/A" });
    expect(fake.records("example.com", "@", "A")).toMatchObject([{ data: NEW_IP, ttl: 600 }]);
    expect(fake.records("example.com", "@", "MX")).toMatchObject([{ data: "mx.mythic-beasts.com." }]);
    expect(fake.requests.at(-1)?.path).toBe("/zones/example.com/records/%40/A");
  });

  test("nothing else in the zone is touched and nothing is deleted", async () => {
    const others = () =>
      structuredClone(fake.zones.get("example.com")!.filter((r) => !(r.host === "home" && r.type === "A")));
    const before = others();
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(others()).toEqual(before);
    expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: "new/A",
      zoneId: "example.com",
      message: "Mythic Beasts record new/A, ttl 300",
    });
    expect(fake.records("example.com", "new", "A")).toEqual([{ host: "new", type: "A", data: NEW_IP, ttl: 300 }]);
  });

  test("an empty selection answered with 404 is still a missing record, once the zone list shows the zone", async () => {
    fake.emptySelection = "404";
    const outcome = await client().writeRecord(target("new.example.com", { ...known, ttl: 3600 }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.records("example.com", "new", "A")).toMatchObject([{ data: NEW_IP, ttl: 3600 }]);
    expect(requestLines()).toEqual([
      "GET /zones/example.com/records/new/A",
      "GET /zones",
      "PUT /zones/example.com/records/new/A",
    ]);
  });
});

describe("zone discovery", () => {
  test("a zone the key may not use is not offered", async () => {
    fake.addZone("other.org");
    fake.allowedZones = new Set(["example.com"]);
    expect(await client().writeRecord(target("home.other.org"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Mythic Beasts: no zone of this account holds home.other.org",
    });
  });
});

describe("failures keep Mythic Beasts' words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: MythicBeastsFault;
    secret?: string;
    message: string | RegExp;
    cause: FailureCause;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "a key without rights to the record",
      fault: { status: 403, error: "Permission denied for home A" },
      message: "Mythic Beasts: Permission denied for home A (HTTP 403)",
      stopRetrying: true,
      cause: "credentials",
    },
    {
      name: "429 naming no wait",
      fault: { status: 429 },
      message: "Mythic Beasts: Rate limited (HTTP 429)",
      cause: "throttled",
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "Mythic Beasts: Internal server error (HTTP 500)",
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
      expect(home()).toMatchObject([{ data: OLD_IP, ttl: 1800 }]);
    },
  );

  test("a refused record names the problems", async () => {
    const outcome = await client().writeRecord(target("home.example.com", { ...known, ttl: 30 }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Mythic Beasts: ttl: must be between 60 and 86400 (HTTP 400)",
    });
    expect(home()).toMatchObject([{ data: OLD_IP, ttl: 1800 }]);
  });
});
