// A stand-in for Infomaniak's public API v2, DNS zones: zones addressed by name, their records in one
// listing (`{"result": "success", "data": [...]}`), a record changed by PUT of its id and created by
// POST, both answering the record as stored; errors in the envelope `{"result": "error", "error":
// {"code", "description", "errors"?}}` (401 for an unknown token, 404 `object_not_found` for a zone
// or record the account does not have, 422 `validation_failed` with its per-field errors, 429).
//
// One record per address, each its own id: a name holds several A/AAAA records, each put or deleted
// by id (as lego's infomaniak provider deletes one record of a name).
//
// Sources: developer.infomaniak.com/docs/api (DNS zones records: GET/POST /2/zones/{zone}/records,
// PUT and DELETE /2/zones/{zone}/records/{record}; a TXT record's target is its text);
// libdns/infomaniak client.go + types.go (v2 paths, record fields, `@` for the apex, `with=` detail); go-acme/lego providers/dns/infomaniak/internal (v2
// client, error and record fixtures). Infomaniak publishes no machine-readable description here.
//
// Quirk switch: `foreignZoneStatus` (what a name that is no zone of the account answers: 404
// `object_not_found`, or 403 / 422 — UNSURE: the documentation does not say which, and clients differ
// in what they tolerate). Faults: `{status, code, description, retryAfter, envelopeOnly}` (with
// `envelopeOnly`, a 200 whose envelope says "error", as lego checks for), "malformed", "html".

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

export const INFOMANIAK_FAKE_TOKEN = "infomaniak-fake-token-0123456789abcdef";
const INFOMANIAK_MIN_TTL = 60;

export interface InfomaniakRecord {
  id: number;
  source: string;
  source_idn: string;
  type: string;
  target: string;
  ttl: number;
  updated_at: number;
}

export type InfomaniakFault =
  | { status: number; code?: string; description?: string; retryAfter?: number; envelopeOnly?: boolean }
  | "malformed"
  | "html";

export interface InfomaniakFake extends FakeServer<InfomaniakFault> {
  tokens: Set<string>;
  /** Zone name → its records. */
  zones: Map<string, InfomaniakRecord[]>;
  /** What a name that is no zone of the account answers (404 unless a test says otherwise). */
  foreignZoneStatus: 404 | 403 | 422;
  addZone(zone: string): void;
  /** `source` relative to the zone, `@` for the apex. */
  addRecord(zone: string, record: { source: string; type: string; target: string; ttl?: number }): InfomaniakRecord;
  records(zone: string, source: string, type: string): InfomaniakRecord[];
  reset(): void;
}

const DEFAULT_DESCRIPTIONS: Record<number, { code: string; description: string }> = {
  401: { code: "not_authorized", description: "Authorization required" },
  403: { code: "forbidden", description: "Access denied" },
  404: { code: "object_not_found", description: "Object not found" },
  429: { code: "too_many_requests", description: "Too many requests" },
  500: { code: "internal_error", description: "Internal server error" },
  503: { code: "service_unavailable", description: "Service unavailable" },
};

