// The IPv6 address of a host behind the router (docs/api.md, IPv6 of a LAN host): a domain's `config.ipv6_suffix`
// keeps the interface-identifier bits of that host, and the detected (or pushed) address gives
// the prefix the ISP delegated, which changes; the AAAA record gets the two joined.

import { ipv6Literal, ipv6Value } from "../net/address";

const DEFAULT_IPV6_PREFIX_LENGTH = 64;

/** The ipv6_* keys of a domain's config. */
interface SuffixConfig {
  ipv6_suffix?: unknown;
  ipv6_prefix_length?: unknown;
}

/**
 * What is wrong with the domain's ipv6_* config keys, as `{field, message}`, or null when they are
 * fine; `recordType` is the domain's ("A", "AAAA"): the keys apply to AAAA records only.
 */
export function ipv6SuffixProblem(config: SuffixConfig, recordType: string): { field: string; message: string } | null {
  const { ipv6_suffix: suffix, ipv6_prefix_length: length } = config;
  if (suffix === undefined && length === undefined) return null;
  const field = suffix !== undefined ? "config.ipv6_suffix" : "config.ipv6_prefix_length";
  if (recordType !== "AAAA") return { field, message: "applies to AAAA records only" };
  if (length !== undefined && (typeof length !== "number" || !Number.isInteger(length) || length < 1 || length > 127)) {
    return { field: "config.ipv6_prefix_length", message: "must be a whole number of bits from 1 to 127" };
  }
  if (suffix === undefined)
    return { field: "config.ipv6_suffix", message: "is required with config.ipv6_prefix_length" };
  const value = typeof suffix === "string" ? ipv6Value(suffix.trim()) : null;
  if (value === null)
    return { field: "config.ipv6_suffix", message: "must be an IPv6 address such as ::1234:5678:9abc:def0" };
  const bits = (length as number | undefined) ?? DEFAULT_IPV6_PREFIX_LENGTH;
  if (value >> BigInt(128 - bits) !== 0n) {
    return { field: "config.ipv6_suffix", message: `must leave the first ${bits} bits (the prefix) zero` };
  }
  return null;
}

/**
 * The address a record gets: `ip` itself, or for a domain with `ipv6_suffix` the first
 * `ipv6_prefix_length` bits of `ip` followed by the suffix's remaining bits.
 */
export function addressForRecord(ip: string, config: SuffixConfig): string {
  if (typeof config.ipv6_suffix !== "string") return ip;
  const prefix = ipv6Value(ip);
  const suffix = ipv6Value(config.ipv6_suffix.trim());
  if (prefix === null || suffix === null) return ip;
  const bits = typeof config.ipv6_prefix_length === "number" ? config.ipv6_prefix_length : DEFAULT_IPV6_PREFIX_LENGTH;
  const hostMask = (1n << BigInt(128 - bits)) - 1n;
  return ipv6Literal((prefix & ~hostMask) | (suffix & hostMask));
}
