// The GoDaddy client against its fake: what it changes, what it keeps, how many requests it spends,
// and how every failure GoDaddy can give ends up as GoDaddy's own words with its cause.

import { describe, expect, test } from "bun:test";
import { godaddy } from "../../src/dns/services/godaddy";
import { GODADDY_FAKE_KEY, GODADDY_FAKE_SECRET, type GodaddyFault, startGodaddyFake } from "../fakes/godaddy";
import { fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startGodaddyFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", data: OLD_IP, ttl: 1800 });
});
const client = () => serviceClient("godaddy", fake.url, { key: GODADDY_FAKE_KEY, secret: GODADDY_FAKE_SECRET });

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("the description names the credentials, the record types, the TTL range, the pace and the real service, and warns who GoDaddy opens its API to", () => {
  expect(godaddy.credentials.map((c) => [c.key, c.secret])).toEqual([
    ["key", false],
    ["secret", true],
  ]);
  expect(godaddy.recordTypes).toEqual(["A", "AAAA"]);
  expect(godaddy.ttl).toMatchObject({ min: 600, max: 604800 });
  expect(godaddy.defaultApiUrl).toBe("https://api.godaddy.com/v1");
  // GoDaddy allows 60 a minute per endpoint.
  for (const limit of godaddy.rateLimits ?? []) expect(limit.requests / limit.perSeconds).toBeLessThan(60 / 60);
  expect(godaddy.rateLimits?.length).toBeGreaterThan(0);
  const help = `${godaddy.summary} ${godaddy.credentials.map((c) => c.help).join(" ")}`;
  expect(help).toContain("10 or more domains");
  expect(help).toContain("Discount Domain Club");
});

test("verify: a valid key is accepted, read-only", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "Key accepted" });
  expect(requestLines()).toEqual(["GET /domains"]);
  expect(fake.writes()).toBe(0);
});

test("an existing record: the domain found, the set read and PUT with the TTL it read; with the domain known, one read and one write", async () => {
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: "home/A",
    zoneId: "example.com",
    message: "GoDaddy record home/A, ttl 1800",
  });
  expect(home()).toEqual([{ name: "home", type: "A", data: NEW_IP, ttl: 1800 }]);
  expect(fake.requests[2]?.body).toEqual([{ data: NEW_IP, ttl: 1800 }]);
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /domains",
    "GET /domains/example.com/records/A/home",
    "PUT /domains/example.com/records/A/home",
    "GET /domains/example.com/records/A/home",
    "PUT /domains/example.com/records/A/home",
  ]);
});

test("a missing record: the domain listing followed page by page, each page after the last domain seen; created with TTL 600", async () => {
  for (let i = 0; i < 1005; i++) fake.addDomain(`d${String(i).padStart(4, "0")}.net`);
  fake.addDomain("zz.org");
  expect(withoutHeld(await client().writeRecord(target("new.zz.org"), NEW_IP))).toEqual({
    ok: true,
    action: "created",
    externalId: "new/A",
    zoneId: "zz.org",
    message: "GoDaddy record new/A, ttl 600",
  });
  expect(fake.records("zz.org", "new", "A")).toEqual([{ name: "new", type: "A", data: NEW_IP, ttl: 600 }]);
  const listings = fake.requests.filter((r) => r.path === "/domains");
  expect(listings.map((r) => r.query.marker)).toEqual([undefined, "d0999.net"]);
});

describe("failures keep GoDaddy's words and leave the record alone", () => {
  const tooMany = "GoDaddy: Too many requests received within interval (TOO_MANY_REQUESTS, HTTP 429)";
  failureTests(
    [
      // An account GoDaddy keeps out of its API (fewer than 10 domains, no Discount Domain Club plan) is told why.
      fails(
        { status: 403 },
        "GoDaddy: Authenticated user is not allowed access — GoDaddy opens its DNS API only to accounts with 10 or more domains or a Discount Domain Club plan (ACCESS_DENIED, HTTP 403)",
        "credentials",
        STOP,
      ),
      fails({ status: 429 }, tooMany, "throttled"),
      fails({ status: 500 }, "GoDaddy: Internal server error (INTERNAL_SERVER_ERROR, HTTP 500)", "unreachable"),
    ],
    ({ arrange }: { arrange: GodaddyFault }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toEqual([{ name: "home", type: "A", data: OLD_IP, ttl: 1800 }]);
    },
  );
});
