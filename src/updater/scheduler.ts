// The scheduler: every second, the due domains (enabled, provider enabled and not paused,
// `next_run_at <= now`) are checked together, sharing one detection per address family.

import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import type { AppContext, PassOptions, SchedulerControl } from "../context";
import { domains, providers } from "../db/schema";
import type { RecordType } from "../dns/provider";
import type { Detection, IpFamily } from "../ip/detect";
import type { UpdateOutcome } from "./outcome";
import { detectFamily, familyOf, runUpdate } from "./update";

export class Scheduler implements SchedulerControl {
  private ticking = false;
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Domains claimed by a pass that has not finished with them. */
  private readonly claimed = new Set<number>();

  constructor(private readonly ctx: AppContext) {}

  get running(): boolean {
    return this.ticking;
  }

  start(): void {
    this.ticking = true;
  }

  /** Called every second by the cron tick; a no-op once stopped. */
  tick(): void {
    if (!this.ticking) return;
    const pass = this.runPass().catch((error: unknown) => {
      this.ctx.log.error("scheduler pass failed", { error: error instanceof Error ? error.message : String(error) });
    });
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
    return rows.filter((row) => !this.claimed.has(row.id) && !this.ctx.updater.queue.has(row.id));
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
    return outcomes.filter((outcome): outcome is UpdateOutcome => outcome !== null);
  }
}
