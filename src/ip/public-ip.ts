// The newest public addresses: what the updater last detected (or a router pushed), shown by the
// status answer and the dashboard, and each source's own newest answer (the dashboard's address card).

import type { IpFamily } from "../net/address";
import type { DetectionFailure } from "./detect";

/** One source's newest answer for one family: its address or why it failed, and since when it says so. */
export interface SourceAnswer {
  family: IpFamily;
  /** The source as written: `web`, `dns`, `interface:<name>`, `fixed:<address>`. */
  source: string;
  /** Which services answered (the echo services' URLs, the DNS question), when it answered. */
  via: string | null;
  ip: string | null;
  /** Why it failed, each service's reason (null while it answers). */
  error: string | null;
  /** Since when it gives this answer (or fails), ms since the epoch. */
  since: number;
  /** Its newest answer, ms since the epoch. */
  checkedAt: number;
}

export interface PublicIpState {
  ipv4: string | null;
  ipv6: string | null;
  /** When the newest detection (of either family) finished, ms since the epoch. */
  checkedAt: number | null;
  /** A family whose detection fails now: since when (the first failure of the streak) and why. */
  failures: { ipv4: DetectionFailure | null; ipv6: DetectionFailure | null };
  /** Each source asked so far, by `<family> <source>`: its own newest answer. */
  answers: Map<string, SourceAnswer>;
}
