// docs/api.md, domains: domains — defaults, hostname normalisation and validation, record types, cron
// schedules, config, duplicates, partial updates, delete, history, and the forced update's
// refusals (its success and provider-failure paths are tested with the DNS fakes elsewhere).

import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { domains } from "../../src/db/schema";
import { makeTestApp, type TestApp } from "../support";
import { createDomain, createProvider, historyCount, ISO_UTC, insertHistory, resetData } from "./helpers";

const DOMAIN_FIELDS = [
  "address_source",
  "addresses",
  "config",
  "created_at",
  "cron_schedule",
  "domain_name",
  "external_id",
  "id",
  "is_enabled",
  "last_changed_at",
  "last_checked_at",
  "last_known_ip",
  "last_update_status",
  "next_run_at",
  "propagation",
  "provider_id",
  "provider_name",
  "pushed_at",
  "pushed_ip",
  "record_type",
  "updated_at",
];
const HISTORY_FIELDS = [
  "addresses",
  "domain_id",
  "duration_ms",
  "first_timestamp",
  "id",
  "ip_address",
  "message",
  "previous_ip",
  "repeat_count",
  "status",
  "timestamp",
  "trigger",
];

let t: TestApp;
let provider: { id: number; name: string };
beforeAll(async () => {
  t = await makeTestApp();
});
beforeEach(async () => {
  resetData(t);
  provider = await createProvider(t, { name: "main" });
});

const post = (body: Record<string, unknown>) =>
  t.request("POST", "/api/v1/domains", { body: { provider_id: provider.id, ...body } });
const put = (id: number | string, body: unknown) => t.request("PUT", `/api/v1/domains/${id}`, { body });
const get = (id: number | string) => t.request("GET", `/api/v1/domains/${id}`);

function fieldsOf(body: { errors?: { field: string }[] }): string[] {
  return (body.errors ?? []).map((error) => error.field);
}

/** Pretends the domain was written once, so a test can see what an update resets. */
function markWritten(id: number): void {
  const now = Date.now();
  t.ctx.db
    .update(domains)
    .set({
      lastKnownIp: "203.0.113.7",
      lastUpdateStatus: "SUCCESS",
      externalId: "rec-123",
      lastCheckedAt: now,
      lastChangedAt: now,
    })
    .where(eq(domains.id, id))
    .run();
}

