// The Route 53 client against the faithful fake (which checks every SigV4 signature): what it
// changes, what it keeps, how many requests it spends, what it refuses to touch, and how throttling
// and every other failure end up as Route 53's own words.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { FailureCause } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createRoute53Api } from "../../src/dns/services/route53";
import {
  ROUTE53_FAKE_ACCESS_KEY_ID,
  ROUTE53_FAKE_SECRET,
  type Route53Fake,
  type Route53Fault,
  type Route53Zone,
  startRoute53Fake,
} from "../fakes/route53";
import { target } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";
const BACKOFF = { firstDelayMs: 5, retries: 2 };

let fake: Route53Fake;
let zone: Route53Zone;

beforeEach(() => {
  fake = startRoute53Fake();
  zone = fake.addZone("example.com");
  fake.addSet(zone.id, { name: "home.example.com", type: "A", ttl: 1800, values: [OLD_IP] });
  fake.addSet(zone.id, { name: "example.com", type: "A", ttl: 600, values: [OLD_IP] });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { keyId?: string; secret?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createRoute53Api(
      {
        access_key_id: options.keyId ?? ROUTE53_FAKE_ACCESS_KEY_ID,
        secret_access_key: options.secret ?? ROUTE53_FAKE_SECRET,
      },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
      BACKOFF,
    ),
  );
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const home = () => fake.set("home.example.com", "A");
/** The one change batch sent, as text. */
const sentBatch = () => String(fake.requests.find((r) => r.method === "POST")?.body ?? "");

describe("verify", () => {
  test("a signed request with the right keys is accepted, read-only", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "Access key accepted (1 hosted zone)" });
    expect(requestLines()).toEqual(["GET /hostedzonecount"]);
    expect(fake.requests[0]?.headers.authorization).toStartWith(
      `AWS4-HMAC-SHA256 Credential=${ROUTE53_FAKE_ACCESS_KEY_ID}/`,
    );
    expect(fake.writes()).toBe(0);
  });

  const refusals: { name: string; keyId?: string; secret?: string; detail: string }[] = [
    {
      name: "a wrong secret",
      secret: "not-the-secret",
      detail:
        "Route 53: The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details. (SignatureDoesNotMatch, HTTP 403)",
    },
    {
      name: "an unknown key id",
      keyId: "AKIAUNKNOWN000000000",
      detail: "Route 53: The security token included in the request is invalid. (InvalidClientTokenId, HTTP 403)",
    },
  ];
  for (const { name, keyId, secret, detail } of refusals) {
    test(`${name} is refused in AWS's words`, async () => {
      expect(await client({ keyId, secret }).verify()).toMatchObject({ ok: false, detail });
    });
  }
});

describe("the secret access key", () => {
  test("never leaves the appliance: no request carries it, only signatures made with it", async () => {
    await client().writeRecord(target("home.example.com"), NEW_IP);
    await client({ secret: "wrong" }).verify();
    expect(fake.requests.length).toBeGreaterThan(3);
    for (const request of fake.requests) {
      expect(JSON.stringify([request.headers, request.query, request.body, request.path])).not.toContain(
        ROUTE53_FAKE_SECRET,
      );
    }
  });
});

