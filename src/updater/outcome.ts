// What one update of one domain came to: the value the updater returns to the forced endpoint, the
// scheduler and `ddnsd check`. Kept apart from update.ts so the context can name it.

import type { RecordType } from "../dns/provider";
import type { HistoryTrigger } from "../store/rows";

/**
 * What started an update: the forced endpoint, the schedule, a router's push (/nic/update), the
 * live check finding the record changed outside ddnsd (`repair`, ./propagation.ts), or a scheduled
 * check resending an unchanged address to keep the host alive (`refresh`, ./refresh.ts).
 */
export type Trigger = HistoryTrigger;

export interface UpdateOutcome {
  domainId: number;
  hostname: string;
  recordType: RecordType;
  result: "updated" | "unchanged" | "failed";
  /**
   * Why it failed: the public IP could not be detected; the provider refused, was unreachable or could
   * not be called; or (forced updates only) the domain or its provider is disabled.
   */
  failure: "detection" | "provider" | "disabled" | null;
  ip: string | null;
  /** A domain with several sources: every address written (`ip` is the first). */
  addresses?: readonly string[];
  /** A domain with several sources: the addresses ddnsd published before and removed with this write. */
  removed?: readonly string[];
  previousIp: string | null;
  changed: boolean;
  /**
   * Something was written at the service (a record created or changed); false when it already held the
   * address, when nothing was sent, or when the attempt failed. The log and a push's `good` follow it.
   */
  written: boolean;
  message: string;
  durationMs: number;
  historyId: number | null;
}
