// The Cloudflare client (its primitives under the reconciler) against the faithful fake: what it
// changes, what it keeps, how many requests it spends, and how every failure the service can give
// ends up as the provider's own reason with its cause. The policy itself is tested once, in
// test/unit/dns/reconcile.test.ts.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { RecordConfig, RecordTarget } from "../../src/dns/provider";
import { zoneClient } from "../../src/dns/reconcile";
import { createCloudflareApi } from "../../src/dns/services/cloudflare";
import {
  CLOUDFLARE_FAKE_TOKEN,
  type CloudflareFake,
  type CloudflareFault,
  type CloudflareRecord,
  type CloudflareZone,
  startCloudflareFake,
} from "../fakes/cloudflare";

const NEW_IP = "203.0.113.7";

let fake: CloudflareFake;
let zone: CloudflareZone;
let home: CloudflareRecord;

beforeEach(() => {
  fake = startCloudflareFake();
  zone = fake.addZone("example.com");
  home = fake.addRecord("example.com", {
    type: "A",
    name: "home.example.com",
    content: "198.51.100.1",
    proxied: true,
    ttl: 300,
    comment: "router",
    tags: ["owner:me"],
  });
});

afterEach(async () => {
  await fake.stop();
});

function client(options: { token?: string; timeoutMs?: number; baseUrl?: string } = {}) {
  return zoneClient(
    createCloudflareApi(
      { api_token: options.token ?? CLOUDFLARE_FAKE_TOKEN },
      { baseUrl: options.baseUrl ?? fake.url, fetch, timeoutMs: options.timeoutMs ?? 2000, userAgent: "ddnsd-test" },
    ),
  );
}

function target(hostname: string, fields: Partial<RecordTarget> = {}, config: RecordConfig = {}): RecordTarget {
  return { hostname, recordType: "A", externalId: null, config, ...fields };
}

/** The state a domain reaches after its first write: zone and record id known, the id saved by that write. */
function steadyHome(config: RecordConfig = {}): RecordTarget {
  return target("home.example.com", { externalId: home.id }, { zone_id: zone.id, ...config });
}

/** Every field of a record as the fake holds it, to compare before and after byte for byte. */
const snapshot = (record: CloudflareRecord | undefined) => JSON.stringify(record);

const requestLines = () => fake.requests.map((r) => `${r.method} ${r.path}`);