describe("writeRecord on an existing record set", () => {
  test("finds the zone by name, reads the set, and UPSERTs the address with the TTL it read", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    const changeId = [...fake.changes.keys()][0];
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home.example.com./A",
      zoneId: zone.id,
      message: `Route 53 record home.example.com./A, ttl 1800, change ${changeId} pending`,
    });
    expect(home()).toEqual({ name: "home.example.com.", type: "A", ttl: 1800, values: [NEW_IP] });
    expect(requestLines()).toEqual([
      "GET /hostedzonesbyname",
      "GET /hostedzonesbyname",
      `GET /hostedzone/${zone.id}/rrset`,
      `POST /hostedzone/${zone.id}/rrset`,
    ]);
    expect(fake.requests.slice(0, 2).map((r) => r.query.dnsname)).toEqual(["home.example.com.", "example.com."]);
    expect(fake.requests[2]?.query).toEqual({ name: "home.example.com.", type: "A", maxitems: "1" });
    expect(sentBatch()).toContain(
      "<Action>UPSERT</Action><ResourceRecordSet><Name>home.example.com.</Name><Type>A</Type><TTL>1800</TTL><ResourceRecords><ResourceRecord><Value>203.0.113.7</Value></ResourceRecord></ResourceRecords></ResourceRecordSet>",
    );
    expect(fake.requests[3]?.headers["content-type"]).toBe("text/xml");
  });

  test("steady state (zone from config, even as /hostedzone/Z…): one read and one change", async () => {
    await client().writeRecord(target("home.example.com", { zone_id: `/hostedzone/${zone.id}` }), NEW_IP);
    expect(requestLines()).toEqual([`GET /hostedzone/${zone.id}/rrset`, `POST /hostedzone/${zone.id}/rrset`]);
  });

  test("a health check id on the set is sent back with it", async () => {
    fake.addSet(zone.id, { name: "hc.example.com", type: "A", ttl: 300, values: [OLD_IP], healthCheckId: "abcd-1234" });
    await client().writeRecord(target("hc.example.com", { zone_id: zone.id }), NEW_IP);
    expect(fake.set("hc.example.com", "A")).toMatchObject({ values: [NEW_IP], healthCheckId: "abcd-1234", ttl: 300 });
  });

  test("an external id (record sets have none) never redirects the write", async () => {
    await client().writeRecord(target("home.example.com", {}, { externalId: "example.com./A" }), NEW_IP);
    expect(home()?.values).toEqual([NEW_IP]);
    expect(fake.set("example.com", "A")?.values).toEqual([OLD_IP]);
  });

  test("AAAA is its own set; the same address written another way is already there", async () => {
    fake.addSet(zone.id, { name: "home.example.com", type: "AAAA", ttl: 300, values: ["2001:DB8::7"] });
    const outcome = await client().writeRecord(
      target("home.example.com", { zone_id: zone.id }, { recordType: "AAAA" }),
      "2001:db8:0::7",
    );
    expect(outcome.ok).toBe(true);
    expect(fake.writes()).toBe(0);
  });

  test("the read starts AT the name: the next set in order is not mistaken for this one", async () => {
    // "homf" sorts right after "home"; asked for home A (missing), Route 53 answers with homf's set.
    fake.zones.get(zone.id)!.sets = fake.zones.get(zone.id)!.sets.filter((s) => s.name !== "home.example.com.");
    fake.addSet(zone.id, { name: "homf.example.com", type: "A", ttl: 300, values: ["198.51.100.9"] });
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: zone.id }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.set("homf.example.com", "A")?.values).toEqual(["198.51.100.9"]);
    expect(home()).toMatchObject({ ttl: 300, values: [NEW_IP] });
  });

  test("a wildcard name comes back as \\052 and is recognised", async () => {
    fake.addSet(zone.id, { name: "*.example.com", type: "A", ttl: 120, values: [OLD_IP] });
    const outcome = await client().writeRecord(target("*.example.com", { zone_id: zone.id }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.set("*.example.com", "A")).toMatchObject({ ttl: 120, values: [NEW_IP] });
  });

  const leftAlone: { name: string; add: () => void; message: RegExp }[] = [
    {
      name: "several addresses",
      add: () =>
        fake.addSet(zone.id, { name: "rr.example.com", type: "A", ttl: 300, values: ["198.51.100.1", "198.51.100.2"] }),
      message: /^Route 53: rr\.example\.com A holds 2 addresses \(198\.51\.100\.1, 198\.51\.100\.2\)/,
    },
    {
      name: "an alias",
      add: () =>
        fake.addSet(zone.id, {
          name: "rr.example.com",
          type: "A",
          values: [],
          aliasTarget: { hostedZoneId: "Z2FDTNDATAQYW2", dnsName: "d111.cloudfront.net." },
        }),
      message: /is an alias or has a routing policy/,
    },
    {
      name: "a weighted set",
      add: () =>
        fake.addSet(zone.id, {
          name: "rr.example.com",
          type: "A",
          ttl: 60,
          values: [OLD_IP],
          setIdentifier: "blue",
          weight: 10,
        }),
      message: /is an alias or has a routing policy/,
    },
  ];
  for (const { name, add, message } of leftAlone) {
    test(`a set with ${name} is left alone and not retried`, async () => {
      add();
      const outcome = await client().writeRecord(target("rr.example.com", { zone_id: zone.id }), NEW_IP);
      expect(outcome).toMatchObject({ ok: false, cause: "refused" });
      if (!outcome.ok) expect(outcome.message).toMatch(message);
      expect(fake.writes()).toBe(0);
    });
  }
});

