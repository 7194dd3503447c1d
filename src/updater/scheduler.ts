// The scheduler: the due domains (enabled, provider enabled and not paused, `next_run_at <= now`)
// are checked together, sharing one detection per address family. Between passes it sleeps on one
// monotonic timer (./timer.ts) until the earliest due time — a domain's next run, a provider's pause
// end, a backoff retry — or a minute at most, and any write to the database (a domain saved, a push,
// a provider edited, an outcome stored: src/db/writes.ts) wakes it to plan again. Idle, it wakes
// once a minute and when something is due, never every second.
// A wall clock that moves (a board without a real-time clock, then NTP) is seen at each wake-up by
// comparing how far the wall clock and the monotonic clock went: when it moved back, stored times
// far ahead are brought within reach of the corrected clock — at start as well, for a restart.

import { isDiskFull } from "../db/disk";
import type { Detection } from "../ip/detect";
import type { DueDomain } from "../store/domains";
import { plural } from "../util/plural";
import { type DeferralParts, storeWaitingOutcomes } from "./deferral";
import type { UpdateOutcome } from "./outcome";
import type { PropagationRounds } from "./propagation";
import { PushWatch, type PushWatchParts } from "./push-stale";
import { nextScheduledRun } from "./schedule";
import { type Clock, systemClock, WakeUpTimer } from "./timer";
import { detectFor, detectionKey, domainSource, runUpdate, type UpdateParts } from "./update";

export interface PassOptions {
  /** Every enabled domain, due or not (`ddnsd check`). */
  all?: boolean;
  now?: number;
}

export interface SchedulerStart {
  /** Run passes on the scheduler's own timer (the server); without it, passes run only when asked. */
  timer?: boolean;
}

/** The scheduler as the rest of the app drives it. */
export interface SchedulerControl {
  readonly running: boolean;
  start(options?: SchedulerStart): void;
  /** Something changed (a write to the database): plan the next wake-up again. */
  wake(): void;
  /** A wake-up: runs what is due now and plans the next one; a no-op once stopped. */
  tick(): void;
  /** Stops taking new passes and waits (up to `graceMs`) for the running updates to finish. */
  stop(graceMs?: number): Promise<boolean>;
  /** One pass: checks the due domains (or all enabled ones) and returns what happened to each. */
  runPass(options?: PassOptions): Promise<UpdateOutcome[]>;
  /** Brings every stored next run within its domain's schedule from `now` (after the clock jumped back). */
  reschedulePastNow(now: number): void;
}

/**
 * What the scheduler reads besides its clock: what the update path reads, the schedules' interval,
 * and the asks of name servers whether they serve a record (./propagation.ts), which run on its wake-ups.
 */
export type SchedulerParts = UpdateParts &
  DeferralParts &
  PushWatchParts & {
    settings: { readonly updateIntervalSeconds: number; readonly pushStaleAfterSeconds: number };
    propagation: PropagationRounds;
  };

/** How far the wall clock must move against the monotonic clock between wake-ups to count as a jump. */
const CLOCK_JUMP_MS = 2_000;
/** The longest a provider's pause (a 429's Retry-After) may still last after the clock jumped back. */
const LONGEST_PAUSE_AFTER_JUMP_MS = 3_600_000;
/** The longest sleep: how late a clock jump is noticed at worst. */
export const SAFETY_WAKE_UP_MS = 60_000;
/** While the disk is full, how often storing the outcomes kept in memory is tried again. */
const DISK_FULL_RETRY_MS = 1_000;
/**
 * After a pass failed on something other than a full disk (a database that refuses writes: a card
 * remounted read-only, a lock held elsewhere), the earliest next pass: the failed domains are still
 * due, and passing again at once would call their services in a loop.
 */
export const FAILED_PASS_RETRY_MS = 30_000;

export class Scheduler implements SchedulerControl {
  private started = false;
  /** Whether the timer runs passes (the server); tests and `ddnsd check` run them themselves. */
  private timed = false;
  private planQueued = false;
  private readonly timer: WakeUpTimer;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Domains claimed by passes that have not finished with them, and by how many. */
  private readonly claimed = new Map<number, number>();
  /** Wall clock minus monotonic clock at the last wake-up: it drops when the wall clock jumps back. */
  private clockOffset: number | null = null;
  /** Monotonic ms before which no new pass starts, after one failed (`FAILED_PASS_RETRY_MS`). */
  private notBefore = 0;
  /** Push-only records gone quiet, told once each (checked at every wake-up). */
  private readonly pushWatch = new PushWatch();
  /** The detection questions (`detectionKey`) failing since an earlier pass: their outage was logged. */
  private readonly failingDetections = new Set<string>();
  /** Monotonic ms of the last live check of the push-only records (`askPushOnly`). */
  private pushOnlyAskedAt = 0;

  constructor(
    private readonly ctx: SchedulerParts,
    private readonly clock: Clock = systemClock,
  ) {
    this.timer = new WakeUpTimer(clock, () => this.tick());
  }

  get running(): boolean {
    return this.started;
  }

