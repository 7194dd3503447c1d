// Users and their passwords: the first admin and `ddnsd admin set-password` (setPassword), the
// sign-in check in comparable time whether or not the user exists, and sign-ins through the throttle.

import { type DiskState, isDiskFull } from "../db/disk";
import type { Logger } from "../log";
import type { Store } from "../store";
import { hashPassword, needsRehash, verifyPassword } from "./passwords";
import type { SignInThrottle } from "./throttle";

/** Where the users are kept. */
export type Users = { store: Pick<Store, "users"> };

/** What a sign-in uses: the users, the log, the full disk a re-hash may meet, and the throttle. */
export interface SignInDeps extends Users {
  log: Logger;
  disk: Pick<DiskState, "noteFull">;
  signIns: SignInThrottle;
}

function findUser(ctx: Users, username: string) {
  return ctx.store.users.find(username);
}

export function userCount(ctx: Users): number {
  return ctx.store.users.count();
}

/**
 * Checks a username and password in comparable time whether or not the user exists. A hash made with
 * other argon2 parameters (an older release's) is replaced by one made with today's.
 */
export async function checkLogin(
  ctx: Omit<SignInDeps, "signIns">,
  username: string,
  password: string,
): Promise<boolean> {
  const user = findUser(ctx, username);
  const ok = await verifyPassword(password, user?.passwordHash ?? null);
  if (ok && user && needsRehash(user.passwordHash)) {
    const passwordHash = await hashPassword(password);
    try {
      ctx.store.users.rehash(user.id, passwordHash);
      ctx.log.info("password re-hashed with the current parameters", { user: username });
    } catch (error) {
      // A full disk must not stop a sign-in; the old hash still works and is replaced next time.
      if (!isDiskFull(error)) throw error;
      ctx.disk.noteFull("re-hashing a password");
    }
  }
  return ok;
}

export type SignInOutcome = { ok: true } | { ok: false; retryAfterSeconds: number | null };

/**
 * A sign-in through the throttle (API login and admin sign-in page alike): refused without a
 * password check while this username is paused for the client's address, or the address itself is.
 */
export async function attemptSignIn(
  ctx: SignInDeps,
  request: Request,
  username: string,
  password: string,
): Promise<SignInOutcome> {
  const client = ctx.signIns.clientAddress(request);
  const result = await ctx.signIns.attempt(client, () => checkLogin(ctx, username, password), "password", username);
  if (result.pausedMs > 0) {
    ctx.log.warn("sign-ins paused after failed attempts", { client, seconds: result.pausedMs / 1000 });
  }
  return result.ok ? { ok: true } : { ok: false, retryAfterSeconds: result.refused };
}

/**
 * Creates the user or replaces its password (first admin, `ddnsd admin set-password`). Replacing it
 * revokes every token issued to the user until now.
 */
export async function setPassword(ctx: Users, username: string, password: string): Promise<"created" | "updated"> {
  const passwordHash = await hashPassword(password);
  const now = Date.now();
  const existing = findUser(ctx, username);
  if (existing) {
    ctx.store.users.replacePassword(existing.id, passwordHash, now);
    return "updated";
  }
  ctx.store.users.create(username, passwordHash, now);
  return "created";
}
