// A stand-in for FreeDNS (freedns.afraid.org, docs/services/freedns.md): the account's dynamic DNS
// records listed by `GET /api/?action=getdyndns&v=2&sha=<sha1 of "username|password">` as lines
// `hostname|address|update URL` (`NULL` for a record without an address; A and AAAA records both
// listed with v=2), and each record's own update URL `GET /dynamic/update.php?<key>&address=<address>`
// answered in plain text with HTTP 200:
//   `Updated 1 host(s) <host> to <address> in 0.123 seconds`
//   `ERROR: Address <address> has not changed.`
//   `ERROR: Unable to locate this record (changed password recently? deleted and re-created this dns entry?) (double check username/password are correct)`
// A wrong login gets `ERROR: Could not authenticate.` in place of the listing (the exact words are
// not documented; the client reads any `ERROR` line without records as a refused login).
// Without `address` the update publishes the address the request came from (here 192.0.2.250).
//
// Sources: freedns.afraid.org/api and /dynamic; ddclient `nic_freedns_update` (v=2 listing,
// `&address=`, `Updated.*<host>.*to.*<address>`); inadyn plugins/freedns.c; public update scripts
// quoting the `ERROR:` answers.
//
// Quirk switches: faults `{status, body, retryAfter}` (FreeDNS documents no limit: a 429 stands for
// one), `"html"` (a proxy's 502 page).

import { createHash } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import {
  type FakeServer,
  htmlErrorPage,
  type LoggedRequest,
  plainText,
  retryAfterHeader,
  startFakeServer,
} from "./server";

export const FREEDNS_FAKE_USER = "ddnsd-fake-user";
export const FREEDNS_FAKE_PASSWORD = "freedns-fake-password-0123";
/** What an update without `address` publishes: the connection's own address. */
const FREEDNS_CALLER_ADDRESS = "192.0.2.250";

export interface FreednsRecord {
  hostname: string;
  type: "A" | "AAAA";
  /** "" for a record without an address (listed as NULL). */
  address: string;
  key: string;
}

export type FreednsFault = { status: number; body?: string; retryAfter?: number } | "html";

export interface FreednsFake extends FakeServer<FreednsFault> {
  /** The login hashes that list the account's records. */
  logins: Set<string>;
  records: FreednsRecord[];
  addRecord(hostname: string, type: "A" | "AAAA", address: string): FreednsRecord;
  recordsOf(hostname: string, type: "A" | "AAAA"): FreednsRecord[];
  reset(): void;
}

export const freednsLoginHash = (username: string, password: string) =>
  createHash("sha1").update(`${username}|${password}`).digest("hex");

export function startFreednsFake(): FreednsFake {
  const initialLogin = freednsLoginHash(FREEDNS_FAKE_USER, FREEDNS_FAKE_PASSWORD);
  const logins = new Set([initialLogin]);
  const records: FreednsRecord[] = [];
  let nextKey = 1;

  function route(request: LoggedRequest): Response {
    if (request.path === "/api/" && request.query.action === "getdyndns") {
      if (!logins.has(request.query.sha ?? "")) return plainText("ERROR: Could not authenticate.\n");
      // v=1 lists A records only.
      const listed = request.query.v === "2" ? records : records.filter((r) => r.type === "A");
      const base = fake.url;
      return plainText(
        listed.map((r) => `${r.hostname}|${r.address || "NULL"}|${base}/dynamic/update.php?${r.key}`).join("\n") +
          (listed.length ? "\n" : ""),
      );
    }
    if (request.path === "/dynamic/update.php") {
      // The key is the query's first, bare part: `update.php?<key>&address=…`.
      const key = Object.keys(request.query).find((k) => request.query[k] === "");
      const record = records.find((r) => r.key === key);
      if (!record) {
        return plainText(
          "ERROR: Unable to locate this record (changed password recently? deleted and re-created this dns entry?) (double check username/password are correct)\n",
        );
      }
      const address = request.query.address ?? FREEDNS_CALLER_ADDRESS;
      if (!isIPv4(address) && !isIPv6(address)) return plainText(`ERROR: Invalid address: ${address}\n`);
      if (address === record.address) return plainText(`ERROR: Address ${address} has not changed.\n`);
      record.address = address;
      record.type = isIPv6(address) ? "AAAA" : "A";
      return plainText(`Updated 1 host(s) ${record.hostname} to ${address} in 0.123 seconds\n`);
    }
    return plainText("Not Found\n", 404);
  }

  const server = startFakeServer<FreednsFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      return plainText(mode.body ?? "Too Many Requests\n", mode.status, retryAfterHeader(mode.retryAfter));
    },
  });

  const fake: FreednsFake = Object.assign(server, {
    logins,
    records,
    addRecord(hostname: string, type: "A" | "AAAA", address: string) {
      const record = {
        hostname,
        type,
        address,
        key: Buffer.from(`freedns-key-${nextKey++}:${hostname}`).toString("base64url"),
      };
      records.push(record);
      return record;
    },
    recordsOf: (hostname: string, type: "A" | "AAAA") =>
      records.filter((r) => r.hostname === hostname && r.type === type),
    reset() {
      records.length = 0;
      logins.clear();
      logins.add(initialLogin);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
