// Authentication: the login route (JSON or OAuth2 form), access tokens signed with
// @elysiajs/jwt, and the bearer check with the contract's exact 401 sentences.

import { jwt } from "@elysiajs/jwt";
import { eq } from "drizzle-orm";
import { Elysia, t } from "elysia";
import { errors as joseErrors, jwtVerify } from "jose";
import type { AppContext } from "../context";
import { users } from "../db/schema";
import { hashPassword, verifyPassword } from "../security/passwords";
import { errorResponses, Int } from "../modules/shared";
import { unauthorized } from "./errors";

export const AUTH_MESSAGES = {
  missing: "Not authenticated",
  expired: "Token has expired",
  invalid: "Could not validate credentials",
  wrongLogin: "Incorrect username or password",
} as const;

/** The signer both the API login and the admin sign-in use (`jwt.sign(accessClaims(...))`). */
export function tokenSigner(ctx: AppContext) {
  return jwt({ name: "jwt", secret: ctx.keys.secretKey, alg: "HS256" });
}

export function accessClaims(ctx: AppContext, username: string) {
  return {
    sub: username,
    jti: crypto.randomUUID(),
    exp: Math.floor(Date.now() / 1000) + ctx.settings.tokenTtlSeconds,
  };
}

/** The username a token was issued to, or the 401 the contract names for why it is refused. */
export async function authenticateToken(ctx: AppContext, token: string): Promise<string> {
  let subject: unknown;
  try {
    subject = await verifiedSubject(ctx, token);
  } catch (error) {
    // jose checks the signature before the expiry, so only a genuine token can be "expired".
    throw unauthorized(error instanceof joseErrors.JWTExpired ? AUTH_MESSAGES.expired : AUTH_MESSAGES.invalid);
  }
  if (typeof subject !== "string" || !userExists(ctx, subject)) throw unauthorized(AUTH_MESSAGES.invalid);
  return subject;
}

/**
 * Tokens whose signature and claims jose has checked, with their subject and expiry. jose verifies
 * HS256 through WebCrypto, ~100 µs a call on Bun — more than the rest of a small API request — and
 * a client sends the same token again and again. Bounded (oldest out); an expired entry goes back
 * to jose, which says so; the user is still looked up on every request.
 */
const verifiedTokens = new WeakMap<AppContext, Map<string, { subject: unknown; expiresAt: number }>>();
const VERIFIED_TOKENS_KEPT = 256;

async function verifiedSubject(ctx: AppContext, token: string): Promise<unknown> {
  let cache = verifiedTokens.get(ctx);
  if (!cache) verifiedTokens.set(ctx, (cache = new Map()));
  const known = cache.get(token);
  if (known && Date.now() < known.expiresAt) return known.subject;
  cache.delete(token);
  const { payload } = await jwtVerify(token, new TextEncoder().encode(ctx.keys.secretKey), {
    algorithms: ["HS256"],
    // A token without an expiry would never expire.
    requiredClaims: ["sub", "iat", "exp", "jti"],
  });
  if (cache.size >= VERIFIED_TOKENS_KEPT) cache.delete(cache.keys().next().value!);
  cache.set(token, { subject: payload.sub, expiresAt: payload.exp! * 1000 });
  return payload.sub;
}

/** On every authenticated request, so a statement bun:sqlite prepares once (drizzle prepares anew each call). */
function userExists(ctx: AppContext, username: string): boolean {
  return ctx.sqlite.query<{ ok: number }, [string]>("SELECT 1 AS ok FROM users WHERE username = ?").get(username) !== null;
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

/** Checks a username and password in comparable time whether or not the user exists. */
export async function checkLogin(ctx: AppContext, username: string, password: string): Promise<boolean> {
  const user = findUser(ctx, username);
  return verifyPassword(password, user?.passwordHash ?? null);
}

/** Creates the user or replaces its password (first admin, `ddnsd admin set-password`). */
export async function setPassword(ctx: AppContext, username: string, password: string): Promise<"created" | "updated"> {
  const passwordHash = await hashPassword(password);
  const now = Date.now();
  const existing = findUser(ctx, username);
  if (existing) {
    ctx.db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, existing.id)).run();
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
  return new Elysia({ name: "bearer-guard", seed: ctx.id }).derive({ as: "scoped" }, async ({ headers }) => ({
    user: await authenticateToken(ctx, bearerToken(headers.authorization)),
  }));
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
    async ({ body, jwt }) => {
      if (!(await checkLogin(ctx, body.username, body.password))) throw unauthorized(AUTH_MESSAGES.wrongLogin);
      ctx.log.info("login", { user: body.username });
      return {
        access_token: await jwt.sign(accessClaims(ctx, body.username)),
        token_type: "bearer" as const,
        expires_in: ctx.settings.tokenTtlSeconds,
      };
    },
    {
      body: LoginBody,
      response: { 200: TokenResponse, ...errorResponses(401, 422) },
      detail: {
        summary: "Log in",
        description: "Exchanges a username and password (JSON, or an OAuth2 password-flow form) for a bearer token.",
        security: [],
      },
    },
  );
}

