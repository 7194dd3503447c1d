// What the services that update a record with one request and cannot read it (DuckDNS, dyndns2,
// Namecheap, custom) share: how long a "slow down" answer asks to wait, and keeping the secret that
// travels in their URLs (DuckDNS's token, Namecheap's password, custom's `{secret}`) out of every
// message, since a service may echo the request back in an error page.

import { pauseSeconds, retryAfterSeconds } from "./http";
import type { DnsProvider } from "./provider";

/**
 * Seconds to wait before asking this service again: a 429's (or a 503's) `Retry-After`, capped at
 * an hour, or a minute for a 429 that names no wait; `undefined` for every other answer.
 */
export function throttleSeconds(status: number, headers: Headers): number | undefined {
  const asked = retryAfterSeconds(headers);
  if (status === 429) return pauseSeconds(asked);
  if (status === 503 && asked !== undefined) return pauseSeconds(asked);
  return undefined;
}

/** `text` with every occurrence of each secret (as typed and URL-encoded) replaced by `••••`. */
export function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) {
    if (secret === "") continue;
    for (const form of new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)])) {
      masked = masked.split(form).join("••••");
    }
  }
  return masked;
}

/**
 * `verify` for a service that cannot check credentials without writing a record. The registry
 * answers `{ok: null}` for such services without calling it; this keeps a direct call honest too.
 */
export function cannotVerify(detail: string): DnsProvider["verify"] {
  return async () => ({ ok: false, detail });
}
