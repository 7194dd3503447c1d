// The Gandi LiveDNS client against the faithful fake: what it changes, what it keeps, how many
// requests it spends, and how every failure Gandi can give ends up as Gandi's own words.

import { describe, expect, test } from "bun:test";
import { GANDI_DEFAULT_TTL, GANDI_FAKE_TOKEN, type GandiFault, startGandiFake } from "../fakes/gandi";
import { fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startGandiFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRrset("example.com", { name: "home", type: "A", values: [OLD_IP], ttl: 1800 });
  fake.addRrset("example.com", { name: "@", type: "A", values: [OLD_IP], ttl: 600 });
});
const client = () => serviceClient("gandi", fake.url, { token: GANDI_FAKE_TOKEN });

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.rrset("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("verify: a valid token is accepted, read-only, with the domain count from total-count", async () => {
  fake.addDomain("other.org");
  expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (2 domains)" });
  expect(requestLines()).toEqual(["GET /domains"]);
  expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${GANDI_FAKE_TOKEN}`);
  expect(fake.writes()).toBe(0);
});

// The fake resets a set's TTL on a PUT without one, as Gandi may: the TTL read is always sent back.
test("an existing record set: discovers the domain, reads the set, and PUTs the address with the TTL it read; with the domain known, one read and one write", async () => {
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: "home/A",
    zoneId: "example.com",
    message: "Gandi record home/A, ttl 1800",
  });
  expect(home()).toEqual({ rrset_name: "home", rrset_type: "A", rrset_ttl: 1800, rrset_values: [NEW_IP] });
  expect(fake.requests[2]?.body).toEqual({ rrset_values: [NEW_IP], rrset_ttl: 1800 });
  expect(fake.requests[2]?.headers["content-type"]).toBe("application/json");
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /domains",
    "GET /domains/example.com/records/home/A",
    "PUT /domains/example.com/records/home/A",
    "GET /domains/example.com/records/home/A",
    "PUT /domains/example.com/records/home/A",
  ]);
});

test("an existing record set: an external id (Gandi has none of its own) never redirects the write", async () => {
  await client().writeRecord(target("home.example.com", {}, { externalId: "@/A" }), NEW_IP);
  expect(home()?.rrset_values).toEqual([NEW_IP]);
  expect(fake.rrset("example.com", "@", "A")?.rrset_values).toEqual([OLD_IP]);
});

test("a missing record set: the domain listing is followed page by page until total-count is reached; the set created with TTL 300", async () => {
  for (let i = 0; i < 150; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
  fake.addDomain("zz.org");
  expect(withoutHeld(await client().writeRecord(target("new.zz.org"), NEW_IP))).toEqual({
    ok: true,
    action: "created",
    externalId: "new/A",
    zoneId: "zz.org",
    message: "Gandi record new/A, ttl 300",
  });
  expect(fake.rrset("zz.org", "new", "A")).toMatchObject({ rrset_values: [NEW_IP], rrset_ttl: 300 });
  expect(fake.requests.filter((r) => r.path === "/domains").map((r) => r.query)).toEqual([
    { per_page: "100", page: "1" },
    { per_page: "100", page: "2" },
  ]);
});

test("a missing record set: a TTL below Gandi's minimum is refused in Gandi's words", async () => {
  expect(await client().writeRecord(target("new.example.com", { ttl: 60 }), NEW_IP)).toEqual({
    ok: false,
    cause: "refused",
    message: "Gandi: rrset_ttl: 60 is less than minimum value 300 (HTTP 400)",
  });
});

describe("failures keep Gandi's words and leave the record alone", () => {
  failureTests(
    [
      // A token without rights on the domain.
      fails({ status: 403 }, "Gandi: Access was denied to this resource. (HTTP 403)", "credentials", STOP),
      // A 429 without Retry-After names no wait.
      fails({ status: 429 }, "Gandi: Too many requests, slow down. (HTTP 429)", "throttled"),
    ],
    ({ arrange }: { arrange: GandiFault }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      // One request, no retry loop, nothing changed.
      expect(fake.requests).toHaveLength(1);
      expect(home()?.rrset_values).toEqual([OLD_IP]);
    },
  );

  test("a failing PUT is reported; the TTL the fake would reset stays", async () => {
    fake.fault({ status: 500 }, 1, (r) => r.method === "PUT");
    const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "unreachable", message: "Gandi: Internal Server Error (HTTP 500)" });
    expect(home()).toMatchObject({ rrset_values: [OLD_IP], rrset_ttl: 1800 });
    expect(home()?.rrset_ttl).not.toBe(GANDI_DEFAULT_TTL);
  });
});
