// The Gcore client against its fake: the token header, the one RRset it replaces (everything else of
// the set sent back as read), what it keeps, and its failures in Gcore's words.

import { expect, test } from "bun:test";
import { gcore } from "../../src/dns/services/gcore";
import { GCORE_FAKE_TOKEN, startGcoreFake } from "../fakes/gcore";
import { serviceClient, target, useFake } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const SETS = "/v2/zones/example.com";

const fake = useFake(startGcoreFake, (fake) => {
  fake.addZone("example.com");
  fake.addRrset("example.com", { name: "home.example.com", type: "A", contents: [OLD_IP], ttl: 300 });
});
const client = () => serviceClient("gcore", fake.url, { api_token: GCORE_FAKE_TOKEN });

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.rrset("example.com", "home.example.com", "A");
const known = { zone_id: "example.com" };

test("the description names one secret token and the real service; verify sends it as an APIKey", async () => {
  expect(gcore.credentials.map((c) => [c.key, c.secret])).toEqual([["api_token", true]]);
  expect(gcore.defaultApiUrl).toBe("https://api.gcore.com/dns");
  expect(await client().verify()).toEqual({ ok: true, detail: "API token accepted (1 zone)" });
  expect(fake.requests[0]?.headers.authorization).toBe(`APIKey ${GCORE_FAKE_TOKEN}`);
});

test("an existing set: one PUT of the set as read with the new address", async () => {
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  expect(outcome).toMatchObject({
    ok: true,
    action: "updated",
    zoneId: "example.com",
    externalId: "home.example.com/A",
    message: expect.stringContaining("ttl 300"),
  });
  expect(home()).toMatchObject({ ttl: 300, resource_records: [{ content: [NEW_IP], enabled: true }] });
  expect(requestLines()).toEqual(["GET /v2/zones", `GET ${SETS}/home.example.com/A`, `PUT ${SETS}/home.example.com/A`]);
  expect(fake.requests[0]?.query).toEqual({ limit: "1000", offset: "0" });
  expect(fake.requests[2]?.body).toEqual({
    ttl: 300,
    resource_records: [{ content: [NEW_IP], enabled: true, meta: {} }],
    meta: {},
  });
});

test("the set's filters, meta, a record's own meta and flag, and a dynamic set's pickers (its geo-balancing chain) are kept", async () => {
  const filters = [{ type: "geodns" }, { type: "first_n", limit: 1 }];
  const set = fake.addRrset("example.com", {
    name: "geo.example.com",
    type: "A",
    contents: [OLD_IP],
    ttl: 120,
    filters,
    meta: { notes: "router" },
  });
  set.resource_records[0]!.meta = { countries: ["de"] };
  set.resource_records[0]!.enabled = false;
  const pickers = [
    { type: "geodns", strict: true },
    { type: "first_n", limit: 1 },
  ];
  fake.addRrset("example.com", { name: "near.example.com", type: "A", contents: [OLD_IP], pickers });
  for (const name of ["geo.example.com", "near.example.com"])
    expect(await client().writeRecord(target(name, known), NEW_IP)).toMatchObject({ ok: true, action: "updated" });
  expect(fake.rrset("example.com", "geo.example.com", "A")).toMatchObject({
    ttl: 120,
    filters,
    meta: { notes: "router" },
    resource_records: [{ content: [NEW_IP], enabled: false, meta: { countries: ["de"] } }],
  });
  expect(fake.rrset("example.com", "near.example.com", "A")).toMatchObject({
    pickers,
    resource_records: [{ content: [NEW_IP] }],
  });
});

test("a missing AAAA set: the zone list read page by page; the set created with POST and TTL 300", async () => {
  for (let i = 0; i < 1000; i++) fake.addZone(`d${String(i).padStart(4, "0")}.net`);
  fake.addZone("zz.org");
  const outcome = await client().writeRecord(target("new.zz.org", {}, { recordType: "AAAA" }), "2001:db8::7");
  expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "zz.org" });
  expect(fake.rrset("zz.org", "new.zz.org", "AAAA")).toMatchObject({
    ttl: 300,
    resource_records: [{ content: ["2001:db8::7"] }],
  });
  expect(requestLines()).toEqual([
    "GET /v2/zones",
    "GET /v2/zones",
    "GET /v2/zones/zz.org/new.zz.org/AAAA",
    "GET /v2/zones/zz.org",
    "POST /v2/zones/zz.org/new.zz.org/AAAA",
  ]);
  expect(fake.requests.slice(0, 2).map((r) => r.query.offset)).toEqual(["0", "1000"]);
});

test("a 500 keeps Gcore's words and leaves the record alone", async () => {
  fake.fault({ status: 500 });
  expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
    ok: false,
    cause: "unreachable",
    message: "Gcore: internal server error (HTTP 500)",
  });
  expect(home()?.resource_records[0]?.content).toEqual([OLD_IP]);
});
