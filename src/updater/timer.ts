// The scheduler's one wake-up: a timeout measured on the monotonic clock (`performance.now()`), so
// a wall clock set back or forward neither stalls nor hurries it. Only one wake-up is ever pending:
// arming again replaces it. The clock is passed in so tests can drive time themselves.

export interface Clock {
  /** Wall-clock ms since the epoch: what stored times (next_run_at, paused_until) are in. */
  wall(): number;
  /** Monotonic ms: never jumps, whatever happens to the wall clock. */
  monotonic(): number;
  setTimeout(fire: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  wall: () => Date.now(),
  monotonic: () => performance.now(),
  setTimeout: (fire, ms) => {
    const handle = setTimeout(fire, ms);
    // The server keeps the process alive, not a wake-up.
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class WakeUpTimer {
  private handle: unknown = null;
  private deadline = 0;

  constructor(
    private readonly clock: Clock,
    private readonly fire: () => void,
  ) {}

  /** Fires once `delayMs` have passed on the monotonic clock, unless armed again or cancelled first. */
  in(delayMs: number): void {
    this.cancel();
    this.deadline = this.clock.monotonic() + Math.max(0, delayMs);
    this.arm(Math.max(0, delayMs));
  }

  /** Monotonic ms until the pending wake-up, or null when none is pending. */
  get pendingMs(): number | null {
    return this.handle === null ? null : Math.max(0, this.deadline - this.clock.monotonic());
  }

  cancel(): void {
    if (this.handle !== null) this.clock.clearTimeout(this.handle);
    this.handle = null;
  }

  private arm(ms: number): void {
    this.handle = this.clock.setTimeout(() => {
      // A timeout may fire a little early: wait out the rest rather than act before the deadline.
      const left = this.deadline - this.clock.monotonic();
      if (left > 0.5) return this.arm(left);
      this.handle = null;
      this.fire();
    }, ms);
  }
}
