// The domains table: each record ddnsd keeps pointed at an address, with its schedule and the state
// of its last update.

import { and, asc, eq, gt, inArray, isNotNull, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { DomainChanges } from "../db/disk";
import { domains, providers } from "../db/schema";
import type { Handle } from "./handle";
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

/** A domain the scheduler checks: its record type and its own address source (null: the system's). */
export interface DueDomain {
  id: number;
  recordType: "A" | "AAAA";
  addressSource: string | null;
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
  enabledNamed(hostname: string): { id: number; recordType: "A" | "AAAA" }[];
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

export function domainQueries(db: Handle): DomainQueries {
  // Prepared at its first use, then kept: building the query costs more than running it.
  let withProvider: ReturnType<typeof prepareWithProvider> | undefined;
  const withProviderName = () =>
    db
      .select({ domain: domains, providerName: providers.name })
      .from(domains)
      .innerJoin(providers, eq(domains.providerId, providers.id));
  return {
    find(id) {
      return db.select().from(domains).where(eq(domains.id, id)).get();
    },
    list() {
      return db.select().from(domains).orderBy(asc(domains.id)).all();
    },
    count() {
      return db.select({ n: sql<number>`count(*)` }).from(domains).get()!.n;
    },
    listWithProviderName(page = {}) {
      const ordered = withProviderName().orderBy(asc(domains.id));
      // SQLite takes an OFFSET only after a LIMIT (and drizzle writes no LIMIT for SQLite's -1).
      return page.limit === undefined && page.offset === undefined
        ? ordered.all()
        : ordered
            .limit(page.limit ?? Number.MAX_SAFE_INTEGER)
            .offset(page.offset ?? 0)
            .all();
    },
    findWithProviderName(id) {
      return withProviderName().where(eq(domains.id, id)).get();
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
      db.update(domains).set(changes).where(eq(domains.id, id)).run();
    },
    updateIfEnabled(id, changes) {
      db.update(domains)
        .set(changes)
        .where(and(eq(domains.id, id), eq(domains.isEnabled, true)))
        .run();
    },
    siblings(providerId, domainName, recordType) {
      return db
        .select()
        .from(domains)
        .where(and(sameName(providerId, domainName), ne(domains.recordType, recordType)))
        .all();
    },
    withProvider(id) {
      withProvider ??= prepareWithProvider(db);
      return withProvider.get({ id });
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
        .select({ id: domains.id, recordType: domains.recordType })
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
    due(now) {
      return db
        .select({ id: domains.id, recordType: domains.recordType, addressSource: domains.addressSource })
        .from(domains)
        .innerJoin(providers, eq(domains.providerId, providers.id))
        .where(
          and(
            eq(domains.isEnabled, true),
            eq(providers.isEnabled, true),
            scheduled,
            now === undefined ? undefined : lte(domains.nextRunAt, now),
            now === undefined ? undefined : or(isNull(providers.pausedUntil), lte(providers.pausedUntil, now)),
          ),
        )
        .orderBy(asc(domains.nextRunAt), asc(domains.id))
        .all();
    },
    dueTimes() {
      const at = sql<number>`max(${domains.nextRunAt}, coalesce(${providers.pausedUntil}, 0))`;
      return db
        .select({ id: domains.id, at })
        .from(domains)
        .innerJoin(providers, eq(domains.providerId, providers.id))
        .where(and(eq(domains.isEnabled, true), eq(providers.isEnabled, true), isNotNull(domains.nextRunAt), scheduled))
        .orderBy(at)
        .all();
    },
    scheduledAfter(now) {
      return db
        .select({ id: domains.id, cron: domains.cronSchedule, next: sql<number>`${domains.nextRunAt}` })
        .from(domains)
        .where(gt(domains.nextRunAt, now))
        .all();
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
      db.delete(domains).where(eq(domains.id, id)).run();
    },
  };
}
