// Public IP detection: asks echo services, in order, for this host's address of one family and
// accepts the first answer that is a well-formed, globally routable address of that family.

import { excerpt, exchange, USER_AGENT } from "../net/http";
import type { FetchLike } from "../net/outbound";

export const DEFAULT_IPV4_URLS: readonly string[] = [
  "https://api.ipify.org",
  "https://1.1.1.1/cdn-cgi/trace",
  "https://ipv4.icanhazip.com",
];

export const DEFAULT_IPV6_URLS: readonly string[] = [
  "https://api6.ipify.org",
  "https://[2606:4700:4700::1111]/cdn-cgi/trace",
  "https://ipv6.icanhazip.com",
];

export type IpFamily = 4 | 6;

export interface DetectOptions {
  urls: readonly string[];
  fetch: FetchLike;
  /** Applied to each source separately. */
  timeoutMs: number;
  /** Accept private, loopback, documentation … addresses (a lab, or a test against fakes). */
  allowPrivate: boolean;
  /** How many sources must answer the same address (DDNS_ECHO_AGREE); 1 when absent. */
  agree?: number;
}

export type Detection =
  | {
      ok: true;
      ip: string;
      source: string;
      /**
       * A domain with several sources: every address to publish, each with the source that gave it
       * (`ip` is the first), and the sources that gave none, each with why. Absent for one source.
       */
      set?: readonly { ip: string; source: string }[];
      failed?: readonly { source: string; error: string }[];
    }
  | { ok: false; error: string };

/** A family whose detection fails now (kept for the pages): since when, and why. */
export interface DetectionFailure {
  /** The first failed detection of the current streak, ms since the epoch. */
  since: number;
  /** The latest failure's reasons, each source's in its own words. */
  error: string;
}

/**
 * Asks the sources in order until `agree` of them (never more than are configured) have answered;
 * they must all answer the same address, so that no single echo service (behind a CDN, a captive
 * portal, a VPN exit) can move a record. A disagreement is a failure naming each service and its
 * answer; so is a lone answer when the others asked fail. Every failure lists each source's reason.
 */
export async function detectPublicIp(family: IpFamily, options: DetectOptions): Promise<Detection> {
  const needed = Math.max(1, Math.min(options.agree ?? 1, options.urls.length));
  const reasons: string[] = [];
  const answers: { url: string; ip: string }[] = [];
  for (const url of options.urls) {
    const answer = await askSource(url, family, options);
    if (answer.ok) answers.push({ url, ip: answer.ip });
    else reasons.push(`${url}: ${answer.reason}`);
    if (answers.length === needed) break;
  }
  const said = answers.map(({ url, ip }) => `${url} answered ${ip}`).join(", ");
  if (answers.length === needed) {
    const first = answers[0]!;
    if (answers.every(({ ip }) => ip === first.ip))
      return { ok: true, ip: first.ip, source: answers.map(({ url }) => url).join(", ") };
    return {
      ok: false,
      error: `IPv${family} detection failed: the echo services disagree (${said}); nothing is written until ${needed} agree`,
    };
  }
  if (answers.length > 0) {
    return {
      ok: false,
      error: `IPv${family} detection failed: only ${said}, and ${needed} echo services must agree (DDNS_ECHO_AGREE); ${reasons.join("; ")}`,
    };
  }
  const why = reasons.length > 0 ? reasons.join("; ") : "no sources configured";
  return { ok: false, error: `IPv${family} detection failed: ${why}` };
}

async function askSource(
  url: string,
  family: IpFamily,
  options: DetectOptions,
): Promise<{ ok: true; ip: string } | { ok: false; reason: string }> {
  const answer = await exchange(options.fetch, url, { headers: { "User-Agent": USER_AGENT } }, options.timeoutMs);
  if (!answer.ok) return answer;
  if (answer.status < 200 || answer.status >= 300) return { ok: false, reason: `HTTP ${answer.status}` };
  const candidate = addressInBody(answer.text);
  const ip = parseIpAddress(candidate, family);
  if (ip === null) return { ok: false, reason: `not an IPv${family} address: ${excerpt(candidate)}` };
  if (!options.allowPrivate && !isGlobalAddress(ip)) {
    return { ok: false, reason: `${ip} is not a globally routable address` };
  }
  return { ok: true, ip };
}

