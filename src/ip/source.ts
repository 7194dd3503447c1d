// Where a family's public address comes from, as written in the environment (DDNS_IPV4_SOURCE,
// DDNS_IPV4_URLS, DDNS_IPV4_DNS …), in the admin pages and the API, and per domain (a domain's
// `address_source`): read here once, so all of them accept exactly the same values.

import { isGlobalAddress, parseIpAddress } from "../net/address";
import { isHttpUrl } from "../util/url";

/** Where the system's address of a family comes from: the echo services, resolvers asked over DNS, or an interface of this host. */
export type AddressSource = { kind: "web" } | { kind: "dns" } | { kind: "interface"; name: string };

/**
 * Where one domain's address comes from, besides the system's: one of the system's sources, only
 * the router's pushes, or one fixed address.
 */
export type DomainSource = AddressSource | { kind: "push" } | { kind: "fixed"; ip: string };

/** `web`, `dns`, or `interface:<name>` with a Linux interface name (at most 15 characters, no slash, colon or space). */
export function parseAddressSource(text: string): AddressSource | null {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === "web") return { kind: "web" };
  if (trimmed.toLowerCase() === "dns") return { kind: "dns" };
  const match = /^interface:([^\s/:]{1,15})$/.exec(trimmed);
  return match ? { kind: "interface", name: match[1]! } : null;
}

/**
 * A domain's `address_source`: a system source, `push`, or `fixed:<address>` (the address in
 * canonical form); a sentence saying what is wrong otherwise. A fixed address must be global
 * unless private ones are allowed, as a detected one must.
 */
export function parseDomainSource(text: string, allowPrivate: boolean): DomainSource | string {
  const trimmed = text.trim();
  if (trimmed.toLowerCase() === "push") return { kind: "push" };
  const fixed = /^fixed:(.*)$/i.exec(trimmed);
  if (fixed) {
    const literal = fixed[1]!.trim();
    const ip = parseIpAddress(literal, 4) ?? parseIpAddress(literal, 6);
    if (ip === null) return `fixed:<address> needs an IPv4 or IPv6 address, got "${literal.slice(0, 60)}"`;
    if (!allowPrivate && !isGlobalAddress(ip))
      return `${ip} is not a globally routable address (DDNS_ALLOW_PRIVATE_IPS allows it)`;
    return { kind: "fixed", ip };
  }
  return (
    parseAddressSource(trimmed) ??
    `expected web, dns, interface:<name>, push or fixed:<address> (e.g. interface:eth0, fixed:81.2.69.160), got "${trimmed.slice(0, 60)}"`
  );
}

/** A source as it is written: `web`, `dns`, `interface:<name>`, `push`, `fixed:<address>`. */
export function sourceText(source: DomainSource): string {
  switch (source.kind) {
    case "interface":
      return `interface:${source.name}`;
    case "fixed":
      return `fixed:${source.ip}`;
    default:
      return source.kind;
  }
}

/** http(s) URLs separated by commas or line breaks; the first one that is not, or the text when none is given. */
export function parseUrlList(text: string): string[] | string {
  const list = text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
  const bad = list.find((item) => !isHttpUrl(item));
  return list.length === 0 || bad !== undefined ? (bad ?? text) : list;
}

/**
 * How a domain with several sources keeps them in its one `address_source` column: joined by commas,
 * which no source's written form holds (an interface name has none, nor has an address).
 */
const STORED_SEPARATOR = ",";

/** The most sources one domain may name: each is asked at every check. */
export const MAX_DOMAIN_SOURCES = 8;

/** A domain's `address_source` as stored, read as its list: null for the system's source. */
export function storedSources(stored: string | null): string[] | null {
  if (stored === null) return null;
  return stored.split(STORED_SEPARATOR);
}

/** A list of sources (each in its written form) as `address_source` stores it; one source stays itself. */
export function storeSources(sources: readonly string[]): string {
  return sources.join(STORED_SEPARATOR);
}

/** `address_source` as the API and the config file show it: one source as a string, several as a list. */
export function shownSources(stored: string | null): string | string[] | null {
  const sources = storedSources(stored);
  return sources === null || sources.length === 1 ? stored : sources;
}

/**
 * How a domain with several sources fills its record (`config.addresses`): `all` publishes every
 * source's address, `first` the first source in order that has a usable one (failover). A list's
 * default is `all`.
 */
export type AddressMode = "all" | "first";

export const ADDRESS_MODES: readonly AddressMode[] = ["all", "first"];

/** The mode a domain's config names; `all` when it names none (or names one that does not read). */
export function addressMode(config: Record<string, unknown>): AddressMode {
  return config.addresses === "first" ? "first" : "all";
}
