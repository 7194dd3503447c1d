// The updater suites' rig: the real app (makeTestApp) pointed at the three fakes, plus small helpers
// to add providers and domains through the API, make domains due, and read what happened.

import { afterAll, beforeAll, beforeEach, expect } from "bun:test";
import { type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { type DynuFake, startDynuFake } from "../fakes/dynu";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import type { FakeServer } from "../fakes/server";
import { waitFor } from "../fakes/server";
import { makeTestApp, type TestApp } from "../support";

export { waitFor };

/** Globally routable addresses (detection refuses documentation ranges) that tests switch to. */
export const NEXT_IPV4 = "185.103.110.199";
export const NEXT_IPV6 = "2a01:4f8:c17:b8f::99";
/** What records hold before ddnsd first writes them (any valid address will do for the fakes). */
export const OLD_IPV4 = "198.51.100.1";
export const OLD_IPV6 = "2001:db8::1";

export interface Rig {
  cf: CloudflareFake;
  dynu: DynuFake;
  echo: EchoFake;
  t: TestApp;
  /** The env handed to makeTestApp, to reopen the same data dir or spawn the CLI with it. */
  env: Record<string, string>;
  /** A clean slate between tests: fresh fakes (same ports), no providers, domains or history. */
  reset(): void;
  stop(): Promise<void>;
}

export interface RigOptions {
  /** Extra settings; a function sees the fakes (for URLs of other echo paths). */
  env?:
    | Record<string, string>
    | ((fakes: { cf: CloudflareFake; dynu: DynuFake; echo: EchoFake }) => Record<string, string>);
  dataDir?: string;
  dynu?: Parameters<typeof startDynuFake>[0];
  cloudflare?: Parameters<typeof startCloudflareFake>[0];
}

function fakeEnv(cf: CloudflareFake, dynu: DynuFake, echo: EchoFake): Record<string, string> {
  return {
    DDNS_CLOUDFLARE_API_URL: cf.url,
    DDNS_DYNU_API_URL: dynu.url,
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    DDNS_IPV6_URLS: `${echo.url}/v6`,
  };
}

export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const cf = startCloudflareFake(options.cloudflare);
  const dynu = startDynuFake(options.dynu);
  const echo = startEchoFake();
  const extra = typeof options.env === "function" ? options.env({ cf, dynu, echo }) : options.env;
  const env = { ...fakeEnv(cf, dynu, echo), ...extra };
  const t = await makeTestApp(env, options.dataDir);
  return {
    cf,
    dynu,
    echo,
    t,
    env,
    reset() {
      cf.reset();
      dynu.reset();
      echo.reset();
      t.ctx.sqlite.exec("DELETE FROM history; DELETE FROM domains; DELETE FROM providers;");
      t.ctx.publicIp.ipv4 = t.ctx.publicIp.ipv6 = t.ctx.publicIp.checkedAt = null;
    },
    async stop() {
      await t.ctx.scheduler.stop(5_000);
      t.ctx.sqlite.close();
      await Promise.all([cf.stop(), dynu.stop(), echo.stop()]);
    },
  };
}

/**
 * One rig for the file or describe block (the app's admin password hash and login cost a few hundred
 * ms, too much per test), reset before each test. Read `rig()` inside tests and hooks.
 */
export function useRig(options: RigOptions = {}): () => Rig {
  let rig: Rig | undefined;
  beforeAll(async () => {
    rig = await startRig(options);
    await rig.t.token();
  });
  beforeEach(() => rig!.reset());
  afterAll(async () => {
    await rig?.stop();
  });
  return () => rig!;
}

/** Creates a provider through the API; credentials default to those the fakes accept. */
export async function addProvider(
  t: TestApp,
  type: "cloudflare" | "dynu",
  fields: { name?: string; credential?: string; is_enabled?: boolean } = {},
): Promise<{ id: number; name: string }> {
  const credential =
    fields.credential ?? (type === "cloudflare" ? "cf-fake-token-0123456789abcdef" : "dynu-fake-key-0123456789abcdef");
  const response = await t.request("POST", "/api/v1/providers", {
    body: {
      name: fields.name ?? `${type}-${crypto.randomUUID().slice(0, 6)}`,
      type,
      credentials: type === "cloudflare" ? { api_token: credential } : { api_key: credential },
      ...(fields.is_enabled === undefined ? {} : { is_enabled: fields.is_enabled }),
    },
  });
  expect(response.status).toBe(200);
  return response.body;
}