/** The address an echo service answered: JSON `{"ip": …}`, a Cloudflare trace `ip=` line, or the bare body. */
function addressInBody(body: string): string {
  const text = body.trim();
  if (text.startsWith("{")) {
    try {
      const json = JSON.parse(text) as unknown;
      if (typeof json === "object" && json !== null && "ip" in json && typeof json.ip === "string") return json.ip;
    } catch {
      // Not JSON after all: judged as a bare body below.
    }
  }
  const traceLine = /^ip=(.*)$/m.exec(text);
  return traceLine?.[1] ?? text;
}

/**
 * The address in `text` (surrounding whitespace ignored) when it is a literal of `family`, in
 * canonical form (IPv6: RFC 5952, lowercase and compressed), else null.
 */
export function parseIpAddress(text: string, family: IpFamily): string | null {
  const literal = text.trim();
  if (family === 4) return parseIpv4(literal)?.join(".") ?? null;
  const groups = parseIpv6(literal);
  return groups === null ? null : formatIpv6(groups);
}

/** True for an IPv4 or IPv6 address that is routable on the public internet. */
export function isGlobalAddress(ip: string): boolean {
  const v4 = ipv4Value(ip.trim());
  if (v4 !== null) return !NON_GLOBAL_IPV4.some((prefix) => inPrefix(v4, prefix, 32));
  const v6 = ipv6Value(ip.trim());
  // Only 2000::/3 is global unicast; that alone rules out ::, ::1, IPv4-mapped, NAT64 (64:ff9b::/96),
  // discard (100::/64), unique-local (fc00::/7), link-local (fe80::/10) and multicast (ff00::/8).
  return (
    v6 !== null &&
    inPrefix(v6, GLOBAL_UNICAST_IPV6, 128) &&
    !NON_GLOBAL_IPV6.some((prefix) => inPrefix(v6, prefix, 128)) &&
    // 6to4 (2002::/16) carries an IPv4 address in its next 32 bits: global only when that one is.
    (!inPrefix(v6, SIX_TO_FOUR, 128) ||
      !NON_GLOBAL_IPV4.some((prefix) => inPrefix((v6 >> 80n) & 0xffffffffn, prefix, 32)))
  );
}

/**
 * True for an address inside the machine or its networks: loopback, private (RFC 1918, unique-local
 * fc00::/7), link-local, carrier-grade NAT, "this network" 0.0.0.0/8 and the unspecified ::, also
 * written IPv4-mapped. A name server of somebody else's zone is never asked at one (the live check).
 */
export function isInternalAddress(ip: string): boolean {
  const v4 = ipv4Value(ip.trim());
  if (v4 !== null) return INTERNAL_IPV4.some((prefix) => inPrefix(v4, prefix, 32));
  const v6 = ipv6Value(ip.trim().split("%")[0] ?? "");
  if (v6 === null) return false;
  if (inPrefix(v6, IPV4_MAPPED, 128)) return INTERNAL_IPV4.some((prefix) => inPrefix(v6 & 0xffffffffn, prefix, 32));
  return v6 <= 1n || INTERNAL_IPV6.some((prefix) => inPrefix(v6, prefix, 128));
}

const SIX_TO_FOUR: Prefix = { base: 0x2002n << 112n, bits: 16 };

type Prefix = { base: bigint; bits: number };

function inPrefix(value: bigint, prefix: Prefix, width: number): boolean {
  const shift = BigInt(width - prefix.bits);
  return value >> shift === prefix.base >> shift;
}

function prefixes(entries: [string, number][], toValue: (literal: string) => bigint | null): Prefix[] {
  return entries.map(([literal, bits]) => ({ base: toValue(literal) ?? 0n, bits }));
}

function ipv4Value(literal: string): bigint | null {
  return parseIpv4(literal)?.reduce((n, octet) => (n << 8n) | BigInt(octet), 0n) ?? null;
}

/** An IPv6 literal as its 128-bit value, or null when it is not one. */
export function ipv6Value(literal: string): bigint | null {
  return parseIpv6(literal)?.reduce((n, group) => (n << 16n) | BigInt(group), 0n) ?? null;
}

const NON_GLOBAL_IPV4 = prefixes(
  [
    ["0.0.0.0", 8], // "this network"
    ["10.0.0.0", 8], // private
    ["100.64.0.0", 10], // carrier-grade NAT
    ["127.0.0.0", 8], // loopback
    ["169.254.0.0", 16], // link-local
    ["172.16.0.0", 12], // private
    ["192.0.0.0", 24], // IETF protocol assignments
    ["192.0.2.0", 24], // documentation (TEST-NET-1)
    ["192.168.0.0", 16], // private
    ["198.18.0.0", 15], // benchmarking
    ["198.51.100.0", 24], // documentation (TEST-NET-2)
    ["203.0.113.0", 24], // documentation (TEST-NET-3)
    ["224.0.0.0", 4], // multicast
    ["240.0.0.0", 4], // reserved, with the 255.255.255.255 broadcast inside it
  ],
  ipv4Value,
);

