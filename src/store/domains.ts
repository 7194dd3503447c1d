// The domains table: each record ddnsd keeps pointed at an address, with its schedule and the state
// of its last update.

import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { domains, providers, type DomainRow, type ProviderRow } from "../db/schema";
import type { Handle } from "./handle";

export interface DomainQueries {
  /** A domain with its provider (the update path reads it twice per update). */
  withProvider(id: number): { domain: DomainRow; provider: ProviderRow } | undefined;
  /** Which of these ids are domains. */
  existingIds(ids: readonly number[]): Set<number>;
  /** The enabled domains of enabled providers with this name, A before AAAA, then by id. */
  enabledNamed(hostname: string): { id: number; recordType: "A" | "AAAA" }[];
  /** Makes the enabled, scheduled domains of this record type due at `now`; their ids. */
  makeDueOfType(recordType: "A" | "AAAA", now: number): number[];
  /** The ids of a provider's domains. */
  idsOfProvider(providerId: number): number[];
  /** Makes a provider's enabled domains whose retrying was stopped due at `now`. */
  resumeStopped(providerId: number, now: number): void;
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

export function domainQueries(db: Handle): DomainQueries {
  // Prepared at its first use, then kept: building the query costs more than running it.
  let withProvider: ReturnType<typeof prepareWithProvider> | undefined;
  return {
    withProvider(id) {
      withProvider ??= prepareWithProvider(db);
      return withProvider.get({ id });
    },
    existingIds(ids) {
      if (ids.length === 0) return new Set();
      return new Set(db.select({ id: domains.id }).from(domains).where(inArray(domains.id, [...ids])).all().map((row) => row.id));
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
        .where(and(eq(domains.recordType, recordType), eq(domains.isEnabled, true), isNotNull(domains.nextRunAt)))
        .returning({ id: domains.id })
        .all()
        .map((row) => row.id);
    },
    idsOfProvider(providerId) {
      return db.select({ id: domains.id }).from(domains).where(eq(domains.providerId, providerId)).all().map((row) => row.id);
    },
    resumeStopped(providerId, now) {
      db.update(domains)
        .set({ nextRunAt: now })
        .where(and(eq(domains.providerId, providerId), eq(domains.isEnabled, true), isNull(domains.nextRunAt)))
        .run();
    },
    delete(id) {
      db.delete(domains).where(eq(domains.id, id)).run();
    },
  };
}
