// What a check that changed nothing learnt — when it ran, when the domain runs next — kept in
// memory instead of written: an unchanged check every few minutes would otherwise write a WAL frame
// (a page of the domains table and one of its index, about 9 KB) each time, keeping a NAS's disks
// awake and wearing a Pi's card for facts that matter only at the next change. The domain queries
// (./domains.ts) lay these facts over every row they read, fold them into the domain's next write,
// and write them all at most an hour after the first was held and when the database is closed. A
// crash loses only them: the stored next run is then the check's own (past) time, so the domain is
// simply checked again at start.

import type { DomainRow } from "./rows";

/** The facts a check that changed nothing leaves; absent keys are the stored ones. */
export type CheckFacts = Partial<Pick<DomainRow, "lastCheckedAt" | "nextRunAt">>;

/** The longest a held fact waits to be written, whatever else happens. */
export const HELD_AT_MOST_MS = 60 * 60_000;

/** Held facts, with the next run the table held when they were first held. */
interface Held {
  facts: CheckFacts;
  /**
   * The table's `next_run_at` under the held facts. A row whose stored next run is another one was
   * written past the store (plain SQL): its own values win, and the held facts are dropped.
   */
  stored: number | null;
}

export class HeldChecks {
  private readonly held = new Map<number, Held>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  /**
   * `changed` is told of every fact held (what is served again until a write must be made again);
   * `writeAll` writes every held fact, run an hour after the first fact held since the last writing.
   */
  constructor(
    private readonly writeAll: () => void,
    private readonly changed: () => void,
  ) {}

  /** Holds a domain's new facts over its stored next run. */
  hold(domainId: number, facts: CheckFacts, storedNextRunAt: number | null): void {
    const held = this.current(domainId, storedNextRunAt);
    this.held.set(domainId, { facts: { ...held?.facts, ...facts }, stored: storedNextRunAt });
    // Only an hour's safety net: it must not keep a process alive that has nothing else to do.
    this.timer ??= setTimeout(this.writeAll, HELD_AT_MOST_MS).unref();
    this.changed();
  }

  /** The row as it is now: its stored values with the facts held for it. */
  overlay<T extends Pick<DomainRow, "id" | "nextRunAt">>(row: T): T {
    const held = this.current(row.id, row.nextRunAt);
    return held === undefined ? row : { ...row, ...held.facts };
  }

  /** Takes a domain's held facts out (given its stored next run), to be written with its next write. */
  take(domainId: number, storedNextRunAt: number | null): CheckFacts {
    const held = this.current(domainId, storedNextRunAt);
    this.held.delete(domainId);
    return held?.facts ?? {};
  }

  /** Whether facts are held for the domain. */
  has(domainId: number): boolean {
    return this.held.has(domainId);
  }

  /** Takes every held fact out, to be written now where the stored next run is still the one held over. */
  takeAll(): [number, Held][] {
    const all = [...this.held];
    this.held.clear();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    return all;
  }

  /** What is held for the domain, unless its row was written past the store meanwhile (then dropped). */
  private current(domainId: number, storedNextRunAt: number | null): Held | undefined {
    const held = this.held.get(domainId);
    if (held === undefined || held.stored === storedNextRunAt) return held;
    this.held.delete(domainId);
    return undefined;
  }
}
