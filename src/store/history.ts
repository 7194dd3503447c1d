// The history table: one row per update attempt, each domain's rows cut to the retention setting
// as they are written, each message to 2,000 characters (util/message.ts), words added later included.

import { and, desc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { HistoryInsert } from "../db/disk";
import { history } from "../db/schema";
import { bounded } from "../util/message";
import type { Handle } from "./handle";
import type { HistoryFailureCause, HistoryRow } from "./rows";

/** One address a record has held: since when (ms) it was written. */
export interface AddressStart {
  ip: string;
  at: number;
}

export interface HistoryQueries {
  /**
   * The one way a row is written: inserted, then the domain's rows cut to the newest `keep`; its id.
   * A failure that repeats the domain's newest row exactly (status, cause, message, addresses,
   * trigger) within the clock hour of that row's first attempt is folded into it instead: its count
   * goes up and its time becomes this one's.
   */
  append(row: HistoryInsert, keep: number): number;
  /** Adds words to the end of a row's message (what followed the write: the name servers' answers); nothing when the row is gone. */
  appendToMessage(id: number, words: string): void;
  /** A domain's rows, newest first. */
  list(domainId: number, limit: number, offset?: number): HistoryRow[];
  count(domainId: number): number;
  /** Deletes every row of a domain. */
  deleteForDomain(domainId: number): void;
  /**
   * When each address the record held was first written, newest first, from its successful rows:
   * a new start whenever a write changed the address.
   */
  addressStarts(domainId: number, limit: number): AddressStart[];
  /** When the domain's newest successful row was written (ms): the service last took its record; null without one. */
  lastSuccessAt(domainId: number): number | null;
  /** Each domain's newest row, by domain id (a domain without rows is absent). */
  newest(): Map<number, HistoryRow>;
  /**
   * Each domain's newest row that is not a detection failure: what its service last answered, which
   * an outage of the address sources leaves standing (a provider's card keeps its own failures).
   */
  newestAtService(): Map<number, HistoryRow>;
  /** The failure causes of these rows, by row id. */
  causes(ids: readonly number[]): Map<number, HistoryFailureCause | null>;
}

/** Keeps the newest `keep` rows of a domain. */
function applyRetention(db: Handle, domainId: number, keep: number): void {
  const boundary = db
    .select({ timestamp: history.timestamp, id: history.id })
    .from(history)
    .where(eq(history.domainId, domainId))
    .orderBy(desc(history.timestamp), desc(history.id))
    .limit(1)
    .offset(keep)
    .get();
  if (!boundary) return;
  db.delete(history)
    .where(
      and(
        eq(history.domainId, domainId),
        or(
          lt(history.timestamp, boundary.timestamp),
          and(eq(history.timestamp, boundary.timestamp), lte(history.id, boundary.id)),
        ),
      ),
    )
    .run();
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Whether `row` is the same failure as `newest` again, to be counted on it rather than written anew.
 * Only within the clock hour of the row's first attempt: the figures count a row's attempts at its
 * time, so a row never stands for attempts of more than one hour of the charts and the 24-hour counts.
 */
function repeats(newest: HistoryRow, row: HistoryInsert): boolean {
  return (
    Math.floor((newest.firstTimestamp ?? newest.timestamp) / HOUR_MS) === Math.floor(row.timestamp / HOUR_MS) &&
    row.status === "FAILED" &&
    newest.status === "FAILED" &&
    newest.message === row.message &&
    newest.failureCause === (row.failureCause ?? null) &&
    newest.trigger === row.trigger &&
    newest.ipAddress === (row.ipAddress ?? null) &&
    newest.previousIp === (row.previousIp ?? null)
  );
}

/** Each domain's newest row (of those that are not detection failures, with `atService`), by domain id. */
function newestRows(db: Handle, atService: boolean): Map<number, HistoryRow> {
  // A domain's newest row is its highest id: rows are appended in time order, and a folded
  // repeat updates the newest row in place.
  const newestIds = db
    .select({ id: sql<number>`max(${history.id})` })
    .from(history)
    .where(atService ? sql`${history.failureCause} IS NOT 'detection'` : undefined)
    .groupBy(history.domainId);
  const rows = db.select().from(history).where(inArray(history.id, newestIds)).all();
  return new Map(rows.map((row) => [row.domainId, row]));
}

export function historyQueries(db: Handle): HistoryQueries {
  return {
    appendToMessage(id, words) {
      const row = db.select({ message: history.message }).from(history).where(eq(history.id, id)).get();
      if (row === undefined) return;
      db.update(history)
        .set({ message: bounded(row.message + words) })
        .where(eq(history.id, id))
        .run();
    },
    append(given, keep) {
      const row = { ...given, message: bounded(given.message) };
      return db.transaction((tx) => {
        const newest = tx
          .select()
          .from(history)
          .where(eq(history.domainId, row.domainId))
          .orderBy(desc(history.timestamp), desc(history.id))
          .limit(1)
          .get();
        if (newest !== undefined && repeats(newest, row)) {
          tx.update(history)
            .set({
              repeatCount: newest.repeatCount + 1,
              firstTimestamp: newest.firstTimestamp ?? newest.timestamp,
              timestamp: Math.max(row.timestamp, newest.timestamp),
              durationMs: row.durationMs,
            })
            .where(eq(history.id, newest.id))
            .run();
          return newest.id;
        }
        const { id } = tx.insert(history).values(row).returning({ id: history.id }).get();
        applyRetention(tx, row.domainId, keep);
        return id;
      });
    },
    list(domainId, limit, offset = 0) {
      return db
        .select()
        .from(history)
        .where(eq(history.domainId, domainId))
        .orderBy(desc(history.timestamp), desc(history.id))
        .limit(limit)
        .offset(offset)
        .all();
    },
    count(domainId) {
      return db.select({ n: sql<number>`count(*)` }).from(history).where(eq(history.domainId, domainId)).get()!.n;
    },
    lastSuccessAt(domainId) {
      const row = db
        .select({ timestamp: history.timestamp })
        .from(history)
        .where(and(eq(history.domainId, domainId), eq(history.status, "SUCCESS")))
        .orderBy(desc(history.timestamp))
        .limit(1)
        .get();
      return row?.timestamp ?? null;
    },
    deleteForDomain(domainId) {
      db.delete(history).where(eq(history.domainId, domainId)).run();
    },
    addressStarts(domainId, limit) {
      return db.all<AddressStart>(sql`
        SELECT ip_address AS ip, timestamp AS at FROM (
          SELECT ip_address, timestamp, id,
                 lag(ip_address) OVER (ORDER BY timestamp, id) AS before
          FROM history WHERE domain_id = ${domainId} AND status = 'SUCCESS' AND ip_address IS NOT NULL
        )
        WHERE before IS NULL OR before <> ip_address
        ORDER BY timestamp DESC, id DESC
        LIMIT ${limit}`);
    },
    newest() {
      return newestRows(db, false);
    },
    newestAtService() {
      return newestRows(db, true);
    },
    causes(ids) {
      if (ids.length === 0) return new Map();
      const rows = db
        .select({ id: history.id, cause: history.failureCause })
        .from(history)
        .where(inArray(history.id, [...ids]))
        .all();
      return new Map(rows.map((row) => [row.id, row.cause]));
    },
  };
}
