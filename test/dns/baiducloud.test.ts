// The Baidu AI Cloud DNS client against the faithful fake: what it changes, what it keeps (TTL,
// description, line), how many requests it spends, and how every failure ends up as Baidu's own
// words. The BCE auth v1 signer is checked against the official JavaScript SDK's test vectors; the
// fake checks every request's signature with it.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { bceAuthorization, createBaiduCloudApi } from "../../src/dns/services/baiducloud";
import { BAIDU_FAKE_AK, BAIDU_FAKE_SK, type BaiduFake, type BaiduFault, startBaiduFake } from "../fakes/baiducloud";
import { target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: BaiduFake;

beforeEach(() => {
  fake = startBaiduFake();
  fake.addZone("example.com");
  fake.addRecord("example.com", {
    rr: "home",
    type: "A",
    value: OLD_IP,
    ttl: 1800,
    description: "home router",
    line: "ct",
  });
  fake.addRecord("example.com", { rr: "@", type: "A", value: OLD_IP, ttl: 3600 });
  fake.addRecord("example.com", { rr: "myhome", type: "A", value: "198.51.100.9", ttl: 600 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { ak?: string; sk?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createBaiduCloudApi(
      { access_key_id: options.ak ?? BAIDU_FAKE_AK, secret_access_key: options.sk ?? BAIDU_FAKE_SK },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");

describe("the BCE auth v1 signer", () => {
  // The vectors of the official JavaScript SDK's test (baidubce/bce-sdk-js, test/sdk/auth.spec.js,
  // "generateAuthorization"): AK my_ak, SK my_sk, timestamp 1402639056.
  const keys = { accessKeyId: "my_ak", secretAccessKey: "my_sk" };
  const at = new Date(1402639056 * 1000);

  test("signs host and x-bce-* headers, with the query sorted and empty values kept", () => {
    const authorization = bceAuthorization(
      {
        method: "PUT",
        path: "/v1/bucket/object1",
        query: { A: null, b: "", C: "d" },
        headers: { Host: "bce.baidu.com", abc: "123", "x-bce-meta-key1": "ABC" },
      },
      keys,
      at,
    );
    expect(authorization).toBe(
      "bce-auth-v1/my_ak/2014-06-13T05:57:36Z/1800/host;x-bce-meta-key1/80c9672aca2ea9af4bb40b9a8ff458d72df94e97d550840727f3a929af271d25",
    );
  });

  test("signs the content headers, their values encoded", () => {
    const authorization = bceAuthorization(
      {
        method: "DELETE",
        path: "/v1/test-bucket1361199862",
        query: {},
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Content-Length": "0",
          "User-Agent": "This is the user-agent",
        },
      },
      keys,
      at,
      1800,
    );
    expect(authorization).toBe(
      "bce-auth-v1/my_ak/2014-06-13T05:57:36Z/1800/content-length;content-type/c9386b15d585960ae5e6972f73ed92a9a682dc81025480ba5b41206d3e489822",
    );
  });
});

describe("verify", () => {
  test("a valid access key is accepted, read-only, with the number of zones", async () => {
    fake.addZone("other.org");
    expect(await client().verify()).toEqual({ ok: true, detail: "Access key accepted (2 zones)" });
    expect(requestLines()).toEqual(["GET /v1/dns/zone"]);
    expect(fake.writes()).toBe(0);
  });

  test("each request is signed over host and x-bce-date, never carrying the secret key", async () => {
    await client().verify();
    const [request] = fake.requests;
    expect(request?.headers["x-bce-date"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(request?.headers.authorization).toMatch(
      new RegExp(`^bce-auth-v1/${BAIDU_FAKE_AK}/\\S+/1800/host;x-bce-date/[0-9a-f]{64}$`),
    );
    expect(JSON.stringify(fake.requests)).not.toContain(BAIDU_FAKE_SK);
  });
});

describe("writeRecord on an existing record", () => {
  test("finds the zone, reads exactly this host record, and PUTs the address with the TTL and description it read", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const [record] = home();
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: record!.id,
      zoneId: "example.com",
      message: `Baidu Cloud DNS record ${record!.id}, ttl 1800`,
    });
    expect(record).toMatchObject({ value: NEW_IP, ttl: 1800, description: "home router", line: "ct" });
    expect(requestLines()).toEqual([
      "GET /v1/dns/zone",
      "GET /v1/dns/zone/example.com/record",
      `PUT /v1/dns/zone/example.com/record/${record!.id}`,
    ]);
    expect(fake.requests[1]?.query).toEqual({ rr: "home", maxKeys: "1000" });
    expect(fake.requests[2]?.body).toEqual({
      rr: "home",
      type: "A",
      value: NEW_IP,
      ttl: 1800,
      description: "home router",
    });
    // The record whose host record merely contains this one's is untouched.
    expect(fake.records("example.com", "myhome", "A")[0]?.value).toBe("198.51.100.9");
  });

  test("with the zone known, a change costs two requests", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /v1/dns/zone/example.com/record",
      `PUT /v1/dns/zone/example.com/record/${home()[0]!.id}`,
    ]);
  });

  test("a name with a record on each of two lines is left alone", async () => {
    fake.addRecord("example.com", { rr: "home", type: "A", value: "198.51.100.2", line: "cnc" });
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "refused" });
    expect(!outcome.ok && outcome.message).toContain("holds 2 addresses");
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on a missing record", () => {
  test("creates it with TTL 300 and reads its id back", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const [record] = fake.records("example.com", "new", "A");
    expect(record).toMatchObject({ value: NEW_IP, ttl: 300, line: "default" });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: record!.id,
      zoneId: "example.com",
      message: `Baidu Cloud DNS record ${record!.id}, ttl 300`,
    });
    const post = fake.requests.find((r) => r.method === "POST");
    expect(post?.body).toEqual({ rr: "new", type: "A", value: NEW_IP, ttl: 300 });
    expect(requestLines().at(-1)).toBe("GET /v1/dns/zone/example.com/record");
  });

  test("at the apex, with the TTL from config", async () => {
    fake.zones.set("example.com", []);
    await client().writeRecord(target("example.com", { ttl: 7200 }), NEW_IP);
    expect(fake.records("example.com", "@", "A")[0]).toMatchObject({ value: NEW_IP, ttl: 7200 });
  });

  test("a TTL under the plan's minimum is refused in Baidu's words, and not asked again until the config changes", async () => {
    fake.minTtl = 300;
    const outcome = await client().writeRecord(target("new.example.com", { ttl: 60 }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: "Baidu Cloud DNS: The ttl must be an integer no less than 300. (InappropriateJSON, HTTP 400)",
    });
    expect(fake.records("example.com", "new", "A")).toEqual([]);
  });
});

