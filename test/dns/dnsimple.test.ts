// The DNSimple client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure DNSimple can give ends up as DNSimple's own words with its cause.

import { describe, expect, test } from "bun:test";
import { DNSIMPLE_FAKE_ACCOUNT, DNSIMPLE_FAKE_TOKEN, type DnsimpleFault, startDnsimpleFake } from "../fakes/dnsimple";
import { type FailureCase, fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const A = `/${DNSIMPLE_FAKE_ACCOUNT}`;

const fake = useFake(startDnsimpleFake, (fake) => {
  fake.addZone("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", content: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { name: "", type: "A", content: OLD_IP, ttl: 600 });
});
const client = (accountId = DNSIMPLE_FAKE_ACCOUNT) =>
  serviceClient("dnsimple", fake.url, { account_id: accountId, token: DNSIMPLE_FAKE_TOKEN });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("verify: a valid token for the account is accepted, read-only, with the zone count; another account's is refused in DNSimple's words", async () => {
  fake.addZone("other.org");
  expect(await client().verify()).toEqual({
    ok: true,
    detail: `Token accepted (2 zones in account ${DNSIMPLE_FAKE_ACCOUNT})`,
  });
  expect(requestLines()).toEqual([`GET ${A}/zones`]);
  expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${DNSIMPLE_FAKE_TOKEN}`);
  expect(await client("999").verify()).toMatchObject({
    ok: false,
    detail: "DNSimple: Account `999` not found (HTTP 404)",
  });
});

test("an existing record: finds the zone, reads the name's records, PATCHes only the address; then one read and one write", async () => {
  const id = String(home()!.id);
  expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "updated",
    externalId: id,
    zoneId: "example.com",
    message: `DNSimple record ${id}, ttl 1800`,
  });
  expect(home()).toMatchObject({ content: NEW_IP, ttl: 1800 });
  expect(fake.requests[1]?.query).toEqual({ name: "home", type: "A", page: "1", per_page: "100" });
  expect(fake.requests[2]?.body).toEqual({ content: NEW_IP });
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  expect(requestLines()).toEqual([
    `GET ${A}/zones`,
    `GET ${A}/zones/example.com/records`,
    `PATCH ${A}/zones/example.com/records/${id}`,
    `GET ${A}/zones/example.com/records`,
    `PATCH ${A}/zones/example.com/records/${id}`,
  ]);
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 3600", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.record("example.com", "new", "A")!;
    expect(outcome).toMatchObject({
      action: "created",
      externalId: String(created.id),
      message: `DNSimple record ${created.id}, ttl 3600`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({ name: "new", type: "A", content: NEW_IP, ttl: 3600 });
  });

  test("a TTL DNSimple refuses is reported in its words", async () => {
    expect(await client().writeRecord(target("new.example.com", { ttl: 30 }), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "DNSimple: Validation failed; ttl: must be greater than or equal to 60 (HTTP 400)",
    });
  });
});

test("secondary zones are skipped; the zone listing is followed page by page", async () => {
  fake.addZone("b.example.com");
  fake.addZone("a.b.example.com", { secondary: true });
  for (let i = 0; i < 120; i++) fake.addZone(`d${String(i).padStart(3, "0")}.net`);
  const outcome = await client().writeRecord(target("x.a.b.example.com"), NEW_IP);
  expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "b.example.com" });
  expect(fake.record("b.example.com", "x.a", "A")?.content).toBe(NEW_IP);
  expect(fake.requests.filter((r) => r.path === `${A}/zones`).map((r) => r.query.page)).toEqual(["1", "2"]);
});

describe("failures keep DNSimple's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: DnsimpleFault }>(
    [
      // A token without the right.
      fails({ status: 403 }, "DNSimple: Permission Denied (HTTP 403)", "credentials", STOP),
      // A 429 with neither header names no wait.
      fails({ status: 429, reset: false }, "DNSimple: API rate limit exceeded (HTTP 429)", "throttled"),
      fails({ status: 500 }, "DNSimple: Internal server error (HTTP 500)", "unreachable"),
    ],
    ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject({ content: OLD_IP, ttl: 1800 });
    },
  );

  test("a 429 naming only the end of its window (X-RateLimit-Reset) pauses until then", async () => {
    fake.fault({ status: 429, resetInSeconds: 1800 });
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "throttled",
      message: "DNSimple: API rate limit exceeded (HTTP 429)",
    });
    const wait = outcome.ok ? undefined : outcome.retryAfterSeconds;
    expect(wait).toBeGreaterThanOrEqual(1795);
    expect(wait).toBeLessThanOrEqual(1801);
  });
});

test("a TXT text kept bare (older records) is read and removed as one kept in quotes", async () => {
  fake.quotesTxt = false;
  const txt = (action: "add" | "remove", value: string) => ({
    hostname: "home.example.com",
    name: "_acme-challenge.home.example.com",
    value,
    action,
    config: known,
    written: [],
  });
  const value = "x".repeat(43);
  expect(await client().writeTxt!(txt("add", value))).toMatchObject({ ok: true, action: "updated" });
  expect(fake.record("example.com", "_acme-challenge.home", "TXT")).toMatchObject({ content: value, ttl: 60 });
  expect(await client().writeTxt!(txt("add", value))).toMatchObject({ ok: true, action: "unchanged" });
  expect(await client().writeTxt!(txt("remove", value))).toMatchObject({ ok: true, action: "updated" });
  expect(fake.record("example.com", "_acme-challenge.home", "TXT")).toBeUndefined();
});

test("a set of two whose one address changes: that record is PATCHed, the other kept, nothing else written", async () => {
  fake.addRecord("example.com", { name: "home", type: "A", content: "203.0.113.2", ttl: 1800 });
  const changed = String(home()!.id);
  const set = { addressSet: { wanted: ["203.0.113.2", NEW_IP], published: ["203.0.113.2", OLD_IP] } };
  expect(await client().writeRecord(target("home.example.com", known, set), NEW_IP)).toMatchObject({
    ok: true,
    action: "updated",
    removed: [OLD_IP],
  });
  const records = fake.zones.get("example.com")!.records.filter((r) => r.name === "home" && r.type === "A");
  expect(records.map((r) => r.content).sort()).toEqual(["203.0.113.2", NEW_IP]);
  expect(requestLines()).toEqual([
    `GET ${A}/zones/example.com/records`,
    `PATCH ${A}/zones/example.com/records/${changed}`,
  ]);
});
