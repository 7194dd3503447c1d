// The Tencent Cloud DNSPod client against the faithful fake: what it changes, what it keeps (TTL,
// resolution line, weight, status), how many requests it spends, and how every failure Tencent can
// give (nearly all as HTTP 200 with Response.Error) ends up as Tencent's own words. The signature is
// checked against Tencent's published example in test/unit/dns/tc3.test.ts; here the fake verifies
// every request's signature.

import { describe, expect, test } from "bun:test";
import {
  startTencentFake,
  TENCENT_FAKE_SECRET_ID,
  TENCENT_FAKE_SECRET_KEY,
  TENCENT_FREE_PLAN_MIN_TTL,
  type TencentFault,
} from "../fakes/tencentcloud";
import { type FailureCase, fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startTencentFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRecord("example.com", { name: "home", type: "A", value: OLD_IP, ttl: 1800, remark: "home router" });
  fake.addRecord("example.com", { name: "@", type: "A", value: OLD_IP, ttl: 3600 });
  fake.addRecord("example.com", { name: "home", type: "TXT", value: "keep me", ttl: 600 });
});
const client = (secretId = TENCENT_FAKE_SECRET_ID) =>
  serviceClient("tencentcloud", fake.url, { secret_id: secretId, secret_key: TENCENT_FAKE_SECRET_KEY });
const actions = () => fake.requests.map((r) => r.headers["x-tc-action"]);
const home = () => fake.records("example.com", "home", "A");
const known = { zone_id: "example.com" };

test("verify: a valid key is accepted with one read; the request names its action and version, signed, never carrying the key", async () => {
  fake.addDomain("other.org");
  expect(await client().verify()).toEqual({ ok: true, detail: "Secret key accepted (2 domains)" });
  expect(actions()).toEqual(["DescribeDomainList"]);
  expect(fake.requests[0]?.headers).toMatchObject({
    "x-tc-version": "2021-03-23",
    "content-type": "application/json",
  });
  expect(fake.requests[0]?.headers.authorization).toStartWith(`TC3-HMAC-SHA256 Credential=${TENCENT_FAKE_SECRET_ID}/`);
  expect(JSON.stringify(fake.requests)).not.toContain(TENCENT_FAKE_SECRET_KEY);
});

