// Keeps each provider's requests under its service's documented limit (a description's
// `rateLimit`): the client is handed a `fetch` that waits, when the last `requests` calls of that
// provider all fell within `perSeconds`, until the oldest of them leaves the window. Bursts below
// the limit are not slowed at all. One Pacer lives as long as the app (built with the context).

import type { FetchLike } from "./provider";
import type { RateLimit } from "./service";

export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/**
 * Monotonic: a wall clock corrected backwards (a board without a real-time clock, then NTP) would
 * otherwise leave the reservations made before the correction days ahead, and every request waiting.
 */
const realClock: PacerClock = { now: () => performance.now(), sleep: (ms) => Bun.sleep(ms) };

export class Pacer {
  /** Per provider id: the start times (ms) given out, oldest first, at most `requests` of them. */
  private readonly starts = new Map<number, number[]>();

  constructor(private readonly clock: PacerClock = realClock) {}

  /** Reserves the next start time for a request of this provider; returns how long to wait for it. */
  private reserve(providerId: number, limit: RateLimit): number {
    const windowMs = limit.perSeconds * 1000;
    const now = this.clock.now();
    let starts = this.starts.get(providerId);
    if (!starts) this.starts.set(providerId, (starts = []));
    while (starts.length > 0 && starts[0]! <= now - windowMs) starts.shift();
    const full = starts.length >= limit.requests ? starts[starts.length - limit.requests]! + windowMs : now;
    const start = Math.max(now, full, starts.at(-1) ?? now);
    starts.push(start);
    if (starts.length > limit.requests) starts.splice(0, starts.length - limit.requests);
    return start - now;
  }

  /**
   * `fetch` as the provider's client must use it: each call waits for its turn first. The caller's
   * deadline (`timeoutMs`, started as it called) is for the request, and a request waiting its turn
   * has not been sent: after a wait it gets a deadline of its own, counted from when it leaves, or
   * a burst longer than the deadline would fail requests that never left ("no answer within 10s").
   */
  fetchFor(providerId: number, limit: RateLimit | undefined, fetch: FetchLike, timeoutMs: number): FetchLike {
    if (!limit) return fetch;
    return async (input, init) => {
      const wait = this.reserve(providerId, limit);
      if (wait <= 0) return fetch(input, init);
      await this.clock.sleep(wait);
      return fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    };
  }

  /** Drops a deleted provider's reservations. */
  forget(providerId: number): void {
    this.starts.delete(providerId);
  }
}
