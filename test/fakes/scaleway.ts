// A stand-in for Scaleway Domains and DNS API v2beta1 (api.scaleway.com/domain/v2beta1). Every call
// needs `X-Auth-Token: <secret key>` (else 401 `denied_authentication`). `GET /dns-zones`
// (`{total_count, dns_zones: [{domain, subdomain, status}]}`, paged by `page` and `page_size`),
// `GET /dns-zones/{zone}/records?name=&type=` (`{total_count, records: [{id, name, type, data, ttl,
// priority, comment, and a dynamic record's geo_ip_config / weighted_config / http_service_config /
// view_config}]}`, paged by `page` and `page_size` like the zones; an empty `name` filters nothing) and `PATCH /dns-zones/{zone}/records` with
// `{changes: [{add: {records}} | {set: {id_fields: {name, type, data?, ttl?}, records}}]}`: a `set`
// replaces every record its id_fields match (none matched: 404), a `{delete: {id}}` removes one record,
// all changes of a request applied together or none; it answers `{records}` (the records written).
// A TXT record's data is its text in quotes (lego's scaleway provider quotes it). Errors:
// `{message, type, …}`.
//
// Checked against Scaleway's OpenAPI description (test/conformance/descriptions/scaleway.json):
// every request is validated; a forbidden one gets 400 invalid_arguments and is recorded.
//
// Sources: www.scaleway.com/en/developers/api/domains-and-dns (ListDNSZones, ListDNSZoneRecords,
// UpdateDNSZoneRecords; the error types in "Scaleway API errors"); independent clients: the official
// SDK scaleway/scaleway-sdk-go api/domain/v2beta1, lego providers/dns/scaleway, libdns/scaleway.
// UNSURE: whether a `set` matching nothing answers 404 or creates (modelled as 404, which ddnsd
// never relies on), and the throttle answer (modelled as 429 with Retry-After).

import { randomUUID } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { openApiDescription } from "./descriptions";
import {
  type FakeServer,
  htmlErrorPage,
  json,
  type LoggedRequest,
  malformedJson,
  retryAfterHeader,
  startFakeServer,
} from "./server";

/** Scaleway's own published description, checked against every request (compiled once, at import, so no request waits for it). */
const DESCRIPTION = openApiDescription("scaleway", {
  title: "Scaleway OpenAPI",
  apiRoot: "/",
  refuse: (_request, problems) =>
    json(400, {
      message: "invalid argument(s)",
      type: "invalid_arguments",
      details: problems.map((problem) => ({ argument_name: "request", reason: "constraint", help_message: problem })),
    }),
});

export const SCALEWAY_FAKE_SECRET = "7c4a1e2b-3d5f-4a6b-8c9d-0e1f2a3b4c5d";

export interface ScalewayRecord {
  id: string;
  name: string;
  type: string;
  data: string;
  ttl: number;
  priority: number;
  comment: string;
  /** A dynamic record's answers (Record.GeoIPConfig / WeightedConfig / HTTPServiceConfig / ViewConfig): `data` is then only its fallback. */
  geo_ip_config?: unknown;
  weighted_config?: unknown;
  http_service_config?: unknown;
  view_config?: unknown;
}

const DYNAMIC_CONFIGS = ["geo_ip_config", "weighted_config", "http_service_config", "view_config"] as const;