  /** Monotonic ms until the timer wakes the scheduler, or null when it is not armed. */
  get sleepingMs(): number | null {
    return this.timer.pendingMs;
  }

  start(options: SchedulerStart = {}): void {
    this.started = true;
    this.timed = options.timer ?? false;
    this.clockOffset = this.clock.wall() - this.clock.monotonic();
    this.guarded("recomputing schedules", () => this.reschedulePastNow(this.clock.wall()));
    // Nothing is known after a start of what the name servers serve: push-only records are asked now.
    this.pushOnlyAskedAt = Number.NEGATIVE_INFINITY;
    this.guarded("asking name servers", () => this.askPushOnly());
    this.plan();
  }

  /**
   * Something changed: plan the next wake-up again, once for a burst of writes and after the work
   * that wrote has finished (a timeout, not a microtask: a failed write is noted as a full disk by
   * the error handling that follows it).
   */
  wake(): void {
    if (!this.started || !this.timed || this.planQueued) return;
    this.planQueued = true;
    this.clock.setTimeout(() => {
      this.planQueued = false;
      this.plan();
    }, 0);
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
    else
      this.ctx.log.error(`scheduler ${during} failed`, {
        error: error instanceof Error ? error.message : String(error),
      });
  }

  /** A wake-up: notices a clock jump, stores outcomes kept in memory, runs the due pass, plans the next wake-up. */
  tick(): void {
    if (!this.started) return;
    this.noticeClockJump();
    this.guarded("storing outcomes kept in memory", () => storeWaitingOutcomes(this.ctx));
    this.guarded("asking name servers", () => this.askPushOnly());
    this.guarded("asking name servers", () => this.ctx.propagation.runDue());
    this.guarded("watching push-only records", () => this.pushWatch.check(this.ctx, this.clock.wall()));
    if (this.clock.monotonic() < this.notBefore) {
      this.plan();
      return;
    }
    const pass = this.runPass().catch((error: unknown) => {
      if (!isDiskFull(error)) this.notBefore = this.clock.monotonic() + FAILED_PASS_RETRY_MS;
      this.failed("pass", error);
    });
    this.inFlight.add(pass);
    void pass.finally(() => {
      this.inFlight.delete(pass);
      this.plan();
    });
    // The pass has claimed its domains by now: the plan waits for the next one after them.
    this.plan();
  }

