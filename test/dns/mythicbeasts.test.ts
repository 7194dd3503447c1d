// The Mythic Beasts client against its fake: the one host/type selection read and replaced with the
// one record (its TTL kept), nothing else touched, the zones the key may use, and how every failure
// Mythic Beasts can give ends up in its own words.

import { describe, expect, test } from "bun:test";
import {
  MYTHICBEASTS_FAKE_KEY,
  MYTHICBEASTS_FAKE_SECRET,
  type MythicBeastsFault,
  startMythicBeastsFake,
} from "../fakes/mythicbeasts";
import { fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startMythicBeastsFake, (fake) => {
  fake.addZone("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", data: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { host: "@", type: "A", data: OLD_IP, ttl: 600 });
});
const client = () =>
  serviceClient("mythicbeasts", fake.url, { key_id: MYTHICBEASTS_FAKE_KEY, secret: MYTHICBEASTS_FAKE_SECRET });

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("verify: a valid key is accepted, read-only", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API key accepted (1 zone)" });
  expect(requestLines()).toEqual(["GET /zones"]);
});

test("writeRecord on an existing record: finds the zone, reads the host's A records and replaces them with the one new record; then (zone known) one read and one write; the apex is @", async () => {
  expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "updated",
    externalId: "home/A",
    zoneId: "example.com",
    message: "Mythic Beasts record home/A, ttl 1800",
  });
  expect(home()).toEqual([{ host: "home", type: "A", data: NEW_IP, ttl: 1800 }]);
  expect(fake.requests[2]?.body).toEqual({ records: [{ host: "home", ttl: 1800, type: "A", data: NEW_IP }] });
  await client().writeRecord(target("home.example.com", known), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /zones",
    "GET /zones/example.com/records/home/A",
    "PUT /zones/example.com/records/home/A",
    "GET /zones/example.com/records/home/A",
    "PUT /zones/example.com/records/home/A",
  ]);
  // The apex is the host @, escaped in the path.
  expect(await client().writeRecord(target("example.com", known), NEW_IP)).toMatchObject({ externalId: "@/A" });
  expect(fake.records("example.com", "@", "A")).toMatchObject([{ data: NEW_IP, ttl: 600 }]);
  expect(fake.requests.at(-1)?.path).toBe("/zones/example.com/records/%40/A");
});

test("writeRecord on a missing record: is created with TTL 300; an empty selection answered with 404 is still a missing record, once the zone list shows the zone", async () => {
  fake.emptySelection = "404";
  expect(withoutHeld(await client().writeRecord(target("new.example.com", known), NEW_IP))).toEqual({
    ok: true,
    action: "created",
    externalId: "new/A",
    zoneId: "example.com",
    message: "Mythic Beasts record new/A, ttl 300",
  });
  expect(fake.records("example.com", "new", "A")).toEqual([{ host: "new", type: "A", data: NEW_IP, ttl: 300 }]);
  expect(requestLines()).toEqual([
    "GET /zones/example.com/records/new/A",
    "GET /zones",
    "PUT /zones/example.com/records/new/A",
  ]);
});

test("a zone the key may not use is not offered", async () => {
  fake.addZone("other.org");
  fake.allowedZones = new Set(["example.com"]);
  expect(await client().writeRecord(target("home.other.org"), NEW_IP)).toEqual({
    ok: false,
    cause: "refused",
    message: "Mythic Beasts: no zone of this account holds home.other.org",
  });
});

describe("failures keep Mythic Beasts' words and leave the record alone", () => {
  type Arrange = { fault?: MythicBeastsFault; ttl?: number };
  failureTests(
    [
      fails(
        { fault: { status: 403, error: "Permission denied for home A" } },
        "Mythic Beasts: Permission denied for home A (HTTP 403)",
        "credentials",
        STOP,
      ),
      fails({ fault: { status: 429 } }, "Mythic Beasts: Rate limited (HTTP 429)", "throttled"),
      fails({ fault: { status: 500 } }, "Mythic Beasts: Internal server error (HTTP 500)", "unreachable"),
      // A refused record names the problems.
      fails({ ttl: 30 }, "Mythic Beasts: ttl: must be between 60 and 86400 (HTTP 400)", "refused"),
    ],
    async ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client().writeRecord(target("home.example.com", { ...known, ttl: arrange.ttl }), NEW_IP);
    },
    ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault) expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ data: OLD_IP, ttl: 1800 }]);
    },
  );
});
