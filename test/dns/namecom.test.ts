// The Name.com client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure Name.com can give ends up as Name.com's own words with its cause.

import { describe, expect, test } from "bun:test";
import { NAMECOM_FAKE_TOKEN, NAMECOM_FAKE_USERNAME, type NamecomFault, startNamecomFake } from "../fakes/namecom";
import { type FailureCase, fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startNamecomFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", answer: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { host: "", type: "A", answer: OLD_IP, ttl: 600 });
});
const client = () => serviceClient("namecom", fake.url, { username: NAMECOM_FAKE_USERNAME, token: NAMECOM_FAKE_TOKEN });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("verify: valid credentials are accepted, read-only, with the domain count", async () => {
  fake.addDomain("other.org");
  expect(await client().verify()).toEqual({
    ok: true,
    detail: `Token accepted for ${NAMECOM_FAKE_USERNAME} (2 domains)`,
  });
  expect(requestLines()).toEqual(["GET /domains"]);
  expect(fake.requests[0]?.headers.authorization).toBe(
    `Basic ${Buffer.from(`${NAMECOM_FAKE_USERNAME}:${NAMECOM_FAKE_TOKEN}`).toString("base64")}`,
  );
});

test("an existing record: finds the domain, reads the records, PUTs the record with the TTL it read (a PUT without one resets it); then one read and one write", async () => {
  const id = String(home()!.id);
  expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "updated",
    externalId: id,
    zoneId: "example.com",
    message: `Name.com record ${id}, ttl 1800`,
  });
  expect(home()).toMatchObject({ answer: NEW_IP, ttl: 1800 });
  expect(fake.requests[2]?.body).toEqual({ host: "home", type: "A", answer: NEW_IP, ttl: 1800 });
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /domains",
    "GET /domains/example.com/records",
    `PUT /domains/example.com/records/${id}`,
    "GET /domains/example.com/records",
    `PUT /domains/example.com/records/${id}`,
  ]);
});

test("the domains and the records are read page by page", async () => {
  for (let i = 0; i < 1005; i++) fake.addDomain(`d${String(i).padStart(4, "0")}.net`);
  fake.addDomain("zz.org");
  for (let i = 0; i < 1005; i++) fake.addRecord("zz.org", { host: `h${i}`, type: "A", answer: OLD_IP });
  fake.addRecord("zz.org", { host: "last", type: "A", answer: OLD_IP });
  expect(await client().writeRecord(target("last.zz.org"), NEW_IP)).toMatchObject({
    action: "updated",
    zoneId: "zz.org",
  });
  expect(fake.requests.filter((r) => r.path === "/domains").map((r) => r.query.page)).toEqual(["1", "2"]);
  expect(fake.requests.filter((r) => r.path.endsWith("/records")).map((r) => r.query.page)).toEqual(["1", "2"]);
});

test("a missing record is created with TTL 300", async () => {
  const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
  const created = fake.record("example.com", "new", "A")!;
  expect(outcome).toMatchObject({
    action: "created",
    externalId: String(created.id),
    message: `Name.com record ${created.id}, ttl 300`,
  });
  expect(fake.requests.at(-1)?.body).toEqual({ host: "new", type: "A", answer: NEW_IP, ttl: 300 });
});

describe("failures keep Name.com's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: NamecomFault }>(
    [
      fails({ status: 401 }, "Name.com: Unauthenticated (HTTP 401)", "credentials", STOP),
      // A 429 without Retry-After names no wait.
      fails({ status: 429 }, "Name.com: Too Many Requests (HTTP 429)", "throttled"),
      fails({ status: 500 }, "Name.com: Internal Server Error (HTTP 500)", "unreachable"),
    ],
    ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.answer).toBe(OLD_IP);
    },
  );
});
