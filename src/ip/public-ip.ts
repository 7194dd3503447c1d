// The newest public addresses: what the updater last detected (or a router pushed), shown by the
// status answer and the dashboard.

import type { DetectionFailure } from "./detect";

export interface PublicIpState {
  ipv4: string | null;
  ipv6: string | null;
  /** When the newest detection (of either family) finished, ms since the epoch. */
  checkedAt: number | null;
  /** A family whose detection fails now: since when (the first failure of the streak) and why. */
  failures: { ipv4: DetectionFailure | null; ipv6: DetectionFailure | null };
}
