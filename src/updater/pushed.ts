// What a push-only domain (address_source `push`) holds: what its router said. Its intended address
// is the newest one a push carried (`myip`, or the push's own connection address when it named
// none), kept on the domain as `pushed_ip` and written by that push or a repair; a forced update
// re-sends it and a repair of a record changed outside ddnsd writes it back, never an older one.

import type { Detection } from "../ip/detect";
import { type IpFamily, isGlobalAddress, parseIpAddress } from "../net/address";
import type { DomainRow } from "../store/rows";

/** A forced update of a push-only domain before any push (the 409's sentence). */
export const NOT_PUSHED_YET =
  "No address was pushed for this domain yet: its address comes only from the router's pushes (address_source push)";

/**
 * The intended address of a push-only domain: the newest address its router pushed (before a
 * record's `ipv6_suffix` is applied), or why there is none yet. The one answer a forced update and
 * a repair take.
 */
export function intendedPushAddress(domain: Pick<DomainRow, "pushedIp">): Detection {
  return domain.pushedIp === null
    ? { ok: false, error: NOT_PUSHED_YET }
    : { ok: true, ip: domain.pushedIp, source: "push" };
}

/**
 * A push without `myip` to a push-only domain: the address the push came from (the client behind a
 * trusted proxy), taken only when it is of the record's family and globally routable (or
 * DDNS_ALLOW_PRIVATE_IPS); otherwise the failure the history keeps, and nothing is written.
 * ddnsd's own address (the echo services') is never the router's.
 */
export function connectionAddress(client: string, family: IpFamily, allowPrivate: boolean): Detection {
  const shown = JSON.stringify(client.slice(0, 60));
  const ip = parseIpAddress(client, family);
  if (ip === null)
    return {
      ok: false,
      error: `The push carried no address (no myip), and the address it came from, ${shown}, is not an IPv${family} address; nothing written`,
    };
  if (!allowPrivate && !isGlobalAddress(ip))
    return {
      ok: false,
      error: `The push carried no address (no myip), and the address it came from, ${ip}, is not globally routable; nothing written`,
    };
  return { ok: true, ip, source: "push" };
}
