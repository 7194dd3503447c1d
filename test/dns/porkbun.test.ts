// The Porkbun client (its primitives under the reconciler) against its fake: what it changes and
// keeps, that it never rewrites what is there, how it finds the domain, and how Porkbun's failures
// (and its 503 page) reach the history with their cause. The policy is tested in test/unit/dns/reconcile.test.ts.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createPorkbunApi, porkbun } from "../../src/dns/services/porkbun";
import {
  PORKBUN_FAKE_API_KEY,
  PORKBUN_FAKE_SECRET,
  PORKBUN_PARKING,
  type PorkbunFake,
  type PorkbunFault,
  type PorkbunRecord,
  startPorkbunFake,
} from "../fakes/porkbun";

const NEW_IP = "203.0.113.7";
const OLD_IP = "198.51.100.1";

let fake: PorkbunFake;
let home: PorkbunRecord;

beforeEach(() => {
  fake = startPorkbunFake();
  fake.addDomain("example.com");
  home = fake.addRecord("example.com", { name: "home", type: "A", content: OLD_IP, ttl: 1800, notes: "router" });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { apiKey?: string; secret?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createPorkbunApi(
      { api_key: options.apiKey ?? PORKBUN_FAKE_API_KEY, secret_api_key: options.secret ?? PORKBUN_FAKE_SECRET },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd/test" },
    ),
  );
}

function target(hostname: string, fields: Partial<RecordTarget> = {}, config: RecordConfig = {}): RecordTarget {
  return { hostname, recordType: "A", externalId: null, config, ...fields };
}

const requestLines = () => fake.requests.map((r) => r.path);

describe("the service description", () => {
  test("credentials, TTL rule and defaults as docs/services/README.md and docs/services/porkbun.md say", () => {
    expect(porkbun.type).toBe("porkbun");
    expect(porkbun.credentials.map((c) => [c.key, c.secret])).toEqual([
      ["api_key", true],
      ["secret_api_key", true],
    ]);
    expect(porkbun.recordTypes).toEqual(["A", "AAAA"]);
    expect(porkbun.ttl).toMatchObject({ min: 600 });
    expect(porkbun.defaultApiUrl).toBe("https://api.porkbun.com/api/json/v3");
    expect(porkbun.canVerify).toBe(true);
    // Paced under Porkbun's one request a second.
    expect(porkbun.rateLimits).toHaveLength(1);
    expect(porkbun.rateLimits![0]!.perSeconds / porkbun.rateLimits![0]!.requests).toBeGreaterThan(1);
  });
});

describe("verify", () => {
  test("a good key pair pings, as a POST with both keys in the body", async () => {
    expect(await client().verify()).toEqual({
      ok: true,
      detail: "API key pair accepted (Porkbun sees this host as 203.0.113.200)",
    });
    const ping = fake.requests[0]!;
    expect([ping.method, ping.path]).toEqual(["POST", "/ping"]);
    expect(ping.body).toEqual({ apikey: PORKBUN_FAKE_API_KEY, secretapikey: PORKBUN_FAKE_SECRET });
    expect(ping.headers["user-agent"]).toBe("ddnsd/test");
  });

  const badKeys = [
    { name: "unknown API key", apiKey: "pk1_nope" },
    { name: "wrong secret", secret: "sk1_nope" },
  ];
  for (const keys of badKeys) {
    test(`${keys.name}: Porkbun's words`, async () => {
      expect(await client(keys).verify()).toMatchObject({
        ok: false,
        detail: "Porkbun: Invalid API key. (002) (HTTP 400)",
      });
    });
  }
});

describe("writeRecord on an existing record", () => {
  test("edits the content by id, sending ttl, prio and notes back as they were", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: home.id,
      zoneId: "example.com",
      message: `Porkbun record ${home.id}, ttl 1800`,
    });
    expect(fake.record("home.example.com", "A")).toMatchObject({
      content: NEW_IP,
      ttl: "1800",
      notes: "router",
      prio: "0",
    });
    expect(requestLines()).toEqual([
      "/domain/listAll",
      "/dns/retrieveByNameType/example.com/A/home",
      `/dns/edit/example.com/${home.id}`,
    ]);
    expect(fake.requests.at(-1)?.body).toMatchObject({
      type: "A",
      name: "home",
      content: NEW_IP,
      ttl: "1800",
      prio: "0",
      notes: "router",
    });
  });

  test("the steady state (domain known from config.zone_id) is one read and one edit", async () => {
    const outcome = await client().writeRecord(
      target("home.example.com", { externalId: home.id }, { zone_id: "example.com" }),
      NEW_IP,
    );
    expect(outcome.ok).toBe(true);
    expect(requestLines()).toEqual(["/dns/retrieveByNameType/example.com/A/home", `/dns/edit/example.com/${home.id}`]);
  });

  test("a record that already holds the address is read, never written (Porkbun would refuse the edit anyway)", async () => {
    const outcome = await client().writeRecord(target("home.example.com", {}, { zone_id: "example.com" }), OLD_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "unchanged",
      externalId: home.id,
      zoneId: "example.com",
      message: `Porkbun record ${home.id}, ttl 1800`,
    });
    expect(requestLines()).toEqual(["/dns/retrieveByNameType/example.com/A/home"]);
    expect(fake.changes()).toBe(0);
  });

  test("the address held with another ttl than the config's: the ttl is edited, the rest kept", async () => {
    const outcome = await client().writeRecord(
      target("home.example.com", {}, { zone_id: "example.com", ttl: 3600 }),
      OLD_IP,
    );
    expect(outcome).toMatchObject({ ok: true, action: "updated", message: `Porkbun record ${home.id}, ttl 3600` });
    expect(fake.record("home.example.com", "A")).toMatchObject({ content: OLD_IP, ttl: "3600", notes: "router" });
  });

  test("ids and ttls answered as numbers are read the same", async () => {
    fake.numbers = "numbers";
    const outcome = await client().writeRecord(target("home.example.com", {}, { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, externalId: home.id, message: `Porkbun record ${home.id}, ttl 1800` });
    expect(fake.record("home.example.com", "A")?.ttl).toBe("1800");
  });

  test("with an edit that keeps omitted fields, the same request still keeps everything", async () => {
    fake.editResetsOmitted = false;
    await client().writeRecord(target("home.example.com", {}, { zone_id: "example.com" }), NEW_IP);
    expect(fake.record("home.example.com", "A")).toMatchObject({ content: NEW_IP, ttl: "1800", notes: "router" });
  });

  for (const trusted of [false, true]) {
    test(`an external id is not followed: the record is found by name, a foreign one stays byte-identical (${trusted ? "trusted" : "untrusted"})`, async () => {
      const other = fake.addRecord("example.com", {
        name: "other",
        type: "A",
        content: "198.51.100.9",
        notes: "not mine",
      });
      const before = JSON.stringify(other);
      const outcome = await client().writeRecord(
        target("home.example.com", { externalId: other.id }, { zone_id: "example.com" }),
        NEW_IP,
      );
      expect(outcome).toMatchObject({ ok: true, externalId: home.id });
      expect(JSON.stringify(fake.record("other.example.com", "A"))).toBe(before);
      expect(fake.record("home.example.com", "A")?.content).toBe(NEW_IP);
    });
  }
});

