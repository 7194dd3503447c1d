// A faithful stand-in for the IONOS DNS API v1: `X-API-Key: prefix.secret`; `GET /v1/zones` lists
// the account's zones (`{id, name, type}`, UUID ids); `GET /v1/zones/{id}` answers the zone with its
// records (`{id, name, rootName, type, content, ttl, prio, disabled, changeDate}`, `name` the full
// name), filtered by `recordName` and `recordType`; `PUT /v1/zones/{id}/records/{recordId}` replaces
// the record's content, TTL, priority and state (a TTL left out goes back to 3600) and answers the
// record; `POST /v1/zones/{id}/records` takes a list and answers the created records (201); errors
// are `[{code, message}]` (401 UNAUTHORIZED, 404 NOT_FOUND, 400 INVALID_RECORD, 429).
//
// One record per address, each its own id: a name holds several A/AAAA records, each put or deleted
// by id (the OpenAPI description's record paths).
//
// Sources: developer.hosting.ionos.com (DNS API v1 reference and its OpenAPI description: a TXT
// record's content is its text; `DELETE /v1/zones/{zoneId}/records/{recordId}` removes one); lego
// providers/dns/ionos (internal/client.go, types.go, fixtures). UNSURE: the TTL range (modelled
// 60–86400), the PUT's answer (the client reads none of it), and whether a 429 names a wait.

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

export const IONOS_FAKE_API_KEY = "0a1b2c3d4e5f.ionosfakesecret0123456789abcdefABCDEF";
const IONOS_DEFAULT_TTL = 3600;

export interface IonosRecord {
  id: string;
  name: string;
  type: string;
  content: string;
  ttl: number;
  prio: number;
  disabled: boolean;
}