describe("zone discovery", () => {
  test("the zone listing is followed marker by marker", async () => {
    for (let i = 0; i < 1200; i++) fake.addZone(`d${String(i).padStart(4, "0")}.net`);
    fake.addZone("zz.org");
    const outcome = await client().writeRecord(target("home.zz.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "zz.org" });
    const listings = fake.requests.filter((r) => r.path === "/v1/dns/zone");
    expect(listings.map((r) => r.query.marker)).toEqual([undefined, "zone-001000"]);
  });
});

describe("failures keep Baidu's words and leave the record alone", () => {
  const cases: {
    name: string;
    fault?: BaiduFault;
    ak?: string;
    sk?: string;
    message: string | RegExp;
    cause: FailureCause;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "unknown AK",
      ak: "ALTAKunknown",
      message:
        "Baidu Cloud DNS: The Access Key ID you provided does not exist in our records. (InvalidAccessKeyId, HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "wrong SK",
      sk: "wrong",
      message: /\(SignatureDoesNotMatch, HTTP 400\)$/,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "a user without the DNS permission",
      fault: { status: 403, code: "AccessDenied", message: "Access denied." },
      message: "Baidu Cloud DNS: Access denied. (AccessDenied, HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "an account without the DNS service",
      fault: { status: 403, code: "OptInRequired", message: "A subscription for the service is required." },
      message: "Baidu Cloud DNS: A subscription for the service is required. (OptInRequired, HTTP 403)",
      cause: "credentials",
      stopRetrying: true,
    },
    // Baidu names no wait: the updater decides the pause.
    {
      name: "slow down (429)",
      fault: { status: 429, code: "RequestRateLimitExceeded" },
      message: "Baidu Cloud DNS: Too many requests, please slow down. (RequestRateLimitExceeded, HTTP 429)",
      cause: "throttled",
    },
  ];
  for (const { name, fault, ak, sk, message, cause, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ ak, sk, timeoutMs: 1000 }).writeRecord(
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
      expect(home()[0]).toMatchObject({ value: OLD_IP, ttl: 1800 });
    });
  }
});
