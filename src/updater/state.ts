// What the updater keeps while the app runs: the queues that keep two updates of one domain (or two
// writes to one name at one service) apart, each provider's concurrency slots and its pauses. Built
// with the context (app.ts), never module-level.

import { DEFAULT_PAUSE_SECONDS, pauseSeconds } from "../dns/http";

/** Work under one key runs one after another, never side by side. */
class KeyedQueue {
  private readonly held = new Map<number | string, Promise<unknown>>();

  run<T>(key: number | string, work: () => Promise<T>): Promise<T> {
    const previous = this.held.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    this.held.set(key, tail);
    void tail.then(() => {
      if (this.held.get(key) === tail) this.held.delete(key);
    });
    return run;
  }

  /** Whether work under this key is running or waiting. */
  has(key: number | string): boolean {
    return this.held.has(key);
  }
}

/** At most `limit` pieces of work at once per provider; the rest wait their turn in order. */
class ProviderSlots {
  private readonly slots = new Map<number, { active: number; waiting: (() => void)[] }>();

  constructor(private readonly limit: number) {}

  async run<T>(providerId: number, work: () => Promise<T>): Promise<T> {
    let slot = this.slots.get(providerId);
    if (!slot) this.slots.set(providerId, (slot = { active: 0, waiting: [] }));
    const current = slot;
    if (current.active >= this.limit) await new Promise<void>((wake) => current.waiting.push(wake));
    else current.active++;
    try {
      return await work();
    } finally {
      const next = current.waiting.shift();
      if (next) next();
      else current.active--;
    }
  }
}

/**
 * How long each provider is paused for a "slow down": the wait the service named, else a minute
 * doubled for each "slow down" in a row, never more than an hour either way. The streak ends with
 * any other answer; it lives in memory, since a restart is a fresh start for the service too.
 */
export class ProviderThrottles {
  private readonly streaks = new Map<number, number>();

  /** Counts one more "slow down" of the provider and says how long to pause it, in seconds. */
  pauseSeconds(providerId: number, named: number | undefined): number {
    const streak = (this.streaks.get(providerId) ?? 0) + 1;
    this.streaks.set(providerId, streak);
    // 2^12 minutes is far past the cap already; the exponent stops there so it never overflows.
    return pauseSeconds(named, DEFAULT_PAUSE_SECONDS * 2 ** Math.min(streak - 1, 12));
  }

  /** Any answer but "slow down" ends the provider's streak. */
  settle(providerId: number): void {
    this.streaks.delete(providerId);
  }
}

export interface UpdaterState {
  /** Keys: a domain id (its updates), or `"<provider id> <hostname>"` (writes to one name). */
  queue: KeyedQueue;
  /** `DDNS_UPDATE_CONCURRENCY` provider writes at once, per provider. */
  slots: ProviderSlots;
  throttles: ProviderThrottles;
}

export function createUpdaterState(concurrency: number): UpdaterState {
  return { queue: new KeyedQueue(), slots: new ProviderSlots(concurrency), throttles: new ProviderThrottles() };
}
