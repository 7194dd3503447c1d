// Clock jumps (docs/api.md, limits): a board without a real-time clock can start with its clock days ahead
// and be corrected by NTP. Whether ddnsd is restarted after the correction or keeps running through
// it, no stored next_run_at may keep a domain waiting longer than its interval, or than its cron
// expression's next run from the corrected clock.

import { afterEach, expect, setSystemTime, test } from "bun:test";
import { Cron } from "croner";
import { addDomain, addProvider, domainState, duePass, NEXT_IPV4, useRig } from "../updater/harness";

const TWO_DAYS = 2 * 86_400_000;
const rig = useRig({ env: { DDNS_ALLOW_PRIVATE_IPS: "true", DDNS_UPDATE_INTERVAL: "2s" } });

afterEach(async () => {
  setSystemTime();
  await rig().t.ctx.scheduler.stop(5_000);
});

/** An interval domain and a daily cron domain, checked once while the clock is two days ahead. */
async function checkedTwoDaysAhead() {
  const { cf, t } = rig();
  cf.addZone("example.com");
  const provider = await addProvider(t, "cloudflare");
  const interval = await addDomain(t, provider.id, "home.example.com");
  const daily = await addDomain(t, provider.id, "cron.example.com", { cron_schedule: "30 4 * * *" });
  setSystemTime(Date.now() + TWO_DAYS);
  await duePass(t);
  const ahead = Date.now();
  expect(domainState(t, interval.id).next_run_at!).toBeGreaterThan(ahead);
  expect(domainState(t, daily.id).next_run_at!).toBeGreaterThan(ahead);
  setSystemTime(); // NTP corrects the clock
  return { interval, daily };
}

function expectWithinReach(intervalId: number, dailyId: number) {
  const { t } = rig();
  const now = Date.now();
  expect(domainState(t, intervalId).next_run_at!).toBeLessThanOrEqual(now + 2_000);
  const nextDaily = new Cron("30 4 * * *", { paused: true }).nextRun(new Date(now))!.getTime();
  expect(domainState(t, dailyId).next_run_at!).toBeLessThanOrEqual(nextDaily);
}

test("restarted after the correction: stored times are brought within the interval or the cron's next run", async () => {
  const { interval, daily } = await checkedTwoDaysAhead();
  rig().t.ctx.scheduler.start(); // what a restart does
  expectWithinReach(interval.id, daily.id);
  expect(rig().t.logs.some((line) => line.includes("schedules set ahead of the clock brought back"))).toBe(true);
});

test("running through the correction: the next tick sees the clock fall back and reschedules", async () => {
  const { t } = rig();
  const { interval, daily } = await checkedTwoDaysAhead();
  setSystemTime(Date.now() + TWO_DAYS);
  t.ctx.scheduler.start();
  t.ctx.scheduler.tick(); // a tick with the clock still ahead
  setSystemTime();
  t.ctx.scheduler.tick(); // the first tick after NTP's correction
  expectWithinReach(interval.id, daily.id);
  expect(t.logs.some((line) => line.includes("the clock moved back"))).toBe(true);
});

test("after the correction an address change is written within the interval", async () => {
  const { cf, echo, t } = rig();
  const { interval } = await checkedTwoDaysAhead();
  t.ctx.scheduler.start();
  echo.ipv4 = NEXT_IPV4;
  setSystemTime(Date.now() + 2_100); // the interval passes
  await t.ctx.scheduler.runPass();
  expect(domainState(t, interval.id).last_known_ip).toBe(NEXT_IPV4);
  expect(
    [...cf.records.values()].some((record) => record.name === "home.example.com" && record.content === NEXT_IPV4),
  ).toBe(true);
});

test("a backoff retry already within the interval is left as it is", async () => {
  const { t } = rig();
  const provider = await addProvider(t, "cloudflare");
  const domain = await addDomain(t, provider.id, "keep.example.com");
  const soon = Date.now() + 1_500;
  t.ctx.sqlite.query("UPDATE domains SET next_run_at = ? WHERE id = ?").run(soon, domain.id);
  t.ctx.scheduler.reschedulePastNow(Date.now());
  expect(domainState(t, domain.id).next_run_at).toBe(soon);
});
