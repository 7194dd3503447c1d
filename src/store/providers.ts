// The providers table: the DNS service accounts (their type, sealed credentials, options, and a
// pause their service asked for).

import { asc, eq, sql } from "drizzle-orm";
import { domains, providers } from "../db/schema";
import type { Handle } from "./handle";
import type { ProviderRow } from "./rows";

export type NewProvider = Pick<
  ProviderRow,
  "name" | "type" | "credentials" | "options" | "isEnabled" | "createdAt" | "updatedAt"
>;
export type ProviderChanges = Partial<
  Pick<ProviderRow, "name" | "type" | "credentials" | "options" | "isEnabled" | "updatedAt">
>;

/** A provider as the API lists it: without its newest credential check, with how many domains it has. */
export type ProviderWithCount = Omit<
  ProviderRow,
  "lastVerifiedAt" | "lastVerifyOk" | "lastVerifyDetail" | "lastVerifyCause"
> & { domainCount: number };

/** A provider's newest credential check. */
export interface Verification {
  at: number;
  ok: boolean | null;
  detail: string;
  /** A failed check's cause; null when it passed or could not be made. */
  cause: ProviderRow["lastVerifyCause"];
}

export interface ProviderQueries {
  /** A provider's name, or undefined when it is gone. */
  nameOf(id: number): string | undefined;
  find(id: number): ProviderRow | undefined;
  /** Every provider, in no particular order. */
  all(): ProviderRow[];
  /** Every provider's id and name (names are compared outside SQL, whose lower() folds ASCII only). */
  names(): { id: number; name: string }[];
  /** Oldest first, each with its domain count. */
  listWithDomainCount(): ProviderWithCount[];
  findWithDomainCount(id: number): ProviderWithCount | undefined;
  /** The new provider's id. */
  create(provider: NewProvider): number;
  update(id: number, changes: ProviderChanges): void;
  /** How many domains the provider has. */
  domainCount(id: number): number;
  /** Deletes the provider row alone (its domains go first: they reference it). */
  delete(id: number): void;
  /** The sealed credentials of some provider, undefined when there is none (a check of the encryption key). */
  anyCredentials(): string | undefined;
  /** Until when (ms) the provider's service asked not to be called, or null. */
  pausedUntil(id: number): number | null;
  /**
   * Pauses the provider until `until` (ms), never shortening a longer pause; the pause in force,
   * undefined when the provider is gone.
   */
  pause(id: number, until: number): number | undefined;
  /** Cuts every pause that lasts beyond `until` down to `until`. */
  cutPauses(until: number): void;
  /** Keeps the newest credential check. */
  noteVerification(id: number, verification: Verification): void;
  /** Each provider's newest credential check, by provider id (absent: never checked). */
  verifications(): Map<number, Verification>;
}

// Written out: in a one-table select drizzle leaves `${providers.id}` unqualified, and inside the
// subquery a bare "id" would be the domain's.
const domainCount = sql<number>`(SELECT count(*) FROM domains WHERE domains.provider_id = providers.id)`;

function selectWithDomainCount(db: Handle) {
  return db
    .select({
      id: providers.id,
      name: providers.name,
      type: providers.type,
      credentials: providers.credentials,
      options: providers.options,
      isEnabled: providers.isEnabled,
      pausedUntil: providers.pausedUntil,
      createdAt: providers.createdAt,
      updatedAt: providers.updatedAt,
      domainCount,
    })
    .from(providers);
}

export function providerQueries(db: Handle): ProviderQueries {
  return {
    nameOf(id) {
      return db.select({ name: providers.name }).from(providers).where(eq(providers.id, id)).get()?.name;
    },
    find(id) {
      return db.select().from(providers).where(eq(providers.id, id)).get();
    },
    all() {
      return db.select().from(providers).all();
    },
    names() {
      return db.select({ id: providers.id, name: providers.name }).from(providers).all();
    },
    listWithDomainCount() {
      return selectWithDomainCount(db).orderBy(asc(providers.id)).all();
    },
    findWithDomainCount(id) {
      return selectWithDomainCount(db).where(eq(providers.id, id)).get();
    },
    create(provider) {
      return db.insert(providers).values(provider).returning({ id: providers.id }).get().id;
    },
    update(id, changes) {
      db.update(providers).set(changes).where(eq(providers.id, id)).run();
    },
    domainCount(id) {
      return db.select({ n: sql<number>`count(*)` }).from(domains).where(eq(domains.providerId, id)).get()!.n;
    },
    delete(id) {
      db.delete(providers).where(eq(providers.id, id)).run();
    },
    anyCredentials() {
      return db.select({ credentials: providers.credentials }).from(providers).limit(1).get()?.credentials;
    },
    pausedUntil(id) {
      return (
        db.select({ until: providers.pausedUntil }).from(providers).where(eq(providers.id, id)).get()?.until ?? null
      );
    },
    pause(id, until) {
      const row = db
        .update(providers)
        .set({ pausedUntil: sql`max(coalesce(${providers.pausedUntil}, 0), ${until})` })
        .where(eq(providers.id, id))
        .returning({ until: providers.pausedUntil })
        .get();
      return row?.until ?? undefined;
    },
    cutPauses(until) {
      db.update(providers).set({ pausedUntil: until }).where(sql`${providers.pausedUntil} > ${until}`).run();
    },
    noteVerification(id, verification) {
      db.update(providers)
        .set({
          lastVerifiedAt: verification.at,
          lastVerifyOk: verification.ok,
          lastVerifyDetail: verification.detail,
          lastVerifyCause: verification.cause,
        })
        .where(eq(providers.id, id))
        .run();
    },
    verifications() {
      const rows = db
        .select({
          id: providers.id,
          at: providers.lastVerifiedAt,
          ok: providers.lastVerifyOk,
          detail: providers.lastVerifyDetail,
          cause: providers.lastVerifyCause,
        })
        .from(providers)
        .all();
      return new Map(
        rows.flatMap((row) =>
          row.at === null
            ? []
            : [[row.id, { at: row.at, ok: row.ok, detail: row.detail ?? "", cause: row.cause }] as const],
        ),
      );
    },
  };
}
