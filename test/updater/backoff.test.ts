// Retries after failures (30 s, 1 m, 2 m … capped at the domain's interval, reset by a success) and a
// provider's 429 Retry-After, which pauses that provider for all its domains and no other provider.

import { beforeEach, describe, expect, test } from "bun:test";
import { ECHO_DEFAULT_IPV4 } from "../fakes/echo";
import {
  addDomain,
  addProvider,
  domainState,
  duePass,
  expectDelay,
  expectIntervalRun,
  forceUpdate,
  historyOf,
  makeDue,
  type Rig,
  useRig,
} from "./harness";

function pausedUntil(rig: Rig, providerId: number): number | null {
  return rig.t.ctx.sqlite
    .query<{ paused_until: number | null }, [number]>("SELECT paused_until FROM providers WHERE id = ?")
    .get(providerId)!.paused_until;
}

describe("backoff after failures", () => {
  const current = useRig({ env: { DDNS_UPDATE_INTERVAL: "2m" } });
  let rig: Rig;
  beforeEach(() => {
    rig = current();
    rig.cf.addZone("example.com");
  });

  const sequences = [
    { name: "every DDNS_UPDATE_INTERVAL (2m)", cron: null, delays: [30, 60, 120, 120], interval: 120 },
    { name: "a cron schedule every minute", cron: "* * * * *", delays: [30, 60, 60], interval: null },
  ];

  for (const s of sequences) {
    test(`${s.name}: ${s.delays.map((d) => `${d}s`).join(", ")}, then back on schedule after a success`, async () => {
      const provider = await addProvider(rig.t, "cloudflare");
      const domain = await addDomain(rig.t, provider.id, "home.example.com", { cron_schedule: s.cron });
      rig.cf.fault({ status: 500 });
      for (const [i, seconds] of s.delays.entries()) {
        const before = Date.now();
        const [outcome] = await duePass(rig.t);
        expect(outcome?.result).toBe("failed");
        const state = domainState(rig.t, domain.id);
        expect(state.failure_count).toBe(i + 1);
        expectDelay(state.next_run_at, before, seconds);
      }
      // The same failure every pass: one history row that counts them.
      expect((await historyOf(rig.t, domain.id)).map((row: { repeat_count: number }) => row.repeat_count)).toEqual([
        s.delays.length,
      ]);

      rig.cf.clearFaults();
      const before = Date.now();
      expect((await duePass(rig.t))[0]?.result).toBe("updated");
      const state = domainState(rig.t, domain.id);
      expect(state.failure_count).toBe(0);
      if (s.interval !== null) expectIntervalRun(state.next_run_at, before, s.interval);
      else expect(state.next_run_at! % 60_000).toBe(0); // the next whole minute

      // A new failure starts again from 30 s.
      rig.cf.fault({ status: 500 });
      rig.echo.ipv4 = "185.103.110.200";
      const again = Date.now();
      expect((await duePass(rig.t))[0]?.result).toBe("failed");
      expectDelay(domainState(rig.t, domain.id).next_run_at, again, 30);
    });
  }

  test("the backoff never exceeds a short interval (1m: 30s, 60s, 60s)", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    rig.t.ctx.settings.updateIntervalSeconds = 60;
    try {
      const domain = await addDomain(rig.t, provider.id, "home.example.com");
      rig.cf.fault({ status: 503 });
      for (const seconds of [30, 60, 60]) {
        const before = Date.now();
        await duePass(rig.t);
        expectDelay(domainState(rig.t, domain.id).next_run_at, before, seconds);
      }
    } finally {
      rig.t.ctx.settings.updateIntervalSeconds = 120;
    }
  });

  test("a detection failure backs off the same way and calls no provider", async () => {
    const provider = await addProvider(rig.t, "cloudflare");
    const domain = await addDomain(rig.t, provider.id, "home.example.com");
    rig.echo.fault({ status: 503 });
    for (const seconds of [30, 60]) {
      const before = Date.now();
      expect((await duePass(rig.t))[0]).toMatchObject({ result: "failed", failure: "detection" });
      expectDelay(domainState(rig.t, domain.id).next_run_at, before, seconds);
    }
    expect(rig.cf.requests).toHaveLength(0);
  });
});

