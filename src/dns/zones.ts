// What the zone services share:
// splitting a hostname into the zone that holds it and the name inside that zone (docs/services/README.md,
// "Splitting a name into zone + relative name"), and deciding whether a record set already holds an
// address. A zone is never "the last two labels": `a.b.example.co.uk` may live in `example.co.uk` or
// in a delegated `b.example.co.uk`, so the longest zone that ends at a label boundary wins.

import { isIPv6 } from "node:net";
import { plural } from "../util/plural";
import type { FailureCause, Step, VerifyOutcome } from "./provider";

/** The hostname and each parent, longest first, without the bare TLD: the zones that could hold it. */
export function candidateZones(hostname: string): string[] {
  const labels = hostname.split(".");
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join("."));
}

/** Whether `zone` is the hostname itself or one of its parents, at a label boundary. */
export function zoneHolds(zone: string, hostname: string): boolean {
  return hostname === zone || hostname.endsWith(`.${zone}`);
}

/** The longest of `zones` that holds the hostname; zone names compared lowercase, without a trailing dot. */
export function longestZone(hostname: string, zones: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const listed of zones) {
    const zone = listed.toLowerCase().replace(/\.$/, "");
    if (zoneHolds(zone, hostname) && (best === undefined || zone.length > best.length)) best = zone;
  }
  return best;
}

/** The hostname relative to a zone that holds it, e.g. `home` or `a.b`; `apex` for the zone itself. */
export function relativeName(hostname: string, zone: string, apex = ""): string {
  return hostname === zone ? apex : hostname.slice(0, -(zone.length + 1));
}

/** The name of a hostname's zone from a domain's config (`config.zone_id`), when one is set. */
export function configuredZone(zoneId: unknown): string | undefined {
  return typeof zoneId === "string" && zoneId.trim() !== ""
    ? zoneId.trim().toLowerCase().replace(/\.$/, "")
    : undefined;
}

/** Why a zone named in the config cannot be used for the hostname. */
export function foreignZoneMessage(service: string, zone: string, hostname: string): string {
  return `${service}: config.zone_id ${zone} does not hold ${hostname}; correct config.zone_id or remove it`;
}

/** A credentials check that failed, in the failure's words and with its cause. */
export function failedCheck(failure: { message: string; cause: FailureCause }): VerifyOutcome {
  return { ok: false, detail: failure.message, cause: failure.cause };
}

/**
 * A credentials check that lists what the credentials may see (changing nothing) and says how much:
 * `API key accepted (3 zones)`; the listing's failure, in the service's words, when it fails.
 */
export async function acceptedCounting(
  listing: Step<readonly unknown[]> | Promise<Step<readonly unknown[]>>,
  accepted: string,
  noun = "zone",
  after = "",
): Promise<VerifyOutcome> {
  const listed = await listing;
  if (!listed.ok) return failedCheck(listed);
  return acceptedWithCount(accepted, listed.value.length, noun, after);
}

/**
 * A credentials check whose answer may say how many zones (or domains) the credentials see:
 * `Token accepted (12 zones)`; just `Token accepted` when `count` is not a number.
 */
export function acceptedWithCount(accepted: string, count: unknown, noun = "zone", after = ""): VerifyOutcome {
  return { ok: true, detail: typeof count === "number" ? `${accepted} (${plural(count, noun)}${after})` : accepted };
}

/** Why no zone was found for a hostname, in the one wording every zone service uses: whose zones were searched, and the name. */
export function noZoneMessage(service: string, hostname: string, owner = "this account"): string {
  return `${service}: no zone of ${owner} holds ${hostname}`;
}

/** Whether two addresses are the same, however an IPv6 address is written (`2001:db8::1` = `2001:DB8:0::1`). */
export function sameAddress(a: string, b: string): boolean {
  if (isIPv6(a) && isIPv6(b)) return expandIPv6(a) === expandIPv6(b);
  return a.trim() === b.trim();
}

/** Whether two lists hold the same addresses (compared as addresses), in any order. */
export function sameAddresses(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((address) => b.some((other) => sameAddress(address, other)));
}

function expandIPv6(address: string): string {
  const [head = "", tail] = address.toLowerCase().split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  // An embedded IPv4 tail (::ffff:192.0.2.1) counts as two groups.
  const toHex = (list: string[]) =>
    list.flatMap((group) => {
      if (!group.includes(".")) return [group.padStart(4, "0")];
      const [a = 0, b = 0, c = 0, d = 0] = group.split(".").map(Number);
      return [((a << 8) | b).toString(16).padStart(4, "0"), ((c << 8) | d).toString(16).padStart(4, "0")];
    });
  const left = toHex(groups(head));
  const right = tail === undefined ? [] : toHex(groups(tail));
  const zeros = Array<string>(8 - left.length - right.length).fill("0000");
  return [...left, ...(tail === undefined ? [] : zeros), ...right].join(":");
}

/**
 * Why a record set with several addresses is left alone: ddnsd keeps one name on one address, and
 * replacing the set would delete the other records (round robin, a second host) it never made.
 */
export function multipleValuesMessage(
  service: string,
  hostname: string,
  recordType: string,
  values: readonly string[],
): string {
  return `${service}: ${hostname} ${recordType} holds ${values.length} addresses (${values.join(", ")}); ddnsd changes only a record with one address, so nothing was written — remove the others at ${service} or use another name`;
}