describe("create", () => {
  test("defaults, and every field of the domain object", async () => {
    const before = Date.now();
    const response = await post({ domain_name: "home.example.com" });
    expect(response.status).toBe(200);
    const domain = response.body;
    expect(Object.keys(domain).sort()).toEqual(DOMAIN_FIELDS);
    expect(domain).toMatchObject({
      id: 1,
      provider_id: provider.id,
      provider_name: "main",
      domain_name: "home.example.com",
      record_type: "A",
      external_id: null,
      config: {},
      cron_schedule: null,
      is_enabled: true,
      last_known_ip: null,
      last_update_status: null,
      last_checked_at: null,
      last_changed_at: null,
      // Not written yet: its name servers were not asked.
      propagation: { state: "unknown", servers: [], checked_at: null, served_after_ms: null, detail: null },
    });
    for (const field of ["next_run_at", "created_at", "updated_at"]) expect(domain[field]).toMatch(ISO_UTC);
    // A new domain is due at once.
    expect(Date.parse(domain.next_run_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(domain.next_run_at)).toBeLessThanOrEqual(Date.now() + 1000);
    expect((await get(domain.id)).body).toEqual(domain);
    expect((await t.request("GET", "/api/v1/domains")).body).toEqual([domain]);
  });

  test("every field given is kept", async () => {
    const response = await post({
      domain_name: "vpn.example.net",
      record_type: "AAAA",
      external_id: "372e67954025e0ba6aaa6d586b9e0b59",
      config: { zone_id: "023e105f4ecef8ad9ca31a8372d0c353", proxied: true, ttl: 120, create_if_missing: false },
      cron_schedule: "*/10 * * * *",
      is_enabled: false,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      domain_name: "vpn.example.net",
      record_type: "AAAA",
      external_id: "372e67954025e0ba6aaa6d586b9e0b59",
      config: { zone_id: "023e105f4ecef8ad9ca31a8372d0c353", proxied: true, ttl: 120, create_if_missing: false },
      cron_schedule: "*/10 * * * *",
      is_enabled: false,
      next_run_at: null, // a disabled domain is never due
    });
  });

  test("unknown body fields are ignored", async () => {
    const response = await post({ domain_name: "x.example.com", last_known_ip: "1.2.3.4", id: 50, colour: "red" });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(1);
    expect(response.body.last_known_ip).toBeNull();
    expect(response.body).not.toHaveProperty("colour");
  });

  test("the list is ordered by id", async () => {
    const other = await createProvider(t, { name: "other", type: "dynu" });
    const a = await createDomain(t, other.id, { domain_name: "z.example.com" });
    const b = await createDomain(t, provider.id, { domain_name: "a.example.com" });
    const c = await createDomain(t, other.id, { domain_name: "m.example.com" });
    const list = (await t.request("GET", "/api/v1/domains")).body;
    expect(list.map((d: any) => [d.id, d.provider_name])).toEqual([
      [a.id, "other"],
      [b.id, "main"],
      [c.id, "other"],
    ]);
  });

  test("provider_name follows a rename of the provider", async () => {
    const domain = await createDomain(t, provider.id);
    await t.request("PUT", `/api/v1/providers/${provider.id}`, { body: { name: "renamed" } });
    expect((await get(domain.id)).body.provider_name).toBe("renamed");
  });

  test('an unknown provider_id → 404 "Provider not found"', async () => {
    const response = await post({ provider_id: 999, domain_name: "home.example.com" });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: "Provider not found" });
  });

  const BAD_FIELDS: { name: string; body: Record<string, unknown>; field: string }[] = [
    { name: "missing domain_name", body: { domain_name: undefined }, field: "domain_name" },
    { name: "domain_name a number", body: { domain_name: 42 }, field: "domain_name" },
    {
      name: "missing provider_id",
      body: { provider_id: undefined, domain_name: "a.example.com" },
      field: "provider_id",
    },
    { name: "provider_id a string", body: { provider_id: "one", domain_name: "a.example.com" }, field: "provider_id" },
    { name: "provider_id zero", body: { provider_id: 0, domain_name: "a.example.com" }, field: "provider_id" },
    { name: "provider_id a fraction", body: { provider_id: 1.5, domain_name: "a.example.com" }, field: "provider_id" },
    { name: "is_enabled a string", body: { domain_name: "a.example.com", is_enabled: "true" }, field: "is_enabled" },
    { name: "record_type a number", body: { domain_name: "a.example.com", record_type: 4 }, field: "record_type" },
    {
      name: "cron_schedule a number",
      body: { domain_name: "a.example.com", cron_schedule: 5 },
      field: "cron_schedule",
    },
    { name: "external_id a number", body: { domain_name: "a.example.com", external_id: 12 }, field: "external_id" },
    { name: "config a string", body: { domain_name: "a.example.com", config: "ttl=60" }, field: "config" },
    { name: "config an array", body: { domain_name: "a.example.com", config: [1, 2] }, field: "config" },
    { name: "config a number", body: { domain_name: "a.example.com", config: 7 }, field: "config" },
  ];
  for (const { name, body, field } of BAD_FIELDS) {
    test(`${name} → 422 naming ${field}`, async () => {
      const response = await post(body);
      expect(response.status).toBe(422);
      expect(fieldsOf(response.body)).toContain(field);
      expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);
    });
  }
});

