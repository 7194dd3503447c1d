// Access tokens: signed with @elysiajs/jwt, checked by jose (once per token: verified-tokens.ts),
// revoked by a sign-out (its `jti`) or a password set (the user's "tokens valid after"), the
// API's exact 401 sentences. Which credentials a request may bring is guard.ts's.

import { jwt } from "@elysiajs/jwt";
import { errors as joseErrors, jwtVerify } from "jose";
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

/** The signer both the API login and the admin sign-in use (through `signAccessToken`). */
export function tokenSigner(ctx: Pick<TokenDeps, "keys">) {
  return jwt({ name: "jwt", secret: ctx.keys.secretKey, alg: "HS256" });
}

type Signer = { sign(claims: { sub: string; jti: string; exp: number }): Promise<string> };

/**
 * A new token for the user. The signer stamps `iat` in whole seconds, and a password set refuses
 * every token issued in or before its second; so right after one, signing waits for the next second
 * (at most 1 s) rather than hand out a token that is already dead.
 */
export async function signAccessToken(
  ctx: Pick<TokenDeps, "store" | "settings">,
  signer: Signer,
  username: string,
): Promise<string> {
  const validAfter = ctx.store.users.find(username)?.tokensValidAfter ?? null;
  if (validAfter !== null && Date.now() < (validAfter + 1) * 1000)
    await Bun.sleep((validAfter + 1) * 1000 - Date.now());
  return signer.sign({
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
  let claims: Claims;
  try {
    claims = await verifiedClaims(ctx, token);
  } catch (error) {
    // jose checks the signature before the expiry, so only a genuine token can be "expired".
    throw unauthorized(error instanceof joseErrors.JWTExpired ? AUTH_MESSAGES.expired : AUTH_MESSAGES.invalid);
  }
  const { subject, jti, issuedAt, expiresAt } = claims;
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

/** The token's claims, checked by jose the first time this app sees the token. */
async function verifiedClaims(ctx: TokenCheck, token: string): Promise<Claims> {
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
