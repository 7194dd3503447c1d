// The Loopia client against its fake: XML-RPC calls with the API user, what it changes and keeps,
// how many calls it spends, and how Loopia's status words end up as failures with their cause.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { decodeMethodCall } from "../../src/dns/protocols/xmlrpc";
import { loopia } from "../../src/dns/services/loopia";
import {
  LOOPIA_FAKE_CUSTOMER,
  LOOPIA_FAKE_PASSWORD,
  LOOPIA_FAKE_USER,
  type LoopiaFake,
  type LoopiaFault,
  startLoopiaFake,
} from "../fakes/loopia";
import { fails, failureTests, serviceClient, target, waits, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

// Not useFake: tests set the fake's quirks (padded strings, the API user's permissions), fields of the fake itself.
let fake: LoopiaFake;
beforeEach(() => {
  fake = startLoopiaFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", "home", { type: "A", rdata: OLD_IP, ttl: 600 });
});
afterEach(async () => {
  await fake.stop();
});

const client = (password = LOOPIA_FAKE_PASSWORD, customer_number = "") =>
  serviceClient("loopia", fake.url, { username: LOOPIA_FAKE_USER, password, customer_number });
const known = { zone_id: "example.com" };
const home = () => fake.records("example.com", "home", "A");
const params = (index: number) => decodeMethodCall(fake.requests[index]!.body as string)!.params;

test("the description names the API user, its password, the optional customer number and the real service", () => {
  expect(loopia.credentials.map((c) => [c.key, c.secret, c.optional ?? false])).toEqual([
    ["username", false, false],
    ["password", true, false],
    ["customer_number", false, true],
  ]);
  expect(loopia.credentials[0]!.validate!("ddnsd")).toBe("must be the API user's full name, e.g. name@loopiaapi");
  expect(loopia.recordTypes).toEqual(["A", "AAAA"]);
  expect(loopia.defaultApiUrl).toBe("https://api.loopia.se/RPCSERV");
  // Loopia allows 60 calls a minute.
  expect(loopia.rateLimits!.every((l) => l.requests / l.perSeconds <= 1)).toBe(true);
});

test("verify lists the domains with the API user and changes nothing; a wrong password is Loopia's AUTH_ERROR, explained", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "API user accepted (1 domain)" });
  expect(fake.methods()).toEqual(["getDomains"]);
  expect(params(0)).toEqual([LOOPIA_FAKE_USER, LOOPIA_FAKE_PASSWORD]);
  expect(fake.requests[0]!.headers["content-type"]).toStartWith("text/xml");
  expect(await client("wrong").verify()).toMatchObject({
    ok: false,
    detail:
      "Loopia: getDomains: AUTH_ERROR (the API user's name or password is wrong, or it lacks the permission for this method)",
  });
});

// Loopia's server pads every string of an answer with newlines and indentation: read trimmed.
test("an existing record: changes only the address, keeps TTL, type and id, in two calls, reading padded strings trimmed; then only a read", async () => {
  fake.padded = true;
  const before = home()[0]!;
  const outcome = await client().writeRecord(target("home.example.com", known), NEW_IP);
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: String(before.record_id),
    zoneId: "example.com",
    message: `Loopia record ${before.record_id}, ttl 600`,
  });
  expect(home()).toEqual([{ type: "A", ttl: 600, priority: 0, rdata: NEW_IP, record_id: before.record_id }]);
  expect(params(1)).toEqual([
    LOOPIA_FAKE_USER,
    LOOPIA_FAKE_PASSWORD,
    "example.com",
    "home",
    { type: "A", ttl: 600, priority: 0, rdata: NEW_IP, record_id: before.record_id },
  ]);
  const again = await client().writeRecord(target("home.example.com", known), NEW_IP);
  expect(again).toMatchObject({ ok: true, action: "unchanged" });
  expect(fake.methods()).toEqual(["getZoneRecords", "updateZoneRecord", "getZoneRecords"]);
});

