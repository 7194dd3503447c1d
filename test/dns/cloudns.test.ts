// The ClouDNS client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure ClouDNS can give (HTTP 200 with status Failed) ends up as ClouDNS's own
// words with its cause.

import { describe, expect, test } from "bun:test";
import { cloudns, cloudnsTtl } from "../../src/dns/services/cloudns";
import {
  CLOUDNS_FAKE_AUTH_ID,
  CLOUDNS_FAKE_PASSWORD,
  CLOUDNS_FAKE_SUB_AUTH_ID,
  type CloudnsFault,
  startCloudnsFake,
} from "../fakes/cloudns";
import {
  type FailureCase,
  failed,
  fails,
  failureTests,
  serviceClient,
  target,
  useFake,
  withoutHeld,
  wrote,
} from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startCloudnsFake, (fake) => {
  fake.addZone("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", record: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { host: "", type: "A", record: OLD_IP, ttl: 900 });
});
const client = (authId = CLOUDNS_FAKE_SUB_AUTH_ID, options = {}) =>
  serviceClient("cloudns", fake.url, { auth_id: authId, auth_password: CLOUDNS_FAKE_PASSWORD }, options);
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path} ${r.query["domain-name"] ?? ""}`.trim());
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

describe("the description", () => {
  test("names the credentials with the page where they are made, the ID kind and the real service", () => {
    expect(cloudns.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["auth_id", false],
      ["auth_password", true],
    ]);
    expect(cloudns.credentials[0]?.url).toBe("https://www.cloudns.net/api-settings/");
    expect(cloudns.credentials[0]?.validate?.("12a")).toBeString();
    expect(cloudns.options.map((o) => [o.key, o.default])).toEqual([["id_kind", "sub-auth-id"]]);
    expect(cloudns.defaultApiUrl).toBe("https://api.cloudns.net");
  });

  test("TTLs are rounded up to the ones ClouDNS keeps", () => {
    expect([1, 60, 61, 600, 3600, 7200, 3_000_000].map(cloudnsTtl)).toEqual([60, 60, 300, 900, 3600, 21600, 2592000]);
  });
});

test("verify: valid credentials are accepted, read-only, as a sub-user by default or as auth-id when the option says so", async () => {
  expect(await client().verify()).toEqual({
    ok: true,
    detail: `Credentials accepted for sub-auth-id ${CLOUDNS_FAKE_SUB_AUTH_ID}`,
  });
  expect(requestLines()).toEqual(["GET /login/login.json"]);
  expect(fake.writes()).toBe(0);
  expect((await client(CLOUDNS_FAKE_AUTH_ID, { id_kind: "auth-id" }).verify()).ok).toBe(true);
  expect(fake.requests[1]?.query["auth-id"]).toBe(CLOUDNS_FAKE_AUTH_ID);
});

describe("an existing record", () => {
  test("finds the zone by asking for the name and its parents, reads the record, modifies it with the TTL it read; then one read and one write", async () => {
    const id = home()!.id;
    expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual(
      wrote("updated", id, "example.com", `ClouDNS record ${id}, ttl 1800`),
    );
    expect(home()).toMatchObject({ record: NEW_IP, ttl: 1800 });
    expect(fake.requests[3]?.query).toMatchObject({ "record-id": id, host: "home", record: NEW_IP, ttl: "1800" });
    await client().writeRecord(target("home.example.com", known), OLD_IP);
    expect(requestLines()).toEqual([
      "GET /dns/get-zone-info.json home.example.com",
      "GET /dns/get-zone-info.json example.com",
      "GET /dns/records.json example.com",
      "POST /dns/mod-record.json example.com",
      "GET /dns/records.json example.com",
      "POST /dns/mod-record.json example.com",
    ]);
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

describe("a missing record", () => {
  test("is created with TTL 3600 and the id ClouDNS gives; a TTL from config is rounded", async () => {
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    const created = fake.record("example.com", "new", "A")!;
    expect(withoutHeld(outcome)).toEqual(
      wrote("created", created.id, "example.com", `ClouDNS record ${created.id}, ttl 3600`),
    );
    expect(fake.requests.at(-1)?.query).toMatchObject({ "record-type": "A", host: "new", record: NEW_IP, ttl: "3600" });
    await client().writeRecord(target("other.example.com", { ...known, ttl: 7200 }), NEW_IP);
    expect(fake.record("example.com", "other", "A")).toMatchObject({ record: NEW_IP, ttl: 21600 });
  });

  test("an add answered without data.id is read back: created with the id listed, and not added again", async () => {
    fake.addAnswersId = false;
    const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
    const created = fake.record("example.com", "new", "A")!;
    expect(withoutHeld(outcome)).toEqual(
      wrote("created", created.id, "example.com", `ClouDNS record ${created.id}, ttl 3600`),
    );
    expect(fake.requests.map((r) => r.path)).toEqual([
      "/dns/records.json",
      "/dns/add-record.json",
      "/dns/records.json",
    ]);
    const again = await client().writeRecord(target("new.example.com", known), NEW_IP);
    expect(again).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.zones.get("example.com")!.filter((r) => r.host === "new")).toHaveLength(1);
  });
});

test("a zone outside the sub-user's reach is not found, and nothing is written", async () => {
  fake.subUserZones = new Set(["other.org"]);
  expect(await client().writeRecord(target("home.example.com"), NEW_IP)).toEqual(
    failed("refused", "ClouDNS: no zone of this account holds home.example.com"),
  );
  expect(fake.writes()).toBe(0);
});

describe("failures keep ClouDNS's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: CloudnsFault }>(
    [
      // No Retry-After: the client names no wait.
      fails({ status: 429 }, "ClouDNS: Too many requests. (HTTP 429)", "throttled"),
      fails({ status: 500 }, "ClouDNS: Internal error. (HTTP 500)", "unreachable"),
    ],
    async ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.record).toBe(OLD_IP);
    },
  );
});
