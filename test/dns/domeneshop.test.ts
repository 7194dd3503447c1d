// The Domeneshop API client against its fake: what it changes, what it keeps, how many requests it
// spends, and how each failure Domeneshop can give ends up in Domeneshop's own words.

import { describe, expect, test } from "bun:test";
import {
  DOMENESHOP_FAKE_SECRET,
  DOMENESHOP_FAKE_TOKEN,
  type DomeneshopDomain,
  type DomeneshopFault,
  startDomeneshopFake,
} from "../fakes/domeneshop";
import { fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let example: DomeneshopDomain;
const fake = useFake(startDomeneshopFake, (fake) => {
  fake.addDomain("other.no");
  example = fake.addDomain("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", data: OLD_IP, ttl: 1800 });
});
const client = () =>
  serviceClient("domeneshop", fake.url, { token: DOMENESHOP_FAKE_TOKEN, secret: DOMENESHOP_FAKE_SECRET });

const requestLines = () =>
  fake.requests.map(
    (r) => `${r.method} ${r.path}${Object.keys(r.query).length ? `?${new URLSearchParams(r.query)}` : ""}`,
  );
const home = () => fake.records("example.com", "home", "A");
const known = (fields = {}) => ({ zone_id: String(example.id), ...fields });

test("an existing record: finds the domain, reads the one name and type, and PUTs the whole record back; with the domain id saved, its name is checked, then one read and one write", async () => {
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  const id = home()[0]!.id;
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: String(id),
    zoneId: String(example.id),
    message: `Domeneshop record ${id}, ttl 1800`,
  });
  expect(home()).toEqual([{ id, host: "home", type: "A", data: NEW_IP, ttl: 1800 }]);
  expect(fake.requests[2]?.body).toEqual({ host: "home", type: "A", data: NEW_IP, ttl: 1800 });
  await client().writeRecord(target("home.example.com", known()), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /domains",
    `GET /domains/${example.id}/dns?host=home&type=A`,
    `PUT /domains/${example.id}/dns/${id}`,
    `GET /domains/${example.id}`,
    `GET /domains/${example.id}/dns?host=home&type=A`,
    `PUT /domains/${example.id}/dns/${id}`,
  ]);
});

test("an existing record: an update with a TTL that is no multiple of 60 rounds it, and the rounded TTL counts as already there", async () => {
  const updated = await client().writeRecord(target("home.example.com", known({ ttl: 100 })), NEW_IP);
  expect(updated).toMatchObject({ ok: true, action: "updated" });
  expect(home()).toMatchObject([{ data: NEW_IP, ttl: 120 }]);
  const writes = fake.writes();
  const again = await client().writeRecord(target("home.example.com", known({ ttl: 100 })), NEW_IP);
  expect(again).toMatchObject({ ok: true, action: "unchanged" });
  expect(fake.writes()).toBe(writes);
});

test("a missing record is created with TTL 300 and the id Domeneshop gives; a TTL that is no multiple of 60 is sent as the nearest multiple Domeneshop takes", async () => {
  const outcome = await client().writeRecord(target("new.example.com", known()), NEW_IP);
  const [created] = fake.records("example.com", "new", "A");
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: String(created!.id),
    zoneId: String(example.id),
    message: `Domeneshop record ${created!.id}, ttl 300`,
  });
  expect(fake.requests.at(-1)?.body).toEqual({ host: "new", type: "A", data: NEW_IP, ttl: 300 });
  const rounded = await client().writeRecord(target("odd.example.com", known({ ttl: 90 })), NEW_IP);
  expect(rounded).toMatchObject({ ok: true, action: "created" });
  expect(fake.records("example.com", "odd", "A")).toMatchObject([{ data: NEW_IP, ttl: 120 }]);
});

test("domain discovery passes over a domain without Domeneshop's DNS service, and says so when none is left", async () => {
  fake.addDomain("b.example.com", { dns: false });
  expect(await client().writeRecord(target("x.b.example.com"), NEW_IP)).toMatchObject({
    ok: true,
    zoneId: String(example.id),
  });
  expect(fake.records("example.com", "x.b", "A")).toHaveLength(1);
  expect(await client().writeRecord(target("host.ample.com"), NEW_IP)).toMatchObject({
    ok: false,
    cause: "refused",
    message: "Domeneshop: no zone of this account with Domeneshop's DNS service holds host.ample.com",
  });
});

describe("failures keep Domeneshop's words and leave the record alone", () => {
  failureTests(
    [
      fails(
        { status: 403 },
        "Domeneshop: These API credentials may not do this (auth:forbidden, HTTP 403)",
        "credentials",
        STOP,
      ),
      // A 429 without Retry-After names no wait.
      fails({ status: 429 }, "Domeneshop: Too many requests (rateLimited, HTTP 429)", "throttled"),
    ],
    ({ arrange }: { arrange: DomeneshopFault }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known()), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()).toMatchObject([{ data: OLD_IP }]);
    },
  );
});
