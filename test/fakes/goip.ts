// A faithful stand-in for GoIP.de's update URL (docs/services/goip.md): one GET `/setip` with the
// router login, the subdomain's full name and `ip=` / `ip6=`, answered in plain text in a 200.
//
// Sources: GoIP's page "Die Update-URL" (https://www.goip.de/update-url.html, also at goip.it: the
// parameters, `ip` detected from the caller when missing, `ip6`, `shortResponse=true` for a one-line
// answer, a list of subdomains allowed), and qdm12/ddns-updater
// `internal/provider/providers/goip/provider.go` (and its PR #623), whose reading the fake follows:
// a done update answers `<subdomain> (<address>)`, a refused login `Zugriff verweigert`. GoIP does
// not publish the rest of its lines; the fake's ` erfolgreich aktualisiert` tail and its answer for
// an address it cannot read stand in for them. No machine-readable description is published.
//
// Quirk switches: faults `{body}` (any 200 answer) and `{status, retryAfter}`, `"html"`; a request
// without `ip` publishes the caller's IPv4 (also when only `ip6` is given, as GoIP documents `ip`).

import { isIPv4, isIPv6 } from "node:net";
import { type FakeServer, htmlErrorPage, plainText, retryAfterHeader, startFakeServer } from "./server";

export const GOIP_FAKE_USERNAME = "router-ddnsd";
export const GOIP_FAKE_PASSWORD = "X7mCz-goip-4dzJur";

/** What the fake publishes when a request names no IPv4: the connection's source, as GoIP does. */
const GOIP_CALLER_IPV4 = "127.0.0.1";

export interface GoipSubdomain {
  /** The full name, e.g. `home.goip.de`. */
  name: string;
  /** The router login allowed to update it. */
  username: string;
  ipv4: string;
  ipv6: string;
  updates: number;
}

export type GoipFault = { status: number; retryAfter?: number } | { body: string } | "html";

export interface GoipFake extends FakeServer<GoipFault> {
  subdomains: Map<string, GoipSubdomain>;
  /** Router logins: username → password. */
  logins: Map<string, string>;
  addSubdomain(name: string, fields?: Partial<Omit<GoipSubdomain, "name">>): GoipSubdomain;
}

export function startGoipFake(): GoipFake {
  const subdomains = new Map<string, GoipSubdomain>();
  const logins = new Map<string, string>([[GOIP_FAKE_USERNAME, GOIP_FAKE_PASSWORD]]);

  function setip(query: Record<string, string>): string {
    const username = query.username ?? "";
    if (username === "" || logins.get(username) !== (query.password ?? "")) return "Zugriff verweigert";
    const names = (query.subdomain ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== "");
    const targets =
      names.length === 0
        ? [...subdomains.values()].filter((s) => s.username === username)
        : names.map((name) => subdomains.get(name));
    if (targets.length === 0 || targets.some((target) => target === undefined || target.username !== username))
      return "Zugriff verweigert";
    const ip = query.ip ?? GOIP_CALLER_IPV4;
    const ip6 = query.ip6;
    if (!isIPv4(ip) || (ip6 !== undefined && !isIPv6(ip6))) return "Ungueltige IP-Adresse";
    const lines: string[] = [];
    for (const target of targets as GoipSubdomain[]) {
      target.ipv4 = ip;
      if (ip6 !== undefined) target.ipv6 = ip6;
      target.updates++;
      // The address named first is the one of the request's own family (ddns-updater reads it so).
      const named = ip6 !== undefined && query.ip === undefined ? [ip6] : ip6 !== undefined ? [ip, ip6] : [ip];
      lines.push(`${target.name} ${named.map((a) => `(${a})`).join(" ")} erfolgreich aktualisiert`);
    }
    return query.shortResponse === "true" ? (lines[0] ?? "") : lines.join("\n");
  }

  const server = startFakeServer<GoipFault>({
    prefix: "",
    route(request) {
      if (request.path !== "/setip" || request.method !== "GET") return plainText("Not Found", 404);
      return plainText(setip(request.query));
    },
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      if ("body" in mode) return plainText(mode.body);
      return plainText(
        mode.status === 429 ? "Too Many Requests" : "Error",
        mode.status,
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: GoipFake = Object.assign(server, {
    subdomains,
    logins,
    addSubdomain(name: string, fields: Partial<Omit<GoipSubdomain, "name">> = {}) {
      const subdomain: GoipSubdomain = {
        name,
        username: GOIP_FAKE_USERNAME,
        ipv4: "",
        ipv6: "",
        updates: 0,
        ...fields,
      };
      subdomains.set(name, subdomain);
      return subdomain;
    },
  });
  return fake;
}