export type ScalewayFault =
  | { status: number; message?: string; type?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface ScalewayFake extends FakeServer<ScalewayFault> {
  secrets: Set<string>;
  /** The most zones (or records) one page holds, whatever `page_size` asks for. */
  maxPageSize: number;
  /** zone name → its records. */
  zones: Map<string, ScalewayRecord[]>;
  addZone(name: string): void;
  addRecord(
    zone: string,
    record: {
      name: string;
      type: string;
      data: string;
      ttl?: number;
      comment?: string;
      weighted_config?: unknown;
      geo_ip_config?: unknown;
    },
  ): ScalewayRecord;
  records(zone: string, name: string, type: string): ScalewayRecord[];
  reset(): void;
}

export function startScalewayFake(): ScalewayFake {
  const secrets = new Set([SCALEWAY_FAKE_SECRET]);
  const zones: ScalewayFake["zones"] = new Map();

  function addRecord(
    zone: string,
    init: {
      name: string;
      type: string;
      data: string;
      ttl?: number;
      comment?: string;
      weighted_config?: unknown;
      geo_ip_config?: unknown;
    },
  ): ScalewayRecord {
    const held = zones.get(zone);
    if (!held) throw new Error(`fake Scaleway: no zone ${zone}`);
    const record: ScalewayRecord = {
      id: randomUUID(),
      name: init.name,
      type: init.type,
      data: init.data,
      ttl: init.ttl ?? 3600,
      priority: 0,
      comment: init.comment ?? "",
    };
    for (const config of DYNAMIC_CONFIGS)
      if (init[config as "weighted_config"] !== undefined) record[config] = init[config as "weighted_config"];
    held.push(record);
    return record;
  }

  const invalid = (argument: string, help: string) =>
    json(400, {
      message: "invalid argument(s)",
      type: "invalid_arguments",
      details: [{ argument_name: argument, reason: "constraint", help_message: help }],
    });

  /** A record a change sends, or why Scaleway refuses it. */
  function given(value: unknown, at: string): Omit<ScalewayRecord, "id"> | Response {
    if (typeof value !== "object" || value === null) return invalid(at, "must be a record");
    const r = value as Record<string, unknown>;
    if (typeof r.name !== "string" || r.name.endsWith("."))
      return invalid(`${at}.name`, "must be a name relative to the zone");
    if (r.type !== "A" && r.type !== "AAAA" && r.type !== "TXT")
      return invalid(`${at}.type`, "this fake holds A, AAAA and TXT only");
    if (typeof r.data !== "string") return invalid(`${at}.data`, "is required");
    if (r.type === "TXT" && !/^".*"$/.test(r.data)) return invalid(`${at}.data`, "a TXT record's data must be quoted");
    if (r.type !== "TXT" && (r.type === "A" ? !isIPv4(r.data) : !isIPv6(r.data)))
      return invalid(`${at}.data`, `must be an ${r.type === "A" ? "IPv4" : "IPv6"} address`);
    if (typeof r.ttl !== "number" || r.ttl < 60) return invalid(`${at}.ttl`, "must be at least 60");
    // A record is replaced by what is sent: a dynamic config not sent is gone.
    const configs = Object.fromEntries(
      DYNAMIC_CONFIGS.filter((c) => typeof r[c] === "object" && r[c] !== null).map((c) => [c, r[c]]),
    );
    return {
      name: r.name,
      type: r.type,
      data: r.data,
      ttl: r.ttl,
      priority: typeof r.priority === "number" ? r.priority : 0,
      comment: typeof r.comment === "string" ? r.comment : "",
      ...configs,
    };
  }

  function patch(zone: string, request: LoggedRequest): Response {
    const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as {
      changes?: unknown;
    };
    if (!Array.isArray(body.changes) || body.changes.length === 0)
      return invalid("changes", "must hold at least one change");
    const next = [...zones.get(zone)!];
    const written: ScalewayRecord[] = [];
    for (const [index, change] of (body.changes as Record<string, unknown>[]).entries()) {
      if (change?.delete !== undefined && Object.keys(change).length === 1) {
        const id = (change.delete as { id?: unknown }).id;
        const at = next.findIndex((r) => r.id === id);
        if (at < 0) return json(404, { message: "record not found", type: "not_found", resource: "record" });
        next.splice(at, 1);
        continue;
      }
      const operation = change?.add ?? change?.set;
      const records = (operation as { records?: unknown } | undefined)?.records;
      if (!Array.isArray(records) || Object.keys(change).length !== 1)
        return invalid(`changes[${index}]`, "must be exactly one of add, set, delete, clear");
      const made: ScalewayRecord[] = [];
      for (const [n, r] of records.entries()) {
        const record = given(r, `changes[${index}].records[${n}]`);
        if (record instanceof Response) return record;
        made.push({ id: randomUUID(), ...record });
      }
      if (change.set !== undefined) {
        const fields = (change.set as { id_fields?: Record<string, unknown> }).id_fields;
        if (!fields || typeof fields.name !== "string" || typeof fields.type !== "string")
          return invalid(`changes[${index}].set.id_fields`, "name and type are required");
        const matches = (r: ScalewayRecord) =>
          r.name === fields.name &&
          r.type === fields.type &&
          (fields.data === undefined || r.data === fields.data) &&
          (fields.ttl === undefined || r.ttl === fields.ttl);
        if (!next.some(matches))
          return json(404, { message: "record not found", type: "not_found", resource: "record" });
        for (let i = next.length - 1; i >= 0; i--) if (matches(next[i]!)) next.splice(i, 1);
      } else if (made.some((m) => next.some((r) => r.name === m.name && r.type === m.type && r.data === m.data))) {
        return json(409, { message: "record already exists", type: "conflict" });
      }
      next.push(...made);
      written.push(...made);
    }
    zones.set(zone, next);
    return json(200, { records: written });
  }

  function route(request: LoggedRequest): Response {
    if (!secrets.has(request.headers["x-auth-token"] ?? ""))
      return json(401, {
        message: "authentication is denied",
        method: "api_key",
        reason: "invalid_argument",
        type: "denied_authentication",
      });
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "dns-zones") return json(404, { message: "resource is not found", type: "not_found" });
    if (segments.length === 1 && request.method === "GET") {
      // `domain` is required by the description; empty, it filters nothing (the official SDK always sends it).
      const domain = request.query.domain ?? "";
      const all = [...zones.keys()].filter((z) => domain === "" || z === domain || z.endsWith(`.${domain}`)).sort();
      const size = Math.min(Number(request.query.page_size ?? 20), fake.maxPageSize);
      const page = Number(request.query.page ?? 1);
      const shown = all.slice((page - 1) * size, page * size).map((name) => {
        const parent = all.filter((z) => name.endsWith(`.${z}`)).sort((a, b) => a.length - b.length)[0];
        return parent === undefined
          ? { domain: name, subdomain: "", status: "active" }
          : { domain: parent, subdomain: name.slice(0, -(parent.length + 1)), status: "active" };
      });
      return json(200, { total_count: all.length, dns_zones: shown });
    }
    const zone = segments[1]!;
    if (!zones.has(zone))
      return json(404, {
        message: "resource is not found",
        resource: "dns_zone",
        resource_id: zone,
        type: "not_found",
      });
    if (segments.length !== 3 || segments[2] !== "records")
      return json(404, { message: "resource is not found", type: "not_found" });
    if (request.method === "GET") {
      const { name, type } = request.query;
      const found = zones
        .get(zone)!
        .filter(
          (r) => (name === undefined || name === "" || r.name === name) && (type === undefined || r.type === type),
        );
      const size = Math.min(Number(request.query.page_size ?? 20), fake.maxPageSize);
      const page = Number(request.query.page ?? 1);
      return json(200, { total_count: found.length, records: found.slice((page - 1) * size, page * size) });
    }
    if (request.method === "PATCH") return patch(zone, request);
    return json(405, { message: "method not allowed", type: "invalid_request" });
  }

  const server = startFakeServer<ScalewayFault>({
    prefix: "/domain/v2beta1",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const type = mode.type ?? (mode.status === 429 ? "too_many_requests" : "internal_error");
      return json(
        mode.status,
        {
          message: mode.message ?? (mode.status === 429 ? "quota exceeded, too many requests" : "internal error"),
          type,
        },
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: ScalewayFake = Object.assign(server, {
    secrets,
    maxPageSize: 100,
    zones,
    addZone: (name: string) => void zones.set(name, []),
    addRecord,
    records: (zone: string, name: string, type: string) =>
      zones.get(zone)?.filter((r) => r.name === name && r.type === type) ?? [],
    reset() {
      zones.clear();
      secrets.clear();
      secrets.add(SCALEWAY_FAKE_SECRET);
      fake.maxPageSize = 100;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