describe("verify", () => {
  test("an active token is accepted with Cloudflare's words", async () => {
    expect(await client().verify()).toEqual({ ok: true, detail: "This API Token is valid and active" });
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${CLOUDFLARE_FAKE_TOKEN}`);
  });

  test("an unknown token is refused with code and status", async () => {
    expect(await client({ token: "nope" }).verify()).toMatchObject({
      ok: false,
      detail: "Cloudflare: Invalid API Token (code 1000, HTTP 401)",
    });
  });

  test("verify never writes", async () => {
    await client().verify();
    expect(fake.writes()).toBe(0);
  });
});

describe("writeRecord on an existing record", () => {
  test("changes only the content; proxied, ttl, comment and tags stay", async () => {
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: true,
      action: "updated",
      externalId: home.id,
      zoneId: zone.id,
      message: `Cloudflare record ${home.id}, ttl 300, proxied`,
    });
    expect(fake.record("home.example.com", "A")).toMatchObject({
      content: NEW_IP,
      proxied: true,
      ttl: 300,
      comment: "router",
      tags: ["owner:me"],
    });
    const patch = fake.requests.find((r) => r.method === "PATCH");
    expect(patch?.body).toEqual({ type: "A", name: "home.example.com", content: NEW_IP });
    expect(patch?.headers["content-type"]).toBe("application/json");
  });

  test("discovers zone and record: zone by suffix, then list, then one PATCH", async () => {
    await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(requestLines()).toEqual([
      "GET /zones",
      "GET /zones",
      `GET /zones/${zone.id}/dns_records`,
      `PATCH /zones/${zone.id}/dns_records/${home.id}`,
    ]);
    expect(fake.requests.map((r) => r.query.name)).toEqual([
      "home.example.com",
      "example.com",
      "home.example.com",
      undefined,
    ]);
    expect(fake.requests[2]?.query).toEqual({ type: "A", name: "home.example.com", per_page: "100" });
  });

  test("steady state (zone known) is two requests: the record read by name, then one PATCH", async () => {
    const outcome = await client().writeRecord(steadyHome(), NEW_IP);
    expect(outcome.ok).toBe(true);
    expect(requestLines()).toEqual([
      `GET /zones/${zone.id}/dns_records`,
      `PATCH /zones/${zone.id}/dns_records/${home.id}`,
    ]);
  });

  test("a record that already holds the address is read, never written", async () => {
    const outcome = await client().writeRecord(steadyHome(), "198.51.100.1");
    expect(outcome).toEqual({
      ok: true,
      action: "unchanged",
      externalId: home.id,
      zoneId: zone.id,
      message: `Cloudflare record ${home.id}, ttl 300, proxied`,
    });
    expect(fake.writes()).toBe(0);
  });

  test("a record holding the address but not the proxying the config asks for is written", async () => {
    const outcome = await client().writeRecord(steadyHome({ proxied: false }), "198.51.100.1");
    expect(outcome).toMatchObject({ ok: true, action: "updated" });
    expect(fake.record("home.example.com", "A")?.proxied).toBe(false);
  });

  const configCases: {
    name: string;
    config: RecordConfig;
    body: Record<string, unknown>;
    after: Partial<CloudflareRecord>;
  }[] = [
    {
      name: "proxied false",
      config: { proxied: false },
      body: { proxied: false },
      after: { proxied: false, ttl: 300 },
    },
    { name: "ttl 120", config: { ttl: 120 }, body: { ttl: 120 }, after: { proxied: true, ttl: 120 } },
    {
      name: "ttl automatic",
      config: { ttl: 1, proxied: true },
      body: { proxied: true, ttl: 1 },
      after: { proxied: true, ttl: 1 },
    },
  ];
  for (const { name, config, body, after } of configCases) {
    test(`config decides: ${name}`, async () => {
      expect((await client().writeRecord(steadyHome(config), NEW_IP)).ok).toBe(true);
      expect(fake.requests.find((r) => r.method === "PATCH")?.body).toEqual({
        type: "A",
        name: "home.example.com",
        content: NEW_IP,
        ...body,
      });
      expect(fake.record("home.example.com", "A")).toMatchObject({ content: NEW_IP, comment: "router", ...after });
    });
  }
});

describe("writeRecord on a missing record", () => {
  test("creates it with automatic ttl, not proxied", async () => {
    const outcome = await client().writeRecord(target("new.example.com", {}, { zone_id: zone.id }), NEW_IP);
    const created = fake.record("new.example.com", "A");
    expect(created).toMatchObject({ content: NEW_IP, ttl: 1, proxied: false });
    expect(outcome).toEqual({
      ok: true,
      action: "created",
      externalId: created?.id ?? "",
      zoneId: zone.id,
      message: `Cloudflare record ${created?.id}, ttl auto, not proxied`,
    });
    expect(fake.requests.at(-1)?.body).toEqual({
      type: "A",
      name: "new.example.com",
      content: NEW_IP,
      ttl: 1,
      proxied: false,
    });
  });

  test("creates it with proxied and ttl from config", async () => {
    await client().writeRecord(target("new.example.com", {}, { proxied: true, ttl: 600 }), NEW_IP);
    expect(fake.record("new.example.com", "A")).toMatchObject({ proxied: true, ttl: 600 });
  });

  test("an AAAA record of the same name is a different record", async () => {
    const outcome = await client().writeRecord(
      target("home.example.com", { recordType: "AAAA" }, { zone_id: zone.id }),
      "2a01:4f8::7",
    );
    expect(outcome).toMatchObject({ ok: true, action: "created" });
    expect(fake.record("home.example.com", "AAAA")?.content).toBe("2a01:4f8::7");
    expect(fake.record("home.example.com", "A")?.content).toBe("198.51.100.1");
  });

  test("a configured zone that does not hold the hostname gets no record", async () => {
    const other = fake.addZone("other.org");
    const outcome = await client().writeRecord(target("new.example.com", {}, { zone_id: other.id }), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: `Cloudflare: zone ${other.id} is other.org, which does not hold new.example.com; correct config.zone_id or remove it`,
    });
    expect(fake.writes()).toBe(0);
    expect(fake.record("new.example.com.other.org", "A")).toBeUndefined();
  });
});

describe("ids", () => {
  test("an external id naming another record is not followed: that record stays byte-identical, this one is found by name", async () => {
    const other = fake.addRecord("example.com", {
      type: "A",
      name: "other",
      content: "198.51.100.9",
      ttl: 120,
      comment: "not mine",
    });
    const before = snapshot(other);
    const outcome = await client().writeRecord(
      target("home.example.com", { externalId: other.id }, { zone_id: zone.id }),
      NEW_IP,
    );
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: home.id, zoneId: zone.id });
    expect(snapshot(fake.records.get(other.id))).toBe(before);
    expect(fake.record("home.example.com", "A")?.content).toBe(NEW_IP);
  });

  test("a stale zone_id from config (7003) is rediscovered once", async () => {
    const stale = "f".repeat(32);
    const outcome = await client().writeRecord(
      target("home.example.com", { externalId: home.id }, { zone_id: stale }),
      NEW_IP,
    );
    expect(outcome).toMatchObject({ ok: true, action: "updated", externalId: home.id, zoneId: zone.id });
    expect(fake.record("home.example.com", "A")?.content).toBe(NEW_IP);
    expect(requestLines()).toEqual([
      `GET /zones/${stale}/dns_records`,
      "GET /zones",
      "GET /zones",
      `GET /zones/${zone.id}/dns_records`,
      `PATCH /zones/${zone.id}/dns_records/${home.id}`,
    ]);
  });
});

describe("zone discovery", () => {
  test("the longest active suffix wins; the bare TLD is never asked", async () => {
    const middle = fake.addZone("b.example.com");
    const outcome = await client().writeRecord(target("x.a.b.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: middle.id });
    const asked = fake.requests.filter((r) => r.path === "/zones").map((r) => r.query.name);
    expect(asked).toEqual(["x.a.b.example.com", "a.b.example.com", "b.example.com"]);
    expect(fake.record("x.a.b.example.com", "A")).toBeDefined();
  });

  test("a pending zone is used, and the history says it is not served yet", async () => {
    const pending = fake.addZone("pending.org", "pending");
    const outcome = await client().writeRecord(target("host.pending.org"), NEW_IP);
    expect(outcome).toMatchObject({ ok: true, action: "created", zoneId: pending.id });
    expect(outcome.ok && outcome.message).toMatch(/zone pending\.org is still pending at Cloudflare/);
    expect(fake.record("host.pending.org", "A")?.content).toBe(NEW_IP);
  });

  test("no usable zone is a failure naming the hostname", async () => {
    fake.addZone("moved.org", "moved");
    expect(await client().writeRecord(target("host.moved.org"), NEW_IP)).toEqual({
      ok: false,
      cause: "refused",
      message: "Cloudflare: no active zone found for host.moved.org",
    });
    expect(fake.requests.map((r) => r.query.name)).toEqual(["host.moved.org", "moved.org"]);
  });
});

describe("failures keep the provider's reason, say their cause and leave the record alone", () => {
  const faultCases: {
    name: string;
    fault?: CloudflareFault | "timeout";
    token?: string;
    ip?: string;
    message: string | RegExp;
    cause: string;
    retryAfterSeconds?: number;
  }[] = [
    {
      name: "invalid token",
      token: "revoked",
      message: "Cloudflare: Invalid access token (code 9109, HTTP 403)",
      cause: "credentials",
    },
    {
      name: "malformed Authorization header",
      token: "",
      message: "Cloudflare: Invalid request headers (code 6003, HTTP 400)",
      cause: "refused",
    },
    {
      name: "429 with retry-after",
      fault: { status: 429, retryAfter: 7 },
      message: "Cloudflare: Please wait and consider throttling your request speed (code 971, HTTP 429)",
      cause: "throttled",
      retryAfterSeconds: 7,
    },
    // The wait is the updater's to decide (a minute, doubling): the client names none it was not told.
    { name: "429 without retry-after", fault: { status: 429 }, message: /\(code 971, HTTP 429\)$/, cause: "throttled" },
    // A day is passed on as named; the updater caps every pause at an hour.
    {
      name: "429 naming a day",
      fault: { status: 429, retryAfter: 86400 },
      message: /\(code 971, HTTP 429\)$/,
      cause: "throttled",
      retryAfterSeconds: 86400,
    },
    {
      name: "500",
      fault: { status: 500 },
      message: "Cloudflare: Internal Server Error (code 500, HTTP 500)",
      cause: "unreachable",
    },
    {
      name: "503 with its own code",
      fault: { status: 503, code: 10001, message: "Service unavailable" },
      message: "Cloudflare: Service unavailable (code 10001, HTTP 503)",
      cause: "unreachable",
    },
    {
      name: "502 HTML page",
      fault: "html",
      message: /^Cloudflare: unreadable answer \(HTTP 502\): "<!DOCTYPE html>/,
      cause: "unreachable",
    },
    {
      name: "malformed JSON",
      fault: "malformed",
      message: /^Cloudflare: unreadable answer \(HTTP 200\): "\{"success"/,
      cause: "unreachable",
    },
    { name: "timeout", fault: "timeout", message: "Cloudflare: no answer within 1s", cause: "unreachable" },
  ];
  for (const { name, fault, token, ip, message, cause, retryAfterSeconds } of faultCases) {
    test(name, async () => {
      if (fault) fake.fault(fault);
      const outcome = await client({ token, timeoutMs: 1000 }).writeRecord(steadyHome(), ip ?? NEW_IP);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.message).toMatch(message);
      expect(outcome.cause).toBe(cause as never);
      expect(outcome.retryAfterSeconds).toBe(retryAfterSeconds);
      expect(fake.record("home.example.com", "A")?.content).toBe("198.51.100.1");
      expect(fake.requests).toHaveLength(1);
    });
  }

  test("an address the record type cannot hold is refused by Cloudflare, nothing changed", async () => {
    const outcome = await client().writeRecord(steadyHome(), "2a01:4f8::7");
    expect(outcome).toEqual({
      ok: false,
      cause: "refused",
      message: "Cloudflare: Content for A record must be a valid IPv4 address. (code 9005, HTTP 400)",
    });
    expect(fake.record("home.example.com", "A")?.content).toBe("198.51.100.1");
    // Sent on purpose: Cloudflare's description forbids it, and the fake recorded it.
    expect(fake.takeViolations().map((v) => v.problems.join(" "))).toEqual([expect.stringContaining("ipv4")]);
  });

  test("a failure after the lookups (PATCH answered 500) is reported, nothing changed", async () => {
    fake.fault({ status: 500 }, 1, (r) => r.method === "PATCH");
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toEqual({
      ok: false,
      cause: "unreachable",
      message: "Cloudflare: Internal Server Error (code 500, HTTP 500)",
    });
    expect(fake.record("home.example.com", "A")?.content).toBe("198.51.100.1");
  });

  test("a failing zone lookup stops the write", async () => {
    fake.fault({ status: 429, retryAfter: 30 }, 1);
    const outcome = await client().writeRecord(target("home.example.com"), NEW_IP);
    expect(outcome).toMatchObject({ ok: false, cause: "throttled", retryAfterSeconds: 30 });
    expect(fake.requests).toHaveLength(1);
  });

  test("a service that cannot be reached", async () => {
    const gone = startCloudflareFake();
    const url = gone.url;
    await gone.stop();
    const outcome = await client({ baseUrl: url }).verify();
    expect(outcome.ok).toBe(false);
    expect(outcome.detail).toStartWith("Cloudflare: request failed: ");
  });
});
