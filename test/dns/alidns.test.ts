// The Alibaba Cloud DNS client against the faithful fake: what it changes, what it keeps (TTL,
// resolution line), how many requests it spends, and how every failure Alibaba can give ends up as
// Alibaba's own words. The signature itself is checked against Alibaba's published examples in
// test/unit/dns/alidns-signature.test.ts; here the fake verifies every request's signature.

import { describe, expect, test } from "bun:test";
import {
  ALIDNS_FAKE_ACCESS_KEY_ID,
  ALIDNS_FAKE_SECRET,
  ALIDNS_FREE_EDITION_MIN_TTL,
  type AlidnsFault,
  startAlidnsFake,
} from "../fakes/alidns";
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
  wrote,
} from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startAlidnsFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { rr: "home", type: "A", value: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { rr: "@", type: "A", value: OLD_IP, ttl: 3600 });
  fake.addRecord("example.com", { rr: "home", type: "MX", value: "mail.example.com", ttl: 600 });
});
const client = (keyId = ALIDNS_FAKE_ACCESS_KEY_ID) =>
  serviceClient("alidns", fake.url, { access_key_id: keyId, access_key_secret: ALIDNS_FAKE_SECRET });
const actions = () => fake.requests.map((r) => r.query.Action);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("verify: a valid AccessKey is accepted, read-only, with the number of domains; each request signed afresh, never with the secret in it", async () => {
  fake.addDomain("other.org");
  expect(await client().verify()).toEqual({ ok: true, detail: "AccessKey accepted (2 domains)" });
  await client().verify();
  expect(actions()).toEqual(["DescribeDomains", "DescribeDomains"]);
  expect(fake.changes()).toHaveLength(0);
  const [first, second] = fake.requests;
  expect(first?.query).toMatchObject({
    AccessKeyId: ALIDNS_FAKE_ACCESS_KEY_ID,
    Format: "JSON",
    Version: "2015-01-09",
    SignatureMethod: "HMAC-SHA1",
    SignatureVersion: "1.0",
  });
  expect(first?.query.SignatureNonce).not.toBe(second?.query.SignatureNonce);
  expect(JSON.stringify(fake.requests)).not.toContain(ALIDNS_FAKE_SECRET);
});

describe("an existing record", () => {
  test("finds the domain, reads the record, updates it with the TTL and line it had, the MX beside it kept; then two requests", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const [record] = home();
    expect(withoutHeld(outcome)).toEqual(
      wrote("updated", record!.RecordId, "example.com", `Alibaba Cloud DNS record ${record!.RecordId}, ttl 1800`),
    );
    expect(record).toMatchObject({ Value: NEW_IP, TTL: 1800, Line: "default" });
    expect(fake.records("example.com", "home", "MX")[0]).toMatchObject({ Value: "mail.example.com", TTL: 600 });
    expect(fake.requests[1]?.query).toMatchObject({
      DomainName: "example.com",
      SubDomain: "home.example.com",
      Type: "A",
    });
    expect(fake.requests[2]?.query).toMatchObject({
      RecordId: record!.RecordId,
      RR: "home",
      Type: "A",
      Value: NEW_IP,
      TTL: "1800",
      Line: "default",
    });
    await client().writeRecord(target("home.example.com", known), OLD_IP);
    expect(actions()).toEqual([
      "DescribeDomains",
      "DescribeSubDomainRecords",
      "UpdateDomainRecord",
      "DescribeSubDomainRecords",
      "UpdateDomainRecord",
    ]);
  });

  test("a record on another resolution line keeps its line", async () => {
    fake.addRecord("example.com", { rr: "office", type: "A", value: OLD_IP, ttl: 600, line: "telecom" });
    const outcome = await client().writeRecord(target("office.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(outcome.ok && outcome.message).toEndWith(", ttl 600, line telecom");
    expect(fake.records("example.com", "office", "A")[0]).toMatchObject({ Value: NEW_IP, Line: "telecom" });
  });

  test("a locked record: Alibaba's words, and no retries until someone unlocks it", async () => {
    fake.addRecord("example.com", { rr: "locked", type: "A", value: OLD_IP, locked: true });
    expect(await client().writeRecord(target("locked.example.com", known), NEW_IP)).toEqual(
      failed("refused", "Alibaba Cloud DNS: The DNS record is locked. (DomainRecordLocked, HTTP 400)", STOP),
    );
  });
});

describe("a missing record", () => {
  test("is created with TTL 600 on the default line", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const [record] = fake.records("example.com", "new", "A");
    expect(record).toMatchObject({ Value: NEW_IP, TTL: 600, Line: "default" });
    expect(withoutHeld(outcome)).toEqual(
      wrote("created", record!.RecordId, "example.com", `Alibaba Cloud DNS record ${record!.RecordId}, ttl 600`),
    );
    expect(fake.requests.at(-1)?.query).toMatchObject({
      Action: "AddDomainRecord",
      DomainName: "example.com",
      RR: "new",
      Type: "A",
      Value: NEW_IP,
      TTL: "600",
    });
  });

  test("a TTL below the edition's floor is refused in Alibaba's words, and not retried until the config changes", async () => {
    fake.minTtl = ALIDNS_FREE_EDITION_MIN_TTL;
    expect(await client().writeRecord(target("new.example.com", { ttl: 60 }), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message:
        "Alibaba Cloud DNS: The specified TTL is invalid. A valid TTL must be in the range of 600 to 86400. (QuotaExceeded.TTL, HTTP 400)",
    });
  });
});