describe("hostnames", () => {
  const NORMALISED: { input: string; stored: string }[] = [
    { input: "home.example.com", stored: "home.example.com" },
    { input: "Home.Example.COM", stored: "home.example.com" },
    { input: "home.example.com.", stored: "home.example.com" },
    { input: "HOME.EXAMPLE.COM.", stored: "home.example.com" },
    { input: "  home.example.com  ", stored: "home.example.com" },
    { input: "bücher.example", stored: "xn--bcher-kva.example" },
    { input: "BÜCHER.example.", stored: "xn--bcher-kva.example" },
    { input: "xn--bcher-kva.example", stored: "xn--bcher-kva.example" },
    { input: "münchen.bücher.example", stored: "xn--mnchen-3ya.xn--bcher-kva.example" },
    { input: "a-b-c.example.com", stored: "a-b-c.example.com" },
    { input: "1.example.com", stored: "1.example.com" },
    { input: "example.com", stored: "example.com" },
    { input: `${"a".repeat(63)}.example.com`, stored: `${"a".repeat(63)}.example.com` },
    {
      input: `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`,
      stored: `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`,
    },
  ];
  for (const { input, stored } of NORMALISED) {
    test(`"${input.length > 40 ? `${input.slice(0, 20)}…(${input.length})` : input}" is stored as ${stored.length > 40 ? `${stored.length} characters` : stored}`, async () => {
      const response = await post({ domain_name: input });
      expect(response.status).toBe(200);
      expect(response.body.domain_name).toBe(stored);
    });
  }

  const INVALID: { name: string; input: string }[] = [
    { name: "empty", input: "" },
    { name: "blank", input: "   " },
    { name: "a single label", input: "localhost" },
    { name: "a single label with a trailing dot", input: "home." },
    { name: "an empty label", input: "home..example.com" },
    { name: "a leading dot", input: ".example.com" },
    { name: "two trailing dots", input: "example.com.." },
    { name: "a label of 64 characters", input: `${"a".repeat(64)}.example.com` },
    { name: "a leading hyphen", input: "-home.example.com" },
    { name: "a trailing hyphen", input: "home-.example.com" },
    { name: "an underscore", input: "home_lab.example.com" },
    { name: "a space", input: "home lab.example.com" },
    { name: "an IPv4 address", input: "192.0.2.1" },
    { name: "an IPv6 address", input: "2001:db8::1" },
    { name: "a URL", input: "https://home.example.com" },
    { name: "a path", input: "home.example.com/x" },
    { name: "a query", input: "home.example.com?x" },
    { name: "a fragment", input: "home.example.com#x" },
    { name: "a backslash", input: "home.example.com\\x" },
    { name: "a percent-escape", input: "home%2eexample.com" },
    { name: "a tab inside", input: "ex\tample.com" },
    { name: "a port", input: "home.example.com:80" },
    { name: "user info", input: "me@home.example.com" },
    { name: "a wildcard", input: "*.example.com" },
    {
      name: "more than 253 characters",
      input: `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}`,
    },
  ];
  for (const { name, input } of INVALID) {
    test(`${name} → 422 naming domain_name`, async () => {
      const response = await post({ domain_name: input });
      expect(response.status).toBe(422);
      expect(fieldsOf(response.body)).toEqual(["domain_name"]);
      expect(response.body.detail).toStartWith("domain_name: ");
    });
  }

  test("an invalid hostname on update → 422 and nothing changes", async () => {
    const domain = await createDomain(t, provider.id, { domain_name: "keep.example.com" });
    const response = await put(domain.id, { domain_name: "no_good" });
    expect(response.status).toBe(422);
    expect(fieldsOf(response.body)).toEqual(["domain_name"]);
    expect((await get(domain.id)).body.domain_name).toBe("keep.example.com");
  });
});

describe("record_type", () => {
  const TYPES: { input: unknown; stored?: string }[] = [
    { input: "A", stored: "A" },
    { input: "AAAA", stored: "AAAA" },
    { input: "a", stored: "A" }, // accepted, stored in the canonical case
    { input: "aaaa", stored: "AAAA" },
    { input: "MX" },
    { input: "CNAME" },
    { input: "TXT" },
    { input: "AA" },
    { input: "" },
    { input: 4 },
    { input: null },
  ];
  for (const { input, stored } of TYPES) {
    test(`${JSON.stringify(input)} → ${stored ?? "422"}`, async () => {
      const response = await post({ domain_name: "home.example.com", record_type: input });
      if (stored === undefined) {
        expect(response.status).toBe(422);
        expect(fieldsOf(response.body)).toEqual(["record_type"]);
      } else {
        expect(response.status).toBe(200);
        expect(response.body.record_type).toBe(stored);
      }
    });
  }
});

describe("cron_schedule", () => {
  const SCHEDULES: { name: string; input: string | null; stored?: string | null }[] = [
    { name: "null", input: null, stored: null },
    { name: "5 fields", input: "*/5 * * * *", stored: "*/5 * * * *" },
    { name: "5 fields with ranges and lists", input: "0,30 8-18 * * 1-5", stored: "0,30 8-18 * * 1-5" },
    { name: "6 fields (seconds first)", input: "30 */2 * * * *", stored: "30 */2 * * * *" },
    { name: "extra spaces are tidied", input: "  */5   *  * * * ", stored: "*/5 * * * *" },
    { name: "4 fields", input: "* * * *" },
    { name: "7 fields", input: "0 0 0 1 1 * 2030" },
    { name: "1 field", input: "hourly" },
    { name: "garbage in 5 fields", input: "a b c d e" },
    { name: "minute out of range", input: "61 * * * *" },
    { name: "hour out of range", input: "0 25 * * *" },
    { name: "never runs again (30 February)", input: "0 0 30 2 *" },
  ];
  for (const { name, input, stored } of SCHEDULES) {
    test(`${name}: ${JSON.stringify(input)} → ${stored === undefined ? "422" : JSON.stringify(stored)}`, async () => {
      const response = await post({ domain_name: "home.example.com", cron_schedule: input });
      if (stored === undefined) {
        expect(response.status).toBe(422);
        expect(fieldsOf(response.body)).toEqual(["cron_schedule"]);
        expect(response.body.detail).toStartWith("cron_schedule: ");
      } else {
        expect(response.status).toBe(200);
        expect(response.body.cron_schedule).toBe(stored);
      }
    });
  }

  test("a bad schedule on update → 422 and the old one stays", async () => {
    const domain = await createDomain(t, provider.id, { cron_schedule: "*/5 * * * *" });
    const response = await put(domain.id, { cron_schedule: "0 0 31 4 *" });
    expect(response.status).toBe(422);
    expect((await get(domain.id)).body.cron_schedule).toBe("*/5 * * * *");
  });
});

