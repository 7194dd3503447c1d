// The Spaceship client against its fake: a change of address is the new record added first and then
// exactly the old one deleted; a failure between the two leaves both addresses (and the next run
// leaves them alone); what it keeps, how many requests it spends, how it pages, and how every
// failure Spaceship can give ends up in Spaceship's own words.

import { describe, expect, test } from "bun:test";
import { spaceship } from "../../src/dns/services/spaceship";
import { SPACESHIP_FAKE_KEY, SPACESHIP_FAKE_SECRET, type SpaceshipFault, startSpaceshipFake } from "../fakes/spaceship";
import { fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startSpaceshipFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", address: OLD_IP, ttl: 1800 });
});
const client = () =>
  serviceClient("spaceship", fake.url, { api_key: SPACESHIP_FAKE_KEY, api_secret: SPACESHIP_FAKE_SECRET });

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("the description names the key and secret (both sealed), the record types, the TTL range and the real service", () => {
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

test("verify: a valid key is accepted, read-only", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 domain)" });
  expect(requestLines()).toEqual(["GET /v1/domains"]);
  expect(fake.requests[0]?.query).toEqual({ take: "1", skip: "0" });
});

describe("writeRecord on an existing record", () => {
  test("adds the new record with the old TTL, then deletes exactly the old one; then (domain known) one read, the add and the delete", async () => {
    expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
      ok: true,
      action: "updated",
      externalId: "home/A",
      zoneId: "example.com",
      message: "Spaceship record home/A, ttl 1800",
    });
    expect(home()).toMatchObject([{ address: NEW_IP, ttl: 1800 }]);
    expect(fake.requests[2]?.body).toEqual({
      force: false,
      items: [{ type: "A", name: "home", address: NEW_IP, ttl: 1800 }],
    });
    expect(fake.requests[3]?.body).toEqual([{ type: "A", name: "home", address: OLD_IP }]);
    await client().writeRecord(target("home.example.com", known), OLD_IP);
    expect(fake.requests[4]?.query).toEqual({ take: "500", skip: "0" });
    expect(requestLines()).toEqual([
      "GET /v1/domains",
      "GET /v1/dns/records/example.com",
      "PUT /v1/dns/records/example.com",
      "DELETE /v1/dns/records/example.com",
      "GET /v1/dns/records/example.com",
      "PUT /v1/dns/records/example.com",
      "DELETE /v1/dns/records/example.com",
    ]);
  });

  test("a new TTL for the address already there is one PUT of the same record, and nothing is deleted", async () => {
    const outcome = await client().writeRecord(target("home.example.com", { ...known, ttl: 300 }), OLD_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated", message: "Spaceship record home/A, ttl 300" });
    expect(home()).toMatchObject([{ address: OLD_IP, ttl: 300 }]);
    expect(requestLines()).toEqual(["GET /v1/dns/records/example.com", "PUT /v1/dns/records/example.com"]);
  });

  test("a record of one of Spaceship's own features is not replaced", async () => {
    fake.addRecord("example.com", { name: "go", type: "A", address: OLD_IP, group: "product" });
    expect(await client().writeRecord(target("go.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message:
        "Spaceship: go.example.com A belongs to Spaceship's product feature, so ddnsd leaves it alone; change it at Spaceship or use another name",
    });
    expect(fake.writes()).toBe(0);
  });

  test("the domain list and the records are read page by page", async () => {
    for (let i = 0; i < 120; i++) fake.addDomain(`d${i}.net`);
    fake.addDomain("zz.org");
    for (let i = 0; i < 520; i++) fake.addRecord("zz.org", { name: `h${i}`, type: "A", address: OLD_IP });
    fake.addRecord("zz.org", { name: "last", type: "A", address: OLD_IP, ttl: 900 });
    expect(await client().writeRecord(target("last.zz.org"), NEW_IP)).toMatchObject({ ok: true, zoneId: "zz.org" });
    expect(fake.records("zz.org", "last", "A")).toMatchObject([{ address: NEW_IP, ttl: 900 }]);
    expect(fake.requests.filter((r) => r.path === "/v1/domains").map((r) => r.query.skip)).toEqual(["0", "100"]);
    expect(
      fake.requests.filter((r) => r.path.endsWith("zz.org") && r.method === "GET").map((r) => r.query.skip),
    ).toEqual(["0", "500"]);
  });
});

test("a failure between the add and the delete leaves both addresses (never none) and says so; the next run leaves the set alone", async () => {
  fake.fault({ status: 500 }, 1, (r) => r.method === "DELETE");
  expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
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

test("a missing record is added with TTL 3600, and nothing deleted", async () => {
  expect(withoutHeld(await client().writeRecord(target("new.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "created",
    externalId: "new/A",
    zoneId: "example.com",
    message: "Spaceship record new/A, ttl 3600",
  });
  expect(fake.records("example.com", "new", "A")).toMatchObject([{ address: NEW_IP, ttl: 3600 }]);
  expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
});

describe("failures keep Spaceship's words and leave the record alone", () => {
  type Arrange = { fault?: SpaceshipFault; onAdd?: boolean; ttl?: number };
  failureTests(
    [
      fails({ fault: { status: 403 } }, "Spaceship: Forbidden (HTTP 403)", "credentials", STOP),
      fails({ fault: { status: 429 } }, "Spaceship: Too many requests. (HTTP 429)", "throttled"),
      fails({ fault: { status: 500 } }, "Spaceship: Internal server error. (HTTP 500)", "unreachable"),
      // A refused add deletes nothing: the old address stays.
      fails(
        { fault: { status: 422, detail: "Validation failed." }, onAdd: true },
        "Spaceship: Validation failed. (HTTP 422)",
        "refused",
      ),
      // A validation answer names the fields.
      fails(
        { ttl: 7200 },
        "Spaceship: Validation failed.; ttl: The ttl must be between 60 and 3600. (HTTP 422)",
        "refused",
      ),
    ],
    async ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault, undefined, arrange.onAdd ? (r) => r.method === "PUT" : undefined);
      return client().writeRecord(target("home.example.com", { ...known, ttl: arrange.ttl }), NEW_IP);
    },
    ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault && !arrange.onAdd) expect(fake.requests).toHaveLength(1);
      expect(fake.requests.some((r) => r.method === "DELETE")).toBe(false);
      expect(home()).toMatchObject([{ address: OLD_IP, ttl: 1800 }]);
    },
  );
});
