// The deSEC client (its primitives under the reconciler) against its fake: what it changes and
// keeps, that it never rewrites what is there, how the domain is found (deSEC's own split), the apex
// spelled two ways, and how deSEC's errors and throttling (waits that may be hours) reach the
// history with their cause. The policy is tested in test/unit/dns/reconcile.test.ts.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Pacer } from "../../src/dns/pacing";
import type { RecordConfig, RecordTarget } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createDesecApi, desec } from "../../src/dns/services/desec";
import { DESEC_FAKE_TOKEN, type DesecFake, type DesecFault, startDesecFake } from "../fakes/desec";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: DesecFake;

beforeEach(() => {
  fake = startDesecFake();
  fake.addDomain("example.com");
  fake.addRRset("example.com", { subname: "home", type: "A", records: [OLD_IP], ttl: 7200 });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createDesecApi(
      { token: options.token ?? DESEC_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

function target(hostname: string, fields: Partial<RecordTarget> = {}, config: RecordConfig = {}): RecordTarget {
  return { hostname, recordType: "A", externalId: null, config, ...fields };
}

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);

describe("the service description", () => {
  test("credentials, TTL rule and defaults as docs/services/README.md and docs/services/desec.md say", () => {
    expect(desec.type).toBe("desec");
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

describe("verify", () => {
  test("a good token reads the account, with Authorization: Token", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "Token accepted (account owner@example.net)" });
    expect(fake.requests[0]).toMatchObject({ method: "GET", path: "/auth/account/" });
    expect(fake.requests[0]?.headers.authorization).toBe(`Token ${DESEC_FAKE_TOKEN}`);
    expect(fake.writes()).toBe(0);
  });

  test("a bad token: deSEC's words, and retrying cannot help", async () => {
    expect(await client({ token: "revoked" }).verify()).toMatchObject({
      ok: false,
      detail: "deSEC: Invalid token. (HTTP 401)",
    });
  });
});

describe("writeRecord on an existing RRset", () => {
  test("finds the domain with owns_qname, reads the RRset, PATCHes only its records; the TTL stays", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: "home/A",
      zoneId: "example.com",
      message: "deSEC record home/A, ttl 7200",
    });
    expect(fake.rrset("example.com", "home", "A")).toMatchObject({ records: [NEW_IP], ttl: 7200 });
    expect(requestLines()).toEqual([
      "GET /domains/",
      "GET /domains/example.com/rrsets/home/A/",
      "PATCH /domains/example.com/rrsets/home/A/",
    ]);
    expect(fake.requests[0]?.query).toEqual({ owns_qname: "home.example.com" });
    expect(fake.requests[2]?.body).toEqual({ records: [NEW_IP] });
  });

  test("the steady state (domain from config.zone_id) is one read and one PATCH", async () => {
    const outcome = await client().writeRecord(
      target("home.example.com", { externalId: "home/A" }, { zone_id: "example.com" }),
      NEW_IP,
    );
    expect(outcome.ok).toBe(true);
    expect(requestLines()).toEqual([
      "GET /domains/example.com/rrsets/home/A/",
      "PATCH /domains/example.com/rrsets/home/A/",
    ]);
  });

  test("an RRset that already holds the address is read, never written", async () => {
    const outcome = await client().writeRecord(target("home.example.com", {}, { zone_id: "example.com" }), OLD_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "unchanged",
      externalId: "home/A",
      zoneId: "example.com",
      message: "deSEC record home/A, ttl 7200",
    });
    expect(requestLines()).toEqual(["GET /domains/example.com/rrsets/home/A/"]);
  });

  test("the address held with another ttl than the config's: the PATCH sends the ttl, the records stay", async () => {
    const outcome = await client().writeRecord(
      target("home.example.com", {}, { zone_id: "example.com", ttl: 3600 }),
      OLD_IP,
    );
    expect(outcome).toMatchObject({ ok: true, action: "updated", message: "deSEC record home/A, ttl 3600" });
    expect(fake.rrset("example.com", "home", "A")).toMatchObject({ records: [OLD_IP], ttl: 3600 });
  });
});

describe("writeRecord on a missing RRset", () => {
  test("creates it with the domain's minimum TTL", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    expect(outcome).toEqual({
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
  });

  test("a domain with a lower minimum TTL (granted on request) gets it", async () => {
    fake.addDomain("low.org", 60);
    await client().writeRecord(target("x.low.org"), NEW_IP);
    expect(fake.rrset("low.org", "x", "A")?.ttl).toBe(60);
  });

  test('the apex is created with subname "" in the body (deSEC refuses @ there)', async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", externalId: "@/A" });
    expect(fake.requests.at(-1)?.body).toMatchObject({ subname: "" });
    expect(fake.rrset("example.com", "", "A")?.records).toEqual([NEW_IP]);
  });

  test("the wildcard is * in the URL and in the body", async () => {
    const outcome = await client().writeRecord(target("*.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", externalId: "*/A" });
    expect(requestLines()[1]).toBe("GET /domains/example.com/rrsets/*/A/");
    expect(fake.rrset("example.com", "*", "A")?.records).toEqual([NEW_IP]);
  });

  test("a TTL under the domain's minimum: deSEC's field error", async () => {
    const outcome = await client().writeRecord(
      target("new.example.com", {}, { zone_id: "example.com", ttl: 600 }),
      NEW_IP,
    );
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "deSEC: ttl: Ensure this value is greater than or equal to 3600. (HTTP 400)",
    });
  });
});

