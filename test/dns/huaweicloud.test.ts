// The Huawei Cloud DNS client against the faithful fake: what it changes, what it keeps (TTL,
// description), how many requests it spends, and how every failure Huawei's DNS service or its API
// gateway can give ends up as Huawei's own words. The signature is checked against the official
// SDK's test vectors in test/unit/dns/huaweicloud-signer.test.ts; here the fake verifies every
// request's signature.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createHuaweiCloudApi } from "../../src/dns/services/huaweicloud";
import {
  HUAWEI_FAKE_AK,
  HUAWEI_FAKE_SK,
  type HuaweiFake,
  type HuaweiFault,
  startHuaweiFake,
} from "../fakes/huaweicloud";
import { target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: HuaweiFake;
let zoneId: string;

beforeEach(() => {
  fake = startHuaweiFake();
  zoneId = fake.addZone("example.com").id;
  fake.addRecordSet("example.com", {
    name: "home.example.com",
    type: "A",
    records: [OLD_IP],
    ttl: 1800,
    description: "home router",
  });
  fake.addRecordSet("example.com", { name: "example.com", type: "A", records: [OLD_IP], ttl: 3600 });
  fake.addRecordSet("example.com", { name: "myhome.example.com", type: "A", records: ["198.51.100.9"], ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { ak?: string; sk?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createHuaweiCloudApi(
      { access_key_id: options.ak ?? HUAWEI_FAKE_AK, secret_access_key: options.sk ?? HUAWEI_FAKE_SK },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.recordSets("example.com", "home.example.com", "A");

describe("verify", () => {
  test("a valid AK/SK is accepted, read-only, with the number of public zones", async () => {
    fake.addZone("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "Access key accepted (2 public zones)" });
    expect(requestLines()).toEqual(["GET /v2/zones"]);
    expect(fake.writes()).toBe(0);
  });

  test("each request is signed over host and X-Sdk-Date, never carrying the secret key", async () => {
    await client().verify();
    const [request] = fake.requests;
    expect(request?.headers["x-sdk-date"]).toMatch(/^\d{8}T\d{6}Z$/);
    expect(request?.headers.authorization).toStartWith(
      `SDK-HMAC-SHA256 Access=${HUAWEI_FAKE_AK}, SignedHeaders=host;x-sdk-date, Signature=`,
    );
    expect(JSON.stringify(fake.requests)).not.toContain(HUAWEI_FAKE_SK);
  });

  test("a wrong secret key is refused in the gateway's words", async () => {
    expect(await client({ sk: "wrong" }).verify()).toMatchObject({
      ok: false,
      detail:
        "Huawei Cloud DNS: Incorrect IAM authentication information: verify aksk signature fail (APIGW.0301, HTTP 401)",
    });
  });
});

describe("writeRecord on an existing record set", () => {
  test("finds the zone, reads exactly this set, and PUTs the address with the TTL it read", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const [set] = home();
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: set!.id,
      zoneId,
      message: `Huawei Cloud DNS record ${set!.id}, ttl 1800, pending update`,
    });
    expect(set).toMatchObject({ records: [NEW_IP], ttl: 1800, description: "home router" });
    expect(requestLines()).toEqual([
      "GET /v2/zones",
      "GET /v2/zones/" + zoneId + "/recordsets",
      `PUT /v2/zones/${zoneId}/recordsets/${set!.id}`,
    ]);
    expect(fake.requests[1]?.query).toEqual({
      name: "home.example.com.",
      type: "A",
      search_mode: "equal",
      limit: "100",
    });
    expect(fake.requests[2]?.body).toEqual({ name: "home.example.com.", type: "A", records: [NEW_IP], ttl: 1800 });
    // The set whose name merely contains this one's is untouched.
    expect(fake.recordSets("example.com", "myhome.example.com", "A")[0]?.records).toEqual(["198.51.100.9"]);
  });

  test("with the zone known, a change costs two requests", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: zoneId }), NEW_IP);
    expect(requestLines()).toEqual([
      `GET /v2/zones/${zoneId}/recordsets`,
      `PUT /v2/zones/${zoneId}/recordsets/${home()[0]!.id}`,
    ]);
  });
});

describe("writeRecord on a missing record set", () => {
  test("creates it with TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const [set] = fake.recordSets("example.com", "new.example.com", "A");
    expect(set).toMatchObject({ records: [NEW_IP], ttl: 300 });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: set!.id,
      zoneId,
      message: `Huawei Cloud DNS record ${set!.id}, ttl 300, pending create`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({ name: "new.example.com.", type: "A", records: [NEW_IP], ttl: 300 });
  });

  test("a zone given by id is named before a set is created in it, and must hold the name", async () => {
    const other = fake.addZone("other.org").id;
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: other }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(!outcome.ok && outcome.message).toContain("which does not hold new.example.com");
    expect(fake.writes()).toBe(0);
  });
});