  /** Stops taking new passes and waits (up to `graceMs`) for the running updates to finish. */
  async stop(graceMs = 10_000): Promise<boolean> {
    this.started = false;
    this.timer.cancel();
    // Asks of name servers under way end within their own timeouts; nothing new starts once stopped.
    const running = [...this.inFlight, this.ctx.propagation.idle()];
    const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), graceMs).unref());
    return Promise.race([Promise.allSettled(running).then(() => true as const), timeout]);
  }

  /**
   * A detection outage is logged once, when it starts, per question asked (a family's system
   * source, or a domain's own), with how many domains wait for it; its end is logged too.
   */
  private async noteDetectionOutages(detections: Map<string, Promise<Detection>>, due: DueDomain[]): Promise<void> {
    for (const [key, asked] of detections) {
      const detection = await asked;
      if (detection.ok) {
        if (this.failingDetections.delete(key)) this.ctx.log.info("detection answers again", { source: key });
        continue;
      }
      if (this.failingDetections.has(key)) continue;
      this.failingDetections.add(key);
      const waiting = due.filter((row) => detectionKey(row) === key).length;
      this.ctx.log.warn(`${detection.error}; ${plural(waiting, "domain")} wait`, { source: key });
    }
  }

  /** Monotonic ms until the push-only records' next live check. */
  private msUntilPushOnlyAsk(): number {
    return Math.max(0, this.pushOnlyAskedAt + this.ctx.settings.updateIntervalSeconds * 1000 - this.clock.monotonic());
  }

  /**
   * No scheduled check writes a push-only record (no detection, no provider call), and a router may
   * push only when its address changes: its live check alone runs at every interval, so what the
   * name servers serve (a secondary gone and back) is followed, as for any other record.
   */
  private askPushOnly(): void {
    if (this.msUntilPushOnlyAsk() > 0) return;
    this.pushOnlyAskedAt = this.clock.monotonic();
    this.ctx.propagation.held(this.ctx.store.domains.pushOnly());
  }

  /** Compares how far the wall clock went with how far the monotonic clock went since the last wake-up. */
  private noticeClockJump(): void {
    const offset = this.clock.wall() - this.clock.monotonic();
    const moved = this.clockOffset === null ? 0 : offset - this.clockOffset;
    this.clockOffset = offset;
    if (Math.abs(moved) < CLOCK_JUMP_MS) return;
    const direction = moved < 0 ? "back" : "forward";
    this.ctx.log.warn(`the clock moved ${direction}; schedules recomputed`, {
      seconds: Math.round(Math.abs(moved) / 1000),
    });
    // Forward, stored times are simply past and fall due now; back, they are brought within reach.
    this.guarded("recomputing schedules", () => this.reschedulePastNow(this.clock.wall()));
  }

  /** Arms the timer for the earliest due time (now if something is due), a minute at most. */
  private plan(): void {
    if (!this.started || !this.timed) return;
    let delay = SAFETY_WAKE_UP_MS;
    if (this.ctx.disk.full || this.ctx.disk.waiting) delay = DISK_FULL_RETRY_MS;
    try {
      const due = this.earliestDue();
      if (due !== null) delay = Math.min(delay, Math.max(0, due - this.clock.wall()));
      const ask = this.ctx.propagation.msUntilDue();
      if (ask !== null) delay = Math.min(delay, ask);
      delay = Math.min(delay, this.msUntilPushOnlyAsk());
    } catch (error) {
      this.failed("planning", error);
    }
    this.timer.in(Math.max(delay, this.notBefore - this.clock.monotonic()));
  }

  /**
   * When the next domain falls due (its next run, or its provider's pause end if later), leaving
   * out the domains a pass or a forced update holds: their outcome's write wakes the scheduler.
   */
  private earliestDue(): number | null {
    const candidates = this.ctx.store.domains.dueTimes();
    let earliest: number | null = null;
    for (const { id, at } of candidates) {
      if (earliest !== null && at >= earliest) break;
      if (this.claimed.has(id) || this.ctx.updater.queue.has(id)) continue;
      // A next run decided while the disk was full is only in memory.
      const waiting = this.ctx.disk.waitingNextRun(id);
      if (waiting === null) continue;
      const due = Math.max(at, waiting ?? 0);
      if (earliest === null || due < earliest) earliest = due;
    }
    return earliest;
  }

  /**
   * Brings every stored time within reach of `now`: an interval domain whose `next_run_at` is
   * further than its interval from now falls due now (the clock may have jumped a while before it
   * was noticed, so its check is not put off any longer), a cron domain's moves to the expression's
   * next run, and a provider's pause is cut to an hour at most. Backoff retries (never longer than
   * the interval) stay.
   */
  reschedulePastNow(now: number): void {
    const interval = this.ctx.settings.updateIntervalSeconds;
    const rows = this.ctx.store.domains.scheduledAfter(now);
    let moved = 0;
    this.ctx.store.transaction((store) => {
      for (const row of rows) {
        const latest = row.cron === null ? now + interval * 1000 : nextScheduledRun(row.cron, now, interval);
        if (row.next <= latest) continue;
        store.domains.update(row.id, { nextRunAt: row.cron === null ? now : latest });
        moved++;
      }
      store.providers.cutPauses(now + LONGEST_PAUSE_AFTER_JUMP_MS);
    });
    if (moved > 0) this.ctx.log.info("schedules set ahead of the clock brought back", { domains: moved });
  }

  private dueDomains(options: PassOptions, now: number): DueDomain[] {
    const rows = this.ctx.store.domains.due(options.all ? undefined : now);
    return rows.filter((row) => {
      // A next run decided while the disk was full is only in memory.
      const waitingNextRun = options.all ? undefined : this.ctx.disk.waitingNextRun(row.id);
      if (waitingNextRun !== undefined && (waitingNextRun === null || waitingNextRun > now)) return false;
      // `ddnsd check` answers for every domain: one being updated is checked after that update (the
      // per-domain queue orders them), not left out of its answer.
      return options.all || (!this.claimed.has(row.id) && !this.ctx.updater.queue.has(row.id));
    });
  }

  /** One pass: checks the due domains (or all enabled ones) and returns what happened to each. */
  async runPass(options: PassOptions = {}): Promise<UpdateOutcome[]> {
    const now = options.now ?? this.clock.wall();
    const due = this.dueDomains(options, now);
    if (due.length === 0) return [];
    for (const { id } of due) this.claimed.set(id, (this.claimed.get(id) ?? 0) + 1);
    // One question per distinct source for all the domains due together: the system's source of a
    // family, and each domain's own (an interface, dns, a fixed address).
    const detections = new Map<string, Promise<Detection>>();
    for (const row of due) {
      const key = detectionKey(row);
      const source = domainSource(row);
      // Push-only domains are never due; the update path leaves one out should it be edited to push meanwhile.
      if (!detections.has(key) && source?.kind !== "push") detections.set(key, detectFor(this.ctx, row));
    }
    const outcomes = await Promise.all(
      due.map(async (row) => {
        const { id } = row;
        const key = detectionKey(row);
        try {
          return await runUpdate(this.ctx, id, {
            trigger: "schedule",
            force: false,
            detection: detections.get(key),
            detectedFor: detections.has(key) ? key : undefined,
          });
        } finally {
          const claims = (this.claimed.get(id) ?? 1) - 1;
          if (claims > 0) this.claimed.set(id, claims);
          else this.claimed.delete(id);
        }
      }),
    );
    const results = outcomes.filter((outcome): outcome is UpdateOutcome => outcome !== null);
    await this.noteDetectionOutages(detections, due);
    if (results.length > 0) this.ctx.events.passed?.(results);
    return results;
  }
}
