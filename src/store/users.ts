// The users table (the admins and their password hashes, each with the second before which its
// tokens are refused) and revoked_tokens (signed-out tokens, kept until they expire).

import type { Database } from "bun:sqlite";
import { asc, eq, isNotNull, lt } from "drizzle-orm";
import { revokedTokens, users } from "../db/schema";
import type { Handle } from "./handle";
import type { UserRow } from "./rows";

export interface UserQueries {
  find(username: string): UserRow | undefined;
  count(): number;
  create(username: string, passwordHash: string, now: number): void;
  /** Replaces the hash alone (a re-hash with today's parameters): the user's tokens stay valid. */
  rehash(id: number, passwordHash: string): void;
  /** Replaces the password and refuses every token issued in or before `now`'s second. */
  replacePassword(id: number, passwordHash: string, now: number): void;
  /** The language the user chose for the pages, or null (none chosen, or no such user). */
  language(username: string): string | null;
  /** Keeps the user's choice of language; nothing for a name with no row (a sign-in proxy's user). */
  setLanguage(username: string, language: string): void;
  /** The language of the first user (the admin made at setup) that chose one: what notifications speak. */
  firstLanguage(): string | null;
  /** Every user's "tokens valid after" second (null: none refused). */
  validAfter(): { username: string; validAfter: number | null }[];
  /** Signs a token out until it expires (ms); signed-out tokens expired before `now` are pruned. */
  revokeToken(jti: string, expiresAt: number, now: number): void;
  /** The signed-out tokens not expired at `now`. */
  revokedTokens(now: number): string[];
}

export function userQueries(db: Handle, sqlite: Database): UserQueries {
  return {
    find(username) {
      return db.select().from(users).where(eq(users.username, username)).get();
    },
    count() {
      return sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM users").get()!.n;
    },
    create(username, passwordHash, now) {
      db.insert(users).values({ username, passwordHash, createdAt: now, updatedAt: now }).run();
    },
    rehash(id, passwordHash) {
      db.update(users).set({ passwordHash }).where(eq(users.id, id)).run();
    },
    replacePassword(id, passwordHash, now) {
      db.update(users)
        .set({ passwordHash, tokensValidAfter: Math.floor(now / 1000), updatedAt: now })
        .where(eq(users.id, id))
        .run();
    },
    language(username) {
      return (
        db.select({ language: users.language }).from(users).where(eq(users.username, username)).get()?.language ?? null
      );
    },
    setLanguage(username, language) {
      db.update(users).set({ language }).where(eq(users.username, username)).run();
    },
    firstLanguage() {
      return (
        db
          .select({ language: users.language })
          .from(users)
          .where(isNotNull(users.language))
          .orderBy(asc(users.id))
          .limit(1)
          .get()?.language ?? null
      );
    },
    validAfter() {
      return db.select({ username: users.username, validAfter: users.tokensValidAfter }).from(users).all();
    },
    revokeToken(jti, expiresAt, now) {
      db.transaction((tx) => {
        tx.delete(revokedTokens).where(lt(revokedTokens.expiresAt, now)).run();
        tx.insert(revokedTokens).values({ jti, expiresAt }).onConflictDoNothing().run();
      });
    },
    revokedTokens(now) {
      return sqlite
        .query<{ jti: string }, [number]>("SELECT jti FROM revoked_tokens WHERE expires_at >= ?")
        .all(now)
        .map((row) => row.jti);
    },
  };
}
