// A stand-in for the LuaDNS REST API v1 (docs/services/luadns.md): HTTP Basic auth (e-mail + API key),
// `Accept: application/json` required (403 "Invalid 'Accept' header" otherwise), zones with numeric
// ids, records with `name` as a fully qualified name with a trailing dot, `type`, `content`, `ttl`,
// `zone_id` and `generated`; PUT replaces a record; errors as `{"status", "request_id", "message"}`,
// refused bodies as 400 `[{"fieldNames": [...], "message"}]`; every answer carries X-Ratelimit-*
// headers, and a 429 adds Retry-After.
//
// One record per address, each its own id: a name holds several A/AAAA records, each put or deleted
// by id (luadns.com/api.html, records by id).
//
// Sources: luadns.com/api.html; the answers recorded in luadns/luadns-ruby's test fixtures
// (users/me err-bad-key, err-bad-accept, err-too-many; zones.index; zones/5/records.*); qdm12/ddns-updater
// providers/luadns (GET records, PUT the whole record back); luadns.com/api.html "Delete Record"
// (`DELETE /zones/{zone_id}/records/{record_id}` answers the record deleted), as lego's luadns
// provider removes its TXT record.
//
// Quirk switches: faults `{status, message, retryAfter}` (429 also sets X-Ratelimit-Reset), `"html"`,
// `"malformed"` (a 200 with broken JSON).

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

export const LUADNS_FAKE_EMAIL = "joe@example.net";
export const LUADNS_FAKE_KEY = "luadns-fake-api-key-0123456789abcdef";

export interface LuadnsRecord {
  id: number;
  name: string;
  type: string;
  content: string;
  ttl: number;
  zone_id: number;
  generated: boolean;
}

export interface LuadnsZone {
  id: number;
  name: string;
  records: LuadnsRecord[];
}

export type LuadnsFault = { status: number; message?: string; retryAfter?: number } | "html" | "malformed";

export interface LuadnsFake extends FakeServer<LuadnsFault> {
  keys: Set<string>;
  zones: Map<number, LuadnsZone>;
  addZone(name: string): LuadnsZone;
  zoneNamed(name: string): LuadnsZone | undefined;
  /** `hostname` without the trailing dot. */
  addRecord(
    zone: string,
    record: { hostname: string; type: string; content: string; ttl: number; generated?: boolean },
  ): LuadnsRecord;
  recordsOf(zone: string, hostname: string, type: string): LuadnsRecord[];
  reset(): void;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  429: "Too Many Requests",
  500: "Internal Server Error",
};