describe("writeRecord on a missing record", () => {
  test("creates it with the relative name and ttl 600", async () => {
    const outcome = await client().writeRecord(target("new.example.com"), NEW_IP);
    const created = fake.record("new.example.com", "A");
    expect(created).toMatchObject({ content: NEW_IP, ttl: "600" });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: created!.id,
      zoneId: "example.com",
      message: `Porkbun record ${created!.id}, ttl 600`,
    });
    expect(fake.requests.at(-1)).toMatchObject({
      path: "/dns/create/example.com",
      body: { name: "new", type: "A", content: NEW_IP, ttl: "600" },
    });
  });

  test("the apex of a parked domain: the create fails, and the message names the ALIAS to delete", async () => {
    const outcome = await client().writeRecord(target("example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: `Porkbun: Create error: We were unable to create the DNS record. (HTTP 400) — its ALIAS record (→ ${PORKBUN_PARKING}, Porkbun's parking page) blocks it: delete that record at Porkbun`,
    });
    expect(requestLines()).toEqual([
      "/domain/listAll",
      "/dns/retrieveByNameType/example.com/A/",
      "/dns/create/example.com",
      "/dns/retrieveByNameType/example.com/ALIAS/",
    ]);
    expect(fake.requests[2]?.body).toMatchObject({ name: "" });
  });

  test("the wildcard (a raw *) of a parked domain names its CNAME", async () => {
    const outcome = await client().writeRecord(target("*.example.com"), NEW_IP);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.message).toEndWith(
      `its CNAME record (→ ${PORKBUN_PARKING}, Porkbun's parking page) blocks it: delete that record at Porkbun`,
    );
    expect(requestLines()[1]).toBe("/dns/retrieveByNameType/example.com/A/*");
  });

  test("the apex once the parked records are gone is created with the empty name", async () => {
    fake.addDomain("clean.org", { parked: false });
    const outcome = await client().writeRecord(target("clean.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "clean.org" });
    expect(fake.record("clean.org", "A")?.content).toBe(NEW_IP);
  });
});

