// A faithful stand-in for a dyndns2 update server (`/nic/update`; docs/services/dyndns2.md; sources:
// help.dyn.com/remote-access-api return codes and policies, noip.com/integrate/request and
// /response, desec-stack `docs/dyndns`, ddclient `nic_dyndns2_update`, inadyn `plugins/common.c`).
// It plays the three ways services report errors — No-IP (`badauth` with 401 and WWW-Authenticate),
// Dyn (every answer in a 200), deSEC (401 `badauth`, 404 `nohost`) — and No-IP's dual-stack success
// lines (`good 1.2.3.4,2001:db8::1`). Like the real ones it publishes the caller's address when
// `myip` is missing, refuses clients without an identifying User-Agent (`badagent`), and blocks a
// host for `abuse` after repeated `nochg` updates.
//
// Independent clients it was checked against: ddclient `nic_dyndns2_update` (one `myip`, comma-joined
// v4,v6 for a dual-stack host since 3.11; `good`/`nochg`/`badauth`/`nohost`/`abuse`/`dnserr`/`911`
// handling) and qdm12/ddns-updater `providers/dyn` and `providers/desec` (answers as plain text lines).
//
// Quirks it can play, each a switch on the fake (defaults follow the style's real service):
// - `otherFamily`: what an update naming ONE address family does to the host's other family.
//   "kept" (No-IP); "deleted" (Dyn and deSEC: a hostname owns both families, so `myip=<v4>` alone
//   removes the AAAA and `myip=<v6>` alone removes the A); "caller" (the missing IPv4 is taken from
//   the connection, 127.0.0.1 here; a missing IPv6 is removed, the connection being IPv4).
// - deSEC parameters (style "desec"): `myipv4` and `myipv6` name each family, and the value
//   `preserve` keeps that family as it is whatever `otherFamily` says.
// - `ignoreUpdates`: Dyn's "good 127.0.0.1": the update is acknowledged but ignored (Dyn answers so
//   to a client it has flagged); nothing changes.
// - `dualStackAnswers`, `nochgBeforeAbuse`, and faults (`fault({body: "dnserr"})`, `{body: "911",
//   retryAfter}`) for the other answers.

import { isIPv4, isIPv6 } from "node:net";
import { type FakeServer, htmlErrorPage, plainText, retryAfterHeader, startFakeServer } from "./server";

export const DYNDNS2_FAKE_USER = "ddns-key-user";
export const DYNDNS2_FAKE_PASSWORD = "k3y-pa55word-0123456789";

/** Published when a request names no address: the connection's source, as the services do. */
export const DYNDNS2_CALLER_IPV4 = "127.0.0.1";

export type Dyndns2Style = "noip" | "dyn" | "desec";

export interface Dyndns2Host {
  hostname: string;
  /** The account that owns it. */
  username: string;
  ipv4: string;
  ipv6: string;
  /** `nochg` answers in a row; past `nochgBeforeAbuse` the host is blocked. */
  nochgStreak: number;
  blocked: boolean;
}

/**
 * `{body}` answers that text (status 200 unless given; `retryAfter` adds the header); `"html"` a 502
 * page from a proxy in front.
 */
export type Dyndns2Fault = { body: string; status?: number; retryAfter?: number } | "html";

/** What an update naming one address family does to the host's other family (see the header). */
export type Dyndns2OtherFamily = "kept" | "deleted" | "caller";

export interface Dyndns2Fake extends FakeServer<Dyndns2Fault> {
  style: Dyndns2Style;
  otherFamily: Dyndns2OtherFamily;
  /** Answer every update `good 127.0.0.1` and change nothing (Dyn: the request was ignored). */
  ignoreUpdates: boolean;
  /** Answer success lines with both addresses the host holds, as No-IP does for dual-stack hosts. */
  dualStackAnswers: boolean;
  /** Consecutive `nochg` updates of a host before it is blocked for abuse. */
  nochgBeforeAbuse: number;
  /** Username → password. */
  accounts: Map<string, string>;
  hosts: Map<string, Dyndns2Host>;
  addHost(hostname: string, fields?: Partial<Omit<Dyndns2Host, "hostname">>): Dyndns2Host;
  /** Requests that reached `/nic/update`. */
  updates(): number;
}

