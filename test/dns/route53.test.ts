// The Route 53 client against the faithful fake (which checks every SigV4 signature): what it
// changes, what it keeps, how many requests it spends, what it refuses to touch, and how throttling
// and every other failure end up as Route 53's own words.

import { describe, expect, test } from "bun:test";
import { zoneClient } from "../../src/dns/reconcile";
import { createRoute53Api } from "../../src/dns/services/route53";
import { ROUTE53_FAKE_ACCESS_KEY_ID, ROUTE53_FAKE_SECRET, type Route53Fault, startRoute53Fake } from "../fakes/route53";
import { context, fails, failureTests, STOP, target, useFake, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const BACKOFF = { firstDelayMs: 5, retries: 2 };

const fake = useFake(startRoute53Fake, (fake) => {
  const zone = fake.addZone("example.com");
  fake.addSet(zone.id, { name: "home.example.com", type: "A", ttl: 1800, values: [OLD_IP] });
  fake.addSet(zone.id, { name: "example.com", type: "A", ttl: 600, values: [OLD_IP] });
});
/** The client with a short backoff between Throttling answers (the service's own is half a second and more). */
const client = (secret = ROUTE53_FAKE_SECRET) =>
  zoneClient(
    createRoute53Api(
      { access_key_id: ROUTE53_FAKE_ACCESS_KEY_ID, secret_access_key: secret },
      context(fake.url),
      BACKOFF,
    ),
  );
const zoneId = () => [...fake.zones.keys()][0]!;

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.set("home.example.com", "A");
/** The one change batch sent, as text. */
const sentBatch = () => String(fake.requests.find((r) => r.method === "POST")?.body ?? "");

test("verify: a signed request with the right keys is accepted, read-only", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "Access key accepted (1 hosted zone)" });
  expect(requestLines()).toEqual(["GET /hostedzonecount"]);
  expect(fake.requests[0]?.headers.authorization).toStartWith(
    `AWS4-HMAC-SHA256 Credential=${ROUTE53_FAKE_ACCESS_KEY_ID}/`,
  );
});

test("the secret access key never leaves the appliance: no request carries it, only signatures made with it", async () => {
  await client().writeRecord(target("home.example.com"), NEW_IP);
  await client("wrong").verify();
  expect(fake.requests.length).toBeGreaterThan(3);
  for (const request of fake.requests) {
    expect(JSON.stringify([request.headers, request.query, request.body, request.path])).not.toContain(
      ROUTE53_FAKE_SECRET,
    );
  }
});

