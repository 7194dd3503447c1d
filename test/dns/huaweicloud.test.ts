// The Huawei Cloud DNS client against the faithful fake: what it changes, what it keeps (TTL,
// description), how many requests it spends, and how every failure Huawei's DNS service or its API
// gateway can give ends up as Huawei's own words. The signature is checked against the official
// SDK's test vectors in test/unit/dns/huaweicloud-signer.test.ts; here the fake verifies every
// request's signature.

import { describe, expect, test } from "bun:test";
import { HUAWEI_FAKE_AK, HUAWEI_FAKE_SK, type HuaweiFault, startHuaweiFake } from "../fakes/huaweicloud";
import { fails, failureTests, STOP, serviceClient, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let zoneId: string;
const fake = useFake(startHuaweiFake, (fake) => {
  zoneId = fake.addZone("example.com").id;
  fake.addRecordSet("example.com", {
    name: "home.example.com",
    type: "A",
    records: [OLD_IP],
    ttl: 1800,
    description: "home router",
  });
  fake.addRecordSet("example.com", { name: "myhome.example.com", type: "A", records: ["198.51.100.9"], ttl: 600 });
});
const client = (access_key_id = HUAWEI_FAKE_AK) =>
  serviceClient("huaweicloud", fake.url, { access_key_id, secret_access_key: HUAWEI_FAKE_SK });

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.recordSets("example.com", "home.example.com", "A");

test("verify: a valid AK/SK is accepted, read-only, with the number of public zones; signed over host and X-Sdk-Date, never carrying the secret key", async () => {
  fake.addZone("other.org");
  expect(await client().verify()).toEqual({ ok: true, detail: "Access key accepted (2 public zones)" });
  expect(requestLines()).toEqual(["GET /v2/zones"]);
  const [request] = fake.requests;
  expect(request?.headers["x-sdk-date"]).toMatch(/^\d{8}T\d{6}Z$/);
  expect(request?.headers.authorization).toStartWith(
    `SDK-HMAC-SHA256 Access=${HUAWEI_FAKE_AK}, SignedHeaders=host;x-sdk-date, Signature=`,
  );
  expect(JSON.stringify(fake.requests)).not.toContain(HUAWEI_FAKE_SK);
});

test("an existing set: the zone found, exactly this set read, the address PUT with the TTL it read; with the zone known, two requests", async () => {
  const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
  const [set] = home();
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "updated",
    externalId: set!.id,
    zoneId,
    message: `Huawei Cloud DNS record ${set!.id}, ttl 1800, pending update`,
  });
  expect(set).toMatchObject({ records: [NEW_IP], ttl: 1800, description: "home router" });
  expect(fake.requests[1]?.query).toEqual({
    name: "home.example.com.",
    type: "A",
    search_mode: "equal",
    limit: "100",
  });
  expect(fake.requests[2]?.body).toEqual({ name: "home.example.com.", type: "A", records: [NEW_IP], ttl: 1800 });
  // The set whose name merely contains this one's is untouched.
  expect(fake.recordSets("example.com", "myhome.example.com", "A")[0]?.records).toEqual(["198.51.100.9"]);
  await client().writeRecord(target("home.example.com", { zone_id: zoneId }), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /v2/zones",
    `GET /v2/zones/${zoneId}/recordsets`,
    `PUT /v2/zones/${zoneId}/recordsets/${set!.id}`,
    `GET /v2/zones/${zoneId}/recordsets`,
    `PUT /v2/zones/${zoneId}/recordsets/${set!.id}`,
  ]);
});

test("a missing set: the zone listing followed page by page until total_count; the set created with TTL 300", async () => {
  for (let i = 0; i < 600; i++) fake.addZone(`d${String(i).padStart(3, "0")}.net`);
  const zz = fake.addZone("zz.org").id;
  const outcome = await client().writeRecord(target("new.zz.org"), NEW_IP);
  const [set] = fake.recordSets("zz.org", "new.zz.org", "A");
  expect(set).toMatchObject({ records: [NEW_IP], ttl: 300 });
  expect(withoutHeld(outcome)).toEqual({
    ok: true,
    action: "created",
    externalId: set!.id,
    zoneId: zz,
    message: `Huawei Cloud DNS record ${set!.id}, ttl 300, pending create`,
  });
  expect(fake.requests.at(-1)?.body).toEqual({ name: "new.zz.org.", type: "A", records: [NEW_IP], ttl: 300 });
  expect(fake.requests.filter((r) => r.path === "/v2/zones").map((r) => [r.query.offset, r.query.limit])).toEqual([
    ["0", "500"],
    ["500", "500"],
  ]);
});

describe("failures keep Huawei's words and leave the record alone", () => {
  failureTests(
    [
      fails(
        { ak: "HPUAUNKNOWN" },
        "Huawei Cloud DNS: Incorrect IAM authentication information: ak HPUAUNKNOWN not exist (APIGW.0301, HTTP 401)",
        "credentials",
        STOP,
      ),
      // The gateway takes an X-Sdk-Date at most 15 minutes off its clock: the keys are fine, the clock is not.
      fails(
        {
          fault: {
            status: 401,
            gateway: "APIGW.0301",
            message:
              "Incorrect IAM authentication information: the request has expired, x-sdk-date differs from the server time",
          },
        },
        /x-sdk-date differs from the server time.*check this machine's clock.*\(APIGW\.0301, HTTP 401\)$/,
        "refused",
      ),
      fails(
        {
          fault: {
            status: 403,
            code: "DNS.0013",
            message: "You do not have the permission to perform this operation using the API.",
          },
        },
        "Huawei Cloud DNS: You do not have the permission to perform this operation using the API. (DNS.0013, HTTP 403)",
        "credentials",
        STOP,
      ),
      // DNS flow control names no wait: the updater decides the pause.
      fails(
        { fault: { status: 403, code: "DNS.0014" } },
        "Huawei Cloud DNS: Request forbidden by flow control. (DNS.0014, HTTP 403)",
        "throttled",
      ),
    ],
    ({ arrange }: { arrange: { fault?: HuaweiFault; ak?: string } }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client(arrange.ak).writeRecord(target("home.example.com", { zone_id: zoneId }), NEW_IP);
    },
    () => {
      expect(fake.requests).toHaveLength(1);
      expect(home()[0]).toMatchObject({ records: [OLD_IP], ttl: 1800 });
    },
  );

  test("a full record set quota stops retries without blaming the credentials", async () => {
    fake.fault(
      { status: 403, code: "DNS.0403", message: "Insufficient record set quota." },
      1,
      (r) => r.method === "POST",
    );
    expect(await client().writeRecord(target("new.example.com", { zone_id: zoneId }), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      stopRetrying: true,
      message: "Huawei Cloud DNS: Insufficient record set quota. (DNS.0403, HTTP 403)",
    });
  });
});