describe("writeRecord on a missing record set", () => {
  test("creates it with CREATE and TTL 300", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", externalId: "new.example.com./A", zoneId: zone.id });
    expect(fake.set("new.example.com", "A")).toMatchObject({ ttl: 300, values: [NEW_IP] });
    expect(sentBatch()).toContain("<Action>CREATE</Action>");
  });

  test("a set created by someone else meanwhile is not overwritten: Route 53's refusal", async () => {
    fake.fault({ delayMs: 0 }, 1, (r) => {
      if (r.method === "POST")
        fake.addSet(zone.id, { name: "new.example.com", type: "A", ttl: 60, values: ["198.51.100.50"] });
      return false;
    });
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: zone.id }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false });
    if (!outcome.ok)
      expect(outcome.message).toBe(
        "Route 53: Tried to create resource record set [name='new.example.com.', type='A'] but it already exists (InvalidChangeBatch, HTTP 400)",
      );
    expect(fake.set("new.example.com", "A")?.values).toEqual(["198.51.100.50"]);
  });

  test("a configured zone that does not hold the name gets no record", async () => {
    const other = fake.addZone("other.org");
    const outcome = await client().writeRecord(target("new.example.com", { zone_id: other.id }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: `Route 53: zone ${other.id} is other.org, which does not hold new.example.com; correct config.zone_id or remove it`,
    });
    expect(fake.writes()).toBe(0);
  });
});

describe("zone discovery", () => {
  test("an answer starting at a neighbour is no match (exact names only)", async () => {
    // Asked for "ample.com.", Route 53 starts at it and answers with example.com.'s neighbours.
    const outcome = await client().writeRecord(target("host.ample.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Route 53: no zone of this account holds host.ample.com",
    });
    expect(fake.writes()).toBe(0);
  });

  test("a configured zone that no longer exists is found afresh, once", async () => {
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: "ZGONE0000" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, zoneId: zone.id });
    expect(requestLines()[0]).toBe("GET /hostedzone/ZGONE0000/rrset");
    expect(home()?.values).toEqual([NEW_IP]);
  });
});

describe("throttling and failures", () => {
  test("Throttling is retried with backoff, a bounded number of times, then is a 'slow down' naming no wait", async () => {
    fake.fault({ status: 400, code: "Throttling" });
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: zone.id }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "throttled",
      message: "Route 53: Rate exceeded (Throttling, HTTP 400)",
    });
    expect(fake.requests).toHaveLength(3);
    const [first, second, third] = fake.requests.map((r) => r.receivedAt);
    // The second wait is longer than the first: backoff, not a tight loop.
    expect(second! - first!).toBeGreaterThanOrEqual(BACKOFF.firstDelayMs);
    expect(third! - second!).toBeGreaterThanOrEqual(BACKOFF.firstDelayMs * 2);
    expect(home()?.values).toEqual([OLD_IP]);
  });

  test("a throttle that passes is invisible: the write goes through", async () => {
    fake.fault({ status: 400, code: "Throttling" }, 1);
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: zone.id }), NEW_IP);
    expect(outcome.ok).toBe(true);
    expect(home()?.values).toEqual([NEW_IP]);
  });

  const cases: {
    name: string;
    fault?: Route53Fault;
    secret?: string;
    message: string | RegExp;
    cause: FailureCause;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "PriorRequestNotComplete: no retry now; a 'slow down' (the updater pauses the provider)",
      fault: {
        status: 400,
        code: "PriorRequestNotComplete",
        message: "The request was rejected because Route 53 was still processing a prior request.",
      },
      message:
        "Route 53: The request was rejected because Route 53 was still processing a prior request. (PriorRequestNotComplete, HTTP 400)",
      cause: "throttled",
    },
    {
      name: "access denied",
      fault: {
        status: 403,
        code: "AccessDenied",
        message: "User: arn:aws:iam::1:user/ddnsd is not authorized to perform: route53:ListResourceRecordSets",
      },
      message: /^Route 53: User: .* \(AccessDenied, HTTP 403\)$/,
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "internal error",
      fault: { status: 500, code: "InternalFailure", message: "An internal error occurred." },
      message: "Route 53: An internal error occurred. (InternalFailure, HTTP 500)",
      cause: "unreachable",
    },
  ];
  for (const { name, fault, secret, message, cause, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ secret, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", { zone_id: zone.id }),
        NEW_IP,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.cause).toBe(cause);
      expect(outcome.retryAfterSeconds).toBeUndefined();
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(fake.requests).toHaveLength(1);
      expect(home()?.values).toEqual([OLD_IP]);
    });
  }

  test("an invalid address is refused by Route 53 in its words, nothing applied", async () => {
    const outcome = await client().writeRecord(target("home.example.com", { zone_id: zone.id }), "2001:db8::1");
    expect(outcome).toMatchObject({ ok: false });
    if (!outcome.ok) expect(outcome.message).toContain("ARRDATAIllegalIPv4Address");
    expect(home()?.values).toEqual([OLD_IP]);
  });
});
