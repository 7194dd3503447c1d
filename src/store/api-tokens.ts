// The api_tokens table: the tokens scripts and home automation call the API with (stored as a hash
// and the last four characters), each with its scope and, for `update`, the domains it reaches.

import { and, asc, eq, isNull, lt, or } from "drizzle-orm";
import { apiTokens } from "../db/schema";
import type { Handle } from "./handle";
import type { ApiTokenRow } from "./rows";

export type NewApiToken = Omit<ApiTokenRow, "id" | "lastUsedAt">;

export interface ApiTokenQueries {
  create(token: NewApiToken): ApiTokenRow;
  /** Oldest first. */
  list(): ApiTokenRow[];
  find(id: number): ApiTokenRow | undefined;
  /** The token with this hash, or undefined. */
  findByHash(tokenHash: string): ApiTokenRow | undefined;
  delete(id: number): void;
  /** Marks the token used at `now`, unless it was marked at `since` or later (one write a minute, not one a request). */
  markUsed(id: number, now: number, since: number): void;
}

export function apiTokenQueries(db: Handle): ApiTokenQueries {
  return {
    create(token) {
      return db.insert(apiTokens).values(token).returning().get();
    },
    list() {
      return db.select().from(apiTokens).orderBy(asc(apiTokens.id)).all();
    },
    find(id) {
      return db.select().from(apiTokens).where(eq(apiTokens.id, id)).get();
    },
    findByHash(tokenHash) {
      return db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash)).get();
    },
    delete(id) {
      db.delete(apiTokens).where(eq(apiTokens.id, id)).run();
    },
    markUsed(id, now, since) {
      db.update(apiTokens)
        .set({ lastUsedAt: now })
        .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, since))))
        .run();
    },
  };
}
