// Access tokens whose signature and claims jose has already checked. jose verifies HS256 through
// WebCrypto, ~100 µs a call on Bun — more than the rest of a small API request — and a client sends
// the same token again and again. Only the signature check is remembered: whether the token is
// revoked (signed out, or its user's password set since) is looked up on every request. One cache
// lives as long as the app (built with the context in app.ts).

export interface Claims {
  subject: unknown;
  jti: unknown;
  issuedAt: unknown;
  /** ms since the epoch */
  expiresAt: number;
}

/** Bounded (the oldest out): a flood of distinct genuine tokens cannot grow it. */
const KEPT = 256;

export class VerifiedTokens {
  private readonly known = new Map<string, Claims>();

  /** The claims of a token verified before and not yet expired (an expired one goes back to jose, which says so). */
  get(token: string, now = Date.now()): Claims | undefined {
    const claims = this.known.get(token);
    if (claims === undefined) return undefined;
    if (now < claims.expiresAt) return claims;
    this.known.delete(token);
    return undefined;
  }

  remember(token: string, claims: Claims): void {
    if (this.known.size >= KEPT) this.known.delete(this.known.keys().next().value!);
    this.known.set(token, claims);
  }
}
