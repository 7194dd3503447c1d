// Outbound requests through a forward proxy: HTTPS_PROXY for https:// URLs, HTTP_PROXY for http://
// ones, NO_PROXY naming the hosts reached directly (config.ts reads them, lowercase forms too). The
// app's one outbound fetch (the context's `fetch`, used by address detection, every DNS service
// and every notification) is wrapped once, so each request names its proxy — or `false`, directly —
// itself, and no part of the app decides on its own.
//
// NO_PROXY, as curl and Go read it: comma- or space-separated entries; `*` alone bypasses every
// host; `example.com` and `.example.com` (or `*.example.com`) match that name and every name under
// it; an entry may end in `:port`, matching that port only; an IP address matches itself and a
// CIDR block (`10.0.0.0/8`, `fd00::/8`) the addresses in it. Loopback is not bypassed unless
// listed.

import { isIP } from "node:net";
import { inNetworks, type Network, parseNetwork } from "../net/address";
import type { FetchLike } from "./outbound";

export type NoProxyRule =
  | { kind: "all" }
  | { kind: "name"; name: string; port: number | null }
  | { kind: "network"; network: Network };

export interface ProxySettings {
  /** For https:// URLs (HTTPS_PROXY), or null. */
  https: string | null;
  /** For http:// URLs (HTTP_PROXY), or null. */
  http: string | null;
  noProxy: NoProxyRule[];
}

/** One NO_PROXY entry, or null when it is not one. */
function parseRule(entry: string): NoProxyRule | null {
  if (entry === "*") return { kind: "all" };
  const network = parseNetwork(entry);
  if (network !== null) return { kind: "network", network };
  const match = /^(?:\*?\.)?([a-z0-9_.-]+?)(?::(\d{1,5}))?$/i.exec(entry);
  if (!match) return null;
  return {
    kind: "name",
    name: match[1]!.toLowerCase().replace(/\.$/, ""),
    port: match[2] === undefined ? null : Number(match[2]),
  };
}

/** The entries of a NO_PROXY value; the first that is not one, as the error. */
export function parseNoProxy(text: string): { rules: NoProxyRule[]; bad: string | null } {
  const rules: NoProxyRule[] = [];
  for (const entry of text.split(/[\s,]+/).filter(Boolean)) {
    const rule = parseRule(entry);
    if (rule === null) return { rules, bad: entry };
    rules.push(rule);
  }
  return { rules, bad: null };
}

function defaultPort(url: URL): number {
  return url.port !== "" ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
}

function bypassed(url: URL, rules: readonly NoProxyRule[]): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const port = defaultPort(url);
  return rules.some((rule) => {
    if (rule.kind === "all") return true;
    if (rule.kind === "network") return isIP(host) !== 0 && inNetworks(host, [rule.network]);
    if (rule.port !== null && rule.port !== port) return false;
    return host === rule.name || host.endsWith(`.${rule.name}`);
  });
}

/** The proxy a request to `url` goes through, or null to connect directly. */
export function proxyFor(url: URL, settings: ProxySettings): string | null {
  const proxy = url.protocol === "https:" ? settings.https : url.protocol === "http:" ? settings.http : null;
  if (proxy === null || bypassed(url, settings.noProxy)) return null;
  return proxy;
}

/**
 * `fetch` with each request's proxy chosen by `proxyFor`. `proxy: false` makes a direct request
 * direct even though Bun's fetch would otherwise apply the proxy variables by its own reading.
 */
export function proxiedFetch(fetch: FetchLike, settings: ProxySettings): FetchLike {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    const proxied: BunFetchRequestInit = { ...init, proxy: proxyFor(url, settings) ?? false };
    return fetch(input, proxied);
  };
}
