// The Tencent Cloud DNSPod client against the faithful fake: what it changes, what it keeps (TTL,
// resolution line, weight, status), how many requests it spends, and how every failure Tencent can
// give (nearly all as HTTP 200 with Response.Error) ends up as Tencent's own words. The signature is
// checked against Tencent's published example in test/unit/dns/tc3.test.ts; here the fake verifies
// every request's signature.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createTencentCloudApi } from "../../src/dns/services/tencentcloud";
import {
  startTencentFake,
  TENCENT_FAKE_SECRET_ID,
  TENCENT_FAKE_SECRET_KEY,
  TENCENT_FREE_PLAN_MIN_TTL,
  type TencentFake,
  type TencentFault,
} from "../fakes/tencentcloud";
import { target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: TencentFake;

beforeEach(() => {
  fake = startTencentFake();
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", value: OLD_IP, ttl: 1800, remark: "home router" });
  fake.addRecord("example.com", { name: "@", type: "A", value: OLD_IP, ttl: 3600 });
  fake.addRecord("example.com", { name: "home", type: "TXT", value: "keep me", ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { secretId?: string; secretKey?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createTencentCloudApi(
      {
        secret_id: options.secretId ?? TENCENT_FAKE_SECRET_ID,
        secret_key: options.secretKey ?? TENCENT_FAKE_SECRET_KEY,
      },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const actions = () => fake.requests.map((r) => r.headers["x-tc-action"]);
const home = () => fake.records("example.com", "home", "A");

describe("verify", () => {
  test("a valid key is accepted, read-only, with the number of domains", async () => {
    fake.addDomain("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "Secret key accepted (2 domains)" });
    expect(actions()).toEqual(["DescribeDomainList"]);
    expect(fake.changes()).toHaveLength(0);
  });

  test("each request names its action and version and is signed, never carrying the key", async () => {
    await client().verify();
    const [request] = fake.requests;
    expect(request?.headers).toMatchObject({
      "x-tc-action": "DescribeDomainList",
      "x-tc-version": "2021-03-23",
      "content-type": "application/json",
    });
    expect(request?.headers.authorization).toStartWith(`TC3-HMAC-SHA256 Credential=${TENCENT_FAKE_SECRET_ID}/`);
    expect(JSON.stringify(fake.requests)).not.toContain(TENCENT_FAKE_SECRET_KEY);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the record, and modifies it sending back its line, TTL, status and remark", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const [record] = home();
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: String(record!.RecordId),
      zoneId: "example.com",
      message: `Tencent Cloud DNSPod record ${record!.RecordId}, ttl 1800`,
    });
    expect(record).toMatchObject({ Value: NEW_IP, TTL: 1800, Line: "默认", Status: "ENABLE", Remark: "home router" });
    expect(actions()).toEqual(["DescribeDomainList", "DescribeRecordList", "ModifyRecord"]);
    expect(fake.requests[1]?.body).toMatchObject({ Domain: "example.com", Subdomain: "home", RecordType: "A" });
    expect(fake.requests[2]?.body).toEqual({
      Domain: "example.com",
      RecordId: record!.RecordId,
      SubDomain: "home",
      RecordType: "A",
      RecordLine: "默认",
      RecordLineId: "0",
      Value: NEW_IP,
      TTL: 1800,
      Status: "ENABLE",
      Remark: "home router",
    });
  });

  test("with the domain known, a change costs two requests", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(actions()).toEqual(["DescribeRecordList", "ModifyRecord"]);
  });

  test("the TTL from config is written; the name's other records are untouched", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com", ttl: 120 }), NEW_IP);
    expect(home()[0]).toMatchObject({ Value: NEW_IP, TTL: 120 });
    expect(fake.records("example.com", "home", "TXT")[0]).toMatchObject({ Value: "keep me", TTL: 600 });
  });

  test("a disabled, weighted record on another line keeps its line, weight and status", async () => {
    fake.addRecord("example.com", {
      name: "office",
      type: "A",
      value: OLD_IP,
      line: "电信",
      status: "DISABLE",
      weight: 30,
    });
    const outcome = await client().writeRecord(target("office.example.com"), NEW_IP);
    expect(outcome.ok && outcome.message).toEndWith(", ttl 600, line 电信, disabled");
    expect(fake.records("example.com", "office", "A")[0]).toMatchObject({
      Value: NEW_IP,
      Line: "电信",
      LineId: "10=0",
      Status: "DISABLE",
      Weight: 30,
    });
  });

  test("a name with records on several lines is left alone, nothing deleted", async () => {
    fake.addRecord("example.com", { name: "home", type: "A", value: "198.51.100.2", line: "联通" });
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(!outcome.ok && outcome.message).toContain("holds 2 addresses");
    expect(home().map((r) => r.Value)).toEqual([OLD_IP, "198.51.100.2"]);
    expect(fake.changes()).toHaveLength(0);
  });
});

describe("writeRecord on a missing record", () => {
  test("the empty list (ResourceNotFound.NoDataOfRecord) means none: it is created with TTL 600 on the default line", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const [record] = fake.records("example.com", "new", "A");
    expect(record).toMatchObject({ Value: NEW_IP, TTL: 600, Line: "默认" });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: String(record!.RecordId),
      zoneId: "example.com",
      message: `Tencent Cloud DNSPod record ${record!.RecordId}, ttl 600`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({
      Domain: "example.com",
      SubDomain: "new",
      RecordType: "A",
      RecordLine: "默认",
      Value: NEW_IP,
      TTL: 600,
    });
  });

  test("a TTL below the plan's floor is refused in Tencent's words, and not retried until the config changes", async () => {
    fake.minTtl = TENCENT_FREE_PLAN_MIN_TTL;
    const outcome = await client().writeRecord(target("new.example.com", { ttl: 60 }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message:
        "Tencent Cloud DNSPod: The TTL value of the record exceeds the limit. (LimitExceeded.RecordTtlLimit, HTTP 200)",
    });
  });
});

describe("domain discovery", () => {
  test("the listing is followed page by page until AllTotal is reached", async () => {
    for (let i = 0; i < 150; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
    fake.addDomain("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: "zz.org" });
    expect(fake.requests.filter((r) => r.headers["x-tc-action"] === "DescribeDomainList").map((r) => r.body)).toEqual([
      { Type: "ALL", Offset: 0, Limit: 100 },
      { Type: "ALL", Offset: 100, Limit: 100 },
    ]);
  });
});

describe("failures keep Tencent's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: TencentFault;
    secretId?: string;
    secretKey?: string;
    skew?: number;
    message: string | RegExp;
    cause: FailureCause;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "unknown SecretId",
      secretId: "AKIDunknown",
      message:
        "Tencent Cloud DNSPod: The SecretId is not found, please ensure that your SecretId is correct. (AuthFailure.SecretIdNotFound, HTTP 200)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "wrong SecretKey",
      secretKey: "wrong",
      message: /\(AuthFailure\.SignatureFailure, HTTP 200\)$/,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "sub-user without the DNSPod permissions",
      fault: { code: "UnauthorizedOperation", message: "You are not authorized to perform this operation." },
      message:
        "Tencent Cloud DNSPod: You are not authorized to perform this operation. (UnauthorizedOperation, HTTP 200)",
      cause: "credentials",
      stopRetrying: true,
    },
    // The keys are fine; the clock is not: no stop, it succeeds once the clock is right.
    {
      name: "a clock more than five minutes off",
      skew: 600,
      message: /^Tencent Cloud DNSPod: Signature expired\. .*\(AuthFailure\.SignatureExpire, HTTP 200\)$/,
      cause: "refused",
    },
    // Tencent's "slow down" names no wait: the updater decides the pause.
    {
      name: "RequestLimitExceeded",
      fault: { code: "RequestLimitExceeded" },
      message: /^Tencent Cloud DNSPod: Your current request times .*\(RequestLimitExceeded, HTTP 200\)$/,
      cause: "throttled",
    },
    {
      name: "FailedOperation.FrequencyLimit",
      fault: { code: "FailedOperation.FrequencyLimit", message: "您操作过于频繁，请稍后重试" },
      message: "Tencent Cloud DNSPod: 您操作过于频繁，请稍后重试 (FailedOperation.FrequencyLimit, HTTP 200)",
      cause: "throttled",
    },
    {
      name: "InternalError",
      fault: { code: "InternalError" },
      message: /^Tencent Cloud DNSPod: An internal error has occurred\. .*\(InternalError, HTTP 200\)$/,
      cause: "unreachable",
    },
  ];
  for (const { name, fault, secretId, secretKey, skew, message, cause, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      if (skew) fake.clockSkewSeconds = skew;
      const outcome = await client({ secretId, secretKey, timeoutMs: 1000 }).writeRecord(
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

  test("a failing modification is reported; the record keeps its address and TTL", async () => {
    fake.fault(
      { code: "FailedOperation.DomainIsLocked", message: "You cannot perform this operation on a locked domain." },
      1,
      (r) => r.headers["x-tc-action"] === "ModifyRecord",
    );
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message:
        "Tencent Cloud DNSPod: You cannot perform this operation on a locked domain. (FailedOperation.DomainIsLocked, HTTP 200)",
    });
    expect(home()[0]).toMatchObject({ Value: OLD_IP, TTL: 1800 });
  });
});
