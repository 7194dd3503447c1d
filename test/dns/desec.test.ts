// The deSEC client (its primitives under the reconciler) against its fake: what it changes and
// keeps, that it never rewrites what is there, how the domain is found (deSEC's own split), the apex
// spelled two ways, and how deSEC's errors and throttling (waits that may be hours) reach the
// history with their cause. The policy is tested in test/unit/dns/reconcile.test.ts.

import { describe, expect, test } from "bun:test";
import { Pacer } from "../../src/dns/pacing";
import { desec } from "../../src/dns/services/desec";
import { DESEC_FAKE_TOKEN, type DesecFault, startDesecFake } from "../fakes/desec";
import { fails, failureTests, serviceClient, target, useFake, waits, withoutHeld } from "./support";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

const fake = useFake(startDesecFake, (fake) => {
  fake.addDomain("example.com");
  fake.addRRset("example.com", { subname: "home", type: "A", records: [OLD_IP], ttl: 7200 });
});
const client = () => serviceClient("desec", fake.url, { token: DESEC_FAKE_TOKEN });
const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);
const known = { zone_id: "example.com" };

describe("the service description", () => {
  test("credentials, TTL rule and defaults as docs/services/README.md and docs/services/desec.md say", () => {
    expect(desec.credentials.map((c) => [c.key, c.secret])).toEqual([["token", true]]);
    expect(desec.recordTypes).toEqual(["A", "AAAA"]);
    expect(desec.ttl).toMatchObject({ min: 3600, max: 86400 });
    expect(desec.defaultApiUrl).toBe("https://desec.io/api/v1");
  });

  test("paced, 1,000 changed records in one domain stay under every documented limit: none is answered 429", async () => {
    // The real Pacer on a clock that moves only when a request waits; every write follows its read.
    let now = 0;
    const pacer = new Pacer({ now: () => now, sleep: async (ms) => void (now += ms) });
    const starts: { at: number; write: boolean }[] = [];
    const paced = pacer.fetchFor(
      1,
      desec.rateLimits,
      async (_input, init) => {
        starts.push({ at: now, write: init?.method === "PATCH" });
        return new Response("{}");
      },
      10_000,
    );
    for (let record = 0; record < 1000; record++) {
      await paced("http://127.0.0.1/read", { method: "GET" });
      await paced("http://127.0.0.1/write", { method: "PATCH" });
    }
    /** The most of these start times within any `seconds` (a sliding window, as deSEC counts). */
    const mostWithin = (times: number[], seconds: number) => {
      let most = 0;
      for (let first = 0, last = 0; last < times.length; last++) {
        while (times[first]! <= times[last]! - seconds * 1000) first++;
        most = Math.max(most, last - first + 1);
      }
      return most;
    };
    const all = starts.map((s) => s.at);
    const writes = starts.filter((s) => s.write).map((s) => s.at);
    // docs/services/desec.md: RRset writes 2/s, 15/min, 100/h, 300/day per domain; reads 10/s, 50/min; 2000/day per user.
    // Writes per second, minute, hour, day: the hourly and daily limits are reached, never passed.
    expect([1, 60, 3600, 86_400].map((seconds) => mostWithin(writes, seconds))).toEqual([1, 12, 100, 300]);
    // Requests per second, minute, day.
    expect([1, 60, 86_400].map((seconds) => mostWithin(all, seconds))).toEqual([1, 24, 600]);
    // And no slower than the daily limit makes it: the last of the 1,000 writes goes on the fourth day.
    expect(Math.floor(writes.at(-1)! / 86_400_000)).toBe(3);
  });
});

test("verify: a good token reads the account, with Authorization: Token", async () => {
  expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (account owner@example.net)" });
  expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/auth/account/" });
  expect(fake.requests[0]?.headers.authorization).toBe(`Token ${DESEC_FAKE_TOKEN}`);
});