describe("zone discovery", () => {
  test("the listing is followed page by page until total_count is reached", async () => {
    for (let i = 0; i < 600; i++) fake.addZone(`d${String(i).padStart(3, "0")}.net`);
    fake.addZone("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.requests.filter((r) => r.path === "/v2/zones").map((r) => [r.query.offset, r.query.limit])).toEqual([
      ["0", "500"],
      ["500", "500"],
    ]);
  });
});

describe("failures keep Huawei's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: HuaweiFault;
    ak?: string;
    sk?: string;
    message: string | RegExp;
    cause: FailureCause;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "unknown AK",
      ak: "HPUAUNKNOWN",
      message:
        "Huawei Cloud DNS: Incorrect IAM authentication information: ak HPUAUNKNOWN not exist (APIGW.0301, HTTP 401)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "wrong SK",
      sk: "wrong",
      message: /verify aksk signature fail \(APIGW\.0301, HTTP 401\)$/,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      // The gateway takes an X-Sdk-Date at most 15 minutes off its clock: the keys are fine, the clock is not.
      name: "a 401 naming an expired X-Sdk-Date is the clock, retried",
      fault: {
        status: 401,
        gateway: "APIGW.0301",
        message:
          "Incorrect IAM authentication information: the request has expired, x-sdk-date differs from the server time",
      },
      message: /x-sdk-date differs from the server time.*check this machine's clock.*\(APIGW\.0301, HTTP 401\)$/,
      cause: "refused",
    },
    {
      name: "a user without DNS permissions",
      fault: {
        status: 403,
        code: "DNS.0013",
        message: "You do not have the permission to perform this operation using the API.",
      },
      message:
        "Huawei Cloud DNS: You do not have the permission to perform this operation using the API. (DNS.0013, HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    // Both "slow down" answers name no wait: the updater decides the pause.
    {
      name: "DNS flow control (403)",
      fault: { status: 403, code: "DNS.0014" },
      message: "Huawei Cloud DNS: Request forbidden by flow control. (DNS.0014, HTTP 403)",
      cause: "throttled",
    },
    {
      name: "gateway throttling (429)",
      fault: { status: 429, gateway: "APIGW.0308" },
      message: /^Huawei Cloud DNS: The throttling threshold has been reached.* \(APIGW\.0308, HTTP 429\)$/,
      cause: "throttled",
    },
  ];
  for (const { name, fault, ak, sk, message, cause, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ ak, sk, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", { zone_id: zoneId }),
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
      expect(home()[0]).toMatchObject({ records: [OLD_IP], ttl: 1800 });
    });
  }

  test("a full record set quota stops retries without blaming the credentials", async () => {
    fake.fault(
      { status: 403, code: "DNS.0403", message: "Insufficient record set quota." },
      1,
      (r) => r.method === "POST",
    );
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: zoneId }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: "Huawei Cloud DNS: Insufficient record set quota. (DNS.0403, HTTP 403)",
    });
  });
});
