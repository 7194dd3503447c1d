// What the updater keeps while the app runs: the queues that keep two updates of one domain (or two
// writes to one name at one service) apart, each provider's concurrency slots and its pauses. Built
// with the context (app.ts), never module-level.

import { Slots } from "../util/slots";
import { ProviderThrottles } from "./pauses";

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
  private readonly slots = new Map<number, Slots>();

  constructor(private readonly limit: number) {}

  run<T>(providerId: number, work: () => Promise<T>): Promise<T> {
    let slots = this.slots.get(providerId);
    if (!slots) this.slots.set(providerId, (slots = new Slots(this.limit)));
    return slots.run(work);
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