test("an existing RRset: finds the domain with owns_qname, reads the RRset, PATCHes only its records; the TTL stays; then one read and one PATCH", async () => {
  expect(withoutHeld(await client().writeRecord(target("home.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "updated",
    externalId: "home/A",
    zoneId: "example.com",
    message: "deSEC record home/A, ttl 7200",
  });
  expect(fake.rrset("example.com", "home", "A")).toMatchObject({ records: [NEW_IP], ttl: 7200 });
  expect(fake.requests[0]?.query).toEqual({ owns_qname: "home.example.com" });
  expect(fake.requests[2]?.body).toEqual({ records: [NEW_IP] });
  await client().writeRecord(target("home.example.com", known, { externalId: "home/A" }), OLD_IP);
  expect(requestLines()).toEqual([
    "GET /domains/",
    "GET /domains/example.com/rrsets/home/A/",
    "PATCH /domains/example.com/rrsets/home/A/",
    "GET /domains/example.com/rrsets/home/A/",
    "PATCH /domains/example.com/rrsets/home/A/",
  ]);
});

test('a missing RRset is created with the domain\'s minimum TTL, and a lower minimum (granted on request) where the domain has one; the apex as subname "", the wildcard as *', async () => {
  expect(withoutHeld(await client().writeRecord(target("new.example.com"), NEW_IP))).toEqual({
    ok: true,
    action: "created",
    externalId: "new/A",
    zoneId: "example.com",
    message: "deSEC record new/A, ttl 3600",
  });
  expect(fake.requests.at(-1)).toMatchObject({
    method: "POST",
    path: "/domains/example.com/rrsets/",
    body: { subname: "new", type: "A", ttl: 3600, records: [NEW_IP] },
  });
  fake.addDomain("low.org", 60);
  await client().writeRecord(target("x.low.org"), NEW_IP);
  expect(fake.rrset("low.org", "x", "A")?.ttl).toBe(60);
  // The apex with subname "" in the body (deSEC refuses @ there); the wildcard as * in the URL and the body.
  expect(await client().writeRecord(target("example.com"), NEW_IP)).toMatchObject({ ok: true, externalId: "@/A" });
  expect(fake.requests.at(-1)?.body).toMatchObject({ subname: "" });
  expect(fake.rrset("example.com", "", "A")?.records).toEqual([NEW_IP]);
  fake.clearRequests();
  expect(await client().writeRecord(target("*.example.com"), NEW_IP)).toMatchObject({ ok: true, externalId: "*/A" });
  expect(requestLines()[1]).toBe("GET /domains/example.com/rrsets/*/A/");
  expect(fake.rrset("example.com", "*", "A")?.records).toEqual([NEW_IP]);
});

describe("failures keep deSEC's words, say their cause and leave the RRset alone", () => {
  type Arrange = { fault?: DesecFault; ip?: string; hostname?: string; config?: { zone_id: string; ttl?: number } };
  failureTests(
    [
      fails(
        { ip: "2001:db8::7" },
        "deSEC: records: Record content for type A malformed: 2001:db8::7 (HTTP 400)",
        "refused",
      ),
      fails(
        { hostname: "new.example.com", config: { ...known, ttl: 600 } },
        "deSEC: ttl: Ensure this value is greater than or equal to 3600. (HTTP 400)",
        "refused",
      ),
      // A zone_id the account does not have: deSEC's 404, nothing created.
      fails(
        { hostname: "x.home.example.com", config: { zone_id: "home.example.com" } },
        "deSEC: Not found. (HTTP 404)",
        "refused",
      ),
      // Passed on as deSEC named it: the updater caps the pause at an hour and says so.
      fails(
        { fault: { status: 429, retryAfter: 50_000 } },
        "deSEC: Request was throttled. Expected available in 50000 seconds. (HTTP 429)",
        "throttled",
        waits(50_000),
      ),
      // No wait named: the client invents none; the updater decides.
      fails({ fault: { status: 429, detail: "Slow down." } }, "deSEC: Slow down. (HTTP 429)", "throttled"),
    ],
    async ({ arrange }: { arrange: Arrange }) => {
      if (arrange.fault) fake.fault(arrange.fault);
      return client().writeRecord(
        target(arrange.hostname ?? "home.example.com", arrange.config ?? known),
        arrange.ip ?? NEW_IP,
      );
    },
    ({ arrange }: { arrange: Arrange }) => {
      expect(fake.rrset("example.com", "home", "A")?.records).toEqual([OLD_IP]);
      expect(fake.rrset("example.com", "new", "A")).toBeUndefined();
      // Throttled: a single request, no retry inside the client.
      if (arrange.fault) expect(fake.requests).toHaveLength(1);
    },
  );

  test("the per-domain write limit: the second quick write to a domain is told to wait, the first went through", async () => {
    fake.writeLimits = [{ count: 1, perSeconds: 60 }];
    fake.addRRset("example.com", { subname: "nas", type: "A", records: [OLD_IP] });
    expect((await client().writeRecord(target("home.example.com", known), NEW_IP)).ok).toBe(true);
    const second = await client().writeRecord(target("nas.example.com", known), NEW_IP);
    expect(second).toMatchObject({ ok: false, cause: "throttled", retryAfterSeconds: 60 });
    expect(fake.rrset("example.com", "nas", "A")?.records).toEqual([OLD_IP]);
  });
});

describe("the fake plays deSEC", () => {
  const call = (method: string, path: string, body?: unknown) =>
    fetch(fake.url + path, {
      method,
      headers: { Authorization: `Token ${DESEC_FAKE_TOKEN}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: r.status === 204 ? null : ((await r.json()) as unknown) }));

  test("PATCH with records [] deletes the RRset (204): why the client never sends an empty list", async () => {
    expect((await call("PATCH", "/domains/example.com/rrsets/home/A/", { records: [] })).status).toBe(204);
    expect(fake.rrset("example.com", "home", "A")).toBeUndefined();
  });

  test("@ is refused as a subname in a body, a duplicate create is a 400, PUT needs every field; the apex reads as @ and as ...", async () => {
    const required = ["This field is required."];
    const create = (subname: string) =>
      call("POST", "/domains/example.com/rrsets/", { subname, type: "A", ttl: 3600, records: [NEW_IP] });
    expect((await create("@")).status).toBe(400);
    expect((await create("home")).status).toBe(400);
    expect(await call("PUT", "/domains/example.com/rrsets/home/A/", { records: [NEW_IP] })).toEqual({
      status: 400,
      body: { subname: required, type: required, ttl: required },
    });
    fake.addRRset("example.com", { subname: "", type: "A", records: [OLD_IP] });
    expect((await call("GET", "/domains/example.com/rrsets/@/A/")).body).toMatchObject({
      name: "example.com.",
      subname: "",
    });
    expect((await call("GET", "/domains/example.com/rrsets/.../A/")).status).toBe(200);
  });
});
