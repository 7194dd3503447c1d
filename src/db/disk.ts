// A full data disk (docs/api.md, limits). While SQLite answers SQLITE_FULL: API writes answer 507 (errors.ts),
// /healthz answers 503 "degraded", the condition is logged once a minute at most, and the updater's
// outcomes that could not be stored wait here — bounded — to be written as history rows (and the
// domains' state) once space is back. Meanwhile the waiting state stands in for the stored one, so
// a record written during the outage is not written again just because its new state was not saved.

import type { Logger } from "../log";
import type { domains, history } from "./schema";

export const DISK_FULL_DETAIL =
  "The data disk is full: nothing was changed; free space on the disk holding DDNS_DATA_DIR and try again";
/** Outcomes kept while they cannot be stored; past it the oldest rows are dropped (the newest state stays). */
const DEFERRED_ROWS_KEPT = 1000;
const LOG_EVERY_MS = 60_000;

export function isDiskFull(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "SQLITE_FULL";
}

export type HistoryInsert = typeof history.$inferInsert;
/** A domain's new state: any of its columns but the id (the store's `DomainRow`, read from the table). */
export type DomainChanges = Partial<Omit<typeof domains.$inferSelect, "id">>;

interface Deferred {
  rows: HistoryInsert[];
  changes: DomainChanges;
}

export class DiskState {
  full = false;
  private lastLoggedAt = -Infinity;
  private lastRecoveryLoggedAt = -Infinity;
  private readonly deferred = new Map<number, Deferred>();
  private rowCount = 0;

  constructor(private readonly log: Logger) {}

  /** A write failed for want of space; logged once a minute at most, whoever notices it. */
  noteFull(during: string): void {
    this.full = true;
    if (Date.now() - this.lastLoggedAt < LOG_EVERY_MS) return;
    this.lastLoggedAt = Date.now();
    this.log.error("the data disk is full; API writes are refused, DNS records are still kept current", {
      during,
      outcomes_waiting: this.rowCount,
    });
  }

  /**
   * A write succeeded again. Both lines keep to once a minute: on a disk with a few bytes free, a
   * small write may pass between failing ones.
   */
  noteSpace(stored = 0): void {
    if (!this.full) return;
    this.full = false;
    if (Date.now() - this.lastRecoveryLoggedAt < LOG_EVERY_MS) return;
    this.lastRecoveryLoggedAt = Date.now();
    this.log.info("the data disk accepts writes again", { outcomes_stored: stored });
  }

  /** Keeps an outcome (its history row, if any, and the domain's new state) until it can be stored. */
  defer(domainId: number, row: HistoryInsert | null, changes: DomainChanges): void {
    const entry = this.deferred.get(domainId) ?? { rows: [], changes: {} };
    if (row !== null) {
      entry.rows.push(row);
      this.rowCount++;
    }
    Object.assign(entry.changes, changes);
    this.deferred.set(domainId, entry);
    while (this.rowCount > DEFERRED_ROWS_KEPT) {
      const oldest = [...this.deferred.values()].find((e) => e.rows.length > 0)!;
      oldest.rows.shift();
      this.rowCount--;
    }
  }

  /** The domain as the updater must see it: its stored row with any state still waiting to be stored. */
  overlay<T extends { id: number }>(domain: T): T {
    const waiting = this.deferred.get(domain.id);
    return waiting === undefined ? domain : { ...domain, ...waiting.changes };
  }

  /** The domain's state still waiting to be stored (to be written with the next write of the domain). */
  waitingChanges(domainId: number): DomainChanges {
    return this.deferred.get(domainId)?.changes ?? {};
  }

  /** Called once the waiting state was stored with a newer write; its rows still wait. */
  forgetChanges(domainId: number): void {
    const entry = this.deferred.get(domainId);
    if (entry === undefined) return;
    if (entry.rows.length === 0) this.deferred.delete(domainId);
    else entry.changes = {};
  }

  /** When the domain runs next, if a waiting state says so. */
  waitingNextRun(domainId: number): number | null | undefined {
    return this.deferred.get(domainId)?.changes.nextRunAt;
  }

  get waiting(): boolean {
    return this.deferred.size > 0;
  }

  /** Hands each waiting outcome to `store`; those it stores are forgotten, and a full disk stops the round. */
  storeWaiting(store: (domainId: number, rows: HistoryInsert[], changes: DomainChanges) => void): number {
    let stored = 0;
    for (const [domainId, entry] of this.deferred) {
      store(domainId, entry.rows, entry.changes);
      this.deferred.delete(domainId);
      this.rowCount -= entry.rows.length;
      stored += entry.rows.length;
    }
    return stored;
  }
}