describe("a provider's 429 Retry-After", () => {
  const current = useRig({ env: { DDNS_UPDATE_CONCURRENCY: "1" } });
  let rig: Rig;
  beforeEach(() => {
    rig = current();
    rig.cf.addZone("example.com");
  });

  test("pauses that provider for all its domains; other providers carry on", async () => {
    const cloudflare = await addProvider(rig.t, "cloudflare");
    const dynu = await addProvider(rig.t, "dynu");
    const cfDomains = [];
    for (const name of ["a", "b", "c"]) cfDomains.push(await addDomain(rig.t, cloudflare.id, `${name}.example.com`));
    for (const name of ["x", "y"]) {
      rig.dynu.addDomain(`${name}.freeddns.org`);
      await addDomain(rig.t, dynu.id, `${name}.freeddns.org`);
    }
    // The first Cloudflare request is throttled; the service would answer the next ones.
    rig.cf.fault({ status: 429, retryAfter: 120 }, 1);
    const started = Date.now();

    const outcomes = await rig.t.ctx.scheduler.runPass();
    const cf = outcomes.filter((o) => o.hostname.endsWith(".example.com"));
    const dy = outcomes.filter((o) => o.hostname.endsWith(".freeddns.org"));
    expect(dy.map((o) => o.result)).toEqual(["updated", "updated"]);
    expect(cf.map((o) => o.result)).toEqual(["failed", "failed", "failed"]);
    // Only the throttled request reached Cloudflare: the domains queued behind it were not called.
    expect(rig.cf.requests).toHaveLength(1);
    expect(cf.filter((o) => o.message.includes("(code 971, HTTP 429)"))).toHaveLength(1);
    expect(cf.filter((o) => /rate limited.*not called/.test(o.message))).toHaveLength(2);

    const until = pausedUntil(rig, cloudflare.id)!;
    expectDelay(until, started, 120);
    expect(pausedUntil(rig, dynu.id)).toBeNull();
    for (const domain of cfDomains) {
      expect(domainState(rig.t, domain.id).next_run_at).toBeGreaterThanOrEqual(until);
      expect((await historyOf(rig.t, domain.id))[0]).toMatchObject({ status: "FAILED", ip_address: ECHO_DEFAULT_IPV4 });
    }

    // While paused, due Cloudflare domains are left alone; Dynu's are checked as usual.
    rig.dynu.clearRequests();
    makeDue(rig.t);
    const during = await rig.t.ctx.scheduler.runPass();
    expect(during.map((o) => o.hostname).sort()).toEqual(["x.freeddns.org", "y.freeddns.org"]);
    expect(rig.cf.requests).toHaveLength(1);

    // A forced update is refused honestly, without calling.
    const forced = await forceUpdate(rig.t, cfDomains[0]!.id);
    expect(forced.status).toBe(502);
    expect(forced.body.detail).toContain("rate limited");
    expect(forced.body.detail).toContain(new Date(until).toISOString());
    expect(rig.cf.requests).toHaveLength(1);

    // Once the pause is over, they are written.
    rig.t.ctx.sqlite.query("UPDATE providers SET paused_until = ? WHERE id = ?").run(Date.now() - 1, cloudflare.id);
    makeDue(rig.t);
    const after = await rig.t.ctx.scheduler.runPass();
    expect(after.filter((o) => o.hostname.endsWith(".example.com")).map((o) => o.result)).toEqual([
      "updated",
      "updated",
      "updated",
    ]);
  });

  test("a 429 without Retry-After still pauses Cloudflare for a minute", async () => {
    const cloudflare = await addProvider(rig.t, "cloudflare");
    await addDomain(rig.t, cloudflare.id, "a.example.com");
    rig.cf.fault({ status: 429 }, 1);
    const started = Date.now();
    await rig.t.ctx.scheduler.runPass();
    expectDelay(pausedUntil(rig, cloudflare.id), started, 60);
  });
});

describe('one burst of "slow down" answers', () => {
  const current = useRig();
  let rig: Rig;
  beforeEach(() => {
    rig = current();
    rig.cf.addZone("example.com");
  });

  test("writes in flight together that are all told to slow down pause the provider once, a minute, not doubled for each", async () => {
    const cloudflare = await addProvider(rig.t, "cloudflare");
    for (const name of ["a", "b", "c"]) await addDomain(rig.t, cloudflare.id, `${name}.example.com`);
    rig.cf.fault({ status: 429 }, 3);
    const started = Date.now();
    const outcomes = await rig.t.ctx.scheduler.runPass();
    expect(outcomes.map((o) => o.result)).toEqual(["failed", "failed", "failed"]);
    expectDelay(pausedUntil(rig, cloudflare.id), started, 60);
    // Each history row says the pause in force, not one of its own.
    for (const outcome of outcomes) expect(outcome.message).toMatch(/; pausing (59|60) s$/);
  });
});