test("an existing record: a reseller's API user works in the customer's account with the customer number", async () => {
  fake.addDomain("customer.se", "customer");
  fake.addRecord("customer.se", "www", { type: "A", rdata: OLD_IP }, "customer");
  const outcome = await client(LOOPIA_FAKE_PASSWORD, LOOPIA_FAKE_CUSTOMER).writeRecord(
    target("www.customer.se"),
    NEW_IP,
  );
  expect(outcome).toMatchObject({ ok: true, action: "updated", zoneId: "customer.se" });
  expect(fake.records("customer.se", "www", "A", "customer")[0]!.rdata).toBe(NEW_IP);
  expect(params(0)).toEqual([LOOPIA_FAKE_USER, LOOPIA_FAKE_PASSWORD, LOOPIA_FAKE_CUSTOMER]);
});

test("a missing record: adds the subdomain, then the record, and reports the id read back; a subdomain Loopia knows is not added again, and the apex needs none", async () => {
  const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
  const [created] = fake.records("example.com", "new", "A");
  expect(created).toMatchObject({ rdata: NEW_IP, ttl: 3600 });
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: String(created!.record_id),
    zoneId: "example.com",
    message: `Loopia record ${created!.record_id}, ttl 3600`,
  });
  await client().writeRecord(target("new.example.com", known, { recordType: "AAAA" }), "2001:db8::7");
  expect(fake.records("example.com", "new", "AAAA")).toMatchObject([{ rdata: "2001:db8::7" }]);
  // At the apex (the subdomain @) there is no subdomain to look for.
  await client().writeRecord(target("example.com", known, { recordType: "AAAA" }), "2001:db8::7");
  expect(fake.records("example.com", "@", "AAAA")[0]!.rdata).toBe("2001:db8::7");
  expect(fake.methods()).toEqual([
    "getZoneRecords",
    "getSubdomains",
    "addSubdomain",
    "addZoneRecord",
    "getZoneRecords",
    "getZoneRecords",
    "getSubdomains",
    "addZoneRecord",
    "getZoneRecords",
    "getZoneRecords",
    "addZoneRecord",
    "getZoneRecords",
  ]);
});

test("a missing record: an API user without permission to add: AUTH_ERROR, retries stop, nothing added", async () => {
  fake.permissions = new Set(["getDomains", "getZoneRecords", "updateZoneRecord", "getSubdomains"]);
  const outcome = await client().writeRecord(target("new.example.com", known), NEW_IP);
  expect(outcome).toMatchObject({
    ok: false,
    cause: "credentials",
    stopRetrying: true,
    message: expect.stringMatching(/^Loopia: addSubdomain: AUTH_ERROR/),
  });
  expect(fake.records("example.com", "new", "A")).toEqual([]);
});

describe("failures keep Loopia's words and leave the record alone", () => {
  failureTests(
    [
      fails(
        { faultCode: 429, faultString: "Too many requests" },
        "Loopia: getZoneRecords: Too many requests (fault 429)",
        "throttled",
      ),
      fails(
        { faultCode: 623, faultString: "Method not allowed" },
        "Loopia: getZoneRecords: Method not allowed (fault 623)",
        "refused",
      ),
      fails({ httpStatus: 500 }, 'Loopia: unreadable answer (HTTP 500): "Too Many Requests"', "unreachable"),
      fails({ httpStatus: 429, retryAfter: 30 }, /HTTP 429/, "throttled", waits(30)),
    ],
    ({ arrange }: { arrange: LoopiaFault }) => {
      fake.fault(arrange);
      return client().writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()[0]!.rdata).toBe(OLD_IP);
    },
  );

  test("a refused update is reported with Loopia's word; the record stays", async () => {
    fake.fault({ status: "BAD_INDATA" }, 1, (r) =>
      (r.body as string).includes("<methodName>updateZoneRecord</methodName>"),
    );
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Loopia: updateZoneRecord: BAD_INDATA (a value was refused)",
    });
    expect(home()[0]!.rdata).toBe(OLD_IP);
  });
});
