// The easyDNS client against its fake: basic auth with the token and key, what it changes and
// keeps, how it finds the domain, and how easyDNS's answers become failures with their cause.

import { describe, expect, test } from "bun:test";
import { EASYDNS_FAKE_KEY, EASYDNS_FAKE_TOKEN, startEasydnsFake } from "../fakes/easydns";
import { serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startEasydnsFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { host: "home", type: "A", rdata: OLD_IP, ttl: 600 });
  fake.addRecord("example.com", { host: "@", type: "A", rdata: OLD_IP });
});
const client = () => serviceClient("easydns", fake.url, { token: EASYDNS_FAKE_TOKEN, key: EASYDNS_FAKE_KEY });
const known = { zone_id: "example.com" };
const home = () => fake.records("example.com", "home", "A");
const calls = () => fake.requests.map((r) => `${r.method} ${r.path}`);

test("an existing record: changes only the address, keeps TTL, priority and id; two requests with basic auth", async () => {
  const before = home()[0]!;
  const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: before.id,
    zoneId: "example.com",
    message: `easyDNS record ${before.id}, ttl 600`,
  });
  expect(home()).toEqual([{ ...before, rdata: NEW_IP }]);
  expect(calls()).toEqual(["GET /zones/records/all/example.com", `POST /zones/records/${before.id}`]);
  expect(fake.requests[1]!.body).toEqual({
    host: "home",
    ttl: 600,
    prio: 0,
    type: "A",
    rdata: NEW_IP,
    geozone_id: 0,
  });
  expect(fake.requests[0]!.headers.authorization).toBe(
    `Basic ${Buffer.from(`${EASYDNS_FAKE_TOKEN}:${EASYDNS_FAKE_KEY}`).toString("base64")}`,
  );
  expect(fake.requests.every((r) => r.query.format === "json")).toBe(true);
});

test("a missing record: adds it with PUT and reports the id easyDNS gave it", async () => {
  const outcome = await client().writeRecord(target("new.example.com", known, { recordType: "AAAA" }), "2001:db8::7");
  const [created] = fake.records("example.com", "new", "AAAA");
  expect(created).toMatchObject({ rdata: "2001:db8::7", ttl: "300" });
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: created!.id,
    zoneId: "example.com",
    message: `easyDNS record ${created!.id}, ttl 300`,
  });
  expect(fake.requests.at(-1)).toMatchObject({ method: "PUT", path: "/zones/records/add/example.com/AAAA" });
  expect(fake.requests.at(-1)!.body).toEqual({
    domain: "example.com",
    host: "new",
    ttl: 300,
    prio: 0,
    type: "AAAA",
    rdata: "2001:db8::7",
  });
});

describe("domain discovery", () => {
  for (const status of [403, 404] as const) {
    test(`each parent is asked for, longest first; ${status} means not this one`, async () => {
      fake.unknownDomain = status;
      fake.addDomain("example.co.uk");
      const outcome = await client().writeRecord(target("x.y.example.co.uk"), NEW_IP);
      expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "example.co.uk" });
      expect(calls().slice(0, 3)).toEqual([
        "GET /zones/records/all/x.y.example.co.uk",
        "GET /zones/records/all/y.example.co.uk",
        "GET /zones/records/all/example.co.uk",
      ]);
      expect(fake.records("example.co.uk", "x.y", "A")[0]!.rdata).toBe(NEW_IP);
    });
  }

  test("a listing that pages is read to its end: a record on the second page is found and updated, not added", async () => {
    fake.pageSize = 2;
    for (const host of ["a", "b", "c"]) fake.addRecord("example.com", { host, type: "A", rdata: OLD_IP });
    fake.addRecord("example.com", { host: "late", type: "A", rdata: OLD_IP });
    const outcome = await client().writeRecord(target("late.example.com", known), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.records("example.com", "late", "A")).toHaveLength(1);
    expect(fake.records("example.com", "late", "A")[0]!.rdata).toBe(NEW_IP);
    const pages = fake.requests.filter((r) => r.method === "GET").map((r) => r.query.start ?? "0");
    expect(pages.length).toBeGreaterThan(1);
  });
});

describe("failures keep easyDNS's words and leave the record alone", () => {
  test("Enhance your calm as a 403 is easyDNS's slow-down, naming no wait", async () => {
    fake.fault("calm403");
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "throttled",
      message:
        "easyDNS: Enhance your calm — easyDNS also answers this to a request without credentials; if it persists, check the token and key (code 420, HTTP 403)",
    });
    expect(fake.requests).toHaveLength(1);
    expect(home()[0]!.rdata).toBe(OLD_IP);
  });

  test("a refused update is reported in easyDNS's words; the record stays", async () => {
    fake.fault({ status: 400, message: "rdata must be an IPv4 address" }, 1, (r) => r.method === "POST");
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "easyDNS: rdata must be an IPv4 address (HTTP 400)",
    });
    expect(home()[0]!.rdata).toBe(OLD_IP);
  });
});