describe("writeRecord on an existing record", () => {
  test("finds the domain, reads the record, modifies it sending back its line, TTL, status and remark; then two requests", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const [record] = home();
    expect(withoutHeld(outcome)).toEqual({
      ok: true,
      action: "updated",
      externalId: String(record!.RecordId),
      zoneId: "example.com",
      message: `Tencent Cloud DNSPod record ${record!.RecordId}, ttl 1800`,
    });
    expect(record).toMatchObject({ Value: NEW_IP, TTL: 1800, Line: "默认", Status: "ENABLE", Remark: "home router" });
    expect(fake.records("example.com", "home", "TXT")[0]).toMatchObject({ Value: "keep me", TTL: 600 });
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
    await client().writeRecord(target("home.example.com", known), OLD_IP);
    expect(actions()).toEqual([
      "DescribeDomainList",
      "DescribeRecordList",
      "ModifyRecord",
      "DescribeRecordList",
      "ModifyRecord",
    ]);
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
});

test("a missing record: a TTL below the plan's floor is refused in Tencent's words, not retried until the config changes; without one, the empty list (ResourceNotFound.NoDataOfRecord) means none and it is created with TTL 600 on the default line", async () => {
  fake.minTtl = TENCENT_FREE_PLAN_MIN_TTL;
  expect(await client().writeRecord(target("new.example.com", { ttl: 60 }), NEW_IP)).toEqual({
    ok: false,
    cause: "refused",
    stopRetrying: true,
    message:
      "Tencent Cloud DNSPod: The TTL value of the record exceeds the limit. (LimitExceeded.RecordTtlLimit, HTTP 200)",
  });
  const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
  const [record] = fake.records("example.com", "new", "A");
  expect(outcome).toMatchObject({
    action: "created",
    externalId: String(record!.RecordId),
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
  expect(record).toMatchObject({ Value: NEW_IP, TTL: 600, Line: "默认" });
});

test("the domain listing is followed page by page until AllTotal is reached", async () => {
  for (let i = 0; i < 150; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
  fake.addDomain("zz.org");
  expect(await client().writeRecord(target("home.zz.org"), NEW_IP)).toMatchObject({ ok: true, zoneId: "zz.org" });
  expect(fake.requests.filter((r) => r.headers["x-tc-action"] === "DescribeDomainList").map((r) => r.body)).toEqual([
    { Type: "ALL", Offset: 0, Limit: 100 },
    { Type: "ALL", Offset: 100, Limit: 100 },
  ]);
});

test("a domain listing without its counts is followed until a page comes back short", async () => {
  fake.countsLeftOut = true;
  for (let i = 0; i < 250; i++) fake.addDomain(`d${String(i).padStart(3, "0")}.net`);
  fake.addDomain("zz.org");
  expect(await client().writeRecord(target("home.zz.org"), NEW_IP)).toMatchObject({ ok: true, zoneId: "zz.org" });
  const offsets = fake.requests.filter((r) => r.headers["x-tc-action"] === "DescribeDomainList");
  expect(offsets.map((r) => (r.body as { Offset: number }).Offset)).toEqual([0, 100, 200]);
});

describe("failures keep Tencent's words and leave the record alone", () => {
  const SERVICE = "Tencent Cloud DNSPod";
  failureTests<FailureCase & { arrange: { fault?: TencentFault; secretId?: string; skew?: number } }>(
    [
      fails(
        { secretId: "AKIDunknown" },
        `${SERVICE}: The SecretId is not found, please ensure that your SecretId is correct. (AuthFailure.SecretIdNotFound, HTTP 200)`,
        "credentials",
        STOP,
      ),
      // A sub-user without the DNSPod permissions.
      fails(
        { fault: { code: "UnauthorizedOperation", message: "You are not authorized to perform this operation." } },
        `${SERVICE}: You are not authorized to perform this operation. (UnauthorizedOperation, HTTP 200)`,
        "credentials",
        STOP,
      ),
      // The keys are fine; the clock is more than five minutes off: no stop, it succeeds once the clock is right.
      fails(
        { skew: 600 },
        /^Tencent Cloud DNSPod: Signature expired\. .*\(AuthFailure\.SignatureExpire, HTTP 200\)$/,
        "refused",
      ),
      // Tencent's other "slow down" names no wait either: the updater decides the pause.
      fails(
        { fault: { code: "FailedOperation.FrequencyLimit", message: "您操作过于频繁，请稍后重试" } },
        `${SERVICE}: 您操作过于频繁，请稍后重试 (FailedOperation.FrequencyLimit, HTTP 200)`,
        "throttled",
      ),
    ],
    ({ arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      if (arrange.skew) fake.clockSkewSeconds = arrange.skew;
      return client(arrange.secretId).writeRecord(target("home.example.com", known), NEW_IP);
    },
    () => {
      // One request, no retry loop, nothing changed.
      expect(fake.requests).toHaveLength(1);
      expect(home()[0]).toMatchObject({ Value: OLD_IP, TTL: 1800 });
    },
  );

  test("a failing modification is reported; the record keeps its address and TTL", async () => {
    fake.fault(
      { code: "FailedOperation.DomainIsLocked", message: "You cannot perform this operation on a locked domain." },
      1,
      (r) => r.headers["x-tc-action"] === "ModifyRecord",
    );
    expect(await client().writeRecord(target("home.example.com", known), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: `${SERVICE}: You cannot perform this operation on a locked domain. (FailedOperation.DomainIsLocked, HTTP 200)`,
    });
    expect(home()[0]).toMatchObject({ Value: OLD_IP, TTL: 1800 });
  });
});
