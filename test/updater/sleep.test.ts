// The scheduler's sleep, on a fake clock (src/updater/timer.ts's Clock): it sleeps until the next due
// time — a domain's next run, a provider's pause end — or a minute at most, any write to the database
// wakes it to plan again, and a wake-up that finds the wall clock moved against the monotonic clock
// says so and recomputes the schedules. No test here waits for real time.

import { afterEach, beforeEach, expect, test } from "bun:test";
import { FAILED_PASS_RETRY_MS, SAFETY_WAKE_UP_MS, Scheduler, type SchedulerControl } from "../../src/updater/scheduler";
import type { Clock } from "../../src/updater/timer";
import { addDomain, addProvider, domainState, useRig, waitFor } from "./harness";

const TWO_DAYS = 2 * 86_400_000;

/** Wall and monotonic time that move only when told; timeouts fire as `advance` passes them. */
class FakeClock implements Clock {
  wallMs = Date.now();
  monotonicMs = 1_000;
  private readonly timers = new Map<number, { at: number; fire: () => void }>();
  private nextId = 1;

  wall = () => this.wallMs;
  monotonic = () => this.monotonicMs;
  setTimeout = (fire: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.set(id, { at: this.monotonicMs + ms, fire });
    return id;
  };
  clearTimeout = (handle: unknown) => void this.timers.delete(handle as number);