describe("config", () => {
  const CONFIGS: { name: string; config: Record<string, unknown>; field?: string }[] = [
    { name: "empty", config: {} },
    { name: "all known keys", config: { zone_id: "abc123", proxied: false, ttl: 300, create_if_missing: true } },
    { name: "ttl 1 (automatic)", config: { ttl: 1 } },
    { name: "ttl 60", config: { ttl: 60 } },
    { name: "ttl a word", config: { ttl: "sixty" }, field: "config.ttl" },
    { name: "ttl a fraction", config: { ttl: 60.5 }, field: "config.ttl" },
    { name: "ttl negative", config: { ttl: -60 }, field: "config.ttl" },
    { name: "ttl zero", config: { ttl: 0 }, field: "config.ttl" },
    { name: "ttl a boolean", config: { ttl: true }, field: "config.ttl" },
    { name: "proxied a string", config: { proxied: "true" }, field: "config.proxied" },
    { name: "proxied a number", config: { proxied: 1 }, field: "config.proxied" },
    { name: "create_if_missing a string", config: { create_if_missing: "no" }, field: "config.create_if_missing" },
    { name: "create_if_missing null", config: { create_if_missing: null }, field: "config.create_if_missing" },
    { name: "zone_id a number", config: { zone_id: 12 }, field: "config.zone_id" },
    { name: "unknown keys kept as given", config: { note: "garage", weight: 3, nested: { a: [1, 2] }, flag: null } },
    { name: "unknown keys beside known ones", config: { ttl: 120, comment: "x" } },
  ];
  for (const { name, config, field } of CONFIGS) {
    test(`${name} → ${field ? `422 naming ${field}` : "kept"}`, async () => {
      const response = await post({ domain_name: "home.example.com", config });
      if (field) {
        expect(response.status).toBe(422);
        expect(fieldsOf(response.body)).toEqual([field]);
      } else {
        expect(response.status).toBe(200);
        expect(response.body.config).toEqual(config);
        expect((await get(response.body.id)).body.config).toEqual(config);
      }
    });
  }
});

describe("duplicates", () => {
  test("the same name and type on one provider → 409", async () => {
    await createDomain(t, provider.id, { domain_name: "home.example.com" });
    const response = await post({ domain_name: "home.example.com" });
    expect(response.status).toBe(409);
    expect(typeof response.body.detail).toBe("string");
  });

  test("a spelling that normalises to the same name → 409", async () => {
    await createDomain(t, provider.id, { domain_name: "bücher.example", record_type: "AAAA" });
    const response = await post({ domain_name: "XN--BCHER-KVA.example.", record_type: "aaaa" });
    expect(response.status).toBe(409);
  });

  test("the same name as AAAA is another record", async () => {
    await createDomain(t, provider.id, { domain_name: "home.example.com" });
    const response = await post({ domain_name: "home.example.com", record_type: "AAAA" });
    expect(response.status).toBe(200);
  });

  test("the same name on another provider is another record", async () => {
    await createDomain(t, provider.id, { domain_name: "home.example.com" });
    const other = await createProvider(t, { name: "other", type: "dynu" });
    const response = await post({ provider_id: other.id, domain_name: "home.example.com" });
    expect(response.status).toBe(200);
  });

  test("an update that would make a duplicate → 409, nothing changes", async () => {
    await createDomain(t, provider.id, { domain_name: "taken.example.com" });
    const other = await createProvider(t, { name: "other" });
    await createDomain(t, other.id, { domain_name: "taken.example.com" });
    const mine = await createDomain(t, provider.id, { domain_name: "mine.example.com" });
    expect((await put(mine.id, { domain_name: "Taken.Example.com" })).status).toBe(409);
    const moved = await createDomain(t, other.id, { domain_name: "mine.example.com" });
    expect((await put(moved.id, { provider_id: provider.id })).status).toBe(409);
    expect((await get(mine.id)).body.domain_name).toBe("mine.example.com");
    expect((await get(moved.id)).body.provider_id).toBe(other.id);
  });

  test("an update that keeps its own name and type is no duplicate", async () => {
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    const response = await put(domain.id, { domain_name: "HOME.example.com.", record_type: "A" });
    expect(response.status).toBe(200);
  });
});