export async function addDomain(
  t: TestApp,
  providerId: number,
  domainName: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: number; domain_name: string; record_type: string }> {
  const response = await t.request("POST", "/api/v1/domains", {
    body: { provider_id: providerId, domain_name: domainName, ...fields },
  });
  expect(response.status).toBe(200);
  return response.body;
}

export async function getDomain(t: TestApp, id: number): Promise<any> {
  const response = await t.request("GET", `/api/v1/domains/${id}`);
  expect(response.status).toBe(200);
  return response.body;
}

export async function historyOf(t: TestApp, id: number): Promise<any[]> {
  const response = await t.request("GET", `/api/v1/domains/${id}/history?limit=100`);
  expect(response.status).toBe(200);
  return response.body;
}

export function forceUpdate(t: TestApp, id: number) {
  return t.request("POST", `/api/v1/domains/${id}/update_ip`);
}

/** Pretends the domains' schedules came round: every enabled domain (or those given) is due now. */
export function makeDue(t: TestApp, ids?: number[]): void {
  // The facts a check that changed nothing holds in memory are dropped once the stored next run is
  // no longer the one they were held over; a next run set to the same millisecond as before (a check
  // a moment ago) would leave them, and their later next run, in place. Written first, none is held.
  t.ctx.store.domains.writeHeld();
  const now = Date.now();
  if (ids === undefined) t.ctx.sqlite.query("UPDATE domains SET next_run_at = ? WHERE is_enabled = 1").run(now);
  else for (const id of ids) t.ctx.sqlite.query("UPDATE domains SET next_run_at = ? WHERE id = ?").run(now, id);
}

/** Makes every enabled domain due and runs one real scheduler pass. */
export function duePass(t: TestApp) {
  makeDue(t);
  return t.ctx.scheduler.runPass();
}

/** A domain's state as the appliance sees it: its row with what a check holds in memory laid over (the store's reads). */
export function domainState(t: TestApp, id: number) {
  const row = t.ctx.store.domains.find(id)!;
  return {
    next_run_at: row.nextRunAt,
    failure_count: row.failureCount,
    last_update_status: row.lastUpdateStatus,
    last_known_ip: row.lastKnownIp,
    last_checked_at: row.lastCheckedAt,
  };
}

export function historyRows(t: TestApp, id?: number): number {
  const row =
    id === undefined
      ? t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM history").get()
      : t.ctx.sqlite.query<{ n: number }, [number]>("SELECT count(*) AS n FROM history WHERE domain_id = ?").get(id);
  return row!.n;
}

/**
 * `next_run_at` (or a pause's end) is `seconds` after the moment the outcome was recorded, which lies
 * between `from` (ms, taken before the run) and now. Bounded by those two clock readings rather than
 * by a fixed slack, so a slow run on a loaded machine cannot push it out of range.
 */
export function expectDelay(nextRunAt: number | null, from: number, seconds: number): void {
  expect(nextRunAt).not.toBeNull();
  expect(nextRunAt!).toBeGreaterThanOrEqual(from + seconds * 1000);
  expect(nextRunAt!).toBeLessThanOrEqual(Date.now() + seconds * 1000);
}

/** Waits (at most 5 s) until `fake` is answering a request, e.g. one held by a `{delayMs}` fault. */
export function untilInFlight(fake: FakeServer<unknown>, what: string): Promise<void> {
  return waitFor(() => fake.inFlight() > 0, 5_000, `a request in flight at ${what}`);
}

/**
 * `next_run_at` is the domain's next run on the DDNS_UPDATE_INTERVAL grid (the first multiple of the
 * interval after the check, which finished between `from` and now).
 */
export function expectIntervalRun(nextRunAt: number | null, from: number, intervalSeconds: number): void {
  const grid = intervalSeconds * 1000;
  const after = (t: number) => (Math.floor(t / grid) + 1) * grid;
  expect(nextRunAt).not.toBeNull();
  expect([after(from), after(Date.now())]).toContain(nextRunAt!);
}