  /** Moves both clocks on by `ms`, firing each timeout that falls due on the way, in order. */
  advance(ms: number): void {
    const end = this.monotonicMs + ms;
    for (;;) {
      const next = [...this.timers.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (next === undefined || next[1].at > end) break;
      this.timers.delete(next[0]);
      this.wallMs += next[1].at - this.monotonicMs;
      this.monotonicMs = next[1].at;
      next[1].fire();
    }
    this.wallMs += end - this.monotonicMs;
    this.monotonicMs = end;
  }
}

const rig = useRig({ env: { DDNS_UPDATE_INTERVAL: "5m" } });
let clock: FakeClock;
let scheduler: Scheduler;
let original: SchedulerControl;
let logsBefore = 0;

/** The log lines written during this test. */
const logs = () => rig().t.logs.slice(logsBefore);

beforeEach(() => {
  const { t } = rig();
  logsBefore = t.logs.length;
  clock = new FakeClock();
  original = t.ctx.scheduler;
  scheduler = new Scheduler(t.ctx, clock);
  // The database's writes wake whatever scheduler the context holds.
  t.ctx.scheduler = scheduler;
});

afterEach(async () => {
  await scheduler.stop(5_000);
  rig().t.ctx.scheduler = original;
});

/** A domain (on a provider of its own) due at `nextRunAt`. */
async function domainDueAt(nextRunAt: number, name = "home.example.com", enabled = true) {
  const { t } = rig();
  const provider = await addProvider(t, "cloudflare", { is_enabled: enabled });
  const domain = await addDomain(t, provider.id, name);
  t.ctx.sqlite.query("UPDATE domains SET next_run_at = ? WHERE id = ?").run(nextRunAt, domain.id);
  return { provider, domain };
}

test("it sleeps until the earliest next run", async () => {
  await domainDueAt(clock.wallMs + 40_000, "later.example.com");
  await domainDueAt(clock.wallMs + 25_000, "sooner.example.com");
  scheduler.start({ timer: true });
  expect(scheduler.sleepingMs).toBe(25_000);
});

test("it sleeps a minute at most, however far the next run", async () => {
  await domainDueAt(clock.wallMs + 5 * 60_000);
  scheduler.start({ timer: true });
  expect(scheduler.sleepingMs).toBe(SAFETY_WAKE_UP_MS);
  clock.advance(SAFETY_WAKE_UP_MS);
  // The safety wake-up found nothing due and sleeps again, until the run or the next minute.
  expect(scheduler.sleepingMs).toBe(SAFETY_WAKE_UP_MS);
  clock.advance(3 * SAFETY_WAKE_UP_MS);
  expect(scheduler.sleepingMs).toBe(SAFETY_WAKE_UP_MS);
});

test("a provider's pause holds its domains until the pause ends", async () => {
  const { t } = rig();
  const { provider } = await domainDueAt(clock.wallMs + 10_000);
  t.ctx.sqlite.query("UPDATE providers SET paused_until = ? WHERE id = ?").run(clock.wallMs + 45_000, provider.id);
  scheduler.start({ timer: true });
  expect(scheduler.sleepingMs).toBe(45_000);
});

test("disabled domains and providers do not wake it", async () => {
  const { t } = rig();
  const { domain } = await domainDueAt(clock.wallMs + 5_000, "off.example.com");
  t.ctx.sqlite.query("UPDATE domains SET is_enabled = 0 WHERE id = ?").run(domain.id);
  await domainDueAt(clock.wallMs + 7_000, "provider-off.example.com", false);
  scheduler.start({ timer: true });
  expect(scheduler.sleepingMs).toBe(SAFETY_WAKE_UP_MS);
});

test("a write wakes it to plan again: a domain saved due sooner is not left waiting", async () => {
  const { t } = rig();
  await domainDueAt(clock.wallMs + 50_000, "first.example.com");
  scheduler.start({ timer: true });
  expect(scheduler.sleepingMs).toBe(50_000);
  const provider = await addProvider(t, "cloudflare");
  const domain = await addDomain(t, provider.id, "second.example.com");
  t.ctx.sqlite.query("UPDATE domains SET next_run_at = ? WHERE id = ?").run(clock.wallMs + 3_000, domain.id);
  clock.advance(0); // the planning a burst of writes leaves for after itself
  expect(scheduler.sleepingMs).toBe(3_000);
});

test("the clock moved back two days: the next wake-up says so and brings the schedules within reach", async () => {
  const { t } = rig();
  // Checked while the clock was two days ahead: its next run lies two days ahead of the real time.
  clock.wallMs += TWO_DAYS;
  const { domain } = await domainDueAt(clock.wallMs + 4 * 60_000);
  scheduler.start({ timer: true });
  expect(scheduler.sleepingMs).toBe(SAFETY_WAKE_UP_MS);
  clock.advance(10_000);
  clock.wallMs -= TWO_DAYS; // NTP corrects the clock
  clock.advance(SAFETY_WAKE_UP_MS - 10_000);
  expect(logs().some((line) => line.includes("the clock moved back") && line.includes("seconds=172800"))).toBe(true);
  // Due at once: the jump may have happened up to a minute before it was seen.
  expect(domainState(t, domain.id).next_run_at).toBeLessThanOrEqual(clock.wallMs);
});

test("the clock moved forward: the next wake-up says so, and what is now past is checked", async () => {
  const { t } = rig();
  const { domain } = await domainDueAt(clock.wallMs + 4 * 60_000);
  scheduler.start({ timer: true });
  clock.wallMs += 3_600_000;
  clock.advance(SAFETY_WAKE_UP_MS);
  expect(logs().some((line) => line.includes("the clock moved forward") && line.includes("seconds=3600"))).toBe(true);
  await waitFor(
    () => domainState(t, domain.id).last_checked_at !== null,
    5_000,
    "the check of the domain now past due",
  );
});

test("small drifts between the two clocks are no jump", async () => {
  scheduler.start({ timer: true });
  for (let i = 0; i < 5; i++) {
    clock.wallMs += 300; // NTP slewing, a few hundred ms a minute at most
    clock.advance(SAFETY_WAKE_UP_MS);
  }
  expect(logs().some((line) => line.includes("the clock moved"))).toBe(false);
});

test("a pass that fails on the database (not a full disk) is not started again at once: no loop of service calls", async () => {
  const { t } = rig();
  const { domain } = await domainDueAt(clock.wallMs - 1_000);
  const dueAt = (at: number) =>
    t.ctx.sqlite.query("UPDATE domains SET next_run_at = ? WHERE id = ?").run(at, domain.id);
  let passes = 0;
  // A pass that holds its domain while it runs (as a real one claims it), then cannot store its
  // outcome — a card remounted read-only — so the domain is due again when the pass ends.
  const failing = new (class extends Scheduler {
    override async runPass(): Promise<never> {
      passes++;
      dueAt(clock.wallMs + 3_600_000);
      await Bun.sleep(1);
      dueAt(clock.wallMs - 1_000);
      throw new Error("attempt to write a readonly database");
    }
  })(t.ctx, clock);
  t.ctx.scheduler = failing;
  try {
    failing.start({ timer: true });
    clock.advance(0);
    await waitFor(() => logs().some((line) => line.includes("scheduler pass failed")), 2_000, "the failed pass");
    await Bun.sleep(5);
    expect(failing.sleepingMs).toBeGreaterThan(FAILED_PASS_RETRY_MS - 1_000);
    clock.advance(FAILED_PASS_RETRY_MS - 1_000);
    await Bun.sleep(5);
    expect(passes).toBe(1);
    clock.advance(2_000);
    await waitFor(() => passes === 2, 2_000, "the pass after the wait");
  } finally {
    await failing.stop(1_000);
    t.ctx.scheduler = scheduler;
  }
});

test("the asks of written records' name servers run on its wake-ups: it sleeps until the next is due, and asks then, not sooner", async () => {
  const { t } = rig();
  // An ask due 7 s from now on the scheduler's monotonic clock (src/updater/propagation.ts plans them so).
  let dueAt: number | null = clock.monotonicMs + 7_000;
  const askedAt: number[] = [];
  const asks = {
    msUntilDue: () => (dueAt === null ? null : Math.max(0, dueAt - clock.monotonicMs)),
    runDue: () => {
      if (dueAt === null || clock.monotonicMs < dueAt) return;
      askedAt.push(clock.monotonicMs);
      dueAt = null;
    },
    idle: async () => {},
    held: () => {},
  };
  scheduler = new Scheduler({ ...t.ctx, propagation: asks }, clock);
  t.ctx.scheduler = scheduler;
  const started = clock.monotonicMs;
  scheduler.start({ timer: true });
  expect(scheduler.sleepingMs).toBe(7_000);
  clock.advance(6_999);
  expect(askedAt).toEqual([]);
  clock.advance(1);
  expect(askedAt).toEqual([started + 7_000]);
});

test("at its start, the push-only records are asked about, since no scheduled check asks about them", async () => {
  const { t } = rig();
  const provider = await addProvider(t, "cloudflare");
  await addDomain(t, provider.id, "pushed.example.com", { address_source: "push" });
  await addDomain(t, provider.id, "scheduled.example.com");
  t.ctx.sqlite.query("UPDATE domains SET last_known_ip = '203.0.113.7'").run();
  const held: string[] = [];
  const asks = {
    msUntilDue: () => null,
    runDue: () => {},
    idle: async () => {},
    held: (records: readonly { domainName: string; lastKnownIp: string | null }[]) => {
      for (const record of records) held.push(`${record.domainName} ${record.lastKnownIp}`);
    },
  };
  scheduler = new Scheduler({ ...t.ctx, propagation: asks }, clock);
  t.ctx.scheduler = scheduler;
  scheduler.start({ timer: true });
  expect(held).toEqual(["pushed.example.com 203.0.113.7"]);
});

test("stopped, it sleeps no more", async () => {
  await domainDueAt(clock.wallMs + 5_000);
  scheduler.start({ timer: true });
  await scheduler.stop();
  expect(scheduler.sleepingMs).toBeNull();
});
