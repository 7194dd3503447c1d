// The Alibaba Cloud DNS client against the faithful fake: what it changes, what it keeps (TTL,
// resolution line), how many requests it spends, and how every failure Alibaba can give ends up as
// Alibaba's own words. The signature itself is checked against Alibaba's published examples in
// test/unit/dns/alidns-signature.test.ts; here the fake verifies every request's signature.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createAlidnsApi } from "../../src/dns/services/alidns";
import {
  ALIDNS_FAKE_ACCESS_KEY_ID,
  ALIDNS_FAKE_SECRET,
  ALIDNS_FREE_EDITION_MIN_TTL,
  type AlidnsFake,
  type AlidnsFault,
  startAlidnsFake,
} from "../fakes/alidns";
import { target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: AlidnsFake;

beforeEach(() => {
  fake = startAlidnsFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { rr: "home", type: "A", value: OLD_IP, ttl: 1800 });
  fake.addRecord("example.com", { rr: "@", type: "A", value: OLD_IP, ttl: 3600 });
  fake.addRecord("example.com", { rr: "home", type: "MX", value: "mail.example.com", ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { secret?: string; keyId?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createAlidnsApi(
      {
        access_key_id: options.keyId ?? ALIDNS_FAKE_ACCESS_KEY_ID,
        access_key_secret: options.secret ?? ALIDNS_FAKE_SECRET,
      },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const actions = () => fake.requests.map((r) => r.query.Action);
const home = () => fake.records("example.com", "home", "A");

describe("verify", () => {
  test("a valid AccessKey is accepted, read-only, with the number of domains", async () => {
    fake.addDomain("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "AccessKey accepted (2 domains)" });
    expect(actions()).toEqual(["DescribeDomains"]);
    expect(fake.changes()).toHaveLength(0);
  });

  test("every request is signed afresh: a new nonce and the common parameters, never the secret", async () => {
    await client().verify();
    await client().verify();
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
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the record, and updates it with the TTL and line it had", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const [record] = home();
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: record!.RecordId,
      zoneId: "example.com",
      message: `Alibaba Cloud DNS record ${record!.RecordId}, ttl 1800`,
    });
    expect(record).toMatchObject({ Value: NEW_IP, TTL: 1800, Line: "default" });
    expect(actions()).toEqual(["DescribeDomains", "DescribeSubDomainRecords", "UpdateDomainRecord"]);
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
  });

  test("with the domain known, a change costs two requests", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(actions()).toEqual(["DescribeSubDomainRecords", "UpdateDomainRecord"]);
  });

  test("nothing is written when the record already holds the address (Alibaba would refuse it as a duplicate)", async () => {
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), OLD_IP);
    expect(outcome).toMatchObject({ ok: true, action: "unchanged" });
    expect(fake.changes()).toHaveLength(0);
  });

  test("the TTL from config is written; the record's other types are untouched", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com", ttl: 3600 }), NEW_IP);
    expect(home()[0]).toMatchObject({ Value: NEW_IP, TTL: 3600 });
    expect(fake.records("example.com", "home", "MX")[0]).toMatchObject({ Value: "mail.example.com", TTL: 600 });
  });

  test("a record on another resolution line keeps its line", async () => {
    fake.addRecord("example.com", { rr: "office", type: "A", value: OLD_IP, ttl: 600, line: "telecom" });
    const outcome = await client().writeRecord(target("office.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(outcome.ok && outcome.message).toEndWith(", ttl 600, line telecom");
    expect(fake.records("example.com", "office", "A")[0]).toMatchObject({ Value: NEW_IP, Line: "telecom" });
  });

  test("a name with records on several lines is left alone, nothing deleted", async () => {
    fake.addRecord("example.com", { rr: "home", type: "A", value: "198.51.100.2", line: "unicom" });
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(!outcome.ok && outcome.message).toContain("holds 2 addresses");
    expect(home().map((r) => r.Value)).toEqual([OLD_IP, "198.51.100.2"]);
    expect(fake.changes()).toHaveLength(0);
  });

  test("a locked record: Alibaba's words, and no retries until someone unlocks it", async () => {
    fake.addRecord("example.com", { rr: "locked", type: "A", value: OLD_IP, locked: true });
    const outcome = await client().writeRecord(target("locked.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: "Alibaba Cloud DNS: The DNS record is locked. (DomainRecordLocked, HTTP 400)",
    });
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 600 on the default line", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const [record] = fake.records("example.com", "new", "A");
    expect(record).toMatchObject({ Value: NEW_IP, TTL: 600, Line: "default" });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: record!.RecordId,
      zoneId: "example.com",
      message: `Alibaba Cloud DNS record ${record!.RecordId}, ttl 600`,
    });
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
    const outcome = await client().writeRecord(target("new.example.com", { ttl: 60 }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message:
        "Alibaba Cloud DNS: The specified TTL is invalid. A valid TTL must be in the range of 600 to 86400. (QuotaExceeded.TTL, HTTP 400)",
    });
  });
});

describe("domain discovery", () => {
  test("the listing is followed page by page until TotalCount is reached", async () => {
    for (let i = 0; i < 150; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
    fake.addDomain("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "zz.org" });
    expect(
      fake.requests
        .filter((r) => r.query.Action === "DescribeDomains")
        .map((r) => [r.query.PageNumber, r.query.PageSize]),
    ).toEqual([
      ["1", "100"],
      ["2", "100"],
    ]);
  });
});

describe("failures keep Alibaba's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: AlidnsFault;
    keyId?: string;
    secret?: string;
    message: string | RegExp;
    cause: FailureCause;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "unknown AccessKey ID",
      keyId: "LTAI5tUnknown",
      message: "Alibaba Cloud DNS: Specified access key is not found. (InvalidAccessKeyId.NotFound, HTTP 404)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "RAM user without the DNS permissions",
      fault: {
        status: 403,
        code: "Forbidden.RAM",
        message: "User not authorized to operate on the specified resource, or this API doesn't support RAM.",
      },
      message:
        "Alibaba Cloud DNS: User not authorized to operate on the specified resource, or this API doesn't support RAM. (Forbidden.RAM, HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    // Alibaba's "slow down" names no wait: the updater decides the pause.
    {
      name: "Throttling.User",
      fault: { status: 400, code: "Throttling.User" },
      message: "Alibaba Cloud DNS: Request was denied due to user flow control. (Throttling.User, HTTP 400)",
      cause: "throttled",
    },
    {
      name: "503 ServiceUnavailable",
      fault: {
        status: 503,
        code: "ServiceUnavailable",
        message: "The request has failed due to a temporary failure of the server.",
      },
      message:
        "Alibaba Cloud DNS: The request has failed due to a temporary failure of the server. (ServiceUnavailable, HTTP 503)",
      cause: "unreachable",
    },
  ];
  for (const { name, fault, keyId, secret, message, cause, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ keyId, secret, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", { zone_id: "example.com" }),
        NEW_IP,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.retryAfterSeconds).toBeUndefined();
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(outcome.cause).toBe(cause);
      // One request, no retry loop, nothing changed.
      expect(fake.requests).toHaveLength(1);
      expect(home()[0]).toMatchObject({ Value: OLD_IP, TTL: 1800 });
    });
  }

  test("a failing update is reported; the record keeps its address and TTL", async () => {
    fake.fault(
      { status: 500, code: "InternalError", message: "The request processing has failed due to some unknown error." },
      1,
      (r) => r.query.Action === "UpdateDomainRecord",
    );
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "unreachable",
      message:
        "Alibaba Cloud DNS: The request processing has failed due to some unknown error. (InternalError, HTTP 500)",
    });
    expect(home()[0]).toMatchObject({ Value: OLD_IP, TTL: 1800 });
  });
});
