// What a record set of several addresses is to become (docs/operations.md, "Several addresses for one
// name"): the addresses wanted, every one missing added; those ddnsd itself published for the domain
// and wants no more, removed; and any other the name holds — someone else's, added after ddnsd first
// wrote it — left alone beside them. On the first write (nothing published yet) what the name holds is
// taken as ddnsd's own, as a write of one address writes into the record it finds.

import { sameAddress, sameAddresses } from "./zones";

export interface SetPlan {
  /** What the set is to hold: the wanted addresses in their order, then the ones left alone. */
  next: string[];
  /** Addresses ddnsd published before and removes now. */
  removed: string[];
  /** Addresses someone else added, which stay. */
  foreign: string[];
  /** Whether the set already holds exactly `next` (in any order). */
  holds: boolean;
}

function within(list: readonly string[], address: string): boolean {
  return list.some((item) => sameAddress(item, address));
}

/**
 * The plan for a set that holds `held` now, to hold `wanted`, after ddnsd published `published`
 * (null: never written yet, so `held` is taken as its own).
 */
export function planSet(
  held: readonly string[],
  wanted: readonly string[],
  published: readonly string[] | null,
): SetPlan {
  const others = held.filter((address) => !within(wanted, address));
  const removed = published === null ? others : others.filter((address) => within(published, address));
  const foreign = others.filter((address) => !within(removed, address));
  const next = [...wanted, ...foreign];
  const holds = sameAddresses(next, held);
  return { next, removed, foreign, holds };
}

/**
 * What the history adds about the addresses a set write removed or left alone, e.g. "removed:
 * 203.0.113.2, left alone: 198.51.100.9 (added outside ddnsd, never removed by it)".
 */
export function setDetails(plan: Pick<SetPlan, "removed" | "foreign">): string[] {
  return [
    ...(plan.removed.length > 0 ? [`removed: ${plan.removed.join(" and ")}`] : []),
    ...(plan.foreign.length > 0
      ? [`left alone: ${plan.foreign.join(" and ")} (added outside ddnsd, never removed by it)`]
      : []),
  ];
}
