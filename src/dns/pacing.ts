// Keeps each provider's requests under every documented limit of its service at once (a
// description's `rateLimits`, e.g. deSEC's per-second, hourly and daily windows): the client is
// handed a `fetch` that waits, when the last `requests` calls of that provider in any window all
// fell within its `perSeconds`, until the oldest of them leaves that window. A request's start is the
// earliest time every window allows, never before the provider's previous start (first come, first
// served), and it is counted in every window. Bursts below every limit are not slowed at all. One
// Pacer lives as long as the app (built with the context).

import type { FetchLike } from "../net/outbound";
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
  /**
   * Per provider id, per window (in the order of its limits): the start times (ms) given out, oldest
   * first, at most that window's `requests` of them. Every window holds the same latest starts.
   */
  private readonly starts = new Map<number, number[][]>();

  constructor(private readonly clock: PacerClock = realClock) {}

  /** Reserves the next start time for a request of this provider in every window; returns how long to wait for it. */
  private reserve(providerId: number, limits: readonly RateLimit[]): number {
    const now = this.clock.now();
    let windows = this.starts.get(providerId);
    if (!windows) this.starts.set(providerId, (windows = limits.map(() => [])));
    let start = now;
    limits.forEach((limit, i) => {
      const starts = windows[i]!;
      const windowMs = limit.perSeconds * 1000;
      while (starts.length > 0 && starts[0]! <= now - windowMs) starts.shift();
      // Full: the request may start once the oldest of the last `requests` starts has left the window.
      if (starts.length >= limit.requests) start = Math.max(start, starts[starts.length - limit.requests]! + windowMs);
      start = Math.max(start, starts.at(-1) ?? now);
    });
    limits.forEach((limit, i) => {
      const starts = windows[i]!;
      starts.push(start);
      if (starts.length > limit.requests) starts.splice(0, starts.length - limit.requests);
    });
    return start - now;
  }

  /**
   * `fetch` as the provider's client must use it: each call waits for its turn first. The caller's
   * deadline (`timeoutMs`, started as it called) is for the request, and a request waiting its turn
   * has not been sent: after a wait it gets a deadline of its own, counted from when it leaves, or
   * a burst longer than the deadline would fail requests that never left ("no answer within 10s").
   */
  fetchFor(
    providerId: number,
    limits: readonly RateLimit[] | undefined,
    fetch: FetchLike,
    timeoutMs: number,
  ): FetchLike {
    if (!limits || limits.length === 0) return fetch;
    return async (input, init) => {
      const wait = this.reserve(providerId, limits);
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
