// A faithful stand-in for Mythic Beasts' Primary DNS API v2 (base `…/dns/v2`) as ddnsd uses it: HTTP
// Basic credentials (the API key's id and secret) on every request, 401 otherwise; keys that may be
// restricted to some zones (others answer 403); GET /zones (`{"zones": [names]}`, the zones the key
// may use); GET /zones/{zone}/records/{host}/{type} (`{"records": [{host, ttl, type, data}]}`, `@`
// for the apex); PUT to the same URL replacing exactly that host's records of that type with the
// ones sent (`{"message", "records_added", "records_removed"}`); 404 `{"error": …}` for a zone the
// account does not hold; 400 `{"errors": [...]}` for a record it refuses; 429 `{"message": "Rate
// limited"}` for its rate limit.
//
// Switches: `emptySelection` ("empty": a host/type with no records answers 200 with no records;
// "404": it answers 404, as some clients expect — UNSURE which the service does), faults
// `{status, error?, message?, retryAfter?}`, `"malformed"`, `"html"`.
//
// Sources: mythic-beasts.com/support/api/dnsv2 (authentication, selecting records, PUT, DELETE of a
// selection; a TXT record's data is its text), its
// tutorial (examples of every body) and the auth service page; go-acme/lego providers/dns/mythicbeasts
// (types.go: the mutation answer); libdns/mythicbeasts (the `{error}` and `{errors}` bodies);
// stalwartlabs/dns-update mythicbeasts.rs (404 on reading an empty selection treated as none) and
// issue #70 (the 429 body). UNSURE: the words of a refused Basic login (modelled as
// `{"error": "Authentication failed"}`).

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

export const MYTHICBEASTS_FAKE_KEY = "abcd1234efgh5678";
export const MYTHICBEASTS_FAKE_SECRET = "mbfakesecret-0123456789ABCDEFGHIJ";

export interface MythicBeastsRecord {
  host: string;
  ttl: number;
  type: string;
  data: string;
}

export type MythicBeastsFault =
  | { status: number; error?: string; message?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface MythicBeastsFake extends FakeServer<MythicBeastsFault> {
  /** Key id → secret; delete one to revoke it mid-test. */
  keys: Map<string, string>;
  /** Zones the key may use; undefined = every zone of the account. */
  allowedZones: Set<string> | undefined;
  emptySelection: "empty" | "404";
  zones: Map<string, MythicBeastsRecord[]>;
  addZone(name: string): void;
  addRecord(zone: string, record: { host: string; type: string; data: string; ttl?: number }): MythicBeastsRecord;
  records(zone: string, host: string, type: string): MythicBeastsRecord[];
  reset(): void;
}

export function startMythicBeastsFake(): MythicBeastsFake {
  const keys = new Map([[MYTHICBEASTS_FAKE_KEY, MYTHICBEASTS_FAKE_SECRET]]);
  const zones = new Map<string, MythicBeastsRecord[]>();

  function addRecord(
    zone: string,
    init: { host: string; type: string; data: string; ttl?: number },
  ): MythicBeastsRecord {
    const records = zones.get(zone);
    if (!records) throw new Error(`fake Mythic Beasts: no zone ${zone}`);
    const record = { host: init.host, ttl: init.ttl ?? 300, type: init.type, data: init.data };
    records.push(record);
    return record;
  }

  function authorized(request: LoggedRequest): boolean {
    const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? "");
    if (!basic) return false;
    const [id, ...rest] = Buffer.from(basic[1]!, "base64").toString().split(":");
    return id !== undefined && keys.get(id) === rest.join(":");
  }

  function route(request: LoggedRequest): Response {
    if (!authorized(request)) return json(401, { error: "Authentication failed" });
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    const may = (zone: string) => fake.allowedZones === undefined || fake.allowedZones.has(zone);

    if (segments.length === 1 && segments[0] === "zones" && request.method === "GET") {
      return json(200, { zones: [...zones.keys()].filter(may) });
    }
    if (segments.length === 5 && segments[0] === "zones" && segments[2] === "records") {
      const [, zone, , host, type] = segments as [string, string, string, string, string];
      const records = zones.get(zone);
      if (!records) return json(404, { error: `Zone not found: ${zone}` });
      if (!may(zone)) return json(403, { error: `Permission denied for zone ${zone}` });
      const selected = records.filter((r) => r.host === host && r.type === type);
      if (request.method === "GET") {
        if (selected.length === 0 && fake.emptySelection === "404")
          return json(404, { error: "No matching records found" });
        return json(200, { records: selected });
      }
      if (request.method === "DELETE") {
        // The selection goes (a `?data=` filter, which ddnsd does not send, would narrow it).
        const kept = records.filter((r) => !(r.host === host && r.type === type));
        records.splice(0, records.length, ...kept);
        return json(200, { message: `${selected.length} records removed`, records_removed: selected.length });
      }
      if (request.method === "PUT") {
        const body = request.body as { records?: unknown } | undefined;
        const sent = Array.isArray(body?.records) ? (body.records as Record<string, unknown>[]) : undefined;
        if (!sent) return json(400, { errors: ["records: field required"] });
        const problems = sent.flatMap((r) => check(r, host, type));
        if (problems.length > 0) return json(400, { errors: problems });
        // The selection (this host's records of this type) is replaced by what was sent; nothing else changes.
        const kept = records.filter((r) => !(r.host === host && r.type === type));
        records.splice(
          0,
          records.length,
          ...kept,
          ...sent.map((r) => ({ host, ttl: (r.ttl as number | undefined) ?? 300, type, data: r.data as string })),
        );
        return json(200, {
          message: `${sent.length} records added, ${selected.length} records removed`,
          records_added: sent.length,
          records_removed: selected.length,
        });
      }
    }
    return json(404, { error: "Not found" });
  }

  const server = startFakeServer<MythicBeastsFault>({
    prefix: "/dns/v2",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      if (mode.status === 429)
        return json(429, { message: mode.message ?? "Rate limited" }, retryAfterHeader(mode.retryAfter));
      return json(
        mode.status,
        mode.message ? { message: mode.message } : { error: mode.error ?? "Internal server error" },
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: MythicBeastsFake = Object.assign(server, {
    keys,
    zones,
    allowedZones: undefined as Set<string> | undefined,
    emptySelection: "empty" as "empty" | "404",
    addZone: (name: string) => void zones.set(name, []),
    addRecord,
    records: (zone: string, host: string, type: string) =>
      zones.get(zone)?.filter((r) => r.host === host && r.type === type) ?? [],
    reset() {
      zones.clear();
      keys.clear();
      keys.set(MYTHICBEASTS_FAKE_KEY, MYTHICBEASTS_FAKE_SECRET);
      fake.allowedZones = undefined;
      fake.emptySelection = "empty";
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function check(record: Record<string, unknown>, host: string, type: string): string[] {
  const problems: string[] = [];
  if (record.host !== undefined && record.host !== host) problems.push(`host: does not match the URL (${host})`);
  if (record.type !== undefined && record.type !== type) problems.push(`type: does not match the URL (${type})`);
  if (type !== "A" && type !== "AAAA" && type !== "TXT")
    problems.push("type: this fake knows A, AAAA and TXT records only");
  const data = record.data;
  if (typeof data !== "string" || (type === "A" && !isIPv4(data)) || (type === "AAAA" && !isIPv6(data)))
    problems.push(`data: not a valid ${type === "AAAA" ? "IPv6" : "IPv4"} address`);
  const ttl = record.ttl;
  if (ttl !== undefined && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 60 || ttl > 86400))
    problems.push("ttl: must be between 60 and 86400");
  return problems;
}
