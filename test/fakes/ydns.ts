// A stand-in for YDNS's update API (docs/services/ydns.md): `GET /api/v1/update/?host=&ip=` with HTTP
// Basic auth (API username + API password), answered in plain text: `good` (200) after setting the
// host's A or AAAA record by the address's family (the other family kept); `badauth` (401); `host not
// found` (404) for a host that is not the account's; 400 `Missing host parameter` or `invalid ip
// address (…)`. Without `ip` the address the request came from (here 192.0.2.250) is published.
//
// Sources: ydns.io/api/v1 (parameters, "good"); YDNS's published server code (github.com/ydns/bash-updater
// api/v1/views.py: the 401/404/400 answers and their words, A or AAAA by the address's family) and
// its official updater (updater.sh).
//
// Quirk switches: `success` ("good" as documented, or "ok" as the published server code answers);
// faults `{status, body, retryAfter}`, `"html"`.

import { isIPv4, isIPv6 } from "node:net";
import {
  type FakeServer,
  htmlErrorPage,
  type LoggedRequest,
  plainText,
  retryAfterHeader,
  startFakeServer,
} from "./server";

export const YDNS_FAKE_USER = "ydns-fake-api-user";
export const YDNS_FAKE_PASSWORD = "ydns-fake-api-password-0123";
const YDNS_CALLER_ADDRESS = "192.0.2.250";

export interface YdnsHost {
  A?: string;
  AAAA?: string;
}

export type YdnsFault = { status: number; body?: string; retryAfter?: number } | "html";

export interface YdnsFake extends FakeServer<YdnsFault> {
  hosts: Map<string, YdnsHost>;
  success: "good" | "ok";
  reset(): void;
}

export function startYdnsFake(): YdnsFake {
  const hosts = new Map<string, YdnsHost>();

  function route(request: LoggedRequest): Response {
    if (request.path !== "/update/" && request.path !== "/update") return plainText("Not Found", 404);
    const auth = request.headers.authorization ?? "";
    if (!auth.startsWith("Basic ")) return plainText("Missing Authorization header", 400);
    if (Buffer.from(auth.slice(6), "base64").toString() !== `${YDNS_FAKE_USER}:${YDNS_FAKE_PASSWORD}`)
      return plainText("badauth", 401);
    const name = request.query.host;
    if (name === undefined) return plainText("Missing host parameter", 400);
    const address = request.query.ip || YDNS_CALLER_ADDRESS;
    const host = hosts.get(name);
    if (!host) return plainText("host not found", 404);
    if (!isIPv4(address) && !isIPv6(address)) return plainText(`invalid ip address (${address})`, 400);
    host[isIPv6(address) ? "AAAA" : "A"] = address;
    return plainText(fake.success);
  }

  const server = startFakeServer<YdnsFault>({
    prefix: "/api/v1",
    route,
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      return plainText(mode.body ?? "Too Many Requests", mode.status, retryAfterHeader(mode.retryAfter));
    },
  });

  const fake: YdnsFake = Object.assign(server, {
    hosts,
    success: "good" as "good" | "ok",
    reset() {
      hosts.clear();
      fake.success = "good";
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