export function startDyndns2Fake(
  options: { style?: Dyndns2Style; dualStackAnswers?: boolean; otherFamily?: Dyndns2OtherFamily } = {},
): Dyndns2Fake {
  const accounts = new Map([[DYNDNS2_FAKE_USER, DYNDNS2_FAKE_PASSWORD]]);
  const hosts = new Map<string, Dyndns2Host>();

  /** A code line with the HTTP status the current style gives it. */
  function reply(line: string): Response {
    const code = line.split(" ")[0];
    if (code === "badauth" && fake.style !== "dyn") {
      const headers: Record<string, string> = fake.style === "noip" ? { "WWW-Authenticate": 'Basic realm="DDNS"' } : {};
      return textLine(line, 401, headers);
    }
    if (code === "nohost" && fake.style === "desec") return textLine(line, 404);
    return textLine(line);
  }

  function update(query: Record<string, string>, headers: Record<string, string>): Response {
    const agent = headers["user-agent"] ?? "";
    // No-IP: "clients without a proper User-Agent risk being blocked"; a bare runtime default is not one.
    if (agent === "" || /^(Bun|curl|Go-http-client|python-requests)\//.test(agent)) return reply("badagent");
    const [scheme, encoded] = (headers.authorization ?? "").split(" ");
    const [username, ...password] =
      scheme === "Basic"
        ? Buffer.from(encoded ?? "", "base64")
            .toString()
            .split(":")
        : [];
    if (username === undefined || accounts.get(username) !== password.join(":")) return reply("badauth");

    const names = (query.hostname ?? "").split(",").filter((n) => n !== "");
    if (names.length === 0) return reply("notfqdn");
    if (names.length > 20) return reply("numhost");
    const desec = fake.style === "desec";
    const named = [query.myip, desec ? query.myipv4 : undefined, query.myipv6].filter(
      (a): a is string => a !== undefined,
    );
    const given = (named.length > 0 ? named.join(",") : DYNDNS2_CALLER_IPV4).split(",").filter((a) => a !== "");
    const preserved = (family: "myipv4" | "myipv6") => desec && query[family] === "preserve";
    const addresses = given.filter((a) => a !== "preserve");
    const v4 = addresses.find((a) => isIPv4(a));
    const v6 = addresses.find((a) => isIPv6(a));
    if (addresses.some((a) => !isIPv4(a) && !isIPv6(a))) return reply("dnserr");
    if (fake.ignoreUpdates) return reply(`good ${DYNDNS2_CALLER_IPV4}`);
    // The family the update leaves out: kept, removed, or taken from the connection.
    const missing = (family: "v4" | "v6"): string | undefined => {
      if (preserved(family === "v4" ? "myipv4" : "myipv6") || fake.otherFamily === "kept") return undefined;
      return fake.otherFamily === "caller" && family === "v4" ? DYNDNS2_CALLER_IPV4 : "";
    };
    const newV4 = v4 ?? (v6 !== undefined ? missing("v4") : undefined);
    const newV6 = v6 ?? (v4 !== undefined ? missing("v6") : undefined);

    const lines = names.map((name) => {
      if (!name.includes(".")) return "notfqdn";
      const host = hosts.get(name.toLowerCase());
      if (!host || host.username !== username) return "nohost";
      if (host.blocked) return "abuse";
      const unchanged = (newV4 === undefined || newV4 === host.ipv4) && (newV6 === undefined || newV6 === host.ipv6);
      if (newV4 !== undefined) host.ipv4 = newV4;
      if (newV6 !== undefined) host.ipv6 = newV6;
      host.nochgStreak = unchanged ? host.nochgStreak + 1 : 0;
      if (host.nochgStreak > fake.nochgBeforeAbuse) {
        host.blocked = true;
        return "abuse";
      }
      const addresses = fake.dualStackAnswers
        ? [host.ipv4, host.ipv6].filter((a) => a !== "").join(",")
        : [v4, v6].filter((a) => a !== undefined).join(",");
      return `${unchanged ? "nochg" : "good"} ${addresses}`;
    });
    // One line per host; the status follows the first (account-wide errors appear once).
    return lines.length === 1 ? reply(lines[0] as string) : textLine(lines.join("\n"));
  }

  const server = startFakeServer<Dyndns2Fault>({
    prefix: "",
    route(request) {
      // deSEC answers on any path; the others only on /nic/update.
      if (request.method !== "GET" || (fake.style !== "desec" && !request.path.endsWith("/nic/update"))) {
        return textLine("Not Found", 404);
      }
      return update(request.query, request.headers);
    },
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      const headers = retryAfterHeader(mode.retryAfter);
      return textLine(mode.body, mode.status ?? 200, headers);
    },
  });

  const style = options.style ?? "noip";
  const fake: Dyndns2Fake = Object.assign(server, {
    style,
    otherFamily: options.otherFamily ?? (style === "noip" ? "kept" : "deleted"),
    ignoreUpdates: false,
    dualStackAnswers: options.dualStackAnswers ?? false,
    nochgBeforeAbuse: 3,
    accounts,
    hosts,
    addHost(hostname: string, fields: Partial<Omit<Dyndns2Host, "hostname">> = {}) {
      const host: Dyndns2Host = {
        hostname,
        username: DYNDNS2_FAKE_USER,
        ipv4: "",
        ipv6: "",
        nochgStreak: 0,
        blocked: false,
        ...fields,
      };
      hosts.set(hostname, host);
      return host;
    },
    updates: () => server.requests.filter((r) => r.path.endsWith("/nic/update")).length,
  });
  return fake;
}

/** An answer (one line per host), newline-terminated as the services send it. */
function textLine(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return plainText(`${body}\n`, status, headers);
}
