// Access tokens: signed and checked by one @elysiajs/jwt handler per key (each token checked once:
// verified-tokens.ts), revoked by a sign-out (its `jti`) or a password set (the user's "tokens
// valid after"), the API's exact 401 sentences. Which credentials a request may bring is guard.ts's.

import { jwt } from "@elysiajs/jwt";
import type { Store } from "../store";
import { unauthorized } from "./errors";
import type { Claims, Revocations, VerifiedTokens } from "./verified-tokens";

/** What signing and checking tokens use (the app's context has all of it). */
export interface TokenDeps {
  /** Distinguishes app instances: the bearer guard is registered once per app. */
  id: string;
  keys: { readonly secretKey: string };
  settings: { readonly tokenTtlSeconds: number };
  /** The users' "tokens valid after", and the signed-out tokens. */
  store: Pick<Store, "users">;
  verifiedTokens: VerifiedTokens;
  revocations: Revocations;
}

/** What checking a token reads: the key, the tokens checked before, the revocations. */
export type TokenCheck = Pick<TokenDeps, "keys" | "verifiedTokens" | "revocations">;

export const AUTH_MESSAGES = {
  missing: "Not authenticated",
  expired: "Token has expired",
  invalid: "Could not validate credentials",
  wrongLogin: "Incorrect username or password",
} as const;

function jwtHandler(secretKey: string) {
  return jwt({ name: "jwt", secret: secretKey, alg: "HS256" }).decorator.jwt;
}

/** One handler per app's keys: the API login, the admin sign-in and every check use the same one. */
const handlers = new WeakMap<TokenDeps["keys"], ReturnType<typeof jwtHandler>>();

function tokenHandler(ctx: Pick<TokenDeps, "keys">): ReturnType<typeof jwtHandler> {
  let handler = handlers.get(ctx.keys);
  if (handler === undefined) {
    handler = jwtHandler(ctx.keys.secretKey);
    handlers.set(ctx.keys, handler);
  }
  return handler;
}

/**
 * A new token for the user. The signer stamps `iat` in whole seconds, and a password set refuses
 * every token issued in or before its second; so right after one, signing waits for the next second
 * (at most 1 s) rather than hand out a token that is already dead.
 */
export async function signAccessToken(
  ctx: Pick<TokenDeps, "keys" | "store" | "settings">,
  username: string,
): Promise<string> {
  const validAfter = ctx.store.users.find(username)?.tokensValidAfter ?? null;
  if (validAfter !== null && Date.now() < (validAfter + 1) * 1000)
    await Bun.sleep((validAfter + 1) * 1000 - Date.now());
  return tokenHandler(ctx).sign({
    sub: username,
    jti: crypto.randomUUID(),
    exp: Math.floor(Date.now() / 1000) + ctx.settings.tokenTtlSeconds,
  });
}

export interface VerifiedToken {
  username: string;
  jti: string;
  /** ms since the epoch */
  expiresAt: number;
}

/** The username a token was issued to, or the 401 the contract names for why it is refused. */
export async function authenticateToken(ctx: TokenCheck, token: string): Promise<string> {
  return (await verifyToken(ctx, token)).username;
}

/** A token's user and identity, once it is genuine, unexpired and not revoked; else the 401. */
export async function verifyToken(ctx: TokenCheck, token: string): Promise<VerifiedToken> {
  const claims = await verifiedClaims(ctx, token);
  if (claims === null) throw unauthorized(AUTH_MESSAGES.invalid);
  const { subject, jti, issuedAt, expiresAt } = claims;
  // Only a genuine token gets here, so only a genuine one is ever "expired".
  if (expiresAt <= Date.now()) throw unauthorized(AUTH_MESSAGES.expired);
  if (typeof subject !== "string" || typeof jti !== "string" || typeof issuedAt !== "number")
    throw unauthorized(AUTH_MESSAGES.invalid);
  // From memory, exact: read again after any write (verified-tokens.ts).
  const state = ctx.revocations.state(jti, subject);
  if (state === null || state.revoked || (state.validAfter !== null && issuedAt <= state.validAfter)) {
    throw unauthorized(AUTH_MESSAGES.invalid);
  }
  return { username: subject, jti, expiresAt };
}

/** Signs a token out: its `jti` is refused until the token expires; expired entries are pruned. */
export function revokeToken(ctx: Pick<TokenDeps, "store">, token: VerifiedToken): void {
  ctx.store.users.revokeToken(token.jti, token.expiresAt, Date.now());
}

/**
 * The claims of a token signed with this app's key, checked by the handler the first time this app
 * sees the token; null when the signature, the algorithm or a claim is wrong. The handler answers
 * only "not valid", whatever the reason, so it is asked to leave the expiry alone (its clock set to
 * the epoch: no `exp` lies before it) and `verifyToken` tells an expired token apart itself.
 */
async function verifiedClaims(ctx: TokenCheck, token: string): Promise<Claims | null> {
  const known = ctx.verifiedTokens.get(token);
  if (known) return known;
  const payload = await tokenHandler(ctx).verify(token, {
    algorithms: ["HS256"],
    // A token without an expiry would never expire.
    requiredClaims: ["sub", "iat", "exp", "jti"],
    currentDate: new Date(0),
  });
  if (payload === false) return null;
  const claims = { subject: payload.sub, jti: payload.jti, issuedAt: payload.iat, expiresAt: payload.exp! * 1000 };
  // An expired token is not kept: the cache answers only for tokens still valid.
  if (claims.expiresAt > Date.now()) ctx.verifiedTokens.remember(token, claims);
  return claims;
}
