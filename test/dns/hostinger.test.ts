// The Hostinger client against its fake: what it changes, what it keeps, how many requests it
// spends, and how every failure Hostinger can give ends up as Hostinger's own words with its cause.

import { describe, expect, test } from "bun:test";
import { hostinger } from "../../src/dns/services/hostinger";
import {
  HOSTINGER_DEFAULT_TTL,
  HOSTINGER_FAKE_TOKEN,
  type HostingerFault,
  startHostingerFake,
} from "../fakes/hostinger";
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

const fake = useFake(startHostingerFake, (fake) => {
  fake.addZone("example.com");
  fake.addSet("example.com", { name: "home", type: "A", contents: [OLD_IP], ttl: 1800 });
  fake.addSet("example.com", { name: "@", type: "A", contents: [OLD_IP], ttl: 600 });
  fake.addSet("example.com", { name: "home", type: "TXT", contents: ['"keep me"'], ttl: 300 });
});
const client = () => serviceClient("hostinger", fake.url, { api_token: HOSTINGER_FAKE_TOKEN });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.set("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("the description: the token with the page where it is made, the real service", () => {
  expect(hostinger.credentials.map((c) => [c.key, c.secret])).toEqual([["api_token", true]]);
  expect(hostinger.credentials[0]?.url).toBe("https://hpanel.hostinger.com/profile/api");
  expect(hostinger.defaultApiUrl).toBe("https://developers.hostinger.com");
});

test("verify: a valid token is accepted, read-only, with the domain count", async () => {
  fake.addZone("other.org");
  expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (2 domains)" });
  expect(requestLines()).toEqual(["GET /api/domains/v1/portfolio"]);
  expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${HOSTINGER_FAKE_TOKEN}`);
  expect(fake.writes()).toBe(0);
});

describe("an existing record", () => {
  test("finds the zone by asking for the name and its parents, reads it, replaces only the set with the TTL it read; then one read and one write", async () => {
    expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual(
      wrote("updated", "home/A", "example.com", "Hostinger record home/A, ttl 1800"),
    );
    expect(home()).toMatchObject({ ttl: 1800, records: [{ content: NEW_IP }] });
    expect(fake.requests[3]?.body).toEqual({
      overwrite: true,
      zone: [{ name: "home", type: "A", ttl: 1800, records: [{ content: NEW_IP }] }],
    });
    expect(fake.set("example.com", "home", "TXT")?.records).toEqual([{ content: '"keep me"', is_disabled: false }]);
    await client().writeRecord(target("home.example.com", known), OLD_IP);
    expect(requestLines()).toEqual([
      "GET /api/dns/v1/zones/home.example.com",
      "GET /api/dns/v1/zones/example.com",
      "GET /api/dns/v1/zones/example.com",
      "PUT /api/dns/v1/zones/example.com",
      "GET /api/dns/v1/zones/example.com",
      "PUT /api/dns/v1/zones/example.com",
    ]);
  });

  test("a disabled record stays disabled: its address changes, its state is sent back", async () => {
    home()!.records[0]!.is_disabled = true;
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toMatchObject({
      ok: true,
      action: "updated",
      externalId: "home/A",
    });
    expect(home()?.records).toEqual([{ content: NEW_IP, is_disabled: true }]);
    expect(fake.requests.at(-1)?.body).toEqual({
      overwrite: true,
      zone: [{ name: "home", type: "A", ttl: 1800, records: [{ content: NEW_IP, is_disabled: true }] }],
    });
  });
});

test("a missing record is created with TTL 14400", async () => {
  expect(withoutHeld(await client().writeRecord(target("new.example.com", known), NEW_IP))).toEqual(
    wrote("created", "new/A", "example.com", `Hostinger record new/A, ttl ${HOSTINGER_DEFAULT_TTL}`),
  );
  expect(fake.set("example.com", "new", "A")).toMatchObject({ ttl: 14400, records: [{ content: NEW_IP }] });
  expect(fake.requests.at(-1)?.body).toEqual({
    overwrite: true,
    zone: [{ name: "new", type: "A", ttl: 14400, records: [{ content: NEW_IP }] }],
  });
});

describe("failures keep Hostinger's words and leave the record alone", () => {
  failureTests<FailureCase & { arrange: HostingerFault }>(
    [
      // No Retry-After: the client names no wait.
      fails({ status: 429 }, "Hostinger: Too Many Attempts. (HTTP 429)", "throttled"),
      fails({ status: 500 }, "Hostinger: Internal server error (HTTP 500)", "unreachable"),
    ],
    async ({ arrange }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()?.records[0]?.content).toBe(OLD_IP);
    },
  );

  test("a refused PUT is reported in Hostinger's words with the field's; the record and its TTL stay", async () => {
    const errors = { "zone.0.ttl": ["The zone.0.ttl is invalid."] };
    fake.fault({ status: 422, message: "The given data was invalid.", errors }, 1, (r) => r.method === "PUT");
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual(
      failed("refused", "Hostinger: The given data was invalid.: The zone.0.ttl is invalid. (HTTP 422)"),
    );
    expect(home()).toMatchObject({ ttl: 1800, records: [{ content: OLD_IP }] });
  });
});
