// The ClouDNS client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure ClouDNS can give (HTTP 200 with status Failed) ends up as ClouDNS's own
// words with its cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { cloudns, cloudnsTtl, createCloudnsApi } from "../../src/dns/services/cloudns";
import {
  CLOUDNS_FAKE_AUTH_ID,
  CLOUDNS_FAKE_PASSWORD,
  CLOUDNS_FAKE_SUB_AUTH_ID,
  type CloudnsFake,
  type CloudnsFault,
  startCloudnsFake,
} from "../fakes/cloudns";
import { type FailureCase, failureTests, target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: CloudnsFake;

beforeEach(() => {
  fake = startCloudnsFake();
  fake.addZone("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", record: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { host: "", type: "A", record: OLD_IP, ttl: 900 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { password?: string; sub?: boolean; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createCloudnsApi(
      {
        idKind: options.sub === false ? "auth-id" : "sub-auth-id",
        authId: options.sub === false ? CLOUDNS_FAKE_AUTH_ID : CLOUDNS_FAKE_SUB_AUTH_ID,
        password: options.password ?? CLOUDNS_FAKE_PASSWORD,
      },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path} ${r.query["domain-name"] ?? ""}`.trim());
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("names the credentials with the page where they are made, the ID kind, the record types, the TTL range and the real service", () => {
    expect(cloudns.type).toBe("cloudns");
    expect(cloudns.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["auth_id", false],
      ["auth_password", true],
    ]);
    expect(cloudns.credentials[0]?.url).toBe("https://www.cloudns.net/api-settings/");
    expect(cloudns.credentials[0]?.validate?.("12a")).toBeString();
    expect(cloudns.options.map((o) => [o.key, o.default])).toEqual([["id_kind", "sub-auth-id"]]);
    expect(cloudns.recordTypes).toEqual(["A", "AAAA"]);
    expect(cloudns.defaultApiUrl).toBe("https://api.cloudns.net");
  });

  test("createClient builds a working client, with auth-id when the option says so", async () => {
    const built = cloudns.createClient(
      { auth_id: CLOUDNS_FAKE_AUTH_ID, auth_password: CLOUDNS_FAKE_PASSWORD },
      { id_kind: "auth-id" },
      { baseUrl: fake.url, fetch, timeoutMs: 10000, userAgent: "ddnsd/test" },
    );
    expect((await built.verify()).ok).toBe(true);
    expect(fake.requests[0]?.query["auth-id"]).toBe(CLOUDNS_FAKE_AUTH_ID);
    expect(fake.requests[0]?.headers["user-agent"]).toBe("ddnsd/test");
  });

  test("TTLs are rounded up to the ones ClouDNS keeps", () => {
    expect([1, 60, 61, 600, 3600, 7200, 3_000_000].map(cloudnsTtl)).toEqual([60, 60, 300, 900, 3600, 21600, 2592000]);
  });
});

describe("verify", () => {
  test("valid credentials are accepted, read-only", async () => {
    expect(await client().verify()).toEqual({
      ok: true,
      detail: `Credentials accepted for sub-auth-id ${CLOUDNS_FAKE_SUB_AUTH_ID}`,
    });
    expect(requestLines()).toEqual(["GET /login/login.json"]);
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the zone by asking for the name and its parents, reads the record, and modifies it with the TTL it read", async () => {
    const id = home()!.id;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: id,
      zoneId: "example.com",
      message: `ClouDNS record ${id}, ttl 1800`,
    });
    expect(home()).toMatchObject({ record: NEW_IP, ttl: 1800 });
    expect(requestLines()).toEqual([
      "GET /dns/get-zone-info.json home.example.com",
      "GET /dns/get-zone-info.json example.com",
      "GET /dns/records.json example.com",
      "POST /dns/mod-record.json example.com",
    ]);
    expect(fake.requests[3]?.query).toMatchObject({ "record-id": id, host: "home", record: NEW_IP, ttl: "1800" });
  });

  test("steady state (zone known from config): one read and one write", async () => {
    await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(requestLines()).toEqual(["GET /dns/records.json example.com", "POST /dns/mod-record.json example.com"]);
  });

  test("a config TTL ClouDNS would round is taken as already there once rounded", async () => {
    await client().writeRecord(target("home.example.com", { ...known, ttl: 1000 }), NEW_IP);
    expect(home()).toMatchObject({ record: NEW_IP, ttl: 1800 });
    fake.clearRequests();
    const again = await client().writeRecord(target("home.example.com", { ...known, ttl: 1000 }), NEW_IP);
    expect(again).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 3600 and keeps the id ClouDNS gives", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    const created = fake.record("example.com", "new", "A")!;
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: created.id,
      zoneId: "example.com",
      message: `ClouDNS record ${created.id}, ttl 3600`,
    });
    expect(fake.requests.at(-1)?.query).toMatchObject({ "record-type": "A", host: "new", record: NEW_IP, ttl: "3600" });
  });

  test("an add answered without data.id is read back: created with the id listed, and not added again", async () => {
    fake.addAnswersId = false;
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    const created = fake.record("example.com", "new", "A")!;
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: created.id,
      zoneId: "example.com",
      message: `ClouDNS record ${created.id}, ttl 3600`,
    });
    expect(fake.requests.map((r) => r.path)).toEqual([
      "/dns/records.json",
      "/dns/add-record.json",
      "/dns/records.json",
    ]);
    const again = await client().writeRecord(target("new.example.com", known), NEW_IP);
    expect(again).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.zones.get("example.com")!.filter((r) => r.host === "new")).toHaveLength(1);
  });

  test("creates it with the TTL from config, rounded; an AAAA at the apex", async () => {
    await client().writeRecord(target("example.com", { ttl: 7200 }, { recordType: "AAAA" }), "2001:db8::7");
    expect(fake.record("example.com", "", "AAAA")).toMatchObject({ record: "2001:db8::7", ttl: 21600 });
  });
});

describe("zone discovery", () => {
  test("a zone outside the sub-user's reach is not found, and nothing is written", async () => {
    fake.subUserZones = new Set(["other.org"]);
    expect(await client().writeRecord(target("home.example.com"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "ClouDNS: no zone of this account holds home.example.com",
    });
    expect(fake.writes()).toBe(0);
  });

  test("wrong credentials stop the search at once", async () => {
    const outcome = await client({ password: "wrong" }).writeRecord(target("a.b.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "credentials", stopRetrying: true });
    expect(fake.requests).toHaveLength(1);
  });
});

describe("failures keep ClouDNS's words and leave the record alone", () => {
  const cases: (FailureCase & { fault?: CloudnsFault; password?: string })[] = [
    {
      name: "429 without Retry-After names no wait",
      fault: { status: 429 },
      message: "ClouDNS: Too many requests. (HTTP 429)",
      cause: "throttled",
    },
    { name: "500", fault: { status: 500 }, message: "ClouDNS: Internal error. (HTTP 500)", cause: "unreachable" },
  ];
  failureTests(
    cases,
    async ({ fault, password }) => {
      if (fault) fake.fault(fault);
      return client({ password, timeoutMs: 1000 }).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.record).toBe(OLD_IP);
    },
  );

  test("a refused modification is reported in ClouDNS's words; the record and its TTL stay", async () => {
    fake.fault({ failed: "The record is locked." }, 1, "/dns/mod-record.json");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "ClouDNS: The record is locked. (HTTP 200)" });
    expect(home()).toMatchObject({ record: OLD_IP, ttl: 1800 });
  });

  test("the password never appears in a message", async () => {
    const gone = startCloudnsFake();
    const url = gone.url;
    await gone.stop();
    const outcome = await client({ baseUrl: url }).verify();
    expect(outcome.detail).toStartWith("ClouDNS: request failed: ");
    expect(outcome.detail).not.toContain(CLOUDNS_FAKE_PASSWORD);
  });
});
