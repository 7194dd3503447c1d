// A faithful stand-in for the ClouDNS HTTP API's DNS calls: `auth-id` (API user) or `sub-auth-id`
// (sub-user, limited to its zones) with `auth-password` in the query; every answer HTTP 200, a
// refusal `{"status": "Failed", "statusDescription"}`; `/login/login.json` checks the credentials;
// `/dns/get-zone-info.json` describes a zone (`{name, type, zone, status}`); `/dns/records.json`
// answers the records keyed by id (`[]` when none), `host` relative (`""` for the apex), `ttl` as a
// string, filtered by `host` and `type`; `/dns/mod-record.json` replaces a record (its `ttl` is
// required); `/dns/add-record.json` answers the new id in `data.id`; only ClouDNS's TTL list is
// accepted. Reads are GETs, writes POSTs with the parameters in the query.
//
// Sources: ClouDNS API documentation (cloudns.net/wiki: API login, get zone info, list records,
// add record (a TXT record's `record` is its text), modify record, delete record (`domain-name`,
// `record-id`), available TTLs); lego providers/dns/cloudns (internal/client.go).
// UNSURE: ClouDNS's exact words for an unknown zone (modelled "Missing domain-name") and for a
// zone outside a sub-user's reach, and how it says "slow down" (modelled HTTP 429); the client
// reads any Failed answer that does not name the credentials as "not this zone".
// `addAnswersId = false` answers an add without `data` (status and statusDescription only), as in the
// traffic lego recorded (providers/dns/cloudns/internal/client_test.go).

import { isIPv4, isIPv6 } from "node:net";
import {
  type FakeServer,
  htmlErrorPage,
  json,
  type LoggedRequest,
  malformedJson,
  retryAfterHeader,
  startFakeServer,
} from "./server";

export const CLOUDNS_FAKE_AUTH_ID = "4321";
export const CLOUDNS_FAKE_SUB_AUTH_ID = "8765";
export const CLOUDNS_FAKE_PASSWORD = "cloudns-fake-password-0123456789";
const TTLS = new Set([60, 300, 900, 1800, 3600, 21600, 43200, 86400, 172800, 259200, 604800, 1209600, 2592000]);

export interface CloudnsRecord {
  id: string;
  type: string;
  host: string;
  record: string;
  ttl: number;
}

/** `{failed}`: an HTTP 200 refusal with those words; `{status}`: an HTTP error (`retryAfter` adds the header). */
export type CloudnsFault = { failed: string } | { status: number; retryAfter?: number } | "malformed" | "html";

export interface CloudnsFake extends FakeServer<CloudnsFault> {
  zones: Map<string, CloudnsRecord[]>;
  /** The zones the sub-user may touch; every zone when undefined. */
  subUserZones: Set<string> | undefined;
  /** Whether an add answers the new id in `data.id` (false: status and words only). */
  addAnswersId: boolean;
  addZone(name: string): void;
  /** `host` relative to the zone, `""` for the apex. */
  addRecord(zone: string, record: { host: string; type: string; record: string; ttl?: number }): CloudnsRecord;
  record(zone: string, host: string, type: string): CloudnsRecord | undefined;
  reset(): void;
}