export function startLuadnsFake(): LuadnsFake {
  const keys = new Set([`${LUADNS_FAKE_EMAIL}:${LUADNS_FAKE_KEY}`]);
  const zones = new Map<number, LuadnsZone>();
  let nextId = 115014343;
  let requestNumber = 0;
  const zoneNamed = (name: string) => [...zones.values()].find((z) => z.name === name);
  const limitHeaders = (): Record<string, string> => ({
    "X-Ratelimit-Limit": "1200",
    "X-Ratelimit-Remaining": "1199",
    "X-Ratelimit-Reset": String(Math.ceil(Date.now() / 1000) + 300),
  });

  function error(status: number, message?: string, headers: Record<string, string> = {}): Response {
    const text = STATUS_TEXT[status] ?? "Error";
    return json(
      status,
      {
        status: text,
        request_id: `apollo.local/fake-${String(++requestNumber).padStart(6, "0")}`,
        message: message ?? text,
      },
      { ...limitHeaders(), ...headers },
    );
  }

  function fieldProblems(
    type: string,
    body: Record<string, unknown>,
  ): { fieldNames: string[]; message: string; classification?: string }[] {
    const problems: { fieldNames: string[]; message: string; classification?: string }[] = [];
    for (const field of ["name", "type", "content"]) {
      if (typeof body[field] !== "string" || body[field] === "")
        problems.push({ fieldNames: [field], classification: "RequiredError", message: "Required" });
    }
    const content = body.content;
    if (typeof content === "string" && type === "A" && !isIPv4(content))
      problems.push({ fieldNames: ["content"], message: "invalid IPv4 address" });
    if (typeof content === "string" && type === "AAAA" && !isIPv6(content))
      problems.push({ fieldNames: ["content"], message: "invalid IPv6 address" });
    if (body.ttl !== undefined && (typeof body.ttl !== "number" || !Number.isInteger(body.ttl) || body.ttl < 0))
      problems.push({ fieldNames: ["ttl"], message: "invalid TTL" });
    return problems;
  }

  function route(request: LoggedRequest): Response {
    const auth = request.headers.authorization ?? "";
    const given = auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString() : "";
    if (!keys.has(given))
      return error(401, "Invalid API Key", { "Www-Authenticate": 'Basic realm="Authorization Required"' });
    if (!(request.headers.accept ?? "").includes("application/json")) return error(403, "Invalid 'Accept' header");
    const segments = request.path.split("/").filter(Boolean);
    if (segments[0] !== "zones") return error(404);
    if (segments.length === 1) {
      if (request.method !== "GET") return error(400);
      return json(
        200,
        [...zones.values()].map(({ records, ...zone }) => ({
          ...zone,
          template_id: 0,
          synced: false,
          records_count: records.length,
          records: null,
        })),
        limitHeaders(),
      );
    }
    const zone = zones.get(Number(segments[1]));
    if (!zone) return error(404, "Record not found");
    if (segments.length === 2)
      return request.method === "GET"
        ? json(200, { id: zone.id, name: zone.name, records: zone.records }, limitHeaders())
        : error(400);
    if (segments[2] !== "records") return error(404);
    const body =
      typeof request.body === "object" && request.body !== null && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : {};

    if (segments.length === 3) {
      if (request.method === "GET") return json(200, zone.records, limitHeaders());
      if (request.method !== "POST") return error(400);
      const problems = fieldProblems(String(body.type ?? ""), body);
      if (problems.length > 0) return json(400, problems, limitHeaders());
      const record = {
        id: nextId++,
        name: body.name as string,
        type: body.type as string,
        content: body.content as string,
        ttl: (body.ttl as number) ?? 3600,
        zone_id: zone.id,
        generated: false,
      };
      zone.records.push(record);
      return json(200, record, limitHeaders());
    }
    const record = zone.records.find((r) => r.id === Number(segments[3]));
    if (!record || segments.length !== 4) return error(404, "Record not found");
    if (request.method === "GET") return json(200, record, limitHeaders());
    if (request.method === "DELETE") {
      zone.records.splice(zone.records.indexOf(record), 1);
      return json(200, record, limitHeaders());
    }
    if (request.method !== "PUT") return error(400);
    const problems = fieldProblems(String(body.type ?? ""), body);
    if (problems.length > 0) return json(400, problems, limitHeaders());
    // A PUT replaces the record: a TTL left out is LuaDNS's default again.
    Object.assign(record, {
      name: body.name,
      type: body.type,
      content: body.content,
      ttl: typeof body.ttl === "number" ? body.ttl : 3600,
    });
    return json(200, record, limitHeaders());
  }

  const server = startFakeServer<LuadnsFault>({
    prefix: "/v1",
    route,
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      if (mode === "malformed") return malformedJson();
      return error(mode.status, mode.message, retryAfterHeader(mode.retryAfter));
    },
  });

  const fake: LuadnsFake = Object.assign(server, {
    keys,
    zones,
    addZone(name: string) {
      const zone = { id: nextId++, name, records: [] };
      zones.set(zone.id, zone);
      return zone;
    },
    zoneNamed,
    addRecord(
      zoneName: string,
      init: { hostname: string; type: string; content: string; ttl: number; generated?: boolean },
    ) {
      const zone = zoneNamed(zoneName);
      if (!zone) throw new Error(`fake LuaDNS: no zone ${zoneName}`);
      const record = {
        id: nextId++,
        name: `${init.hostname}.`,
        type: init.type,
        content: init.content,
        ttl: init.ttl,
        zone_id: zone.id,
        generated: init.generated ?? false,
      };
      zone.records.push(record);
      return record;
    },
    recordsOf: (zoneName: string, hostname: string, type: string) =>
      zoneNamed(zoneName)?.records.filter((r) => r.name === `${hostname}.` && r.type === type) ?? [],
    reset() {
      zones.clear();
      keys.clear();
      keys.add(`${LUADNS_FAKE_EMAIL}:${LUADNS_FAKE_KEY}`);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
