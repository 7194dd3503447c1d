// docs/api.md, system and metrics: system status, the health probe, and the dashboard and per-provider figures
// computed from history rows written straight to the database.

import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import packageJson from "../../package.json";
import { domains, users } from "../../src/db/schema";
import { makeTestApp, type TestApp } from "../support";
import { createDomain, createProvider, ISO_UTC, insertHistory, resetData } from "./helpers";

const HOUR = 3_600_000;

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
beforeEach(() => {
  resetData(t);
  t.ctx.publicIp.ipv4 = null;
  t.ctx.publicIp.ipv6 = null;
});

describe("system status", () => {
  test("every field, in a fresh app", async () => {
    const response = await t.request("GET", "/api/v1/system/status");
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(
      ["database", "initialized", "last_check_at", "public_ip", "scheduler", "uptime_seconds", "version"].sort(),
    );
    expect(response.body).toEqual({
      initialized: true,
      version: packageJson.version,
      uptime_seconds: response.body.uptime_seconds,
      database: "sqlite",
      scheduler: "stopped",
      last_check_at: null,
      public_ip: { ipv4: null, ipv6: null },
    });
    expect(Number.isInteger(response.body.uptime_seconds)).toBe(true);
    expect(response.body.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(response.body.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  test("uptime counts from the app's start", async () => {
    const started = t.ctx.startedAt;
    t.ctx.startedAt = Date.now() - 90_500;
    try {
      expect((await t.request("GET", "/api/v1/system/status")).body.uptime_seconds).toBe(90);
    } finally {
      t.ctx.startedAt = started;
    }
  });

  test("last_check_at is the newest check of any domain; public_ip the last detection", async () => {
    const provider = await createProvider(t);
    const a = await createDomain(t, provider.id);
    const b = await createDomain(t, provider.id);
    const newest = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
    t.ctx.db
      .update(domains)
      .set({ lastCheckedAt: newest - HOUR })
      .where(eq(domains.id, a.id))
      .run();
    t.ctx.db.update(domains).set({ lastCheckedAt: newest }).where(eq(domains.id, b.id)).run();
    t.ctx.publicIp.ipv4 = "203.0.113.9";
    t.ctx.publicIp.ipv6 = "2001:db8::9";
    const body = (await t.request("GET", "/api/v1/system/status")).body;
    expect(body.last_check_at).toBe("2026-01-02T03:04:05.678Z");
    expect(body.public_ip).toEqual({ ipv4: "203.0.113.9", ipv6: "2001:db8::9" });
  });

  test("initialized is false while no admin exists", async () => {
    const fresh = await makeTestApp();
    const token = await fresh.token();
    expect((await fresh.request("GET", "/api/v1/system/status")).body.initialized).toBe(true);
    // The token's user must exist to ask, so look with the service directly after removing users.
    const { systemStatus } = await import("../../src/modules/system/service");
    fresh.ctx.db.delete(users).run();
    expect(systemStatus(fresh.ctx).initialized).toBe(false);
    expect((await fresh.request("GET", "/api/v1/system/status", { token })).status).toBe(401);
    fresh.ctx.sqlite.close();
  });
});

describe("/healthz", () => {
  test('answers {"status": "ok"} without a token', async () => {
    const response = await t.request("GET", "/healthz", { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.body).toEqual({ status: "ok" });
  });

  test("ignores a bad token", async () => {
    const response = await t.request("GET", "/healthz", { token: "garbage" });
    expect(response.status).toBe(200);
  });
});

describe("metrics without history", () => {
  test("dashboard: counts, zeros and null rates", async () => {
    const empty = (await t.request("GET", "/api/v1/metrics/dashboard")).body;
    expect(empty).toEqual({
      total_domains: 0,
      active_domains: 0,
      total_providers: 0,
      active_providers: 0,
      total_updates_24h: 0,
      failed_updates_24h: 0,
      success_rate_24h: null,
      unique_ips_24h: 0,
      last_update_time: null,
      providers_stats: [],
    });
    const provider = await createProvider(t, { type: "dynu" });
    await createDomain(t, provider.id);
    const one = (await t.request("GET", "/api/v1/metrics/dashboard")).body;
    expect(one).toMatchObject({
      total_domains: 1,
      active_domains: 1,
      total_providers: 1,
      active_providers: 1,
      success_rate_24h: null,
    });
    expect(one.providers_stats).toEqual([{ type: "dynu", count: 1, active: 1 }]);
  });

  test("provider-stats: every provider, with null rates", async () => {
    expect((await t.request("GET", "/api/v1/metrics/provider-stats")).body).toEqual({
      providers: [],
      total_providers: 0,
    });
    const provider = await createProvider(t, { name: "lonely" });
    const response = await t.request("GET", "/api/v1/metrics/provider-stats");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      providers: [
        {
          provider_id: provider.id,
          provider_name: "lonely",
          provider_type: "cloudflare",
          is_enabled: true,
          total_domains: 0,
          updates_24h: 0,
          successful_updates_24h: 0,
          failed_updates_24h: 0,
          success_rate_24h: null,
          avg_duration_ms_24h: null,
          last_update_time: null,
        },
      ],
      total_providers: 1,
    });
  });

  test("rows older than 24 h give null rates but still a last_update_time", async () => {
    const provider = await createProvider(t);
    const domain = await createDomain(t, provider.id);
    const now = Date.now();
    insertHistory(t, domain.id, { ageMs: 30 * HOUR }, now);
    const dashboard = (await t.request("GET", "/api/v1/metrics/dashboard")).body;
    expect(dashboard).toMatchObject({
      total_updates_24h: 0,
      failed_updates_24h: 0,
      success_rate_24h: null,
      unique_ips_24h: 0,
    });
    expect(dashboard.last_update_time).toBe(new Date(now - 30 * HOUR).toISOString());
    const stats = (await t.request("GET", "/api/v1/metrics/provider-stats")).body.providers[0];
    expect(stats).toMatchObject({ updates_24h: 0, success_rate_24h: null, avg_duration_ms_24h: null });
    expect(stats.last_update_time).toBe(new Date(now - 30 * HOUR).toISOString());
  });
});

describe("metrics with history", () => {
  /**
   * cf-main (enabled): home (enabled), lab (disabled)
   * cf-off (disabled): office (enabled, but its provider is off)
   * dynu-main (enabled): vpn (enabled)
   * cf-empty (enabled): no domains
   */
  let now: number;
  let ids: {
    cfMain: number;
    cfOff: number;
    dynu: number;
    cfEmpty: number;
    home: number;
    lab: number;
    office: number;
    vpn: number;
  };

  beforeEach(async () => {
    now = Date.now();
    const cfMain = await createProvider(t, { name: "cf-main" });
    const cfOff = await createProvider(t, { name: "cf-off", is_enabled: false });
    const dynu = await createProvider(t, { name: "dynu-main", type: "dynu" });
    const cfEmpty = await createProvider(t, { name: "cf-empty" });
    const home = await createDomain(t, cfMain.id, { domain_name: "home.example.com" });
    const lab = await createDomain(t, cfMain.id, { domain_name: "lab.example.com", is_enabled: false });
    const office = await createDomain(t, cfOff.id, { domain_name: "office.example.com" });
    const vpn = await createDomain(t, dynu.id, { domain_name: "vpn.example.net" });
    ids = {
      cfMain: cfMain.id,
      cfOff: cfOff.id,
      dynu: dynu.id,
      cfEmpty: cfEmpty.id,
      home: home.id,
      lab: lab.id,
      office: office.id,
      vpn: vpn.id,
    };

    // Inside the last 24 hours: 6 rows, of which 5 updates (a failed detection has no address and is
    // no provider's update), 1 failed, 3 distinct addresses.
    insertHistory(t, home.id, { status: "SUCCESS", ip: "203.0.113.1", durationMs: 100, ageMs: 1 * HOUR }, now);
    insertHistory(t, home.id, { status: "FAILED", ip: null, durationMs: 300, ageMs: 2 * HOUR }, now);
    insertHistory(t, lab.id, { status: "SUCCESS", ip: "203.0.113.2", durationMs: 200, ageMs: 3 * HOUR }, now);
    insertHistory(t, office.id, { status: "FAILED", ip: "198.51.100.7", durationMs: 1000, ageMs: 23 * HOUR }, now);
    insertHistory(t, vpn.id, { status: "SUCCESS", ip: "203.0.113.1", durationMs: 50, ageMs: 0.5 * HOUR }, now);
    insertHistory(t, vpn.id, { status: "SUCCESS", ip: "203.0.113.1", durationMs: 151, ageMs: 10 * HOUR }, now);
    // Outside: never counted in the 24 h figures.
    insertHistory(t, home.id, { status: "SUCCESS", ip: "192.0.2.50", durationMs: 9000, ageMs: 25 * HOUR }, now);
    insertHistory(t, vpn.id, { status: "FAILED", ip: "192.0.2.51", durationMs: 9000, ageMs: 48 * HOUR }, now);
    insertHistory(
      t,
      office.id,
      { status: "FAILED", ip: "192.0.2.52", durationMs: 9000, ageMs: 24 * HOUR + 60_000 },
      now,
    );
  });

  test("dashboard", async () => {
    const response = await t.request("GET", "/api/v1/metrics/dashboard");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      total_domains: 4,
      active_domains: 2, // home and vpn: lab is disabled, office's provider is
      total_providers: 4,
      active_providers: 3,
      total_updates_24h: 5,
      failed_updates_24h: 1,
      success_rate_24h: 80,
      unique_ips_24h: 3,
      last_update_time: new Date(now - 0.5 * HOUR).toISOString(),
      providers_stats: [
        { type: "cloudflare", count: 3, active: 2 },
        { type: "dynu", count: 1, active: 1 },
      ],
    });
    expect(response.body.last_update_time).toMatch(ISO_UTC);
  });

  test("provider-stats", async () => {
    const response = await t.request("GET", "/api/v1/metrics/provider-stats");
    expect(response.status).toBe(200);
    expect(response.body.total_providers).toBe(4);
    expect(response.body.providers).toEqual([
      {
        provider_id: ids.cfMain,
        provider_name: "cf-main",
        provider_type: "cloudflare",
        is_enabled: true,
        total_domains: 2,
        // home's failed detection is not cf-main's failure.
        updates_24h: 2,
        successful_updates_24h: 2,
        failed_updates_24h: 0,
        success_rate_24h: 100,
        avg_duration_ms_24h: 150,
        last_update_time: new Date(now - 1 * HOUR).toISOString(),
      },
      {
        provider_id: ids.cfOff,
        provider_name: "cf-off",
        provider_type: "cloudflare",
        is_enabled: false,
        total_domains: 1,
        updates_24h: 1,
        successful_updates_24h: 0,
        failed_updates_24h: 1,
        success_rate_24h: 0,
        avg_duration_ms_24h: 1000,
        last_update_time: new Date(now - 23 * HOUR).toISOString(),
      },
      {
        provider_id: ids.dynu,
        provider_name: "dynu-main",
        provider_type: "dynu",
        is_enabled: true,
        total_domains: 1,
        updates_24h: 2,
        successful_updates_24h: 2,
        failed_updates_24h: 0,
        success_rate_24h: 100,
        avg_duration_ms_24h: 100.5,
        last_update_time: new Date(now - 0.5 * HOUR).toISOString(),
      },
      {
        provider_id: ids.cfEmpty,
        provider_name: "cf-empty",
        provider_type: "cloudflare",
        is_enabled: true,
        total_domains: 0,
        updates_24h: 0,
        successful_updates_24h: 0,
        failed_updates_24h: 0,
        success_rate_24h: null,
        avg_duration_ms_24h: null,
        last_update_time: null,
      },
    ]);
  });

  const RATES: { name: string; rows: ("SUCCESS" | "FAILED")[]; rate: number }[] = [
    { name: "1 of 3", rows: ["SUCCESS", "FAILED", "FAILED"], rate: 33.3 },
    { name: "2 of 3", rows: ["SUCCESS", "SUCCESS", "FAILED"], rate: 66.7 },
    { name: "1 of 8", rows: ["SUCCESS", ...Array<"FAILED">(7).fill("FAILED")], rate: 12.5 },
    { name: "5 of 6", rows: [...Array<"SUCCESS">(5).fill("SUCCESS"), "FAILED"], rate: 83.3 },
    { name: "all", rows: ["SUCCESS", "SUCCESS"], rate: 100 },
    { name: "none", rows: ["FAILED"], rate: 0 },
  ];
  for (const { name, rows, rate } of RATES) {
    test(`success rate ${name} → ${rate} (one decimal)`, async () => {
      resetData(t);
      const provider = await createProvider(t);
      const domain = await createDomain(t, provider.id);
      for (const status of rows) insertHistory(t, domain.id, { status });
      expect((await t.request("GET", "/api/v1/metrics/dashboard")).body.success_rate_24h).toBe(rate);
      expect((await t.request("GET", "/api/v1/metrics/provider-stats")).body.providers[0].success_rate_24h).toBe(rate);
    });
  }

  test("disabling a provider moves its domains out of active_domains", async () => {
    await t.request("PUT", `/api/v1/providers/${ids.dynu}`, { body: { is_enabled: false } });
    const body = (await t.request("GET", "/api/v1/metrics/dashboard")).body;
    expect(body.active_domains).toBe(1);
    expect(body.active_providers).toBe(2);
    expect(body.providers_stats).toEqual([
      { type: "cloudflare", count: 3, active: 2 },
      { type: "dynu", count: 1, active: 0 },
    ]);
  });
});
