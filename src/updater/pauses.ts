// A provider's pause, decided here alone: the time until which its service asked not to be called
// (a 429's Retry-After, or the updater's own growing pause after repeated "slow down" answers:
// ProviderThrottles), never more than an hour. No client invents a wait; it only passes on the one
// its service named. The pause is stored on the provider row, so every update, the client's fetch
// and the scheduler see it: read before each write, set after a "slow down".

import { type DiskState, isDiskFull } from "../db/disk";
import type { WriteOutcome } from "../dns/provider";
import type { Store } from "../store";
import type { ProviderRow } from "../store/rows";

/**
 * The longest pause a "slow down" answer can impose: a daily quota's wait can be hours, and a garbled
 * or hostile `Retry-After` must not stop updates for days; one early request after the cap costs nothing.
 */
const MAX_PAUSE_SECONDS = 3600;
/** A "slow down" that names no wait: a minute is a polite first pause, doubled for each one in a row. */
const DEFAULT_PAUSE_SECONDS = 60;

/**
 * How long to pause a provider that said "slow down": the wait it named (`Retry-After`, a reset
 * time), else `fallback`, at least a second and never more than the cap.
 */
function pauseSeconds(named: number | undefined, fallback: number): number {
  return Math.min(Math.max(named ?? fallback, 1), MAX_PAUSE_SECONDS);
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

/** What a failure's message adds when the provider is paused for it: the history says how long. */
function pausing(seconds: number): string {
  return `; pausing ${seconds} s`;
}

/** What pausing reads and writes: the store, the throttles kept in memory, the full disk. */
export interface PauseParts {
  store: Store;
  updater: { throttles: ProviderThrottles };
  disk: DiskState;
}

/** A write's answer, and the provider's pause it leaves in force (which the domain's next run waits for). */
export interface PacedWrite {
  write: WriteOutcome;
  pausedUntil: number | null;
}

/** The refusal to call a provider whose pause has not ended; null when it may be called. */
export function heldBack(parts: PauseParts, provider: ProviderRow): PacedWrite | null {
  // Read now, not when the update began: a 429 that an update queued ahead of this one got counts.
  const paused = parts.store.providers.pausedUntil(provider.id);
  if (paused === null || paused <= Date.now()) return null;
  const message = `${provider.name} asked to wait until ${new Date(paused).toISOString()} (rate limited); not called`;
  return { write: { ok: false, message, cause: "throttled" }, pausedUntil: paused };
}

/**
 * What a service's answer does to the provider's pause: any answer but "slow down" settles the
 * throttle; a "slow down" pauses the provider (its message says for how long), stored before the
 * caller releases its slot, so the updates waiting for it see the pause.
 */
export function afterAnswer(parts: PauseParts, providerId: number, write: WriteOutcome): PacedWrite {
  if (write.ok || write.cause !== "throttled") {
    parts.updater.throttles.settle(providerId);
    return { write, pausedUntil: null };
  }
  // Paused meanwhile by another write's "slow down" (answered while this one was in flight, or
  // held back before it was sent): the same "slow down", which neither doubles the pause nor ends it.
  const now = Date.now();
  const pausedMeanwhile = parts.store.providers.pausedUntil(providerId);
  if (pausedMeanwhile !== null && pausedMeanwhile > now) {
    return {
      write: { ...write, message: write.message + pausing(Math.ceil((pausedMeanwhile - now) / 1000)) },
      pausedUntil: pausedMeanwhile,
    };
  }
  const pause = parts.updater.throttles.pauseSeconds(providerId, write.retryAfterSeconds);
  return {
    write: { ...write, message: write.message + pausing(pause) },
    pausedUntil: pauseProvider(parts, providerId, now + pause * 1000),
  };
}

/**
 * Pauses the provider until `until` (ms), never shortening a longer pause; returns the pause in force.
 * On a full disk the pause still holds for this domain's next run (its waiting state), just not stored.
 */
function pauseProvider(parts: PauseParts, providerId: number, until: number): number {
  try {
    return parts.store.providers.pause(providerId, until) ?? until;
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    parts.disk.noteFull("pausing a provider");
    return until;
  }
}
