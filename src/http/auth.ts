// Authentication: the login and logout routes (JSON or OAuth2 form), access tokens signed with
// @elysiajs/jwt, sign-in throttling, revocation (signed-out `jti`s and a per-user "tokens valid
// after"), and the bearer check with the contract's exact 401 sentences.

import { jwt } from "@elysiajs/jwt";
import { eq, lt } from "drizzle-orm";
import { Elysia, t } from "elysia";
import { errors as joseErrors, jwtVerify } from "jose";
import type { AppContext } from "../context";
import { isDiskFull } from "../db/disk";
import { revokedTokens, users } from "../db/schema";
import { hashPassword, needsRehash, verifyPassword } from "../security/passwords";
import { throttledMessage } from "../security/throttle";
import { errorResponses, Int } from "../modules/shared";
import { HttpError, unauthorized } from "./errors";
import type { Claims } from "./verified-tokens";

export const AUTH_MESSAGES = {
  missing: "Not authenticated",
  expired: "Token has expired",
  invalid: "Could not validate credentials",
  wrongLogin: "Incorrect username or password",
} as const;

/** The signer both the API login and the admin sign-in use (through `signAccessToken`). */
export function tokenSigner(ctx: AppContext) {
  return jwt({ name: "jwt", secret: ctx.keys.secretKey, alg: "HS256" });
}

type Signer = { sign(claims: { sub: string; jti: string; exp: number }): Promise<string> };

/**
 * A new token for the user. The signer stamps `iat` in whole seconds, and a password set refuses
 * every token issued in or before its second; so right after one, signing waits for the next second
 * (at most 1 s) rather than hand out a token that is already dead.
 */
export async function signAccessToken(ctx: AppContext, signer: Signer, username: string): Promise<string> {
  const validAfter = findUser(ctx, username)?.tokensValidAfter ?? null;
  if (validAfter !== null && Date.now() < (validAfter + 1) * 1000) await Bun.sleep((validAfter + 1) * 1000 - Date.now());
  return signer.sign({ sub: username, jti: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) + ctx.settings.tokenTtlSeconds });
}

export interface VerifiedToken {
  username: string;
  jti: string;
  /** ms since the epoch */
  expiresAt: number;
}

/** The username a token was issued to, or the 401 the contract names for why it is refused. */
export async function authenticateToken(ctx: AppContext, token: string): Promise<string> {
  return (await verifyToken(ctx, token)).username;
}

/** A token's user and identity, once it is genuine, unexpired and not revoked; else the 401. */
export async function verifyToken(ctx: AppContext, token: string): Promise<VerifiedToken> {
  let claims: Claims;
  try {
    claims = await verifiedClaims(ctx, token);
  } catch (error) {
    // jose checks the signature before the expiry, so only a genuine token can be "expired".
    throw unauthorized(error instanceof joseErrors.JWTExpired ? AUTH_MESSAGES.expired : AUTH_MESSAGES.invalid);
  }
  const { subject, jti, issuedAt, expiresAt } = claims;
  if (typeof subject !== "string" || typeof jti !== "string" || typeof issuedAt !== "number") throw unauthorized(AUTH_MESSAGES.invalid);
  // Looked up on every request (one indexed read), never remembered: ddnsd admin set-password
  // runs in another process, and a revoked token must be refused at once.
  const state = tokenState(ctx, jti, subject);
  if (state === null || state.revoked === 1 || (state.validAfter !== null && issuedAt <= state.validAfter)) {
    throw unauthorized(AUTH_MESSAGES.invalid);
  }
  return { username: subject, jti, expiresAt };
}

/** Signs a token out: its `jti` is refused until the token expires; expired entries are pruned. */
export function revokeToken(ctx: AppContext, token: VerifiedToken): void {
  const now = Date.now();
  ctx.db.transaction((tx) => {
    tx.delete(revokedTokens).where(lt(revokedTokens.expiresAt, now)).run();
    tx.insert(revokedTokens).values({ jti: token.jti, expiresAt: token.expiresAt }).onConflictDoNothing().run();
  });
}

/** The token's claims, checked by jose the first time this app sees the token. */
async function verifiedClaims(ctx: AppContext, token: string): Promise<Claims> {
  const known = ctx.verifiedTokens.get(token);
  if (known) return known;
  const { payload } = await jwtVerify(token, new TextEncoder().encode(ctx.keys.secretKey), {
    algorithms: ["HS256"],
    // A token without an expiry would never expire.
    requiredClaims: ["sub", "iat", "exp", "jti"],
  });
  const claims = { subject: payload.sub, jti: payload.jti, issuedAt: payload.iat, expiresAt: payload.exp! * 1000 };
  ctx.verifiedTokens.remember(token, claims);
  return claims;
}

/**
 * The user's "tokens valid after" second and whether the `jti` is signed out, or null when no such
 * user exists. On every authenticated request, so a statement bun:sqlite prepares once.
 */
function tokenState(ctx: AppContext, jti: string, username: string): { validAfter: number | null; revoked: number } | null {
  return ctx.sqlite
    .query<{ validAfter: number | null; revoked: number }, [string, string]>(
      "SELECT tokens_valid_after AS validAfter, EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = ?) AS revoked FROM users WHERE username = ?",
    )
    .get(jti, username);
}

