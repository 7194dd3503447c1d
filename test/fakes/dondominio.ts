// A faithful stand-in for DonDominio's DonDNS update (docs/services/dondominio.md): one GET `/json/`
// with the account's username, its DonDNS key, the host and the address, answered with JSON
// `{"success": …, "messages": [...]}`.
//
// Sources: DonDNS's API page (https://dondominio.dev/en/dondns/docs/api/: the DonDNS key under My
// Account, the A record created beforehand with any address, a GET over HTTPS with `user`, the key
// and `host`, the answer as JSON, plain text or XML by path), and independent clients whose reading
// the fake follows: qdm12/ddns-updater `internal/provider/providers/dondominio/provider.go`
// (`/json/`, `user`, `password`, `host`, `ip`, `lang`; only `success` and `messages` read; its PR
// #969: the page's table says `apikey` but `password` is what works), ddclient `nic_dondominio_update`
// (`/plain/`, `OK` / `IP:<address>`), DonDominio's own dondns-bash (`password`; no `ip` means the
// caller's address) and diegojfer/dondns-rs (`success`, `messages`). DonDNS does not publish the
// words or codes of its refusals; the fake's `messages` and `errorCode` values stand in for them.
// No machine-readable description is published.
//
// Quirk switches: faults `{body}` (any 200 answer), `{status, retryAfter}`, `"html"`; a request
// without `ip` sets the caller's address; `apikey` instead of `password` is refused like a wrong key;
// a host that is not an A record of the account's zones is refused.

import { isIPv4 } from "node:net";
import { type FakeServer, htmlErrorPage, json, plainText, retryAfterHeader, startFakeServer } from "./server";

export const DONDOMINIO_FAKE_USER = "ddnsd-user";
export const DONDOMINIO_FAKE_KEY = "e1f0c9b8a7d6e5f4c3b2a190";

/** What the fake sets when a request names no address: the connection's source, as DonDNS does. */
const DONDOMINIO_CALLER_IPV4 = "127.0.0.1";

export interface DonDominioRecord {
  /** The full name, e.g. `home.example.es`; the domain itself for its apex. */
  host: string;
  /** The account whose zone holds it. */
  user: string;
  ipv4: string;
  updates: number;
}

export type DonDominioFault = { status: number; retryAfter?: number } | { body: string } | "html";

export interface DonDominioFake extends FakeServer<DonDominioFault> {
  records: Map<string, DonDominioRecord>;
  /** Accounts: username → DonDNS key. */
  keys: Map<string, string>;
  addRecord(host: string, fields?: Partial<Omit<DonDominioRecord, "host">>): DonDominioRecord;
}

function refusal(errorCode: number, message: string): Response {
  return json(200, { success: false, errorCode, messages: [message] });
}

export function startDonDominioFake(): DonDominioFake {
  const records = new Map<string, DonDominioRecord>();
  const keys = new Map<string, string>([[DONDOMINIO_FAKE_USER, DONDOMINIO_FAKE_KEY]]);

  function update(query: Record<string, string>): Response {
    const user = query.user ?? "";
    if (user === "" || keys.get(user) !== (query.password ?? ""))
      return refusal(1001, "Invalid username or DonDNS key");
    const record = records.get((query.host ?? "").toLowerCase());
    if (record === undefined || record.user !== user) return refusal(1002, "Host not found in your DNS zones");
    const ip = query.ip === undefined || query.ip === "" ? DONDOMINIO_CALLER_IPV4 : query.ip;
    if (!isIPv4(ip)) return refusal(1003, "Invalid IP address");
    record.ipv4 = ip;
    record.updates++;
    return json(200, { success: true, errorCode: 0, messages: [] });
  }

  const server = startFakeServer<DonDominioFault>({
    prefix: "",
    route(request) {
      if (request.path !== "/json/" || request.method !== "GET") return plainText("Not Found", 404);
      return update(request.query);
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

  const fake: DonDominioFake = Object.assign(server, {
    records,
    keys,
    addRecord(host: string, fields: Partial<Omit<DonDominioRecord, "host">> = {}) {
      const record: DonDominioRecord = { host, user: DONDOMINIO_FAKE_USER, ipv4: "127.0.0.1", updates: 0, ...fields };
      records.set(host, record);
      return record;
    },
  });
  return fake;
}