describe("partial update", () => {
  const UPDATES: {
    name: string;
    change: Record<string, unknown>;
    expected: Record<string, unknown>;
    keepsState: boolean;
  }[] = [
    { name: "config only", change: { config: { ttl: 300 } }, expected: { config: { ttl: 300 } }, keepsState: true },
    {
      name: "cron_schedule only",
      change: { cron_schedule: "0 * * * *" },
      expected: { cron_schedule: "0 * * * *" },
      keepsState: true,
    },
    {
      name: "cron_schedule back to null",
      change: { cron_schedule: null },
      expected: { cron_schedule: null },
      keepsState: true,
    },
    {
      name: "external_id only (another record until written)",
      change: { external_id: "rec-999" },
      expected: { external_id: "rec-999", last_known_ip: null, last_update_status: null, last_changed_at: null },
      keepsState: false,
    },
    {
      name: "external_id cleared",
      change: { external_id: null },
      expected: { external_id: null, last_known_ip: null, last_update_status: null },
      keepsState: false,
    },
    {
      name: "is_enabled false",
      change: { is_enabled: false },
      expected: { is_enabled: false, next_run_at: null },
      keepsState: true,
    },
    {
      name: "domain_name (another record)",
      change: { domain_name: "New.Example.com." },
      expected: { domain_name: "new.example.com", external_id: null, last_known_ip: null, last_update_status: null },
      keepsState: false,
    },
    {
      name: "record_type (another record)",
      change: { record_type: "AAAA" },
      expected: { record_type: "AAAA", external_id: null, last_known_ip: null, last_update_status: null },
      keepsState: false,
    },
    {
      name: "domain_name with a new external_id",
      change: { domain_name: "new.example.com", external_id: "rec-new" },
      expected: { domain_name: "new.example.com", external_id: "rec-new", last_known_ip: null },
      keepsState: false,
    },
    { name: "an empty body", change: {}, expected: {}, keepsState: true },
  ];

  test("an AAAA domain stays AAAA when a PUT leaves record_type out", async () => {
    const created = await createDomain(t, provider.id, { domain_name: "v6.example.com", record_type: "AAAA" });
    markWritten(created.id);
    for (const change of [{ is_enabled: false }, {}, { cron_schedule: "*/10 * * * *" }]) {
      const response = await put(created.id, change);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        record_type: "AAAA",
        external_id: "rec-123",
        last_known_ip: "203.0.113.7",
      });
    }
  });

  const NUMERIC_STRINGS: [string, Record<string, unknown>, string][] = [
    ["provider_id as a string", { provider_id: "1" }, "provider_id"],
    ["config.ttl as a string", { config: { ttl: "300" } }, "config.ttl"],
  ];
  for (const [name, change, field] of NUMERIC_STRINGS) {
    test(`${name} → 422 naming ${field}, nothing changes`, async () => {
      const created = await createDomain(t, provider.id);
      const response = await put(created.id, change);
      expect(response.status).toBe(422);
      expect(fieldsOf(response.body)).toEqual([field]);
      expect((await get(created.id)).body).toEqual(created);
      expect((await post({ domain_name: "other.example.com", ...change })).status).toBe(422);
    });
  }

  test("a fractional ttl → 422 with a sentence a person can act on", async () => {
    const created = await createDomain(t, provider.id);
    const response = await put(created.id, { config: { ttl: 300.5 } });
    expect(response.status).toBe(422);
    expect(response.body.detail).toBe("config.ttl: must be a whole number of seconds");
  });

  const TTLS: [string, number, boolean][] = [
    ["cloudflare", 1, true],
    ["cloudflare", 60, true],
    ["cloudflare", 30, false],
    ["cloudflare", 86401, false],
    ["dynu", 30, true],
    ["dynu", 1, false],
    ["dynu", 86400, true],
  ];
  for (const [type, ttl, accepted] of TTLS) {
    test(`ttl ${ttl} on ${type} → ${accepted ? "200" : "422"}`, async () => {
      const owner =
        type === "cloudflare"
          ? provider
          : await createProvider(t, { name: "dynu", type: "dynu", credentials: { api_key: "dynu-key-0123456789" } });
      const response = await post({ provider_id: owner.id, domain_name: "ttl.example.com", config: { ttl } });
      expect(response.status).toBe(accepted ? 200 : 422);
      if (!accepted) expect(fieldsOf(response.body)).toEqual(["config.ttl"]);
    });
  }

  test("moving a domain to a provider whose service refuses its TTL → 422, nothing changes", async () => {
    const dynu = await createProvider(t, {
      name: "dynu",
      type: "dynu",
      credentials: { api_key: "dynu-key-0123456789" },
    });
    const created = await createDomain(t, dynu.id, { config: { ttl: 30 } });
    const response = await put(created.id, { provider_id: provider.id });
    expect(response.status).toBe(422);
    expect(response.body.detail).toBe("config.ttl: must be 1 (automatic) or 60 to 86400 seconds for Cloudflare");
    expect((await get(created.id)).body).toEqual(created);
  });
  for (const { name, change, expected, keepsState } of UPDATES) {
    test(name, async () => {
      const created = await createDomain(t, provider.id, {
        domain_name: "home.example.com",
        config: { zone_id: "z1", ttl: 60 },
      });
      markWritten(created.id);
      const before = (await get(created.id)).body;
      await Bun.sleep(5);
      const response = await put(created.id, change);
      expect(response.status).toBe(200);
      expect(Object.keys(response.body).sort()).toEqual(DOMAIN_FIELDS);
      expect(response.body).toMatchObject(expected);
      // Every field not named in the change (or reset by it) is as it was.
      const untouched = DOMAIN_FIELDS.filter(
        (field) =>
          !(field in change) && !(field in expected) && !["updated_at", "next_run_at", "config"].includes(field),
      );
      const stateFields = [
        "last_known_ip",
        "addresses",
        "last_update_status",
        "external_id",
        "last_checked_at",
        "last_changed_at",
      ];
      for (const field of untouched) {
        if (!keepsState && stateFields.includes(field)) continue;
        expect([field, response.body[field]]).toEqual([field, before[field]]);
      }
      if (keepsState) {
        expect(response.body.last_known_ip).toBe("203.0.113.7");
        expect(response.body.last_update_status).toBe("SUCCESS");
      }
      if (Object.keys(change).length > 0) expect(response.body.updated_at > before.updated_at).toBe(true);
      expect((await get(created.id)).body).toEqual(response.body);
    });
  }

  test("a new hostname is due at once and forgets the old record's zone", async () => {
    const created = await createDomain(t, provider.id, {
      domain_name: "home.example.com",
      config: { zone_id: "z1", ttl: 60 },
    });
    markWritten(created.id);
    const started = Date.now();
    const response = await put(created.id, { domain_name: "other.example.org" });
    expect(response.body.config).toEqual({ ttl: 60 });
    expect(Date.parse(response.body.next_run_at)).toBeGreaterThanOrEqual(started - 1);
    expect(Date.parse(response.body.next_run_at)).toBeLessThanOrEqual(Date.now());
  });

  test("provider_id moves the domain; an unknown one → 404 and nothing changes", async () => {
    const domain = await createDomain(t, provider.id);
    const other = await createProvider(t, { name: "other", type: "dynu" });
    const unknown = await put(domain.id, { provider_id: 999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: "Provider not found" });
    expect((await get(domain.id)).body.provider_id).toBe(provider.id);
    const moved = await put(domain.id, { provider_id: other.id });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ provider_id: other.id, provider_name: "other", external_id: null });
    const counts = (await t.request("GET", "/api/v1/providers")).body.map((p: any) => p.domain_count);
    expect(counts).toEqual([0, 1]);
  });

  test("disabling clears next_run_at; enabling again makes it due at once", async () => {
    const domain = await createDomain(t, provider.id);
    const disabled = await put(domain.id, { is_enabled: false });
    expect(disabled.body.is_enabled).toBe(false);
    expect(disabled.body.next_run_at).toBeNull();
    const started = Date.now();
    const enabled = await put(domain.id, { is_enabled: true });
    expect(enabled.body.is_enabled).toBe(true);
    expect(Date.parse(enabled.body.next_run_at)).toBeGreaterThanOrEqual(started - 1);
    expect(Date.parse(enabled.body.next_run_at)).toBeLessThanOrEqual(Date.now());
  });

  test("a new schedule moves next_run_at to the schedule's next run", async () => {
    const domain = await createDomain(t, provider.id);
    t.ctx.db
      .update(domains)
      .set({ nextRunAt: Date.now() + 3_600_000 })
      .where(eq(domains.id, domain.id))
      .run();
    const response = await put(domain.id, { cron_schedule: "0 0 1 1 *" }); // midnight on 1 January
    const next = new Date(response.body.next_run_at);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect([next.getMonth(), next.getDate(), next.getHours(), next.getMinutes()]).toEqual([0, 1, 0, 0]);
  });

  const BAD_UPDATES: { name: string; change: Record<string, unknown>; field: string }[] = [
    { name: "record_type MX", change: { record_type: "MX" }, field: "record_type" },
    { name: "is_enabled a string", change: { is_enabled: "no" }, field: "is_enabled" },
    { name: "provider_id a word", change: { provider_id: "two" }, field: "provider_id" },
    { name: "config.ttl a word", change: { config: { ttl: "auto" } }, field: "config.ttl" },
    { name: "config null", change: { config: null }, field: "config" },
    { name: "config a string", change: { config: "{}" }, field: "config" },
    { name: "cron of 4 fields", change: { cron_schedule: "* * * *" }, field: "cron_schedule" },
    { name: "domain_name null", change: { domain_name: null }, field: "domain_name" },
  ];
  for (const { name, change, field } of BAD_UPDATES) {
    test(`${name} → 422 naming ${field}`, async () => {
      const domain = await createDomain(t, provider.id);
      const response = await put(domain.id, change);
      expect(response.status).toBe(422);
      expect(fieldsOf(response.body)).toContain(field);
      expect((await get(domain.id)).body).toEqual(domain);
    });
  }
});

