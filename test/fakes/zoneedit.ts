// A stand-in for ZoneEdit's dynamic update: `GET /auth/dynamic.html?host=<fqdn>&dnsto=<ipv4>[&zone=]`
// with HTTP basic auth (username : the domain's dynamic authentication token), answered HTTP 200
// with one unclosed XML-like tag: `<SUCCESS CODE="200" TEXT="Update succeeded." ZONE="…"
// IP="…">`, `<SUCCESS CODE="201" TEXT="No records need updating." ZONE="…">`, or `<ERROR CODE="…"
// TEXT="…" ZONE="…">`: 701 "Zone is not set up in this account.", 707 "Duplicate updates for the same
// host/ip, adjust client settings" (an update of the host within ten minutes of the last), 708
// "Failed Login: <user>", 709 "Invalid hostname" (a host the zone has no dynamic record for).
// A request without basic auth gets a 401 page.
//
// Sources: ZoneEdit's support articles "Dynamic DNS" and "Changes to Dynamic DNS" (support.zoneedit.com,
// linked by lego and qdm12/ddns-updater; their text was not at hand, so the answers follow the clients);
// independent clients: ddclient `nic_zoneedit1_update` (the URL, `zone=`, the 200/201/701 answers it
// quotes, 707 taken as "duplicate", a ten-minute min-interval), inadyn plugins/zoneedit.c (200, 201,
// 707), lego providers/dns/zoneedit (basic auth with the token; fixtures: the 708 answer) and
// ddns-updater providers/zoneedit (702 "minimum 600 seconds between requests", 708, 709).
// UNSURE: the TEXT of 707 and 709; whether an IPv6 `dnsto` is taken (this fake refuses it with 709,
// and ddnsd sends IPv4 only); whether a host at the apex needs `zone=` (the fake finds the zone by
// the longest suffix, as ddclient's note implies).
//
// Switches: `interval` (ms between updates of one host before 707; 0 switches the rule off, the
// default, so tests decide); faults `{code, text}` an ERROR tag, `{status}` an HTTP error, `"html"`.

import { isIPv4 } from "node:net";
import { type FakeServer, htmlErrorPage, type LoggedRequest, plainText, startFakeServer } from "./server";

export const ZONEEDIT_FAKE_USER = "ddnsd-user";
export const ZONEEDIT_FAKE_TOKEN = "ZE0123456789ABCDEFfaketoken";

export interface ZoneeditHost {
  ip: string;
  /** performance.now() of the last update that changed or confirmed it; undefined before any. */
  updatedAt?: number;
  changes: number;
}

export type ZoneeditFault = { code: string; text: string } | { status: number } | "html";

export interface ZoneeditFake extends FakeServer<ZoneeditFault> {
  /** zone → its token, for the fake's one user. */
  zones: Map<string, string>;
  /** fqdn → its dynamic A record. */
  hosts: Map<string, ZoneeditHost>;
  /** Milliseconds ZoneEdit wants between two updates of a host; 0 for none. */
  interval: number;
  addZone(zone: string, token?: string): void;
  addHost(fqdn: string, ip: string): ZoneeditHost;
  reset(): void;
}

export function startZoneeditFake(): ZoneeditFake {
  const zones = new Map<string, string>();
  const hosts = new Map<string, ZoneeditHost>();

  const tag = (kind: "SUCCESS" | "ERROR", code: string, text: string, zone: string, ip?: string) =>
    plainText(`<${kind} CODE="${code}" TEXT="${text}" ZONE="${zone}"${ip ? ` IP="${ip}"` : ""}>\n`, 200, { "Content-Type": "text/html" });

  function zoneOf(host: string): string | undefined {
    let best: string | undefined;
    for (const zone of zones.keys()) if ((host === zone || host.endsWith(`.${zone}`)) && (best === undefined || zone.length > best.length)) best = zone;
    return best;
  }

  function route(request: LoggedRequest): Response {
    if (request.method !== "GET" || request.path !== "/auth/dynamic.html") return new Response("Not Found", { status: 404 });
    const header = request.headers.authorization ?? "";
    if (!header.startsWith("Basic ")) return new Response("<html><body>401 Authorization Required</body></html>", { status: 401, headers: { "WWW-Authenticate": 'Basic realm="ZoneEdit"' } });
    const [user, ...rest] = Buffer.from(header.slice(6), "base64").toString().split(":");
    const token = rest.join(":");
    const host = (request.query.host ?? "").toLowerCase();
    const zone = request.query.zone?.toLowerCase() ?? zoneOf(host) ?? host;
    if (!zones.has(zone)) return tag("ERROR", "701", "Zone is not set up in this account.", zone);
    if (user !== ZONEEDIT_FAKE_USER || zones.get(zone) !== token) return tag("ERROR", "708", `Failed Login: ${user}`, zone);
    const record = hosts.get(host);
    const ip = request.query.dnsto ?? "";
    if (!record || !isIPv4(ip)) return tag("ERROR", "709", "Invalid hostname or address", zone);
    if (fake.interval > 0 && record.updatedAt !== undefined && performance.now() - record.updatedAt < fake.interval) {
      return tag("ERROR", "707", "Duplicate updates for the same host/ip, adjust client settings", zone);
    }
    record.updatedAt = performance.now();
    if (record.ip === ip) return tag("SUCCESS", "201", "No records need updating.", zone);
    record.ip = ip;
    record.changes++;
    return tag("SUCCESS", "200", "Update succeeded.", zone, ip);
  }

  const server = startFakeServer<ZoneeditFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      if ("status" in mode) return plainText("Service Temporarily Unavailable", mode.status);
      return tag("ERROR", mode.code, mode.text, "example.com");
    },
  });

  const fake: ZoneeditFake = Object.assign(server, {
    zones,
    hosts,
    interval: 0,
    addZone: (zone: string, token = ZONEEDIT_FAKE_TOKEN) => void zones.set(zone, token),
    addHost(fqdn: string, ip: string) {
      const host: ZoneeditHost = { ip, changes: 0 };
      hosts.set(fqdn, host);
      return host;
    },
    reset() {
      zones.clear();
      hosts.clear();
      fake.interval = 0;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
