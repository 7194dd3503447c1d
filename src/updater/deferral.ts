// Deferral on a full disk: an outcome that cannot be stored waits in memory (db/disk.ts) — the
// domain's new state and its history row — and is stored, in order, once the disk takes writes
// again; meanwhile the domain is read with its waiting state laid over it.

import { type DiskState, type DomainChanges, type HistoryInsert, isDiskFull } from "../db/disk";
import type { Store } from "../store";
import type { DomainRow, ProviderRow } from "../store/rows";

/** What deferral reads and writes: the store, the full disk's state, the history retention. */
export interface DeferralParts {
  store: Store;
  disk: DiskState;
  settings: { historyRetention: number };
}

/** The domain and its provider; the domain with any state still waiting for disk space (db/disk.ts). */
export function loadDomain(ctx: DeferralParts, domainId: number): { domain: DomainRow; provider: ProviderRow } | null {
  const loaded = ctx.store.domains.withProvider(domainId);
  return loaded ? { domain: ctx.disk.overlay(loaded.domain), provider: loaded.provider } : null;
}

/**
 * Runs a transaction that writes a domain's new state, with any older state still waiting for disk
 * space folded in first. On a full disk the state (and the history row, if any) waits in memory
 * instead, and `onFull` gives the answer.
 */
export function storeOutcome<T>(
  ctx: DeferralParts,
  domainId: number,
  work: (store: Store, waiting: DomainChanges) => T,
  onFull: () => { row: HistoryInsert | null; changes: DomainChanges; result: T },
): T {
  try {
    const result = ctx.store.transaction((store) => work(store, ctx.disk.waitingChanges(domainId)));
    ctx.disk.forgetChanges(domainId);
    ctx.disk.noteSpace();
    return result;
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    ctx.disk.noteFull("recording an update");
    const { row, changes, result } = onFull();
    ctx.disk.defer(domainId, row, changes);
    return result;
  }
}

/**
 * Writes the outcomes kept in memory while the disk was full, once it takes them (each domain's rows
 * and state in one transaction); while nothing waits but the disk was full, a small write tells
 * whether space is back. Called by every scheduler tick.
 */
export function storeWaitingOutcomes(ctx: DeferralParts): void {
  if (!ctx.disk.full && !ctx.disk.waiting) return;
  try {
    const stored = ctx.disk.storeWaiting((domainId, rows, changes) =>
      ctx.store.transaction((store) => {
        if (!store.domains.find(domainId)) return;
        for (const row of rows) store.history.append(row, ctx.settings.historyRetention);
        if (Object.keys(changes).length > 0) store.domains.update(domainId, changes);
      }),
    );
    if (stored === 0) ctx.store.space.probe();
    ctx.disk.noteSpace(stored);
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    ctx.disk.noteFull("storing the outcomes kept in memory");
  }
}
