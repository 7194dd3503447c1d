// The Infomaniak API client against its fake: what it changes, what it keeps, how many requests it
// spends, and how each failure Infomaniak can give ends up in Infomaniak's own words.

import { describe, expect, test } from "bun:test";
import { INFOMANIAK_FAKE_TOKEN, type InfomaniakFault, startInfomaniakFake } from "../fakes/infomaniak";
import { fails, failureTests, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startInfomaniakFake, (fake) => {
  fake.addZone("example.com");
  fake.addRecord("example.com", { source: "home", type: "A", target: OLD_IP, ttl: 1800 });
});
const client = () => serviceClient("infomaniak", fake.url, { token: INFOMANIAK_FAKE_TOKEN });

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("an existing record: finds the zone, lists it once, and PUTs the address with the TTL it read; then (zone known) one read and one write", async () => {
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  const id = home()[0]!.id;
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: String(id),
    zoneId: "example.com",
    message: `Infomaniak record ${id}, ttl 1800`,
  });
  expect(home()).toMatchObject([{ target: NEW_IP, ttl: 1800 }]);
  expect(fake.requests[2]?.body).toEqual({ source: "home", type: "A", target: NEW_IP, ttl: 1800 });
  expect(fake.requests[2]?.headers.authorization).toBe(`Bearer ${INFOMANIAK_FAKE_TOKEN}`);
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  // home.example.com is no zone (404), example.com is; its listing is also the read.
  expect(requestLines()).toEqual([
    "GET /2/zones/home.example.com/records",
    "GET /2/zones/example.com/records",
    `PUT /2/zones/example.com/records/${id}`,
    "GET /2/zones/example.com/records",
    `PUT /2/zones/example.com/records/${id}`,
  ]);
});

test("a missing record is created with TTL 300, its name relative to the zone", async () => {
  const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
  const [created] = fake.records("example.com", "new", "A");
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: String(created!.id),
    zoneId: "example.com",
    message: `Infomaniak record ${created!.id}, ttl 300`,
  });
  expect(fake.requests.at(-1)?.body).toEqual({ source: "new", type: "A", target: NEW_IP, ttl: 300 });
  expect(fake.writes()).toBe(1);
});

describe("zone discovery", () => {
  for (const status of [403, 422] as const) {
    test(`a candidate name answered ${status} (not a zone this token sees) is passed over, not taken as final`, async () => {
      fake.foreignZoneStatus = status;
      const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
      expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "example.com" });
      expect(home()).toMatchObject([{ target: NEW_IP }]);
    });
  }

  test("no candidate is a zone and some answered 403: the failure says the token may not see the zone, and is retried", async () => {
    fake.foreignZoneStatus = 403;
    const outcome = await client().writeRecord(target("host.other.org"), NEW_IP);
    expect(outcome).toMatchObject({
      ok: false,
      cause: "refused",
      message: expect.stringMatching(/no zone of this account holds host\.other\.org.*403.*dns:read/),
    });
    expect(outcome).not.toHaveProperty("stopRetrying");
  });
});

describe("failures keep Infomaniak's words and leave the record alone", () => {
  type Arrange = { fault?: InfomaniakFault; onPut?: boolean; ttl?: number };
  const locked = { status: 400, envelopeOnly: true, code: "zone_locked", description: "The zone is being transferred" };
  failureTests(
    [
      // A 403 may be a missing scope or a zone the token may not see: not final, unlike a refused token.
      fails({ fault: { status: 403 } }, "Infomaniak: Access denied (forbidden, HTTP 403)", "credentials"),
      fails({ fault: { status: 429 } }, "Infomaniak: Too many requests (too_many_requests, HTTP 429)", "throttled"),
      // A 200 whose envelope says error.
      fails({ fault: locked }, "Infomaniak: The zone is being transferred (zone_locked, HTTP 200)", "unreachable"),
      fails(
        { fault: { status: 500 }, onPut: true },
        "Infomaniak: Internal server error (internal_error, HTTP 500)",
        "unreachable",
      ),
      fails(
        { ttl: 30 },
        "Infomaniak: Validation failed: The ttl attribute must be at least 60 (validation_failed, HTTP 422)",
        "refused",
      ),
    ],
    async ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault, undefined, arrange.onPut ? (r) => r.method === "PUT" : undefined);
      return client().writeRecord(target("home.example.com", { ...known, ttl: arrange.ttl }), NEW_IP);
    },
    ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault && !arrange.onPut) expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ target: OLD_IP, ttl: 1800 }]);
    },
  );
});