test("the domain listing is followed page by page until TotalCount is reached", async () => {
  for (let i = 0; i < 150; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
  fake.addDomain("zz.org");
  expect(await client().writeRecord(target("home.zz.org"), NEW_IP)).toMatchObject({ ok: true, zoneId: "zz.org" });
  const listings = fake.requests.filter((r) => r.query.Action === "DescribeDomains");
  expect(listings.map((r) => [r.query.PageNumber, r.query.PageSize])).toEqual([
    ["1", "100"],
    ["2", "100"],
  ]);
});

test("a domain listing without TotalCount is followed until a page comes back short", async () => {
  fake.totalLeftOut = true;
  for (let i = 0; i < 250; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
  fake.addDomain("zz.org");
  expect(await client().writeRecord(target("home.zz.org"), NEW_IP)).toMatchObject({ ok: true, zoneId: "zz.org" });
  const listings = fake.requests.filter((r) => r.query.Action === "DescribeDomains");
  expect(listings.map((r) => r.query.PageNumber)).toEqual(["1", "2", "3"]);
});

describe("failures keep Alibaba's words and leave the record alone", () => {
  const ram = "User not authorized to operate on the specified resource, or this API doesn't support RAM.";
  failureTests<FailureCase & { arrange: { fault?: AlidnsFault; keyId?: string } }>(
    [
      fails(
        { keyId: "LTAI5tUnknown" },
        "Alibaba Cloud DNS: Specified access key is not found. (InvalidAccessKeyId.NotFound, HTTP 404)",
        "credentials",
        STOP,
      ),
      fails(
        { fault: { status: 403, code: "Forbidden.RAM", message: ram } },
        `Alibaba Cloud DNS: ${ram} (Forbidden.RAM, HTTP 403)`,
        "credentials",
        STOP,
      ),
    ],
    async ({ arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client(arrange.keyId).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()[0]).toMatchObject({ Value: OLD_IP, TTL: 1800 });
    },
  );

  test("a failing update is reported; the record keeps its address and TTL", async () => {
    const unknown = "The request processing has failed due to some unknown error.";
    fake.fault(
      { status: 500, code: "InternalError", message: unknown },
      1,
      (r) => r.query.Action === "UpdateDomainRecord",
    );
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual(
      failed("unreachable", `Alibaba Cloud DNS: ${unknown} (InternalError, HTTP 500)`),
    );
    expect(home()[0]).toMatchObject({ Value: OLD_IP, TTL: 1800 });
  });
});