export function startCloudnsFake(): CloudnsFake {
  const zones = new Map<string, CloudnsRecord[]>();
  let nextId = 1000;

  function addRecord(zone: string, init: { host: string; type: string; record: string; ttl?: number }): CloudnsRecord {
    const records = zones.get(zone);
    if (!records) throw new Error(`fake ClouDNS: no zone ${zone}`);
    const record: CloudnsRecord = {
      id: String(++nextId),
      type: init.type,
      host: init.host,
      record: init.record,
      ttl: init.ttl ?? 3600,
    };
    records.push(record);
    return record;
  }

  const failedAnswer = (words: string) => json(200, { status: "Failed", statusDescription: words });
  const success = (words: string, extra: Record<string, unknown> = {}) =>
    json(200, { status: "Success", statusDescription: words, ...extra });

  function route(request: LoggedRequest): Response {
    const q = request.query;
    const password = q["auth-password"];
    const sub = q["sub-auth-id"] !== undefined;
    const id = sub ? q["sub-auth-id"] : q["auth-id"];
    const known =
      (sub ? id === CLOUDNS_FAKE_SUB_AUTH_ID : id === CLOUDNS_FAKE_AUTH_ID) && password === CLOUDNS_FAKE_PASSWORD;
    if (!known) return failedAnswer("Invalid authentication, incorrect auth-id or auth-password.");
    if (request.path === "/login/login.json") return success("Success login.");
    const operation = /^\/dns\/([a-z-]+)\.json$/.exec(request.path)?.[1];
    const reads = new Set(["get-zone-info", "records"]);
    const writes = new Set(["mod-record", "add-record", "delete-record"]);
    if (operation === undefined || (!reads.has(operation) && !writes.has(operation)))
      return json(404, { status: "Failed", statusDescription: "Not found" });
    if (writes.has(operation) && request.method !== "POST") return failedAnswer("This function requires POST.");
    const domain = q["domain-name"] ?? "";
    const records = zones.get(domain);
    if (!records || (sub && fake.subUserZones !== undefined && !fake.subUserZones.has(domain)))
      return failedAnswer("Missing domain-name");

    if (operation === "get-zone-info") return json(200, { name: domain, type: "master", zone: "domain", status: "1" });
    if (operation === "records") {
      const listed = records.filter(
        (r) => (q.host === undefined || r.host === q.host) && (q.type === undefined || r.type === q.type),
      );
      return json(
        200,
        listed.length === 0
          ? []
          : Object.fromEntries(listed.map((r) => [r.id, { ...r, ttl: String(r.ttl), failover: "0", status: 1 }])),
      );
    }
    if (operation === "delete-record") {
      const at = records.findIndex((r) => r.id === q["record-id"]);
      if (at < 0) return failedAnswer("Invalid record-id param.");
      records.splice(at, 1);
      return success("The record was deleted successfully.");
    }
    const invalid = check(q, operation === "add-record");
    if (invalid) return failedAnswer(invalid);
    if (operation === "add-record") {
      const record = addRecord(domain, {
        host: q.host!,
        type: q["record-type"]!,
        record: q.record!,
        ttl: Number(q.ttl),
      });
      return success(
        "The record was added successfully.",
        fake.addAnswersId ? { data: { id: Number(record.id) } } : {},
      );
    }
    const record = records.find((r) => r.id === q["record-id"]);
    if (!record) return failedAnswer("Invalid record-id param.");
    if ((record.type === "A" && !isIPv4(q.record!)) || (record.type === "AAAA" && !isIPv6(q.record!)))
      return failedAnswer("Invalid IP address.");
    Object.assign(record, { host: q.host, record: q.record, ttl: Number(q.ttl) });
    return success("The record was modified successfully.");
  }

  const server = startFakeServer<CloudnsFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      if ("failed" in mode) return failedAnswer(mode.failed);
      return json(
        mode.status,
        { status: "Failed", statusDescription: mode.status === 429 ? "Too many requests." : "Internal error." },
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: CloudnsFake = Object.assign(server, {
    zones,
    subUserZones: undefined as Set<string> | undefined,
    addAnswersId: true,
    addZone: (name: string) => void zones.set(name, []),
    addRecord,
    record: (zone: string, host: string, type: string) =>
      zones.get(zone)?.find((r) => r.host === host && r.type === type),
    reset() {
      zones.clear();
      fake.subUserZones = undefined;
      fake.addAnswersId = true;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function check(q: Record<string, string>, adding: boolean): string | undefined {
  if (q.host === undefined || q.record === undefined) return "Missing host or record.";
  if (!adding && q["record-id"] === undefined) return "Missing record-id.";
  if (q.ttl === undefined || !TTLS.has(Number(q.ttl)))
    return "Invalid TTL. Choose from the list of the values we support.";
  if (adding) {
    const type = q["record-type"];
    if (type !== "A" && type !== "AAAA" && type !== "TXT") return "Invalid record-type param.";
    if ((type === "A" && !isIPv4(q.record)) || (type === "AAAA" && !isIPv6(q.record))) return "Invalid IP address.";
  }
  return undefined;
}
