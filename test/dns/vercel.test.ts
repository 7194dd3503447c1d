// The Vercel client against its fake: what it changes, what it keeps, how many requests it spends,
// how it pages, acts for a team, and how every failure Vercel can give ends up in Vercel's own words.

import { afterEach, describe, expect, setSystemTime, test } from "bun:test";
import { vercel } from "../../src/dns/services/vercel";
import { startVercelFake, VERCEL_FAKE_TEAM, VERCEL_FAKE_TOKEN, type VercelFault } from "../fakes/vercel";
import { fails, failureTests, serviceClient, target, useFake, waits, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startVercelFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", value: OLD_IP, ttl: 1800, comment: "the NAS" });
  fake.addRecord("example.com", { name: "", type: "A", value: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { name: "", type: "MX", value: "mail.example.com", ttl: 3600 });
});
const client = (team_id?: string) =>
  serviceClient("vercel", fake.url, { token: VERCEL_FAKE_TOKEN }, team_id ? { team_id } : {});

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("the description names the token, the team option, the record types, the TTL range and the real service", () => {
  expect(vercel.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
  expect(vercel.options.map((o) => [o.key, o.required ?? false])).toEqual([["team_id", false]]);
  expect(vercel.options[0]?.validate?.("team_abc123")).toBeUndefined();
  expect(vercel.options[0]?.validate?.("my team")).toBe("must be a Vercel team ID such as team_abc123");
  expect(vercel.recordTypes).toEqual(["A", "AAAA"]);
  expect(vercel.ttl).toMatchObject({ min: 60 });
  expect(vercel.defaultApiUrl).toBe("https://api.vercel.com");
});

test("verify: a valid token is accepted, read-only; the team option is sent as teamId; a team the token cannot act for is refused", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted" });
  expect(await client(VERCEL_FAKE_TEAM).verify()).toEqual({
    ok: true,
    detail: `Token accepted for team ${VERCEL_FAKE_TEAM}`,
  });
  expect(requestLines()).toEqual(["GET /v5/domains", "GET /v5/domains"]);
  expect(fake.requests.map((r) => r.query.teamId)).toEqual([undefined, VERCEL_FAKE_TEAM]);
  expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${VERCEL_FAKE_TOKEN}`);
  expect(fake.writes()).toBe(0);
  expect(await client("team_someoneElse").verify()).toMatchObject({
    ok: false,
    detail: "Vercel: Not authorized (forbidden, HTTP 403)",
  });
});

test("an existing record: finds the domain, reads the records, and PATCHes only the value: three requests; then one read and one write", async () => {
  const id = home()[0]!.id;
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: id,
    zoneId: "example.com",
    message: `Vercel record ${id}, ttl 1800`,
  });
  expect(home()).toMatchObject([{ value: NEW_IP, ttl: 1800, comment: "the NAS" }]);
  expect(fake.requests[2]?.body).toEqual({ value: NEW_IP });
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /v5/domains",
    "GET /v5/domains/example.com/records",
    `PATCH /v1/domains/records/${id}`,
    "GET /v5/domains/example.com/records",
    `PATCH /v1/domains/records/${id}`,
  ]);
  expect(fake.requests[3]?.query.limit).toBe("100");
});

test("an existing record: the domains are listed page by page, the records each page before the last one's timestamp", async () => {
  fake.addDomain("zz.org");
  for (let i = 0; i < 120; i++) fake.addDomain(`d${i}.net`);
  // The oldest record is on the last page: the listing is newest first.
  const oldest = fake.addRecord("zz.org", { name: "first", type: "A", value: OLD_IP });
  oldest.createdAt = 1;
  for (let i = 0; i < 150; i++) fake.addRecord("zz.org", { name: `h${i}`, type: "A", value: OLD_IP });
  const outcome = await client().writeRecord(target("first.zz.org"), NEW_IP);
  expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "zz.org", externalId: oldest.id });
  expect(fake.requests.filter((r) => r.path === "/v5/domains")).toHaveLength(2);
  const reads = fake.requests.filter((r) => r.path.endsWith("/records"));
  expect(reads).toHaveLength(2);
  expect(reads[0]?.query.until).toBeUndefined();
  expect(Number(reads[1]?.query.until)).toBeGreaterThan(0);
});

test("an existing record: a record created in the same millisecond as the last of a page is still found, so no second one is created", async () => {
  // Vercel pages by creation time ("created before `until`"): two records of one millisecond can
  // straddle a page boundary.
  const boundary = fake.addRecord("example.com", { name: "boundary", type: "A", value: OLD_IP });
  const twin = fake.addRecord("example.com", { name: "twin", type: "A", value: OLD_IP });
  twin.createdAt = boundary.createdAt;
  for (let i = 0; i < 99; i++) fake.addRecord("example.com", { name: `n${i}`, type: "A", value: OLD_IP });
  const outcome = await client().writeRecord(target("twin.example.com", known), NEW_IP);
  expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: twin.id });
  expect(fake.records("example.com", "twin", "A")).toMatchObject([{ id: twin.id, value: NEW_IP }]);
});

test("a missing record is created with TTL 60 and the id Vercel gives it is saved", async () => {
  const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
  const created = fake.records("example.com", "new", "A");
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: created[0]!.id,
    zoneId: "example.com",
    message: `Vercel record ${created[0]!.id}, ttl 60`,
  });
  expect(fake.requests.at(-1)).toMatchObject({
    method: "POST",
    path: "/v2/domains/example.com/records",
    body: { name: "new", type: "A", value: NEW_IP, ttl: 60 },
  });
});

test("a team's domain is not the account's; with the team ID every request names the team, and its domain is written", async () => {
  fake.addDomain("team.dev", VERCEL_FAKE_TEAM);
  fake.addRecord("team.dev", { name: "home", type: "A", value: OLD_IP, ttl: 300 });
  expect(await client().writeRecord(target("home.team.dev"), NEW_IP)).toEqual({
    ok: false,
    cause: "refused",
    message: "Vercel: no zone of this account holds home.team.dev",
  });
  expect(fake.writes()).toBe(0);
  fake.clearRequests();
  const outcome = await client(VERCEL_FAKE_TEAM).writeRecord(target("home.team.dev"), NEW_IP);
  expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "team.dev" });
  expect(fake.records("team.dev", "home", "A")).toMatchObject([{ value: NEW_IP, ttl: 300 }]);
  expect(fake.requests.every((r) => r.query.teamId === VERCEL_FAKE_TEAM)).toBe(true);
});

describe("failures keep Vercel's words and leave the record alone", () => {
  // A 429's body names the time its window opens again: on a clock standing still, the wait is exact.
  afterEach(() => setSystemTime());
  const tooMany = "Vercel: Rate limit exceeded (rate_limited, HTTP 429)";
  failureTests(
    [
      fails({ status: 429, resetInSeconds: 45 }, tooMany, "throttled", waits(45)),
      fails({ status: 429 }, tooMany, "throttled"),
      fails(
        { status: 500 },
        "Vercel: An unexpected internal error occurred (internal_server_error, HTTP 500)",
        "unreachable",
      ),
    ],
    ({ arrange }: { arrange: VercelFault }) => {
      setSystemTime(new Date("2026-06-01T00:00:00Z"));
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ value: OLD_IP, ttl: 1800 }]);
    },
  );
});
