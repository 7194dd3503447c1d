// Detection of the public address: asks a family's source (the one chosen in the pages, else
// DDNS_IPV4_SOURCE / DDNS_IPV6_SOURCE: the echo services or an interface) and remembers the answer
// for the status endpoint and the pages. A scheduled pass detects once per family for all its domains.

import type { FetchLike, RecordType } from "../dns/provider";
import { detectPublicIp, type Detection, type DetectionFailure, type IpFamily } from "../ip/detect";
import { interfaceAddress } from "../ip/interface";
import type { Logger } from "../log";
import { effectiveSource, type SourceParts } from "./address-source";
import type { EventSink } from "./events";

/** What detecting takes: the source's parts, how requests leave, where the answer is kept and told. */
export interface DetectParts extends SourceParts {
  settings: SourceParts["settings"] & { allowPrivateIps: boolean; httpTimeoutMs: number };
  fetch: FetchLike;
  /** The newest addresses, and since when each family fails (the app's `publicIp`). */
  publicIp: {
    ipv4: string | null;
    ipv6: string | null;
    checkedAt: number | null;
    failures: { ipv4: DetectionFailure | null; ipv6: DetectionFailure | null };
  };
  log: Logger;
  events: Pick<EventSink, "detected">;
}

/** The address family a record type holds. */
export function familyOf(recordType: RecordType): IpFamily {
  return recordType === "AAAA" ? 6 : 4;
}

/**
 * Asks the family's source (the one chosen in the pages, else DDNS_IPV4_SOURCE / DDNS_IPV6_SOURCE:
 * the echo services or an interface) once, and remembers the answer for the status endpoint and the pages.
 */
export async function detectFamily(ctx: DetectParts, family: IpFamily): Promise<Detection> {
  const { source, urls } = effectiveSource(ctx, family);
  const result =
    source.kind === "interface"
      ? interfaceAddress(family, source.name, { allowPrivate: ctx.settings.allowPrivateIps })
      : await detectPublicIp(family, {
          urls,
          fetch: ctx.fetch,
          timeoutMs: ctx.settings.httpTimeoutMs,
          allowPrivate: ctx.settings.allowPrivateIps,
        });
  const now = Date.now();
  const key = family === 4 ? "ipv4" : "ipv6";
  ctx.publicIp.checkedAt = now;
  if (result.ok) {
    ctx.publicIp[key] = result.ip;
    ctx.publicIp.failures[key] = null;
  } else {
    // The pages say since when it fails, not just that the last try did.
    ctx.publicIp.failures[key] = { since: ctx.publicIp.failures[key]?.since ?? now, error: result.error };
    ctx.log.warn("public IP detection failed", { family: `IPv${family}`, reason: result.error });
  }
  ctx.events.detected(family, result);
  return result;
}