export function bearerToken(authorization: string | undefined | null): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) throw unauthorized(AUTH_MESSAGES.missing);
  return match[1]!;
}

function findUser(ctx: AppContext, username: string) {
  return ctx.db.select().from(users).where(eq(users.username, username)).get();
}

export function userCount(ctx: AppContext): number {
  return ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM users").get()!.n;
}

/**
 * Checks a username and password in comparable time whether or not the user exists. A hash made with
 * other argon2 parameters (an older release's) is replaced by one made with today's.
 */
export async function checkLogin(ctx: AppContext, username: string, password: string): Promise<boolean> {
  const user = findUser(ctx, username);
  const ok = await verifyPassword(password, user?.passwordHash ?? null);
  if (ok && user && needsRehash(user.passwordHash)) {
    const passwordHash = await hashPassword(password);
    try {
      ctx.db.update(users).set({ passwordHash }).where(eq(users.id, user.id)).run();
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
 * password check while the client's address is paused.
 */
export async function attemptSignIn(ctx: AppContext, request: Request, username: string, password: string): Promise<SignInOutcome> {
  const client = ctx.signIns.clientAddress(request);
  const result = await ctx.signIns.attempt(client, () => checkLogin(ctx, username, password));
  if (result.pausedMs > 0) {
    ctx.log.warn("sign-ins paused after failed attempts", { client, seconds: result.pausedMs / 1000 });
  }
  return result.ok ? { ok: true } : { ok: false, retryAfterSeconds: result.refused };
}

/** The 429 a paused client gets. */
export function throttled(seconds: number): HttpError {
  return new HttpError(429, throttledMessage(seconds), undefined, { "Retry-After": String(seconds) });
}

/**
 * Creates the user or replaces its password (first admin, `ddnsd admin set-password`). Replacing it
 * revokes every token issued to the user until now.
 */
export async function setPassword(ctx: AppContext, username: string, password: string): Promise<"created" | "updated"> {
  const passwordHash = await hashPassword(password);
  const now = Date.now();
  const existing = findUser(ctx, username);
  if (existing) {
    ctx.db
      .update(users)
      .set({ passwordHash, tokensValidAfter: Math.floor(now / 1000), updatedAt: now })
      .where(eq(users.id, existing.id))
      .run();
    return "updated";
  }
  ctx.db.insert(users).values({ username, passwordHash, createdAt: now, updatedAt: now }).run();
  return "created";
}

/**
 * Derives `user` (the username) for every route registered after it, or answers 401 — before the
 * request is validated (a resolve would run after), so a request without a valid token gets the
 * 401 even when its path, query or body is invalid too.
 */
export function bearerGuard(ctx: AppContext) {
  return new Elysia({ name: "bearer-guard", seed: ctx.id }).derive({ as: "scoped" }, async ({ headers }) => {
    const token = await verifyToken(ctx, bearerToken(headers.authorization));
    return { user: token.username, token };
  });
}

// Own error texts, so a 422 never repeats what was sent (it may be a password).
const LoginBody = t.Object({
  username: t.String({ minLength: 1, description: "Account name", error: "must be a non-empty string" }),
  password: t.String({ minLength: 1, description: "Account password", error: "must be a non-empty string" }),
});

const TokenResponse = t.Object({
  access_token: t.String(),
  token_type: t.Literal("bearer"),
  expires_in: Int({ description: "Seconds until the token expires" }),
});

export function loginRoutes(ctx: AppContext) {
  return new Elysia({ tags: ["auth"] }).use(tokenSigner(ctx)).post(
    "/auth/login",
    async ({ body, jwt, request }) => {
      const signIn = await attemptSignIn(ctx, request, body.username, body.password);
      if (!signIn.ok) {
        throw signIn.retryAfterSeconds === null ? unauthorized(AUTH_MESSAGES.wrongLogin) : throttled(signIn.retryAfterSeconds);
      }
      ctx.log.info("login", { user: body.username });
      return {
        access_token: await signAccessToken(ctx, jwt, body.username),
        token_type: "bearer" as const,
        expires_in: ctx.settings.tokenTtlSeconds,
      };
    },
    {
      body: LoginBody,
      response: { 200: TokenResponse, ...errorResponses(401, 422, 429) },
      detail: {
        operationId: "login",
        summary: "Log in",
        description:
          "Exchanges a username and password (JSON, or an OAuth2 password-flow form) for a bearer token. " +
          "After 5 failed sign-ins in a row from one address, that address is refused with 429 and `Retry-After` " +
          "for 1 s, doubling with each further failure up to 15 minutes.",
        security: [],
      },
    },
  );
}

/** `POST /auth/logout`: registered after the bearer guard, so it knows the token it signs out. */
export function logoutRoutes(ctx: AppContext) {
  return new Elysia({ tags: ["auth"] }).use(bearerGuard(ctx)).post(
    "/auth/logout",
    ({ token }) => {
      revokeToken(ctx, token);
      ctx.log.info("logout", { user: token.username });
      return { message: "Signed out" };
    },
    {
      response: { 200: t.Object({ message: t.String() }), ...errorResponses(401) },
      detail: { operationId: "logout", summary: "Sign out", description: "The token used for this request is refused from now on." },
    },
  );
}

