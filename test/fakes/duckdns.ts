// A faithful stand-in for DuckDNS's update API (docs/services/duckdns.md; sources: duckdns.org/spec.jsp,
// ddns-updater `internal/provider/providers/duckdns/provider.go`, ddclient `nic_duckdns_update`,
// inadyn `plugins/duckdns.c`): one GET `/update`, `OK`/`KO` in a 200 for every outcome, `verbose=true`
// answers, and the quirks a careless client trips over: without `ip` (and without `ipv6`) the
// caller's own address is published, `ip=` takes either family, and `clear=true` empties both records.
//
// The TXT record (the ACME challenge): `txt=<value>` sets the subdomain's one TXT value, replacing
// the one before, and `txt=&clear=true` empties it; either leaves the addresses as they are, and the
// answer is a bare `OK`. Sources: lego `providers/dns/duckdns` (its client sends `txt=` and, to
// remove, `clear=true`: "In DuckDNS you only have one TXT record shared with the domain and all
// subdomains"), Posh-ACME's `Plugins/DuckDNS.ps1`, Home Assistant's duckdns `set_txt`.
//
// Documentation: https://www.duckdns.org/spec.jsp. No machine-readable description is published.
//
// Quirk switches: faults `{body}` (any answer, e.g. "KO" or an "OK" for another address) and
// `{status, retryAfter}`; a request without `ip` publishes the caller's address; `clear=true`
// empties both records.

import { isIPv4, isIPv6 } from "node:net";
import { type FakeServer, htmlErrorPage, plainText, retryAfterHeader, startFakeServer } from "./server";

export const DUCKDNS_FAKE_TOKEN = "a7c4d0ad-114e-40ef-ba1d-d217904a50f2";

/** What the fake publishes when a request names no address: the connection's source, as DuckDNS does. */
const DUCKDNS_CALLER_IPV4 = "127.0.0.1";

export interface DuckDnsDomain {
  /** The subname, e.g. `home` for home.duckdns.org. */
  name: string;
  /** The account (token) it belongs to. */
  token: string;
  /** "" when empty, as DuckDNS shows it. */
  ipv4: string;
  ipv6: string;
  /** Its one TXT value; "" when empty. */
  txt: string;
  /** How many updates changed it. */
  changes: number;
}

/**
 * `{status}` answers with that status and a short text body (with `retryAfter`, a `Retry-After`
 * header); `{body}` a 200 with that text; `"html"` a 502 page from a proxy in front.
 */
export type DuckDnsFault = { status: number; retryAfter?: number } | { body: string } | "html";

export interface DuckDnsFake extends FakeServer<DuckDnsFault> {
  /** By subname. */
  domains: Map<string, DuckDnsDomain>;
  addDomain(name: string, fields?: Partial<Omit<DuckDnsDomain, "name">>): DuckDnsDomain;
  /** Requests to `/update`, in order. */
  updates(): number;
}

export function startDuckDnsFake(): DuckDnsFake {
  const domains = new Map<string, DuckDnsDomain>();

  function update(query: Record<string, string>): string {
    const token = query.token ?? "";
    // Either the subname or the whole name works; several may be given, comma-separated.
    const names = (query.domains ?? "")
      .split(",")
      .map((name) =>
        name
          .trim()
          .toLowerCase()
          .replace(/\.duckdns\.org$/, ""),
      )
      .filter((name) => name !== "");
    const targets = names.map((name) => domains.get(name));
    if (names.length === 0 || targets.some((domain) => domain === undefined || domain.token !== token)) return "KO";
    const ip = query.ip ?? "";
    const ipv6 = query.ipv6 ?? "";
    if ((ip !== "" && !isIPv4(ip) && !isIPv6(ip)) || (ipv6 !== "" && !isIPv6(ipv6))) return "KO";

    if (query.txt !== undefined) {
      for (const domain of targets as DuckDnsDomain[]) {
        const txt = query.clear === "true" ? "" : query.txt;
        if (domain.txt !== txt) domain.changes++;
        domain.txt = txt;
      }
      return "OK";
    }

    let changed = false;
    for (const domain of targets as DuckDnsDomain[]) {
      const before = `${domain.ipv4}|${domain.ipv6}`;
      if (query.clear === "true") {
        domain.ipv4 = "";
        domain.ipv6 = "";
      } else {
        if (ip !== "") {
          if (isIPv4(ip)) domain.ipv4 = ip;
          else domain.ipv6 = ip;
        } else if (ipv6 === "") {
          domain.ipv4 = DUCKDNS_CALLER_IPV4;
        }
        if (ipv6 !== "") domain.ipv6 = ipv6;
      }
      if (`${domain.ipv4}|${domain.ipv6}` !== before) {
        domain.changes++;
        changed = true;
      }
    }
    if (query.verbose !== "true") return "OK";
    const first = targets[0] as DuckDnsDomain;
    return ["OK", first.ipv4, first.ipv6, changed ? "UPDATED" : "NOCHANGE"].join("\n");
  }

  const server = startFakeServer<DuckDnsFault>({
    prefix: "",
    route(request) {
      if (request.path !== "/update" || request.method !== "GET") return plainText("Not Found", 404);
      return plainText(update(request.query));
    },
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      if ("body" in mode) return plainText(mode.body);
      const headers = retryAfterHeader(mode.retryAfter);
      return plainText(mode.status === 429 ? "Too Many Requests" : "Error", mode.status, headers);
    },
  });

  return Object.assign(server, {
    domains,
    addDomain(name: string, fields: Partial<Omit<DuckDnsDomain, "name">> = {}) {
      const domain: DuckDnsDomain = {
        name,
        token: DUCKDNS_FAKE_TOKEN,
        ipv4: "",
        ipv6: "",
        txt: "",
        changes: 0,
        ...fields,
      };
      domains.set(name, domain);
      return domain;
    },
    updates: () => server.requests.filter((r) => r.path === "/update").length,
  });
}