describe("writeRecord on an existing record set", () => {
  test("finds the zone by name, reads the set, and UPSERTs the address with the TTL it read; then (zone from config, even as /hostedzone/Z…) one read and one change", async () => {
    const id = zoneId();
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const changeId = [...fake.changes.keys()][0];
    expect(withoutHeld(outcome)).toEqual({
      ok: true,
      action: "updated",
      externalId: "home.example.com./A",
      zoneId: id,
      message: `Route 53 record home.example.com./A, ttl 1800, change ${changeId} pending`,
    });
    expect(home()).toEqual({ name: "home.example.com.", type: "A", ttl: 1800, values: [NEW_IP] });
    expect(fake.requests.slice(0, 2).map((r) => r.query.dnsname)).toEqual(["home.example.com.", "example.com."]);
    expect(fake.requests[2]?.query).toEqual({ name: "home.example.com.", type: "A", maxitems: "1" });
    expect(sentBatch()).toContain(
      "<Action>UPSERT</Action><ResourceRecordSet><Name>home.example.com.</Name><Type>A</Type><TTL>1800</TTL><ResourceRecords><ResourceRecord><Value>203.0.113.7</Value></ResourceRecord></ResourceRecords></ResourceRecordSet>",
    );
    expect(fake.requests[3]?.headers["content-type"]).toBe("text/xml");
    await client().writeRecord(target("home.example.com", { zone_id: `/hostedzone/${id}` }), OLD_IP);
    expect(requestLines()).toEqual([
      "GET /hostedzonesbyname",
      "GET /hostedzonesbyname",
      `GET /hostedzone/${id}/rrset`,
      `POST /hostedzone/${id}/rrset`,
      `GET /hostedzone/${id}/rrset`,
      `POST /hostedzone/${id}/rrset`,
    ]);
  });

  test("a health check id on the set is sent back with it; a wildcard name comes back as \\052 and is recognised", async () => {
    const id = zoneId();
    fake.addSet(id, { name: "hc.example.com", type: "A", ttl: 300, values: [OLD_IP], healthCheckId: "abcd-1234" });
    fake.addSet(id, { name: "*.example.com", type: "A", ttl: 120, values: [OLD_IP] });
    await client().writeRecord(target("hc.example.com", { zone_id: id }), NEW_IP);
    expect(fake.set("hc.example.com", "A")).toMatchObject({ values: [NEW_IP], healthCheckId: "abcd-1234", ttl: 300 });
    const wildcard = await client().writeRecord(target("*.example.com", { zone_id: id }), NEW_IP);
    expect(wildcard).toMatchObject({ ok: true, action: "updated" });
    expect(fake.set("*.example.com", "A")).toMatchObject({ ttl: 120, values: [NEW_IP] });
  });

  test("an external id (record sets have none) never redirects the write", async () => {
    await client().writeRecord(target("home.example.com", {}, { externalId: "example.com./A" }), NEW_IP);
    expect(home()?.values).toEqual([NEW_IP]);
    expect(fake.set("example.com", "A")?.values).toEqual([OLD_IP]);
  });

  test("the read starts AT the name: the next set in order is not mistaken for this one; the missing set is made with CREATE and TTL 300", async () => {
    // "homf" sorts right after "home"; asked for home A (missing), Route 53 answers with homf's set.
    const zone = fake.zones.get(zoneId())!;
    zone.sets = zone.sets.filter((s) => s.name !== "home.example.com.");
    fake.addSet(zone.id, { name: "homf.example.com", type: "A", ttl: 300, values: ["198.51.100.9"] });
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: zone.id }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", externalId: "home.example.com./A", zoneId: zone.id });
    expect(sentBatch()).toContain("<Action>CREATE</Action>");
    expect(fake.set("homf.example.com", "A")?.values).toEqual(["198.51.100.9"]);
    expect(home()).toMatchObject({ ttl: 300, values: [NEW_IP] });
  });

  test("a set that is an alias, or weighted, is left alone and not retried", async () => {
    const alias = { hostedZoneId: "Z2FDTNDATAQYW2", dnsName: "d111.cloudfront.net." };
    fake.addSet(zoneId(), { name: "alias.example.com", type: "A", values: [], aliasTarget: alias });
    const weighted = { ttl: 60, values: [OLD_IP], setIdentifier: "blue", weight: 10 };
    fake.addSet(zoneId(), { name: "blue.example.com", type: "A", ...weighted });
    for (const name of ["alias.example.com", "blue.example.com"])
      expect(await client().writeRecord(target(name, { zone_id: zoneId() }), NEW_IP)).toMatchObject({
        ok: false,
        cause: "refused",
        message: expect.stringMatching(/is an alias or has a routing policy/),
      });
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on a missing record set", () => {
  test("a set created by someone else meanwhile is not overwritten: Route 53's refusal", async () => {
    fake.fault({ delayMs: 0 }, 1, (r) => {
      if (r.method === "POST")
        fake.addSet(zoneId(), { name: "new.example.com", type: "A", ttl: 60, values: ["198.51.100.50"] });
      return false;
    });
    expect(await client().writeRecord(target("new.example.com", { zone_id: zoneId() }), NEW_IP)).toMatchObject({
      ok: false,
      message:
        "Route 53: Tried to create resource record set [name='new.example.com.', type='A'] but it already exists (InvalidChangeBatch, HTTP 400)",
    });
    expect(fake.set("new.example.com", "A")?.values).toEqual(["198.51.100.50"]);
  });
});

test("zone discovery: an answer starting at a neighbour is no match (exact names only)", async () => {
  // Asked for "ample.com.", Route 53 starts at it and answers with example.com.'s neighbours.
  expect(await client().writeRecord(target("host.ample.com"), NEW_IP)).toEqual({
    ok: false,
    cause: "refused",
    message: "Route 53: no zone of this account holds host.ample.com",
  });
  expect(fake.writes()).toBe(0);
});

describe("throttling and failures", () => {
  test("Throttling is retried with backoff, a bounded number of times, then is a 'slow down' naming no wait; a throttle that passes is invisible", async () => {
    fake.fault({ status: 400, code: "Throttling" }, 1);
    expect((await client().writeRecord(target("home.example.com", { zone_id: zoneId() }), NEW_IP)).ok).toBe(true);
    expect(home()?.values).toEqual([NEW_IP]);
    fake.clearRequests();
    fake.fault({ status: 400, code: "Throttling" });
    expect(await client().writeRecord(target("home.example.com", { zone_id: zoneId() }), OLD_IP)).toEqual({
      ok: false,
      cause: "throttled",
      message: "Route 53: Rate exceeded (Throttling, HTTP 400)",
    });
    expect(fake.requests).toHaveLength(3);
    const [first, second, third] = fake.requests.map((r) => r.receivedAt);
    // The second wait is longer than the first: backoff, not a tight loop.
    expect(second! - first!).toBeGreaterThanOrEqual(BACKOFF.firstDelayMs);
    expect(third! - second!).toBeGreaterThanOrEqual(BACKOFF.firstDelayMs * 2);
    expect(home()?.values).toEqual([NEW_IP]);
  });

  const prior = "The request was rejected because Route 53 was still processing a prior request.";
  const denied = "User: arn:aws:iam::1:user/ddnsd is not authorized to perform: route53:ListResourceRecordSets";
  failureTests(
    [
      // No retry now; a "slow down" (the updater pauses the provider).
      fails(
        { status: 400, code: "PriorRequestNotComplete", message: prior },
        `Route 53: ${prior} (PriorRequestNotComplete, HTTP 400)`,
        "throttled",
      ),
      fails(
        { status: 403, code: "AccessDenied", message: denied },
        /^Route 53: User: .* \(AccessDenied, HTTP 403\)$/,
        "credentials",
        STOP,
      ),
      fails(
        { status: 500, code: "InternalFailure", message: "An internal error occurred." },
        "Route 53: An internal error occurred. (InternalFailure, HTTP 500)",
        "unreachable",
      ),
      // An invalid address: Route 53's refusal, nothing applied.
      fails(null, /ARRDATAIllegalIPv4Address/, "refused"),
    ],
    async ({ arrange }: { arrange: Route53Fault | null }) => {
      if (arrange) fake.fault(arrange);
      return client().writeRecord(target("home.example.com", { zone_id: zoneId() }), arrange ? NEW_IP : "2001:db8::1");
    },
    ({ arrange }) => {
      if (arrange) expect(fake.requests).toHaveLength(1);
      expect(home()?.values).toEqual([OLD_IP]);
    },
  );
});
