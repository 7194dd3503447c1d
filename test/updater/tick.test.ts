// The scheduler's real timer (createApp(ctx, {schedule: true})) with DDNS_UPDATE_INTERVAL=2s:
// new domains are written at once, nothing is written while the IP stays, and after an IP change
// every record follows within one interval plus one second.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApp } from "../../src/app";
import { ECHO_DEFAULT_IPV4, ECHO_DEFAULT_IPV6 } from "../fakes/echo";
import {
  addDomain,
  addProvider,
  NEXT_IPV4,
  NEXT_IPV6,
  OLD_IPV4,
  OLD_IPV6,
  type Rig,
  startRig,
  waitFor,
} from "./harness";

const INTERVAL_MS = 2_000;
/**
 * The requirement is "within one interval plus one second" (docs/api.md, automatic updates: at most 1 s late). On top of
 * it, time for the pass itself — detection and 8 provider writes against local fakes, a few ms on an
 * idle machine — and for a loaded 2-core CI runner, where the timer's wake-up, the fakes' answers
 * and the test's own polling all queue behind other work; 1.5 s covers that without hiding a missed tick
 * (a record left for the next tick would take a whole further interval, 2 s).
 */
const ALLOWANCE_MS = 1_500;

let rig: Rig;

beforeAll(async () => {
  rig = await startRig({ env: { DDNS_UPDATE_INTERVAL: "2s" } });
});

afterAll(async () => {
  expect(await rig.t.ctx.scheduler.stop(5_000)).toBe(true);
  await rig.stop();
});

function records(): (string | undefined)[] {
  const { cf, dynu } = rig;
  return [
    cf.record("home.example.com", "A")?.content,
    cf.record("home.example.com", "AAAA")?.content,
    cf.record("new.example.com", "A")?.content,
    dynu.domain("example.org")?.ipv4Address,
    dynu.domain("example.org")?.ipv6Address,
    dynu.record("www.example.org", "A")?.ipv4Address,
    dynu.record("www.example.org", "AAAA")?.ipv6Address,
    dynu.domain("x.freeddns.org")?.ipv4Address,
  ];
}

const expected = (ipv4: string, ipv6: string) => [ipv4, ipv6, ipv4, ipv4, ipv6, ipv4, ipv6, ipv4];

test("every record follows an IP change within one interval plus one second", async () => {
  const { cf, dynu, echo, t } = rig;
  cf.addZone("example.com");
  cf.addRecord("example.com", { type: "A", name: "home", content: OLD_IPV4 });
  cf.addRecord("example.com", { type: "AAAA", name: "home", content: OLD_IPV6 });
  dynu.addDomain("example.org", { ipv4Address: OLD_IPV4, ipv6Address: OLD_IPV6, ipv6: true });
  dynu.addRecord("example.org", { nodeName: "www", recordType: "A", ipv4Address: OLD_IPV4, ttl: 600 });
  dynu.addRecord("example.org", { nodeName: "www", recordType: "AAAA", ipv6Address: OLD_IPV6, ttl: 600 });
  dynu.addDomain("x.freeddns.org", { ipv4Address: OLD_IPV4 });
  const cloudflare = await addProvider(t, "cloudflare");
  const dynuProvider = await addProvider(t, "dynu");
  for (const [id, name, type] of [
    [cloudflare.id, "home.example.com", "A"],
    [cloudflare.id, "home.example.com", "AAAA"],
    [cloudflare.id, "new.example.com", "A"],
    [dynuProvider.id, "example.org", "A"],
    [dynuProvider.id, "example.org", "AAAA"],
    [dynuProvider.id, "www.example.org", "A"],
    [dynuProvider.id, "www.example.org", "AAAA"],
    [dynuProvider.id, "x.freeddns.org", "A"],
  ] as const) {
    await addDomain(t, id, name, { record_type: type });
  }

  createApp(t.ctx, { schedule: true });
  expect(t.ctx.scheduler.running).toBe(true);

  // New domains are due at once: the wake-up their save caused writes them all.
  await waitFor(
    () => records().join() === expected(ECHO_DEFAULT_IPV4, ECHO_DEFAULT_IPV6).join(),
    1_000 + ALLOWANCE_MS + 500,
    "the next tick to write every new domain",
  );

  // A full interval and more with the same IP: checks run (echo asked), nothing is written.
  const writes = cf.writes() + dynu.writes();
  const echoHits = echo.requests.length;
  await Bun.sleep(INTERVAL_MS + 1_200);
  expect(cf.writes() + dynu.writes()).toBe(writes);
  expect(echo.requests.length).toBeGreaterThan(echoHits);

  echo.ipv4 = NEXT_IPV4;
  echo.ipv6 = NEXT_IPV6;
  const changedAt = performance.now();
  // Waited for longer than the bound, so a late follow shows as "too late" with its time, not as a timeout.
  await waitFor(
    () => records().join() === expected(NEXT_IPV4, NEXT_IPV6).join(),
    INTERVAL_MS + 1_000 + ALLOWANCE_MS + 2_000,
    "every record to follow the IP change",
  );
  const elapsed = performance.now() - changedAt;
  expect(elapsed).toBeLessThanOrEqual(INTERVAL_MS + 1_000 + ALLOWANCE_MS);
  // Each record written once for the change, no more.
  expect(cf.writes() + dynu.writes() - writes).toBe(8);
  // The fake holds the address as soon as it answers; the history row follows once the updater has the answer.
  const rows = () =>
    t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM history WHERE trigger = 'schedule'").get()!.n;
  await waitFor(() => rows() >= 16, 2_000, "the history rows of the last writes");
  expect(rows()).toBe(16);
});

test("stopping the scheduler ends the checks", async () => {
  expect(await rig.t.ctx.scheduler.stop(5_000)).toBe(true);
  expect(rig.t.ctx.scheduler.running).toBe(false);
  const hits = rig.echo.requests.length;
  rig.t.ctx.sqlite.query("UPDATE domains SET next_run_at = 0").run();
  rig.t.ctx.scheduler.tick(); // a tick that slips through after stop is a no-op
  await Bun.sleep(1_200);
  expect(rig.echo.requests.length).toBe(hits);
});