describe("domain discovery", () => {
  test("the longest domain at a label boundary wins, never the last two labels", async () => {
    fake.addDomain("example.co.uk", { parked: false });
    fake.addDomain("b.example.co.uk", { parked: false });
    fake.addDomain("xample.co.uk", { parked: false });
    const outcome = await client().writeRecord(target("a.b.example.co.uk"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: "b.example.co.uk" });
    expect(fake.requests.at(-1)).toMatchObject({ path: "/dns/create/b.example.co.uk", body: { name: "a" } });
  });

  test("a listAll that ignores start is not asked forever", async () => {
    fake.listAllPage = null;
    for (let i = 0; i < 1000; i++) fake.addDomain(`d${i}.net`, { parked: false });
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome.ok).toBe(true);
    expect(fake.requests.filter((r) => r.path === "/domain/listAll")).toHaveLength(2);
  });
});

describe("failures keep Porkbun's words, say their cause and leave the record alone", () => {
  const cases: {
    name: string;
    setup?: () => void;
    fault?: PorkbunFault;
    apiKey?: string;
    ip?: string;
    message: string | RegExp;
    cause: string;
    retryAfterSeconds?: number;
    stopRetrying?: boolean;
  }[] = [
    {
      name: "bad key: retrying cannot succeed",
      apiKey: "pk1_revoked",
      message: "Porkbun: Invalid API key. (002) (HTTP 400)",
      cause: "credentials",
      stopRetrying: true,
    },
    {
      name: "domain not opted in to API access",
      setup: () => {
        fake.domains.get("example.com")!.apiAccess = false;
      },
      message: "Porkbun: Domain is not opted in to API access. (HTTP 400)",
      cause: "refused",
    },
    {
      name: "an address of the wrong family",
      ip: "2001:db8::7",
      message: "Porkbun: Invalid content for A record. (HTTP 400)",
      cause: "refused",
    },
    // Porkbun's "slow down" names no wait: the updater decides the pause (and says so); the client invents none.
    {
      name: "the 503 page of a key asking too fast",
      fault: "throttled",
      message: "Porkbun: 503 Service Temporarily Unavailable (rate limited, HTTP 503)",
      cause: "throttled",
    },
    {
      name: "a 429 with Retry-After",
      fault: { status: 429, retryAfter: 5, message: "Too many requests." },
      message: "Porkbun: Too many requests. (rate limited, HTTP 429)",
      cause: "throttled",
      retryAfterSeconds: 5,
    },
    // Passed on as named; the updater caps every pause at an hour.
    {
      name: "a 429 naming hours",
      fault: { status: 429, retryAfter: 86400 },
      message: /\(rate limited, HTTP 429\)$/,
      cause: "throttled",
      retryAfterSeconds: 86400,
    },
    {
      name: "a JSON 503",
      fault: { status: 503, message: "Service unavailable." },
      message: "Porkbun: Service unavailable. (rate limited, HTTP 503)",
      cause: "throttled",
    },
    {
      name: "a JSON 500",
      fault: { status: 500 },
      message: "Porkbun: Internal server error. (HTTP 500)",
      cause: "unreachable",
    },
  ];
  for (const { name, setup, fault, apiKey, ip, message, cause, retryAfterSeconds, stopRetrying } of cases) {
    test(name, async () => {
      setup?.();
      if (fault) fake.fault(fault);
      const outcome = await client({ apiKey, timeoutMs: 1000 }).writeRecord(
        target("home.example.com", {}, { zone_id: "example.com" }),
        ip ?? NEW_IP,
      );
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.cause).toBe(cause as never);
      expect(outcome.retryAfterSeconds).toBe(retryAfterSeconds);
      expect(outcome.stopRetrying).toBe(stopRetrying);
      expect(fake.record("home.example.com", "A")?.content).toBe(OLD_IP);
    });
  }

  test("throttled: one request, no retry loop inside the client", async () => {
    fake.fault("throttled");
    await client().writeRecord(target("home.example.com", {}, { zone_id: "example.com" }), NEW_IP);
    expect(fake.requests).toHaveLength(1);
  });

  test("a real burst past the limit gets the 503 page, and the outcome is a throttle (it pauses the provider)", async () => {
    fake.minIntervalMs = 5_000;
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "throttled",
      message: "Porkbun: 503 Service Temporarily Unavailable (rate limited, HTTP 503)",
    });
    expect(requestLines()).toEqual(["/domain/listAll", "/dns/retrieveByNameType/example.com/A/home"]);
    expect(fake.changes()).toBe(0);
  });

  test("a throttled edit is reported as throttled, not as an error of the record", async () => {
    fake.fault("throttled", 1, (r) => r.path.startsWith("/dns/edit/"));
    const outcome = await client().writeRecord(target("home.example.com", {}, { zone_id: "example.com" }), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "throttled" });
  });

  test("a failed create that is throttled does not ask about the ALIAS", async () => {
    fake.fault("throttled", 1, (r) => r.path.startsWith("/dns/create/"));
    await client().writeRecord(target("new.example.com", {}, { zone_id: "example.com" }), NEW_IP);
    expect(requestLines()).toEqual(["/dns/retrieveByNameType/example.com/A/new", "/dns/create/example.com"]);
  });
});