describe("delete", () => {
  test('→ 200 {"message": "Domain deleted", "id": N}, its history gone, others untouched', async () => {
    const doomed = await createDomain(t, provider.id);
    const kept = await createDomain(t, provider.id);
    for (let i = 0; i < 3; i++) insertHistory(t, doomed.id);
    insertHistory(t, kept.id);
    const response = await t.request("DELETE", `/api/v1/domains/${doomed.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: "Domain deleted", id: doomed.id });
    expect(historyCount(t, doomed.id)).toBe(0);
    expect(historyCount(t, kept.id)).toBe(1);
    expect((await get(doomed.id)).body).toEqual({ detail: "Domain not found" });
    expect((await t.request("GET", "/api/v1/domains")).body.map((d: any) => d.id)).toEqual([kept.id]);
    expect((await t.request("GET", `/api/v1/providers/${provider.id}`)).body.domain_count).toBe(1);
  });

  test("history and domain go together: a failure half-way leaves both", async () => {
    const domain = await createDomain(t, provider.id);
    insertHistory(t, domain.id);
    // A trigger that refuses the domain's removal, after its history rows were already deleted.
    t.ctx.sqlite.exec(
      `CREATE TRIGGER refuse_delete BEFORE DELETE ON domains BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    try {
      const response = await t.request("DELETE", `/api/v1/domains/${domain.id}`);
      expect(response.status).toBe(500);
      expect(historyCount(t, domain.id)).toBe(1);
    } finally {
      t.ctx.sqlite.exec("DROP TRIGGER refuse_delete");
    }
    expect((await get(domain.id)).status).toBe(200);
  });
});

describe("history", () => {
  const history = (id: number | string, query = "") => t.request("GET", `/api/v1/domains/${id}/history${query}`);

  test("records have exactly the contract's fields, newest first", async () => {
    const domain = await createDomain(t, provider.id);
    const now = Date.now();
    const oldest = insertHistory(
      t,
      domain.id,
      { ageMs: 3_000, ip: "203.0.113.1", previousIp: null, trigger: "schedule", durationMs: 120 },
      now,
    );
    const failed = insertHistory(
      t,
      domain.id,
      { ageMs: 2_000, ip: null, status: "FAILED", message: "no answer", trigger: "schedule", durationMs: 2001 },
      now,
    );
    const newest = insertHistory(
      t,
      domain.id,
      {
        ageMs: 1_000,
        ip: "203.0.113.2",
        previousIp: "203.0.113.1",
        trigger: "manual",
        durationMs: 80,
        message: "Updated",
      },
      now,
    );
    const response = await history(domain.id);
    expect(response.status).toBe(200);
    expect(response.body.map((row: any) => row.id)).toEqual([newest, failed, oldest]);
    for (const row of response.body) expect(Object.keys(row).sort()).toEqual(HISTORY_FIELDS);
    expect(response.body[0]).toEqual({
      id: newest,
      domain_id: domain.id,
      ip_address: "203.0.113.2",
      addresses: ["203.0.113.2"],
      previous_ip: "203.0.113.1",
      status: "SUCCESS",
      message: "Updated",
      trigger: "manual",
      duration_ms: 80,
      timestamp: new Date(now - 1_000).toISOString(),
      repeat_count: 1,
      first_timestamp: null,
    });
    expect(response.body[1]).toMatchObject({
      ip_address: null,
      status: "FAILED",
      message: "no answer",
      trigger: "schedule",
      duration_ms: 2001,
    });
    expect(response.body[2].previous_ip).toBeNull();
    for (const row of response.body) expect(row.timestamp).toMatch(ISO_UTC);
  });

  test("rows of the same instant come newest id first", async () => {
    const domain = await createDomain(t, provider.id);
    const now = Date.now();
    const ids = [1, 2, 3].map(() => insertHistory(t, domain.id, {}, now));
    expect((await history(domain.id)).body.map((row: any) => row.id)).toEqual(ids.reverse());
  });

  test("only the domain's own rows", async () => {
    const a = await createDomain(t, provider.id);
    const b = await createDomain(t, provider.id);
    insertHistory(t, a.id);
    insertHistory(t, b.id);
    insertHistory(t, b.id);
    expect((await history(a.id)).body).toHaveLength(1);
    expect((await history(b.id)).body.every((row: any) => row.domain_id === b.id)).toBe(true);
  });

  test("a domain without history → []", async () => {
    const domain = await createDomain(t, provider.id);
    const response = await history(domain.id);
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  const LIMITS: { query: string; rows: number }[] = [
    { query: "", rows: 20 },
    { query: "?limit=1", rows: 1 },
    { query: "?limit=5", rows: 5 },
    { query: "?limit=20", rows: 20 },
    { query: "?limit=1000", rows: 25 },
  ];
  for (const { query, rows } of LIMITS) {
    test(`limit ${query || "(default)"} → ${rows} of 25 rows, the newest`, async () => {
      const domain = await createDomain(t, provider.id);
      const now = Date.now();
      const ids = Array.from({ length: 25 }, (_, i) => insertHistory(t, domain.id, { ageMs: (25 - i) * 1000 }, now));
      const response = await history(domain.id, query);
      expect(response.status).toBe(200);
      expect(response.body.map((row: any) => row.id)).toEqual(ids.reverse().slice(0, rows));
    });
  }

  for (const limit of ["0", "1001", "-1", "abc", "1.5", "", "10x"]) {
    test(`limit=${JSON.stringify(limit)} → 422 naming limit`, async () => {
      const domain = await createDomain(t, provider.id);
      const response = await history(domain.id, `?limit=${limit}`);
      expect(response.status).toBe(422);
      expect(fieldsOf(response.body)).toEqual(["limit"]);
    });
  }

  test('an unknown domain → 404 "Domain not found"', async () => {
    const response = await history(999);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: "Domain not found" });
  });

  test("a non-integer domain id → 422 naming domain_id", async () => {
    const response = await history("abc");
    expect(response.status).toBe(422);
    expect(fieldsOf(response.body)).toEqual(["domain_id"]);
  });
});

describe("ids", () => {
  const ROUTES: { method: string; suffix: string; body?: unknown }[] = [
    { method: "GET", suffix: "" },
    { method: "PUT", suffix: "", body: { is_enabled: false } },
    { method: "DELETE", suffix: "" },
    { method: "GET", suffix: "/history" },
    { method: "POST", suffix: "/update_ip" },
  ];
  for (const { method, suffix, body } of ROUTES) {
    test(`${method} /domains/{unknown}${suffix} → 404 "Domain not found"`, async () => {
      await createDomain(t, provider.id);
      const response = await t.request(method, `/api/v1/domains/999${suffix}`, { body });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ detail: "Domain not found" });
    });
    for (const id of ["abc", "1.5", "0", "-3", "0x1", "1e0", "+1", "01"]) {
      test(`${method} /domains/${id}${suffix} → 422 naming domain_id`, async () => {
        const response = await t.request(method, `/api/v1/domains/${id}${suffix}`, { body });
        expect(response.status).toBe(422);
        expect(fieldsOf(response.body)).toEqual(["domain_id"]);
      });
    }
  }
});