export type IonosFault =
  | { status: number; code?: string; message?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface IonosFake extends FakeServer<IonosFault> {
  keys: Set<string>;
  /** By zone name. */
  zones: Map<string, { id: string; records: IonosRecord[] }>;
  addZone(name: string): string;
  /** `name` the full name. */
  addRecord(
    zone: string,
    record: { name: string; type: string; content: string; ttl?: number; disabled?: boolean },
  ): IonosRecord;
  record(zone: string, name: string, type: string): IonosRecord | undefined;
  reset(): void;
}

const ERRORS: Record<number, [string, string]> = {
  400: ["INVALID_RECORD", "Record is invalid."],
  401: ["UNAUTHORIZED", "The customer is not authorized to do this operation."],
  404: ["NOT_FOUND", "Zone not found."],
  405: ["METHOD_NOT_ALLOWED", "Method not allowed."],
  429: ["TOO_MANY_REQUESTS", "Too many requests."],
  500: ["INTERNAL_SERVER_ERROR", "Internal server error."],
};

export function startIonosFake(): IonosFake {
  const keys = new Set([IONOS_FAKE_API_KEY]);
  const zones = new Map<string, { id: string; records: IonosRecord[] }>();
  let next = 0;
  const uuid = () => `00000000-0000-4000-8000-${String(++next).padStart(12, "0")}`;

  function addRecord(
    zone: string,
    init: { name: string; type: string; content: string; ttl?: number; disabled?: boolean },
  ): IonosRecord {
    const found = zones.get(zone);
    if (!found) throw new Error(`fake IONOS: no zone ${zone}`);
    const record: IonosRecord = {
      id: uuid(),
      name: init.name,
      type: init.type,
      content: init.content,
      ttl: init.ttl ?? IONOS_DEFAULT_TTL,
      prio: 0,
      disabled: init.disabled ?? false,
    };
    found.records.push(record);
    return record;
  }

  function route(request: LoggedRequest): Response {
    if (!keys.has(request.headers["x-api-key"] ?? "")) return error(401);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "v1" || segments[1] !== "zones") return error(404);
    if (segments.length === 2)
      return request.method === "GET"
        ? json(
            200,
            [...zones].map(([name, z]) => ({ id: z.id, name, type: "NATIVE" })),
          )
        : error(405);
    const entry = [...zones].find(([, z]) => z.id === segments[2]);
    if (!entry) return error(404);
    const [zoneName, zone] = entry;
    if (segments.length === 3) {
      if (request.method !== "GET") return error(405);
      const q = request.query;
      const types = q.recordType?.split(",");
      const records = zone.records.filter(
        (r) =>
          (q.recordName === undefined || r.name === q.recordName) && (types === undefined || types.includes(r.type)),
      );
      return json(200, {
        id: zone.id,
        name: zoneName,
        type: "NATIVE",
        records: records.map((r) => ({ ...r, rootName: zoneName, changeDate: "2026-11-24T10:00:00.000Z" })),
      });
    }
    if (segments[3] !== "records") return error(404);
    if (segments.length === 4) {
      if (request.method !== "POST") return error(405);
      if (!Array.isArray(request.body)) return error(400);
      const created: IonosRecord[] = [];
      for (const item of request.body as Record<string, unknown>[]) {
        const invalid = check(item.type, item.content, item.ttl);
        if (invalid || typeof item.name !== "string" || !(item.name === zoneName || item.name.endsWith(`.${zoneName}`)))
          return error(400, {}, "INVALID_RECORD", invalid ?? "Record name is not in the zone.");
        created.push(
          addRecord(zoneName, {
            name: item.name,
            type: item.type as string,
            content: item.content as string,
            ...(typeof item.ttl === "number" ? { ttl: item.ttl } : {}),
          }),
        );
      }
      return json(201, created);
    }
    const record = zone.records.find((r) => r.id === segments[4]);
    if (!record) return error(404, {}, "RECORD_NOT_FOUND", "Record not found.");
    if (request.method === "DELETE") {
      zone.records.splice(zone.records.indexOf(record), 1);
      return new Response(null, { status: 200 });
    }
    if (request.method !== "PUT") return error(405);
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
    const invalid = check(record.type, body.content, body.ttl);
    if (invalid) return error(400, {}, "INVALID_RECORD", invalid);
    // The PUT replaces the record: what is left out goes back to its default.
    Object.assign(record, {
      content: body.content,
      ttl: typeof body.ttl === "number" ? body.ttl : IONOS_DEFAULT_TTL,
      prio: typeof body.prio === "number" ? body.prio : 0,
      disabled: body.disabled === true,
    });
    return json(200, record);
  }

  const server = startFakeServer<IonosFault>({
    prefix: "/dns",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(mode.status, retryAfterHeader(mode.retryAfter), mode.code, mode.message);
    },
  });

  const fake: IonosFake = Object.assign(server, {
    keys,
    zones,
    addZone(name: string) {
      const id = uuid();
      zones.set(name, { id, records: [] });
      return id;
    },
    addRecord,
    record: (zone: string, name: string, type: string) =>
      zones.get(zone)?.records.find((r) => r.name === name && r.type === type),
    reset() {
      zones.clear();
      keys.clear();
      keys.add(IONOS_FAKE_API_KEY);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function check(type: unknown, content: unknown, ttl: unknown): string | undefined {
  if (type !== "A" && type !== "AAAA" && type !== "TXT") return "Record type is not supported by this fake.";
  if (typeof content !== "string" || (type === "A" && !isIPv4(content)) || (type === "AAAA" && !isIPv6(content)))
    return "Record content is invalid.";
  if (ttl !== undefined && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 60 || ttl > 86400))
    return "TTL must be between 60 and 86400.";
  return undefined;
}

function error(status: number, headers: Record<string, string> = {}, code?: string, message?: string): Response {
  const [defaultCode, defaultMessage] = ERRORS[status] ?? ["ERROR", "Error."];
  return json(status, [{ code: code ?? defaultCode, message: message ?? defaultMessage }], headers);
}