describe("the fake plays Porkbun", () => {
  const call = (path: string, fields: Record<string, unknown> = {}) =>
    fetch(fake.url + path, {
      method: "POST",
      body: JSON.stringify({ apikey: PORKBUN_FAKE_API_KEY, secretapikey: PORKBUN_FAKE_SECRET, ...fields }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));

  test("an edit to the current content is refused with Porkbun's words", async () => {
    expect(await call(`/dns/edit/example.com/${home.id}`, { type: "A", name: "home", content: OLD_IP })).toEqual({
      status: 400,
      body: { status: "ERROR", message: "Edit error: We were unable to edit the DNS record." },
    });
  });

  test("an edit that omits ttl and notes resets them (the stricter reading)", async () => {
    await call(`/dns/edit/example.com/${home.id}`, { type: "A", name: "home", content: NEW_IP });
    expect(home).toMatchObject({ content: NEW_IP, ttl: "600", notes: "" });
  });

  test("records come back with the FQDN and string ids and ttls", async () => {
    const answer = await call("/dns/retrieveByNameType/example.com/A/home");
    expect(answer.body).toEqual({ status: "SUCCESS", cloudflare: "enabled", records: [{ ...home }] });
  });

  test("reset() empties the service and restores the keys and modes, on the same URL", async () => {
    fake.keys.clear();
    fake.numbers = "numbers";
    fake.minIntervalMs = 5_000;
    fake.fault({ status: 500 });
    fake.reset();
    expect(fake.domains.size).toBe(0);
    expect([fake.numbers, fake.minIntervalMs, fake.listAllPage, fake.editResetsOmitted] as unknown[]).toEqual([
      "strings",
      0,
      1000,
      true,
    ]);
    expect(await call("/domain/listAll")).toEqual({ status: 200, body: { status: "SUCCESS", domains: [] } });
    expect(fake.requests).toHaveLength(1);
  });

  test("two requests closer than the limit: the second gets the openresty page", async () => {
    fake.minIntervalMs = 5_000;
    await call("/ping");
    const second = await fetch(`${fake.url}/ping`, {
      method: "POST",
      body: JSON.stringify({ apikey: PORKBUN_FAKE_API_KEY, secretapikey: PORKBUN_FAKE_SECRET }),
    });
    expect(second.status).toBe(503);
    expect(await second.text()).toContain("openresty");
  });
});