describe("forced update refusals", () => {
  const updateIp = (id: number | string, token?: string | null) =>
    t.request("POST", `/api/v1/domains/${id}/update_ip`, { token });

  test("without a token → 401", async () => {
    const domain = await createDomain(t, provider.id);
    const response = await updateIp(domain.id, null);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: "Not authenticated" });
    expect(historyCount(t, domain.id)).toBe(0);
  });

  test("an unknown domain → 404", async () => {
    const response = await updateIp(999);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ detail: "Domain not found" });
  });

  test("a non-integer id → 422", async () => {
    const response = await updateIp("abc");
    expect(response.status).toBe(422);
    expect(fieldsOf(response.body)).toEqual(["domain_id"]);
  });

  test("a disabled domain → 409, nothing attempted, the refusal in the history", async () => {
    const domain = await createDomain(t, provider.id, { is_enabled: false });
    const response = await updateIp(domain.id);
    expect(response.status).toBe(409);
    expect(typeof response.body.detail).toBe("string");
    expect(response.body.detail).toMatch(/disabled/i);
    const rows = (await t.request("GET", `/api/v1/domains/${domain.id}/history`)).body;
    expect(rows).toMatchObject([
      { status: "FAILED", ip_address: null, trigger: "manual", message: response.body.detail },
    ]);
    expect((await get(domain.id)).body).toEqual(domain);
  });

  test("a domain whose provider is disabled → 409, nothing attempted, the refusal in the history", async () => {
    const off = await createProvider(t, { name: "off", is_enabled: false });
    const domain = await createDomain(t, off.id);
    const response = await updateIp(domain.id);
    expect(response.status).toBe(409);
    expect(response.body.detail).toMatch(/disabled/i);
    expect(historyCount(t, domain.id)).toBe(1);
    expect((await get(domain.id)).body.last_update_status).toBeNull();
  });
});
