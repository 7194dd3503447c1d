// The Bunny DNS client against its fake: what it changes, what it keeps, how many requests it
// spends, and how every failure bunny.net can give ends up as its own words with its cause.

import { describe, expect, test } from "bun:test";
import { BUNNY_FAKE_API_KEY, type BunnyFault, startBunnyFake } from "../fakes/bunny";
import {
  type FailureCase,
  failed,
  fails,
  failureTests,
  STOP,
  serviceClient,
  target,
  useFake,
  withoutHeld,
} from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let zoneId = "";
const fake = useFake(startBunnyFake, (fake) => {
  zoneId = String(fake.addZone("example.com").Id);
  fake.addRecord("example.com", { name: "home", type: "A", value: OLD_IP, ttl: 1800, comment: "the house" });
  fake.addRecord("example.com", { name: "", type: "A", value: OLD_IP, ttl: 600 });
});
const client = () => serviceClient("bunny", fake.url, { api_key: BUNNY_FAKE_API_KEY });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.record("example.com", "home", "A");
const known = () => ({ zone_id: zoneId });

test("verify: a valid key is accepted, read-only, with the zone count", async () => {
  fake.addZone("other.org");
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (2 DNS zones)" });
  expect(requestLines()).toEqual(["GET /dnszone"]);
  expect(fake.requests[0]?.headers.accesskey).toBe(BUNNY_FAKE_API_KEY);
  expect(fake.writes()).toBe(0);
});

test("an existing record: finds the zone, reads it, POSTs the record with the new address; then the zone with its records and one write", async () => {
  const id = String(home()!.Id);
  expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "updated",
    externalId: id,
    zoneId,
    message: `Bunny record ${id}, ttl 1800`,
  });
  expect(home()).toMatchObject({ Value: NEW_IP, Ttl: 1800, Comment: "the house" });
  expect(fake.requests[2]?.body).toEqual({ Type: 0, Name: "home", Value: NEW_IP, Ttl: 1800 });
  await client().writeRecord(target("home.example.com", known()), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /dnszone",
    `GET /dnszone/${zoneId}`,
    `POST /dnszone/${zoneId}/records/${id}`,
    `GET /dnszone/${zoneId}`,
    `POST /dnszone/${zoneId}/records/${id}`,
  ]);
});

test("a missing record is created with TTL 300", async () => {
  const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
  const created = fake.record("example.com", "new", "A")!;
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: String(created.Id),
    zoneId,
    message: `Bunny record ${created.Id}, ttl 300`,
  });
  expect(fake.requests.at(-1)).toMatchObject({
    method: "PUT",
    body: { Type: 0, Name: "new", Value: NEW_IP, Ttl: 300 },
  });
});

test("the zone listing is followed page by page", async () => {
  for (let i = 0; i < 1005; i++) fake.addZone(`d${i}.net`);
  const last = fake.addZone("zz.org");
  expect(await client().writeRecord(target("home.zz.org"), NEW_IP)).toMatchObject({
    ok: true,
    zoneId: String(last.Id),
  });
  expect(fake.requests.filter((r) => r.path === "/dnszone").map((r) => r.query.page)).toEqual(["1", "2"]);
});

describe("failures keep bunny.net's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: BunnyFault }>(
    [
      fails(
        { status: 403, errorKey: "forbidden", message: "Access denied" },
        "Bunny: Access denied (forbidden, HTTP 403)",
        "credentials",
        STOP,
      ),
      // No Retry-After: the client names no wait.
      fails({ status: 429 }, /\(error_429, HTTP 429\)$/, "throttled"),
    ],
    async ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known()), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.Value).toBe(OLD_IP);
    },
  );

  test("a refused update is reported in bunny.net's words; the record stays", async () => {
    const locked = { status: 400, errorKey: "validation_error", message: "The record is locked" };
    fake.fault(locked, 1, (r) => r.method === "POST");
    expect(await client().writeRecord(target("home.example.com", known()), NEW_IP)).toEqual(
      failed("refused", "Bunny: The record is locked (validation_error, HTTP 400)"),
    );
    expect(home()).toMatchObject({ Value: OLD_IP, Ttl: 1800 });
  });
});