describe("domain discovery", () => {
  test("a config.zone_id that does not hold the hostname is refused without a request", async () => {
    expect(await client().writeRecord(target("home.example.com", {}, { zone_id: "example.org" }), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "deSEC: config.zone_id example.org does not hold home.example.com; correct config.zone_id or remove it",
    });
    expect(fake.requests).toHaveLength(0);
  });

  test("a config.zone_id the account does not have: deSEC's 404, nothing created", async () => {
    fake.addDomain("home.example.com");
    fake.domains.delete("home.example.com");
    const outcome = await client().writeRecord(target("home.example.com", {}, { zone_id: "home.example.com" }), NEW_IP);
    expect(outcome).toEqual({ ok: false, cause: "refused", message: "deSEC: Not found. (HTTP 404)" });
  });
});

describe("failures keep deSEC's words, say their cause and leave the RRset alone", () => {
  const cases: {
    name: string;
    fault?: DesecFault;
    token?: string;
    ip?: string;
    message: string | RegExp;
    cause: string;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "an address of the wrong family",
      ip: "2001:db8::7",
      message: "deSEC: records: Record content for type A malformed: 2001:db8::7 (HTTP 400)",
      cause: "refused",
    },
    {
      name: "429 with a short Retry-After",
      fault: { status: 429, retryAfter: 2 },
      message: "deSEC: Request was throttled. Expected available in 2 seconds. (HTTP 429)",
      cause: "throttled",
      retryAfterSeconds: 2,
    },
    // Passed on as deSEC named it: the updater caps the pause at an hour and says so.
    {
      name: "429 of a daily limit",
      fault: { status: 429, retryAfter: 50_000 },
      message: "deSEC: Request was throttled. Expected available in 50000 seconds. (HTTP 429)",
      cause: "throttled",
      retryAfterSeconds: 50_000,
    },
    // No wait named: the client invents none; the updater decides.
    {
      name: "429 without Retry-After",
      fault: { status: 429, detail: "Slow down." },
      message: "deSEC: Slow down. (HTTP 429)",
      cause: "throttled",
    },
  ];
  for (const { name, fault, token, ip, message, cause, retryAfterSeconds, stopRetrying } of cases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ token, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", {}, { zone_id: "example.com" }),
        ip ?? NEW_IP,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.cause).toBe(cause as never);
      expect(outcome.retryAfterSeconds).toBe(retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(fake.rrset("example.com", "home", "A")?.records).toEqual([OLD_IP]);
    });
  }

  test("throttled: a single request, no retry inside the client", async () => {
    fake.fault({ status: 429, retryAfter: 30 });
    await client().writeRecord(target("home.example.com", {}, { zone_id: "example.com" }), NEW_IP);
    expect(fake.requests).toHaveLength(1);
  });

  test("the per-domain write limit: the second quick write to a domain is told to wait, the first went through", async () => {
    fake.writeLimits = [{ count: 1, perSeconds: 60 }];
    fake.addRRset("example.com", { subname: "nas", type: "A", records: [OLD_IP] });
    expect((await client().writeRecord(target("home.example.com", {}, { zone_id: "example.com" }), NEW_IP)).ok).toBe(
      true,
    );
    const second = await client().writeRecord(target("nas.example.com", {}, { zone_id: "example.com" }), NEW_IP);
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

  test("@ is refused as a subname in a body; a duplicate create is a 400", async () => {
    expect(
      (await call("POST", "/domains/example.com/rrsets/", { subname: "@", type: "A", ttl: 3600, records: [NEW_IP] }))
        .status,
    ).toBe(400);
    const duplicate = await call("POST", "/domains/example.com/rrsets/", {
      subname: "home",
      type: "A",
      ttl: 3600,
      records: [NEW_IP],
    });
    expect(duplicate.status).toBe(400);
  });

  test("the apex reads as @ and as ...", async () => {
    fake.addRRset("example.com", { subname: "", type: "A", records: [OLD_IP] });
    expect((await call("GET", "/domains/example.com/rrsets/@/A/")).body).toMatchObject({
      name: "example.com.",
      subname: "",
    });
    expect((await call("GET", "/domains/example.com/rrsets/.../A/")).status).toBe(200);
  });

  test("reset() empties the service and restores the token and limits, on the same URL", async () => {
    fake.tokens.clear();
    fake.writeLimits = [{ count: 1, perSeconds: 60 }];
    fake.fault({ status: 500 });
    fake.reset();
    expect([fake.domains.size, fake.rrsets.size, fake.writeLimits.length]).toEqual([0, 0, 0]);
    expect(await call("GET", "/domains/")).toEqual({ status: 200, body: [] });
    expect(fake.requests).toHaveLength(1);
  });

  test("PUT needs every field", async () => {
    const answer = await call("PUT", "/domains/example.com/rrsets/home/A/", { records: [NEW_IP] });
    expect(answer).toEqual({
      status: 400,
      body: {
        subname: ["This field is required."],
        type: ["This field is required."],
        ttl: ["This field is required."],
      },
    });
  });
});
