// A faithful stand-in for Domain Discount24's Dynamic DNS update URL, run by Key-Systems
// (docs/services/dd24.md): one GET `/update.php?hostname=&password=&ip=`, answered in a 200 with
// Key-Systems' `[RESPONSE]` block of `key = value` lines, whatever happened.
//
// Sources: DD24's support article "Dynamic DNS"
// (https://support.domaindiscount24.com/hc/en-gb/articles/4409759444625-Dynamic-DNS: the URL, `ip=auto`
// publishing the caller's address, `mx=`, the 30-minute hold after a successful update); RRPproxy's
// DynamicDNS API page (https://www.rrpproxy.net/deutsch/API/DynamicDNS: the `[RESPONSE]` / `code = 200`
// / `description = Command completed successfully` block); and two independent clients that read it
// the same way: ddclient `nic_keysystems_update` (success is `code = 200`) and qdm12/ddns-updater
// `internal/provider/providers/dd24/provider.go` (success contains "success", a refused password
// contains "authorization failed"; its issue #358 quotes a real answer, `[response] code = 200
// description = command completed successfully queuetime = 0 runtime = 0.084 eof`, lowercased). No
// machine-readable description is published.
//
// The refusal of a wrong password is Key-Systems' `531 Authorization failed`. DD24 does not publish
// the words of its 30-minute refusal; the fake's (`code = 549`) stand in for "some other code", the
// only thing a client may rely on. The hold is off unless a test sets `holdSeconds`.
//
// Quirk switches: faults `{body}` (any 200 answer) and `{status, retryAfter}`, `"html"`; `ip=auto` or
// no `ip` publishes the caller's address; `mx=` replaces the host's MX. `emptyWhenDone` answers a
// done update with an empty 200, as qdm12/ddns-updater's dd24 client expects it may.

import { isIPv4 } from "node:net";
import { type FakeServer, htmlErrorPage, plainText, retryAfterHeader, startFakeServer } from "./server";

export const DD24_FAKE_PASSWORD = "Dd24-dyn-7f3c9a51e2";

/** What the fake publishes for `ip=auto`: the connection's source, as DD24 does. */
const DD24_CALLER_IPV4 = "127.0.0.1";

export interface Dd24Host {
  /** The full name, e.g. `home.example.com`. */
  hostname: string;
  /** The dynamic DNS password of this one subdomain. */
  password: string;
  ipv4: string;
  mx: string;
  /** How many updates it accepted. */
  updates: number;
  /** `performance.now()` of the last accepted update. */
  updatedAt?: number;
}

export type Dd24Fault = { status: number; retryAfter?: number } | { body: string } | "html";

export interface Dd24Fake extends FakeServer<Dd24Fault> {
  /** By full hostname. */
  hosts: Map<string, Dd24Host>;
  addHost(hostname: string, fields?: Partial<Omit<Dd24Host, "hostname">>): Dd24Host;
  /** Refuses an update this many seconds after the last accepted one (DD24: 1800); 0 is off. */
  holdSeconds: number;
  /** A done update is answered with an empty 200 instead of the code block. */
  emptyWhenDone: boolean;
}

export function keySystemsResponse(code: number, description: string): string {
  return [
    "[RESPONSE]",
    `code = ${code}`,
    `description = ${description}`,
    "queuetime = 0",
    "runtime = 0.011",
    "EOF",
    "",
  ].join("\n");
}

export function startDd24Fake(): Dd24Fake {
  const hosts = new Map<string, Dd24Host>();

  function update(query: Record<string, string>): string {
    const host = hosts.get((query.hostname ?? "").toLowerCase());
    // One password per subdomain: an unknown name and a wrong password get the same answer.
    if (host === undefined || host.password !== (query.password ?? ""))
      return keySystemsResponse(531, "Authorization failed");
    const ip = query.ip === undefined || query.ip === "auto" ? DD24_CALLER_IPV4 : query.ip;
    if (!isIPv4(ip) || (query.mx !== undefined && !isIPv4(query.mx)))
      return keySystemsResponse(505, "Invalid attribute value syntax");
    const now = performance.now();
    if (fake.holdSeconds > 0 && host.updatedAt !== undefined && now - host.updatedAt < fake.holdSeconds * 1000) {
      return keySystemsResponse(549, "Command failed; update denied, try again later");
    }
    host.ipv4 = ip;
    if (query.mx !== undefined) host.mx = query.mx;
    host.updates++;
    host.updatedAt = now;
    return fake.emptyWhenDone ? "" : keySystemsResponse(200, "Command completed successfully");
  }

  const server = startFakeServer<Dd24Fault>({
    prefix: "",
    route(request) {
      if (request.path !== "/update.php" || request.method !== "GET") return plainText("Not Found", 404);
      return plainText(update(request.query));
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

  const fake: Dd24Fake = Object.assign(server, {
    hosts,
    holdSeconds: 0,
    emptyWhenDone: false,
    addHost(hostname: string, fields: Partial<Omit<Dd24Host, "hostname">> = {}) {
      const host: Dd24Host = { hostname, password: DD24_FAKE_PASSWORD, ipv4: "", mx: "", updates: 0, ...fields };
      hosts.set(hostname, host);
      return host;
    },
  });
  return fake;
}
