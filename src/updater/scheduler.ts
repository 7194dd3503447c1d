// The scheduler: every second, the due domains (enabled, provider enabled and not paused,
// `next_run_at <= now`) are checked together, sharing one detection per address family.
// A wall clock that moves back (a board without a real-time clock, then NTP) would leave stored
// times far ahead: at start, and whenever the clock is seen to jump back, they are brought within
// each domain's interval or its cron expression's next run from the corrected clock.

import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import type { AppContext, PassOptions, SchedulerControl } from "../context";
import { domains, providers } from "../db/schema";
import type { RecordType } from "../dns/provider";
import type { Detection, IpFamily } from "../ip/detect";
import { nextScheduledRun } from "./schedule";
import { isDiskFull } from "../db/disk";
import type { UpdateOutcome } from "./outcome";
import { detectFamily, familyOf, runUpdate, storeWaitingOutcomes } from "./update";

/** How far the wall clock must fall behind the monotonic clock between ticks to count as a jump back. */
const CLOCK_JUMP_MS = 2_000;
/** The longest a provider's pause (a 429's Retry-After) may still last after the clock jumped back. */
const LONGEST_PAUSE_AFTER_JUMP_MS = 3_600_000;

export class Scheduler implements SchedulerControl {
  private ticking = false;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Domains claimed by a pass that has not finished with them. */
  private readonly claimed = new Set<number>();
  /** Wall clock minus monotonic clock at the last tick: it drops when the wall clock jumps back. */
  private clockOffset: number | null = null;

  constructor(private readonly ctx: AppContext) {}

  get running(): boolean {
    return this.ticking;
  }

  start(): void {
    this.ticking = true;
    this.guarded("recomputing schedules", () => this.reschedulePastNow(Date.now()));
  }

  /** Runs work whose failure must not stop the ticks: a full disk is noted (and logged once a minute), anything else logged. */
  private guarded(during: string, work: () => void): void {
    try {
      work();
    } catch (error) {
      this.failed(during, error);
    }
  }

  private failed(during: string, error: unknown): void {
    if (isDiskFull(error)) this.ctx.disk.noteFull(during);
    else this.ctx.log.error(`scheduler ${during} failed`, { error: error instanceof Error ? error.message : String(error) });
  }

  /** Called every second by the cron tick; a no-op once stopped. */
  tick(): void {
    if (!this.ticking) return;
    const offset = Date.now() - performance.now();
    if (this.clockOffset !== null && offset < this.clockOffset - CLOCK_JUMP_MS) {
      this.ctx.log.warn("the clock moved back; schedules recomputed", { seconds: Math.round((this.clockOffset - offset) / 1000) });
      this.guarded("recomputing schedules", () => this.reschedulePastNow(Date.now()));
    }
    this.clockOffset = offset;
    this.guarded("storing outcomes kept in memory", () => storeWaitingOutcomes(this.ctx));
    const pass = this.runPass().catch((error: unknown) => this.failed("pass", error));
    this.inFlight.add(pass);
    void pass.finally(() => this.inFlight.delete(pass));
  }

  /** Stops taking new passes and waits (up to `graceMs`) for the running updates to finish. */
  async stop(graceMs = 10_000): Promise<boolean> {
    this.ticking = false;
    if (this.inFlight.size === 0) return true;
    const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), graceMs).unref());
    return Promise.race([Promise.allSettled([...this.inFlight]).then(() => true as const), timeout]);
  }

  /**
   * Brings every stored time within reach of `now`: a `next_run_at` later than the domain's interval
   * (or its cron expression's next run) from now becomes its next scheduled run, and a provider's
   * pause is cut to an hour at most. Backoff retries (never longer than the interval) stay.
   */
  reschedulePastNow(now: number): void {
    const interval = this.ctx.settings.updateIntervalSeconds;
    const rows = this.ctx.sqlite
      .query<{ id: number; cron: string | null; next: number }, [number]>(
        "SELECT id, cron_schedule AS cron, next_run_at AS next FROM domains WHERE next_run_at > ?",
      )
      .all(now);
    const move = this.ctx.sqlite.query<unknown, [number, number]>("UPDATE domains SET next_run_at = ? WHERE id = ?");
    let moved = 0;
    this.ctx.sqlite.transaction(() => {
      for (const row of rows) {
        const latest = row.cron === null ? now + interval * 1000 : nextScheduledRun(row.cron, now, interval);
        if (row.next <= latest) continue;
        move.run(nextScheduledRun(row.cron, now, interval), row.id);
        moved++;
      }
      this.ctx.sqlite
        .query<unknown, [number, number]>("UPDATE providers SET paused_until = ? WHERE paused_until > ?")
        .run(now + LONGEST_PAUSE_AFTER_JUMP_MS, now + LONGEST_PAUSE_AFTER_JUMP_MS);
    })();
    if (moved > 0) this.ctx.log.info("schedules set ahead of the clock brought back", { domains: moved });
  }

  private dueDomains(options: PassOptions, now: number): { id: number; recordType: RecordType }[] {
    const rows = this.ctx.db
      .select({ id: domains.id, recordType: domains.recordType })
      .from(domains)
      .innerJoin(providers, eq(domains.providerId, providers.id))
      .where(
        and(
          eq(domains.isEnabled, true),
          eq(providers.isEnabled, true),
          options.all ? undefined : lte(domains.nextRunAt, now),
          options.all ? undefined : or(isNull(providers.pausedUntil), lte(providers.pausedUntil, now)),
        ),
      )
      .orderBy(asc(domains.nextRunAt), asc(domains.id))
      .all();
    return rows.filter((row) => {
      // A next run decided while the disk was full is only in memory.
      const waitingNextRun = options.all ? undefined : this.ctx.disk.waitingNextRun(row.id);
      if (waitingNextRun !== undefined && (waitingNextRun === null || waitingNextRun > now)) return false;
      return !this.claimed.has(row.id) && !this.ctx.updater.queue.has(row.id);
    });
  }

  /** One pass: checks the due domains (or all enabled ones) and returns what happened to each. */
  async runPass(options: PassOptions = {}): Promise<UpdateOutcome[]> {
    const now = options.now ?? Date.now();
    const due = this.dueDomains(options, now);
    if (due.length === 0) return [];
    for (const { id } of due) this.claimed.add(id);
    const detections = new Map<IpFamily, Promise<Detection>>();
    for (const { recordType } of due) {
      const family = familyOf(recordType);
      if (!detections.has(family)) detections.set(family, detectFamily(this.ctx, family));
    }
    const outcomes = await Promise.all(
      due.map(async ({ id, recordType }) => {
        try {
          return await runUpdate(this.ctx, id, {
            trigger: "schedule",
            force: false,
            detection: detections.get(familyOf(recordType))!,
          });
        } finally {
          this.claimed.delete(id);
        }
      }),
    );
    const results = outcomes.filter((outcome): outcome is UpdateOutcome => outcome !== null);
    if (results.length > 0) this.ctx.events.passed?.(results);
    return results;
  }
}
