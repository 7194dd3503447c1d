// Public IP detection: asks echo services, in order, for this host's address of one family and
// accepts the first answer that is a well-formed, globally routable address of that family.

import { type IpFamily, isGlobalAddress, parseIpAddress } from "../net/address";
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
