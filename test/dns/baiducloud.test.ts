// The Baidu AI Cloud DNS client against the faithful fake: what it changes, what it keeps (TTL,
// description, line), how many requests it spends, and how every failure ends up as Baidu's own
// words. The BCE auth v1 signer is checked against the official JavaScript SDK's test vectors; the
// fake checks every request's signature with it.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { bceAuthorization } from "../../src/dns/services/baiducloud";
import { BAIDU_FAKE_AK, BAIDU_FAKE_SK, type BaiduFake, type BaiduFault, startBaiduFake } from "../fakes/baiducloud";
import { fails, failureTests, STOP, serviceClient, target, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

// Not useFake: a test sets the plan's minimum TTL, a field of the fake itself.
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
  fake.addRecord("example.com", { rr: "myhome", type: "A", value: "198.51.100.9", ttl: 600 });
});
afterEach(async () => {
  await fake.stop();
});

const client = (access_key_id = BAIDU_FAKE_AK) =>
  serviceClient("baiducloud", fake.url, { access_key_id, secret_access_key: BAIDU_FAKE_SK });

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.records("example.com", "home", "A");

// The vectors of the official JavaScript SDK's test (baidubce/bce-sdk-js, test/sdk/auth.spec.js,
// "generateAuthorization"): AK my_ak, SK my_sk, timestamp 1402639056.
const keys = { accessKeyId: "my_ak", secretAccessKey: "my_sk" };
const at = new Date(1402639056 * 1000);

test("the BCE auth v1 signer signs host and x-bce-* headers, the query sorted and empty values kept; the content headers, their values encoded", () => {
  const first = bceAuthorization(
    {
      method: "PUT",
      path: "/v1/bucket/object1",
      query: { A: null, b: "", C: "d" },
      headers: { Host: "bce.baidu.com", abc: "123", "x-bce-meta-key1": "ABC" },
    },
    keys,
    at,
  );
  expect(first).toBe(
    "bce-auth-v1/my_ak/2014-06-13T05:57:36Z/1800/host;x-bce-meta-key1/80c9672aca2ea9af4bb40b9a8ff458d72df94e97d550840727f3a929af271d25",
  );
  const second = bceAuthorization(
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
  expect(second).toBe(
    "bce-auth-v1/my_ak/2014-06-13T05:57:36Z/1800/content-length;content-type/c9386b15d585960ae5e6972f73ed92a9a682dc81025480ba5b41206d3e489822",
  );
});

test("verify: a valid access key is accepted, read-only, with the number of zones; signed over host and x-bce-date, never carrying the secret key", async () => {
  fake.addZone("other.org");
  expect(await client().verify()).toEqual({ ok: true, detail: "Access key accepted (2 zones)" });
  expect(requestLines()).toEqual(["GET /v1/dns/zone"]);
  const [request] = fake.requests;
  expect(request?.headers["x-bce-date"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(request?.headers.authorization).toMatch(
    new RegExp(`^bce-auth-v1/${BAIDU_FAKE_AK}/\\S+/1800/host;x-bce-date/[0-9a-f]{64}$`),
  );
  expect(JSON.stringify(fake.requests)).not.toContain(BAIDU_FAKE_SK);
});

test("an existing record: finds the zone, reads exactly this host record, and PUTs the address with the TTL and description it read; with the zone known, two requests", async () => {
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  const [record] = home();
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: record!.id,
    zoneId: "example.com",
    message: `Baidu Cloud DNS record ${record!.id}, ttl 1800`,
  });
  expect(record).toMatchObject({ value: NEW_IP, ttl: 1800, description: "home router", line: "ct" });
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
  await client().writeRecord(target("home.example.com", { zone_id: "example.com" }), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /v1/dns/zone",
    "GET /v1/dns/zone/example.com/record",
    `PUT /v1/dns/zone/example.com/record/${record!.id}`,
    "GET /v1/dns/zone/example.com/record",
    `PUT /v1/dns/zone/example.com/record/${record!.id}`,
  ]);
});

test("a missing record: the zone listing is followed marker by marker; the record is created with TTL 300 and its id read back", async () => {
  for (let i = 0; i < 1200; i++) fake.addZone(`d${String(i).padStart(4, "0")}.net`);
  fake.addZone("zz.org");
  const outcome = await client().writeRecord(target("new.zz.org"), NEW_IP);
  const [record] = fake.records("zz.org", "new", "A");
  expect(record).toMatchObject({ value: NEW_IP, ttl: 300, line: "default" });
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: record!.id,
    zoneId: "zz.org",
    message: `Baidu Cloud DNS record ${record!.id}, ttl 300`,
  });
  const listings = fake.requests.filter((r) => r.path === "/v1/dns/zone");
  expect(listings.map((r) => r.query.marker)).toEqual([undefined, "zone-001000"]);
  const post = fake.requests.find((r) => r.method === "POST");
  expect(post?.body).toEqual({ rr: "new", type: "A", value: NEW_IP, ttl: 300 });
  expect(requestLines().at(-1)).toBe("GET /v1/dns/zone/zz.org/record");
});

test("a missing record: a TTL under the plan's minimum is refused in Baidu's words, and not asked again until the config changes", async () => {
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

describe("failures keep Baidu's words and leave the record alone", () => {
  failureTests(
    [
      fails(
        { ak: "ALTAKunknown" },
        "Baidu Cloud DNS: The Access Key ID you provided does not exist in our records. (InvalidAccessKeyId, HTTP 403)",
        "credentials",
        STOP,
      ),
      // A user without the DNS permission; an account without the DNS service.
      fails(
        { fault: { status: 403, code: "AccessDenied", message: "Access denied." } },
        "Baidu Cloud DNS: Access denied. (AccessDenied, HTTP 403)",
        "credentials",
        STOP,
      ),
      fails(
        { fault: { status: 403, code: "OptInRequired", message: "A subscription for the service is required." } },
        "Baidu Cloud DNS: A subscription for the service is required. (OptInRequired, HTTP 403)",
        "credentials",
        STOP,
      ),
    ],
    ({ arrange }: { arrange: { fault?: BaiduFault; ak?: string } }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client(arrange.ak).writeRecord(target("home.example.com", { zone_id: "example.com" }), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()[0]).toMatchObject({ value: OLD_IP, ttl: 1800 });
    },
  );
});
