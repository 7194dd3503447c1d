// The domains table: each record ddnsd keeps pointed at an address, with its schedule and the state
// of its last update. What a check that changed nothing learnt is held in memory (./held-checks.ts):
// every row read here has it laid over, and the domain's next write takes it along.

import { and, asc, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { DomainChanges } from "../db/disk";
import { domains, providers } from "../db/schema";
import type { Handle } from "./handle";
import type { CheckFacts, HeldChecks } from "./held-checks";
import type { DomainRow, ProviderRow } from "./rows";

export type NewDomain = Pick<
  DomainRow,
  | "providerId"
  | "domainName"
  | "recordType"
  | "externalId"
  | "config"
  | "cronSchedule"
  | "isEnabled"
  | "nextRunAt"
  | "createdAt"
  | "updatedAt"
> &
  Partial<Pick<DomainRow, "addressSource">>;

/** A part of a list: `limit` rows (all when absent) after skipping `offset`. */
export interface ListPage {
  limit?: number;
  offset?: number;
}

/**
 * A domain the scheduler checks: its record type, its own address source (null: the system's) and
 * its config (a list's mode), and a push-only one's newest push.
 */
export interface DueDomain {
  id: number;
  recordType: "A" | "AAAA";
  addressSource: string | null;
  config: Record<string, unknown>;
  pushedIp: string | null;
}

export interface DomainQueries {
  find(id: number): DomainRow | undefined;
  /** Every domain, oldest first. */
  list(): DomainRow[];
  /** How many domains there are. */
  count(): number;
  /** Every domain with its provider's name, oldest first; with `page`, only that part of them. */
  listWithProviderName(page?: ListPage): { domain: DomainRow; providerName: string }[];
  findWithProviderName(id: number): { domain: DomainRow; providerName: string } | undefined;
  /** The id of another domain (not `exceptId`) for the same record: provider, hostname and type. */
  sameRecord(providerId: number, domainName: string, recordType: "A" | "AAAA", exceptId?: number): number | undefined;
  /** The new domain's id. */
  create(domain: NewDomain): number;
  update(id: number, changes: DomainChanges): void;
  /** Changes the domain only while it is enabled. */
  updateIfEnabled(id: number, changes: DomainChanges): void;
  /** The other record types' domains of the same hostname at the same provider. */
  siblings(providerId: number, domainName: string, recordType: "A" | "AAAA"): DomainRow[];
  /** A domain with its provider (the update path reads it twice per update). */
  withProvider(id: number): { domain: DomainRow; provider: ProviderRow } | undefined;
  /** Which of these ids are domains. */
  existingIds(ids: readonly number[]): Set<number>;
  /** The enabled domains of enabled providers with this name, A before AAAA, then by id. */
  enabledNamed(hostname: string): { id: number; recordType: "A" | "AAAA"; addressSource: string | null }[];
  /** Makes the enabled, scheduled domains of this record type that follow the system's source due at `now`; their ids. */
  makeDueOfType(recordType: "A" | "AAAA", now: number): number[];
  /** The ids of a provider's domains. */
  idsOfProvider(providerId: number): number[];
  /** Makes a provider's enabled domains whose retrying was stopped due at `now`. */
  resumeStopped(providerId: number, now: number): void;
  /**
   * The enabled domains of enabled providers, soonest next run first, then by id; with `now`, only
   * those due by then (`next_run_at <= now`) whose provider is not paused at `now`.
   */
  due(now?: number): DueDomain[];
  /**
   * When each scheduled domain of an enabled provider falls due: its next run, or its provider's
   * pause end when that is later; soonest first.
   */
  dueTimes(): { id: number; at: number }[];
  /** The domains whose next run lies after `now`, with their cron expression (null: the interval). */
  scheduledAfter(now: number): { id: number; cron: string | null; next: number }[];
  /** How many enabled domains of this record type there are. */
  enabledOfType(recordType: "A" | "AAAA"): number;
  /** Keeps the address a router pushed for these domains, and when. */
  notePush(ids: readonly number[], ip: string, at: number): void;
  /** The enabled push-only domains of enabled providers, by id. */
  pushOnly(): Pick<DomainRow, "id" | "domainName" | "recordType" | "pushedAt" | "createdAt" | "lastKnownIp">[];
  /** Deletes the domain row alone (its history goes first: it references the domain). */
  delete(id: number): void;
  /**
   * A check that changed nothing: its facts are held in memory, not written (only while the domain
   * is enabled), until the domain's next write, an hour later or the database's closing.
   */
  holdChecked(id: number, facts: CheckFacts): void;
  /** Writes every held fact now (an hour after the first, and before the database closes). */
  writeHeld(): void;
}

function prepareWithProvider(db: Handle) {
  return db
    .select({ domain: domains, provider: providers })
    .from(domains)
    .innerJoin(providers, eq(domains.providerId, providers.id))
    .where(eq(domains.id, sql.placeholder("id")))
    .prepare();
}

/**
 * The domains the schedule checks: all but push-only ones, whose address only a router's push sets
 * (the schedule never writes them, so it never makes them due either).
 */
const scheduled = or(isNull(domains.addressSource), ne(domains.addressSource, "push"));

/** The domains of one name at one provider, whatever their record type. */
function sameName(providerId: number, domainName: string) {
  return and(eq(domains.providerId, providerId), eq(domains.domainName, domainName));
}

/** Soonest first (a domain without a next run before all), then by id: as SQLite orders `next_run_at, id`. */
function bySoonest(a: { id: number; nextRunAt: number | null }, b: { id: number; nextRunAt: number | null }): number {
  if (a.nextRunAt !== b.nextRunAt) {
    if (a.nextRunAt === null) return -1;
    if (b.nextRunAt === null) return 1;
    return a.nextRunAt - b.nextRunAt;
  }
  return a.id - b.id;
}

export function domainQueries(db: Handle, held: HeldChecks): DomainQueries {
  // Prepared at its first use, then kept: building the query costs more than running it.
  let withProvider: ReturnType<typeof prepareWithProvider> | undefined;
  const withHeld = <T extends { domain: DomainRow }>(row: T | undefined): T | undefined =>
    row === undefined ? undefined : { ...row, domain: held.overlay(row.domain) };
  const storedNextRun = (id: number) =>
    db.select({ nextRunAt: domains.nextRunAt }).from(domains).where(eq(domains.id, id)).get()?.nextRunAt ?? null;
  const update = (id: number, changes: DomainChanges, enabledOnly: boolean) => {
    // The facts held for the domain go with its write; what the write sets itself wins.
    const facts = held.has(id) ? held.take(id, storedNextRun(id)) : {};
    db.update(domains)
      .set({ ...facts, ...changes })
      .where(enabledOnly ? and(eq(domains.id, id), eq(domains.isEnabled, true)) : eq(domains.id, id))
      .run();
  };
  const withProviderName = () =>
    db
      .select({ domain: domains, providerName: providers.name })
      .from(domains)
      .innerJoin(providers, eq(domains.providerId, providers.id));
  return {
    find(id) {
      const row = db.select().from(domains).where(eq(domains.id, id)).get();
      return row && held.overlay(row);
    },
    list() {
      return db
        .select()
        .from(domains)
        .orderBy(asc(domains.id))
        .all()
        .map((row) => held.overlay(row));
    },
    count() {
      return db.select({ n: sql<number>`count(*)` }).from(domains).get()!.n;
    },
    listWithProviderName(page = {}) {
      const ordered = withProviderName().orderBy(asc(domains.id));
      // SQLite takes an OFFSET only after a LIMIT (and drizzle writes no LIMIT for SQLite's -1).
      const rows =
        page.limit === undefined && page.offset === undefined
          ? ordered.all()
          : ordered
              .limit(page.limit ?? Number.MAX_SAFE_INTEGER)
              .offset(page.offset ?? 0)
              .all();
      return rows.map((row) => withHeld(row)!);
    },
    findWithProviderName(id) {
      return withHeld(withProviderName().where(eq(domains.id, id)).get());
    },
    sameRecord(providerId, domainName, recordType, exceptId = 0) {
      return db
        .select({ id: domains.id })
        .from(domains)
        .where(and(sameName(providerId, domainName), eq(domains.recordType, recordType), ne(domains.id, exceptId)))
        .get()?.id;
    },
    create(domain) {
      return db.insert(domains).values(domain).returning({ id: domains.id }).get().id;
    },
    update(id, changes) {
      update(id, changes, false);
    },
    updateIfEnabled(id, changes) {
      update(id, changes, true);
    },
    siblings(providerId, domainName, recordType) {
      return db
        .select()
        .from(domains)
        .where(and(sameName(providerId, domainName), ne(domains.recordType, recordType)))
        .all()
        .map((row) => held.overlay(row));
    },
    withProvider(id) {
      withProvider ??= prepareWithProvider(db);
      return withHeld(withProvider.get({ id }));
    },
    existingIds(ids) {
      if (ids.length === 0) return new Set();
      return new Set(
        db
          .select({ id: domains.id })
          .from(domains)
          .where(inArray(domains.id, [...ids]))
          .all()
          .map((row) => row.id),
      );
    },
    enabledNamed(hostname) {
      return db
        .select({ id: domains.id, recordType: domains.recordType, addressSource: domains.addressSource })
        .from(domains)
        .innerJoin(providers, eq(domains.providerId, providers.id))
        .where(and(eq(domains.domainName, hostname), eq(domains.isEnabled, true), eq(providers.isEnabled, true)))
        .orderBy(domains.recordType, domains.id)
        .all();
    },
    makeDueOfType(recordType, now) {
      return db
        .update(domains)
        .set({ nextRunAt: now })
        .where(
          and(
            eq(domains.recordType, recordType),
            eq(domains.isEnabled, true),
            isNotNull(domains.nextRunAt),
            isNull(domains.addressSource),
          ),
        )
        .returning({ id: domains.id })
        .all()
        .map((row) => row.id);
    },
    idsOfProvider(providerId) {
      return db
        .select({ id: domains.id })
        .from(domains)
        .where(eq(domains.providerId, providerId))
        .all()
        .map((row) => row.id);
    },
    resumeStopped(providerId, now) {
      db.update(domains)
        .set({ nextRunAt: now })
        .where(and(eq(domains.providerId, providerId), eq(domains.isEnabled, true), isNull(domains.nextRunAt)))
        .run();
    },
    // The next run may be held in memory: compared and ordered here rather than by SQLite.
    due(now) {
      return db
        .select({
          id: domains.id,
          recordType: domains.recordType,
          addressSource: domains.addressSource,
          config: domains.config,
          pushedIp: domains.pushedIp,
          nextRunAt: domains.nextRunAt,
        })
        .from(domains)
        .innerJoin(providers, eq(domains.providerId, providers.id))
        .where(
          and(
            eq(domains.isEnabled, true),
            eq(providers.isEnabled, true),
            scheduled,
            now === undefined ? undefined : isNotNull(domains.nextRunAt),
            now === undefined ? undefined : or(isNull(providers.pausedUntil), lte(providers.pausedUntil, now)),
          ),
        )
        .all()
        .map((row) => held.overlay(row))
        .filter((row) => now === undefined || (row.nextRunAt !== null && row.nextRunAt <= now))
        .sort(bySoonest)
        .map(({ id, recordType, addressSource, config, pushedIp }) => ({
          id,
          recordType,
          addressSource,
          config,
          pushedIp,
        }));
    },
    dueTimes() {
      return db
        .select({ id: domains.id, nextRunAt: domains.nextRunAt, pausedUntil: providers.pausedUntil })
        .from(domains)
        .innerJoin(providers, eq(domains.providerId, providers.id))
        .where(and(eq(domains.isEnabled, true), eq(providers.isEnabled, true), isNotNull(domains.nextRunAt), scheduled))
        .all()
        .map((row) => held.overlay(row))
        .filter((row) => row.nextRunAt !== null)
        .map((row) => ({ id: row.id, at: Math.max(row.nextRunAt!, row.pausedUntil ?? 0) }))
        .sort((a, b) => a.at - b.at);
    },
    scheduledAfter(now) {
      return db
        .select({ id: domains.id, cron: domains.cronSchedule, nextRunAt: domains.nextRunAt })
        .from(domains)
        .where(isNotNull(domains.nextRunAt))
        .all()
        .map((row) => held.overlay(row))
        .filter((row) => row.nextRunAt !== null && row.nextRunAt > now)
        .map((row) => ({ id: row.id, cron: row.cron, next: row.nextRunAt! }));
    },
    enabledOfType(recordType) {
      return db
        .select({ n: sql<number>`count(*)` })
        .from(domains)
        .where(and(eq(domains.recordType, recordType), eq(domains.isEnabled, true)))
        .get()!.n;
    },
    notePush(ids, ip, at) {
      if (ids.length === 0) return;
      db.update(domains)
        .set({ pushedIp: ip, pushedAt: at })
        .where(inArray(domains.id, [...ids]))
        .run();
    },
    pushOnly() {
      return db
        .select({
          id: domains.id,
          domainName: domains.domainName,
          recordType: domains.recordType,
          pushedAt: domains.pushedAt,
          createdAt: domains.createdAt,
          lastKnownIp: domains.lastKnownIp,
        })
        .from(domains)
        .innerJoin(providers, eq(domains.providerId, providers.id))
        .where(and(eq(domains.addressSource, "push"), eq(domains.isEnabled, true), eq(providers.isEnabled, true)))
        .orderBy(asc(domains.id))
        .all();
    },
    delete(id) {
      held.take(id, null);
      db.delete(domains).where(eq(domains.id, id)).run();
    },
    holdChecked(id, facts) {
      const row = db
        .select({ isEnabled: domains.isEnabled, nextRunAt: domains.nextRunAt })
        .from(domains)
        .where(eq(domains.id, id))
        .get();
      if (row?.isEnabled) held.hold(id, facts, row.nextRunAt);
    },
    writeHeld() {
      const all = held.takeAll();
      if (all.length === 0) return;
      db.transaction((tx) => {
        // A row written past the store meanwhile keeps what was written.
        for (const [id, { facts, stored }] of all)
          tx.update(domains)
            .set(facts)
            .where(and(eq(domains.id, id), stored === null ? isNull(domains.nextRunAt) : eq(domains.nextRunAt, stored)))
            .run();
      });
    },
  };
}
