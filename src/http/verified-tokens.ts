// What the token check keeps in memory, one of each per app (built with the context in app.ts):
// access tokens whose signature and claims the token handler has already checked (@elysiajs/jwt
// verifies HS256 through jose and WebCrypto, ~100 µs a call on Bun — more than the rest of a small
// API request — and a client sends the same token again and again), and the revocation state, kept exact by the database's write count.

import type { WatchedDatabase } from "../db/writes";
import type { UserQueries } from "../store/users";

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

  /** The claims of a token verified before and not yet expired (an expired one is checked again, and refused as expired). */
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

/**
 * Whether a token is revoked, answered from memory: each user's "tokens valid after" second and the
 * signed-out `jti`s, read from the database again only after a write to it (the connection counts
 * them, db/writes.ts). The server is the only writer of its data dir — the CLI's password change
 * goes through it while it runs — so a sign-out or a password set is refused from the very next
 * request, and a request that follows no write reads nothing from SQLite.
 */
export class Revocations {
  private readAt = -1;
  private validAfter = new Map<string, number | null>();
  private revoked = new Set<string>();

  constructor(
    private readonly users: UserQueries,
    /** The connection the users are stored in: its write count tells when to read again. */
    private readonly sqlite: WatchedDatabase,
  ) {}

  /** The user's "tokens valid after" second and whether the `jti` is signed out, or null when no such user exists. */
  state(jti: string, username: string): { validAfter: number | null; revoked: boolean } | null {
    if (this.readAt !== this.sqlite.writes) this.read();
    const validAfter = this.validAfter.get(username);
    return validAfter === undefined ? null : { validAfter, revoked: this.revoked.has(jti) };
  }

  private read(): void {
    this.validAfter = new Map(this.users.validAfter().map((user) => [user.username, user.validAfter]));
    // Expired sign-outs need no remembering: their tokens are refused as expired.
    this.revoked = new Set(this.users.revokedTokens(Date.now()));
    this.readAt = this.sqlite.writes;
  }
}