export function startInfomaniakFake(options: { tokens?: string[] } = {}): InfomaniakFake {
  const initialTokens = options.tokens ?? [INFOMANIAK_FAKE_TOKEN];
  const tokens = new Set(initialTokens);
  const zones = new Map<string, InfomaniakRecord[]>();
  let nextId = 1000;

  function addRecord(
    zone: string,
    init: { source: string; type: string; target: string; ttl?: number },
  ): InfomaniakRecord {
    const records = zones.get(zone);
    if (!records) throw new Error(`fake Infomaniak: no zone ${zone}`);
    const record: InfomaniakRecord = {
      id: nextId++,
      source: init.source,
      source_idn: init.source === "@" ? zone : `${init.source}.${zone}`,
      type: init.type,
      target: init.target,
      ttl: init.ttl ?? 3600,
      updated_at: 1_700_000_000,
    };
    records.push(record);
    return record;
  }

  function validate(type: string, fields: Record<string, unknown>): { code: string; description: string }[] {
    const problems: { code: string; description: string }[] = [];
    if (typeof fields.source !== "string")
      problems.push({ code: "attribute_required", description: "The source attribute is required" });
    const target = fields.target;
    if (typeof target !== "string")
      problems.push({ code: "attribute_required", description: "The target attribute is required" });
    else if ((type === "A" && !isIPv4(target)) || (type === "AAAA" && !isIPv6(target))) {
      problems.push({
        code: "attribute_invalid",
        description: `The target attribute must be a valid ${type === "A" ? "IPv4" : "IPv6"} address`,
      });
    }
    if (
      fields.ttl !== undefined &&
      (typeof fields.ttl !== "number" || !Number.isInteger(fields.ttl) || fields.ttl < INFOMANIAK_MIN_TTL)
    ) {
      problems.push({
        code: "attribute_min_value",
        description: `The ttl attribute must be at least ${INFOMANIAK_MIN_TTL}`,
      });
    }
    return problems;
  }

  function route(request: LoggedRequest): Response {
    const auth = request.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || !tokens.has(auth.slice("Bearer ".length))) return error(401);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "2" || segments[1] !== "zones" || segments[3] !== "records" || segments.length > 5)
      return error(404);
    const zone = segments[2] ?? "";
    const records = zones.get(zone);
    if (!records) {
      if (fake.foreignZoneStatus === 422)
        return invalid([{ code: "attribute_invalid", description: "The zone attribute is invalid" }]);
      return error(fake.foreignZoneStatus);
    }

    if (segments.length === 4) {
      if (request.method === "GET") return success(records);
      if (request.method !== "POST") return error(405);
      const fields = isRecordBody(request.body) ? request.body : {};
      const type = typeof fields.type === "string" ? fields.type : "";
      const problems = validate(type, fields);
      if (type === "") problems.push({ code: "attribute_required", description: "The type attribute is required" });
      if (problems.length > 0) return invalid(problems);
      const created = addRecord(zone, {
        source: fields.source as string,
        type,
        target: fields.target as string,
        ttl: (fields.ttl as number | undefined) ?? 3600,
      });
      return success(created);
    }

    const record = records.find((r) => String(r.id) === segments[4]);
    if (!record) return error(404);
    if (request.method === "GET") return success(record);
    if (request.method === "DELETE") {
      records.splice(records.indexOf(record), 1);
      return success(true);
    }
    if (request.method !== "PUT") return error(405);
    const fields = isRecordBody(request.body) ? request.body : {};
    const problems = validate(record.type, { source: record.source, ...fields });
    if (problems.length > 0) return invalid(problems);
    // A PUT changes the fields it is sent; changed in place, so a test holding the record sees it.
    if (typeof fields.target === "string") record.target = fields.target;
    if (typeof fields.ttl === "number") record.ttl = fields.ttl;
    record.updated_at++;
    return success(record);
  }

  const server = startFakeServer<InfomaniakFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const known = DEFAULT_DESCRIPTIONS[mode.status] ?? { code: "error", description: "Error" };
      const body = {
        result: "error",
        error: { code: mode.code ?? known.code, description: mode.description ?? known.description },
      };
      return json(mode.envelopeOnly ? 200 : mode.status, body, retryAfterHeader(mode.retryAfter));
    },
  });

  const fake: InfomaniakFake = Object.assign(server, {
    tokens,
    zones,
    foreignZoneStatus: 404 as 404 | 403 | 422,
    addZone: (zone: string) => void zones.set(zone, []),
    addRecord,
    records: (zone: string, source: string, type: string) =>
      zones.get(zone)?.filter((r) => r.source === source && r.type === type) ?? [],
    reset() {
      zones.clear();
      fake.foreignZoneStatus = 404;
      tokens.clear();
      for (const token of initialTokens) tokens.add(token);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function isRecordBody(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

function success(data: unknown): Response {
  return json(200, { result: "success", data });
}

function error(status: number): Response {
  const known = DEFAULT_DESCRIPTIONS[status] ?? { code: "method_not_allowed", description: "Method not allowed" };
  return json(status, { result: "error", error: known });
}

function invalid(errors: { code: string; description: string }[]): Response {
  return json(422, { result: "error", error: { code: "validation_failed", description: "Validation failed", errors } });
}