const INTERNAL_IPV4 = prefixes(
  [
    ["0.0.0.0", 8],
    ["10.0.0.0", 8],
    ["100.64.0.0", 10],
    ["127.0.0.0", 8],
    ["169.254.0.0", 16],
    ["172.16.0.0", 12],
    ["192.168.0.0", 16],
  ],
  ipv4Value,
);

const INTERNAL_IPV6 = prefixes(
  [
    ["fc00::", 7], // unique-local
    ["fe80::", 10], // link-local
    ["fec0::", 10], // the old site-local
  ],
  ipv6Value,
);

const IPV4_MAPPED: Prefix = { base: 0xffffn << 32n, bits: 96 };

const GLOBAL_UNICAST_IPV6: Prefix = { base: 0x2n << 124n, bits: 3 };

/** Non-global blocks inside 2000::/3. */
const NON_GLOBAL_IPV6 = prefixes(
  [
    ["2001::", 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID …)
    ["2001:db8::", 32], // documentation
    ["3fff::", 20], // documentation (RFC 9637)
  ],
  ipv6Value,
);

function parseIpv4(literal: string): number[] | null {
  const parts = literal.split(".");
  // Leading zeros are refused: some parsers read them as octal, so such text has no single meaning.
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 literal (with "::" and a dotted IPv4 tail allowed), or null. */
function parseIpv6(literal: string): number[] | null {
  if (!/^[0-9a-fA-F:.]+$/.test(literal)) return null;
  let text = literal;
  if (text.includes(".")) {
    const lastColon = text.lastIndexOf(":");
    const tail = parseIpv4(text.slice(lastColon + 1));
    if (lastColon < 0 || tail === null) return null;
    const [a = 0, b = 0, c = 0, d = 0] = tail;
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string): number[] =>
    half === "" ? [] : half.split(":").map((g) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  const left = groupsOf(halves[0] ?? "");
  const right = halves.length === 2 ? groupsOf(halves[1] ?? "") : [];
  if ([...left, ...right].some(Number.isNaN)) return null;
  if (halves.length === 1) return left.length === 8 ? left : null;
  const missing = 8 - left.length - right.length;
  return missing >= 1 ? [...left, ...new Array<number>(missing).fill(0), ...right] : null;
}

/** A 128-bit value as its canonical IPv6 literal. */
export function ipv6Literal(value: bigint): string {
  return formatIpv6(Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn)));
}

/**
 * RFC 5952: lowercase hex without leading zeros; the longest run of two or more zero groups (the
 * first, on a tie) becomes "::".
 */
function formatIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < groups.length; start++) {
    let length = 0;
    while (groups[start + length] === 0) length++;
    if (length > bestLength) [bestStart, bestLength] = [start, length];
    start += length;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/** An address block: a family and a prefix (a single address is a /32 or /128), and how it was written. */
export interface Network {
  family: IpFamily;
  prefix: Prefix;
  text: string;
}

/** `192.0.2.1`, `10.0.0.0/8`, `2001:db8::/32` … → a Network, or null when it is neither. */
export function parseNetwork(text: string): Network | null {
  const [literal = "", bits, ...rest] = text.trim().split("/");
  if (rest.length > 0 || (bits !== undefined && !/^\d{1,3}$/.test(bits))) return null;
  for (const [family, width, toValue] of [
    [4, 32, ipv4Value],
    [6, 128, ipv6Value],
  ] as const) {
    const base = toValue(literal);
    if (base === null) continue;
    const length = bits === undefined ? width : Number(bits);
    return length <= width ? { family, prefix: { base, bits: length }, text: text.trim() } : null;
  }
  return null;
}

/** Whether an address (IPv4-mapped IPv6 counts as its IPv4 address) lies in one of the networks. */
export function inNetworks(ip: string, networks: readonly Network[]): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const v4 = ipv4Value(mapped ?? ip);
  const v6 = v4 === null ? ipv6Value(ip) : null;
  return networks.some((network) =>
    network.family === 4
      ? v4 !== null && inPrefix(v4, network.prefix, 32)
      : v6 !== null && inPrefix(v6, network.prefix, 128),
  );
}
