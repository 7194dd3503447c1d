// A faithful stand-in for myaddr.tools' update endpoint (docs/services/myaddr.md): `/update` with the
// claimed name's private `key` and an `ip` of either family, as a form body or in the query, answered
// in plain text.
//
// Sources: myaddr.tools (https://myaddr.tools/: a name claimed in seconds without an account, one
// private key per name, an "easy, forgiving HTTP-based API", the name resolving alike under
// myaddr.tools, myaddr.dev and myaddr.io), and two independent clients whose reading the fake
// follows: qdm12/ddns-updater `internal/provider/providers/myaddr/provider.go` and `docs/myaddr.md`
// (POST form `key`, `ip`; 200 done, 400 a bad request, 404 a key that is not valid; the key updates the
// name and every name below it) and go-acme/lego `providers/dns/myaddr` (POST `/update`, its fixture
// `invalid value for "key"` in a 400). `ip=self` publishing the caller's address is what other clients
// send (e.g. `curl -X POST "https://myaddr.tools/update?key=…&ip=self"`). myaddr does not publish its
// other answers' words; the fake's `OK` and `not found` stand in. No machine-readable description is
// published.
//
// Quirk switches: faults `{status, body, retryAfter}`, `"html"`; `ip=self` publishes the caller's
// address; an address of either family goes in `ip` and sets only that family's record.

import { isIPv4, isIPv6 } from "node:net";
import { type FakeServer, htmlErrorPage, plainText, retryAfterHeader, startFakeServer } from "./server";

export const MYADDR_FAKE_KEY = "9b1d4c7e2f0a48d6b3e5c1a7f9d2e4b6c8a0f1e3d5b7c9a1e3f5d7b9c1a3e5f7";

/** What `ip=self` publishes: the connection's source, as myaddr does. */
const MYADDR_CALLER_IPV4 = "127.0.0.1";

export interface MyaddrName {
  /** The claimed name, e.g. `home` for home.myaddr.tools. */
  name: string;
  key: string;
  ipv4: string;
  ipv6: string;
  updates: number;
}

export type MyaddrFault = { status: number; body?: string; retryAfter?: number } | "html";

export interface MyaddrFake extends FakeServer<MyaddrFault> {
  names: Map<string, MyaddrName>;
  claim(name: string, fields?: Partial<Omit<MyaddrName, "name">>): MyaddrName;
}

export function startMyaddrFake(): MyaddrFake {
  const names = new Map<string, MyaddrName>();

  function update(fields: Record<string, string>): Response {
    const key = fields.key ?? "";
    if (!/^[A-Za-z0-9]+$/.test(key)) return plainText('invalid value for "key"', 400);
    const claimed = [...names.values()].find((entry) => entry.key === key);
    if (claimed === undefined) return plainText("not found", 404);
    const ip = fields.ip === "self" ? MYADDR_CALLER_IPV4 : (fields.ip ?? "");
    if (isIPv4(ip)) claimed.ipv4 = ip;
    else if (isIPv6(ip)) claimed.ipv6 = ip;
    else return plainText('invalid value for "ip"', 400);
    claimed.updates++;
    return plainText("OK");
  }

  const server = startFakeServer<MyaddrFault>({
    prefix: "",
    route(request) {
      if (request.path !== "/update" || (request.method !== "POST" && request.method !== "GET"))
        return plainText("Not Found", 404);
      const form = typeof request.body === "string" ? Object.fromEntries(new URLSearchParams(request.body)) : {};
      return update({ ...request.query, ...form });
    },
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      return plainText(
        mode.body ?? (mode.status === 429 ? "Too Many Requests" : "Error"),
        mode.status,
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: MyaddrFake = Object.assign(server, {
    names,
    claim(name: string, fields: Partial<Omit<MyaddrName, "name">> = {}) {
      const entry: MyaddrName = { name, key: MYADDR_FAKE_KEY, ipv4: "", ipv6: "", updates: 0, ...fields };
      names.set(name, entry);
      return entry;
    },
  });
  return fake;
}
