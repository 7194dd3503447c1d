// A faithful stand-in for the Cloudflare API v4 (docs/services/cloudflare.md): token check, zones and DNS records
// with the real envelope, validation and error codes, so client tests catch what the service would.
//
// Checked against Cloudflare's own OpenAPI description (test/conformance/descriptions/cloudflare.json):
// every request is validated and a forbidden one refused (400, code 9207) and recorded (server.ts).
//
// Quirk switches: zones in any status (`addZone(name, "pending")`: Cloudflare lists a pending zone
// too, and a client must skip it), `tokens` (revoke mid-test), faults `{status, retryAfter, code,
// message}` (429 code 971 with a Retry-After of any length), "malformed", "html".

import { isIPv4, isIPv6 } from "node:net";
import { openApiDescription } from "./descriptions";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

/** The service's own published description, checked against every request (compiled once, at import, so no request waits for it). */
const DESCRIPTION = openApiDescription("cloudflare", {
  title: "Cloudflare OpenAPI",
  apiRoot: "/client/v4",
  // Cloudflare's answer to a request its schema refuses: 400 with its validation error (an address
  // the record type cannot hold gets its own code, as at Cloudflare).
  refuse: (request, problems) => {
    const type = (request.body as { type?: unknown } | undefined)?.type;
    if ((type === "A" || type === "AAAA") && problems.some((p) => p.startsWith("body/content must match format"))) {
      return failure(400, 9005, contentError(type));
    }
    return failure(400, 9207, `Request body is invalid. ${problems.join("; ")}`);
  },
  // The vendored snapshot (2024) reuses the full record schema for PATCH, so it requires type, name
  // and content of a partial update; the API takes a PATCH of the changed fields alone, and so does
  // this fake. Types, formats and enums of what is sent are still checked. It also requires the
  // record's `id` of a create, without marking it readOnly as it does created_on and modified_on.
  leniency: { partialPatch: true, assigned: ["id"] },
});

export const CLOUDFLARE_FAKE_TOKEN = "cf-fake-token-0123456789abcdef";

export interface CloudflareZone {
  id: string;
  name: string;
  status: string;
  paused: boolean;
  type: string;
  account: { id: string; name: string };
  owner: { id: string; name: string; type: string };
  meta: Record<string, unknown>;
  development_mode: number;
  name_servers: string[];
  original_name_servers: string[] | null;
  original_registrar: string | null;
  original_dnshost: string | null;
  created_on: string;
  modified_on: string;
  /** null while the zone is pending. */
  activated_on: string | null;
}

export interface CloudflareRecord {
  id: string;
  type: string;
  name: string;
  content: string;
  proxiable: boolean;
  proxied: boolean;
  ttl: number;
  comment: string | null;
  tags: string[];
  created_on: string;
  modified_on: string;
}

export interface NewCloudflareRecord {
  type: string;
  /** Fully qualified, or relative to the zone ("@" for the apex). */
  name: string;
  content: string;
  proxied?: boolean;
  ttl?: number;
  comment?: string | null;
  tags?: string[];
}

/**
 * `{status}` answers with Cloudflare's error envelope (429 → code 971 and, with `retryAfter`, a
 * `retry-after` header); `"malformed"` is a 200 with broken JSON; `"html"` a 502 HTML page from the edge.
 */
export type CloudflareFault =
  | { status: number; retryAfter?: number; code?: number; message?: string }
  | "malformed"
  | "html";

export interface CloudflareFake extends FakeServer<CloudflareFault> {
  /** Tokens that authenticate; add or delete to revoke mid-test. */
  tokens: Set<string>;
  /** By id. Zone fields may be changed in place (e.g. `status`). */
  zones: Map<string, CloudflareZone>;
  /** By id. `content`, `ttl`, `proxied`, `comment`, `tags` may be changed in place; name and type only via the API. */
  records: Map<string, CloudflareRecord>;
  addZone(name: string, status?: string): CloudflareZone;
  /** Adds to the active zone of that name (or the first zone of that name). */
  addRecord(zoneName: string, record: NewCloudflareRecord): CloudflareRecord;
  /** The first record with this fully qualified name and type, in any zone. */
  record(name: string, type: string): CloudflareRecord | undefined;
  /** Back to a fresh fake on the same port: no zones or records, the initial tokens, no faults or logged requests. */
  reset(): void;
}

const ID_FORMAT = /^[0-9a-f]{32}$/;
const RECORD_TYPES = new Set(["A", "AAAA", "CNAME", "TXT", "MX", "NS", "CAA", "SRV"]);
const PROXIABLE_TYPES = new Set(["A", "AAAA", "CNAME"]);
const ACCOUNT = { id: "0123456789abcdef0123456789abcdef", name: "Fake Account" };

export function startCloudflareFake(options: { tokens?: string[] } = {}): CloudflareFake {
  const tokens = new Set(options.tokens ?? [CLOUDFLARE_FAKE_TOKEN]);
  const zones = new Map<string, CloudflareZone>();
  const zonesByName = new Map<string, CloudflareZone[]>();
  const records = new Map<string, CloudflareRecord>();
  const zoneOfRecord = new Map<string, string>();
  const recordsOfZone = new Map<string, Set<string>>();
  // Name+type → record ids: keeps lookups constant-time for the 1,000-domain benchmark.
  const recordsByKey = new Map<string, Set<string>>();

  const key = (name: string, type: string) => `${name}|${type}`;

  function index(record: CloudflareRecord, zoneId: string): void {
    records.set(record.id, record);
    zoneOfRecord.set(record.id, zoneId);
    recordsOfZone.get(zoneId)?.add(record.id);
    const ids = recordsByKey.get(key(record.name, record.type)) ?? new Set<string>();
    ids.add(record.id);
    recordsByKey.set(key(record.name, record.type), ids);
  }

  function unindex(record: CloudflareRecord): void {
    records.delete(record.id);
    recordsOfZone.get(zoneOfRecord.get(record.id) ?? "")?.delete(record.id);
    zoneOfRecord.delete(record.id);
    recordsByKey.get(key(record.name, record.type))?.delete(record.id);
  }

  function recordsNamed(name: string, type: string): CloudflareRecord[] {
    return [...(recordsByKey.get(key(name, type)) ?? [])].flatMap((id) => records.get(id) ?? []);
  }

  function addZone(name: string, status = "active"): CloudflareZone {
    const now = new Date().toISOString();
    const zone: CloudflareZone = {
      id: newId(),
      name: name.toLowerCase(),
      status,
      paused: false,
      type: "full",
      account: ACCOUNT,
      owner: { id: ACCOUNT.id, name: ACCOUNT.name, type: "organization" },
      meta: { step: 2, custom_certificate_quota: 0, page_rule_quota: 3, phishing_detected: false },
      development_mode: 0,
      name_servers: ["ada.ns.cloudflare.com", "bob.ns.cloudflare.com"],
      original_name_servers: null,
      original_registrar: null,
      original_dnshost: null,
      created_on: now,
      modified_on: now,
      activated_on: status === "active" ? now : null,
    };
    zones.set(zone.id, zone);
    zonesByName.set(zone.name, [...(zonesByName.get(zone.name) ?? []), zone]);
    recordsOfZone.set(zone.id, new Set());
    return zone;
  }

  function addRecord(zoneName: string, init: NewCloudflareRecord): CloudflareRecord {
    const candidates = zonesByName.get(zoneName.toLowerCase()) ?? [];
    const zone = candidates.find((z) => z.status === "active") ?? candidates[0];
    if (!zone) throw new Error(`fake Cloudflare: no zone ${zoneName}`);
    const now = new Date().toISOString();
    const record: CloudflareRecord = {
      id: newId(),
      type: init.type,
      name: fullName(init.name, zone.name),
      content: init.content,
      proxiable: PROXIABLE_TYPES.has(init.type),
      proxied: init.proxied ?? false,
      ttl: init.ttl ?? 1,
      comment: init.comment ?? null,
      tags: init.tags ?? [],
      created_on: now,
      modified_on: now,
    };
    index(record, zone.id);
    return record;
  }

  /** Applies a create (no `base`), a PATCH (`partial`) or a PUT body, or says why Cloudflare would refuse it. */
  function change(
    zone: CloudflareZone,
    base: CloudflareRecord | undefined,
    body: unknown,
    partial: boolean,
  ): CloudflareRecord | Response {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return failure(400, 9207, "Request body is invalid.");
    }
    const fields = body as Record<string, unknown>;
    if (!partial) {
      for (const field of ["type", "name", "content"]) {
        if (fields[field] === undefined) return failure(400, 1004, `DNS Validation Error: ${field} is required`);
      }
    }
    const now = new Date().toISOString();
    // PUT replaces the record, so what it omits falls back to the defaults of a new record.
    const start: CloudflareRecord =
      partial && base
        ? { ...base }
        : {
            id: base?.id ?? newId(),
            type: "",
            name: "",
            content: "",
            proxiable: false,
            proxied: false,
            ttl: 1,
            comment: null,
            tags: [],
            created_on: base?.created_on ?? now,
            modified_on: now,
          };
    const next: CloudflareRecord = { ...start, modified_on: now };
    if (fields.type !== undefined) {
      if (typeof fields.type !== "string" || !RECORD_TYPES.has(fields.type)) {
        return failure(400, 1004, "DNS Validation Error: invalid record type");
      }
      next.type = fields.type;
    }
    if (fields.name !== undefined) {
      if (typeof fields.name !== "string" || fields.name.trim() === "") {
        return failure(400, 9000, "DNS name is invalid.");
      }
      next.name = fullName(fields.name, zone.name);
    }
    if (fields.content !== undefined) {
      if (typeof fields.content !== "string") return failure(400, 9005, contentError(next.type));
      next.content = fields.content;
    }
    if ((next.type === "A" && !isIPv4(next.content)) || (next.type === "AAAA" && !isIPv6(next.content))) {
      return failure(400, 9005, contentError(next.type));
    }
    if (fields.ttl !== undefined) {
      const ttl = fields.ttl;
      if (typeof ttl !== "number" || !Number.isInteger(ttl) || (ttl !== 1 && (ttl < 60 || ttl > 86400))) {
        return failure(400, 9021, "Invalid TTL. Must be between 60 and 86400 seconds, or 1 for Automatic.");
      }
      next.ttl = ttl;
    }
    next.proxiable = PROXIABLE_TYPES.has(next.type);
    if (fields.proxied !== undefined) {
      if (typeof fields.proxied !== "boolean") return failure(400, 9003, "Invalid 'proxied' value, must be a boolean");
      next.proxied = fields.proxied;
    }
    if (next.proxied && !next.proxiable) return failure(400, 9004, "This record type cannot be proxied.");
    if (fields.comment !== undefined) {
      if (fields.comment !== null && typeof fields.comment !== "string") {
        return failure(400, 1004, "DNS Validation Error: comment must be a string");
      }
      next.comment = fields.comment;
    }
    if (fields.tags !== undefined) {
      if (!Array.isArray(fields.tags) || !fields.tags.every((t) => typeof t === "string")) {
        return failure(400, 1004, "DNS Validation Error: tags must be a list of strings");
      }
      next.tags = fields.tags;
    }
    const others = recordsNamed(next.name, next.type).filter((r) => r.id !== next.id);
    if (others.some((r) => r.content === next.content))
      return failure(400, 81058, "An identical record already exists.");
    // Several A (or AAAA) records of one name, as at Cloudflare: a round-robin set is one record per
    // address, and an ACME challenge is a TXT record beside the name's other values. A client that
    // creates a second record instead of updating the first shows as two records, which the tests count.
    return next;
  }

  function route(request: LoggedRequest): Response {
    const authorization = request.headers.authorization;
    if (authorization === undefined) {
      return failure(400, 9106, "Missing X-Auth-Key, X-Auth-Email or Authorization headers");
    }
    const bearer = /^Bearer ([^\s]+)$/.exec(authorization);
    if (!bearer) return failure(400, 6003, "Invalid request headers");
    const authorized = tokens.has(bearer[1] ?? "");
    const segments = request.path.split("/").filter(Boolean);
    const { method } = request;

    if (request.path === "/user/tokens/verify" && method === "GET") {
      if (!authorized) return failure(401, 1000, "Invalid API Token");
      return json(200, {
        success: true,
        errors: [],
        messages: [{ code: 10000, message: "This API Token is valid and active", type: null }],
        result: {
          id: Bun.hash(bearer[1] ?? "")
            .toString(16)
            .padStart(16, "0"),
          status: "active",
        },
      });
    }
    if (segments[0] !== "zones") return failure(404, 7000, "No route for that URI");
    if (!authorized) return failure(403, 9109, "Invalid access token");

    if (segments.length === 1) {
      if (method !== "GET") return failure(405, 10405, "Method not allowed");
      const wanted = request.query.name?.toLowerCase();
      const status = request.query.status;
      const matching = (wanted === undefined ? [...zones.values()] : (zonesByName.get(wanted) ?? [])).filter(
        (z) => status === undefined || z.status === status,
      );
      return list(matching, request.query, 20, 50);
    }

    const zone = zones.get(segments[1] ?? "");
    if (!zone) return unroutable(request.path);
    if (segments.length === 2) return method === "GET" ? ok(zone) : failure(405, 10405, "Method not allowed");
    if (segments[2] !== "dns_records" || segments.length > 4) return failure(404, 7000, "No route for that URI");

    if (segments.length === 3) {
      if (method === "GET") {
        const { type, content } = request.query;
        const name = request.query.name ?? request.query["name.exact"];
        const inZone =
          name !== undefined && type !== undefined
            ? recordsNamed(fullName(name, zone.name), type)
            : [...(recordsOfZone.get(zone.id) ?? [])].flatMap((id) => records.get(id) ?? []);
        const matching = inZone.filter(
          (r) =>
            zoneOfRecord.get(r.id) === zone.id &&
            (type === undefined || r.type === type) &&
            (name === undefined || r.name === fullName(name, zone.name)) &&
            (content === undefined || r.content === content),
        );
        return list(matching.map(shown), request.query, 100, 5000);
      }
      if (method === "POST") {
        const created = change(zone, undefined, request.body, false);
        if (created instanceof Response) return created;
        index(created, zone.id);
        return ok(shown(created));
      }
      return failure(405, 10405, "Method not allowed");
    }

    const recordId = segments[3] ?? "";
    if (!ID_FORMAT.test(recordId)) return unroutable(request.path);
    const existing = records.get(recordId);
    if (!existing || zoneOfRecord.get(recordId) !== zone.id) return failure(404, 81044, "Record does not exist.");
    switch (method) {
      case "GET":
        return ok(shown(existing));
      case "DELETE":
        unindex(existing);
        return ok({ id: existing.id });
      case "PATCH":
      case "PUT": {
        const changed = change(zone, existing, request.body, method === "PATCH");
        if (changed instanceof Response) return changed;
        // Changed in place, so a test holding the record object sees what the API did to it.
        unindex(existing);
        index(Object.assign(existing, changed), zone.id);
        return ok(shown(existing));
      }
      default:
        return failure(405, 10405, "Method not allowed");
    }
  }

  const server = startFakeServer<CloudflareFault>({
    prefix: "/client/v4",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const code = mode.code ?? (mode.status === 429 ? 971 : mode.status);
      const message =
        mode.message ??
        (mode.status === 429 ? "Please wait and consider throttling your request speed" : "Internal Server Error");
      const headers: Record<string, string> =
        mode.retryAfter === undefined ? {} : { "retry-after": String(mode.retryAfter) };
      return failure(mode.status, code, message, headers);
    },
  });

  const initialTokens = [...tokens];
  return Object.assign(server, {
    tokens,
    zones,
    records,
    addZone,
    addRecord,
    record: (name: string, type: string) => recordsNamed(name.toLowerCase(), type)[0],
    reset() {
      for (const map of [zones, zonesByName, records, zoneOfRecord, recordsOfZone, recordsByKey]) map.clear();
      tokens.clear();
      for (const token of initialTokens) tokens.add(token);
      server.clearFaults();
      server.clearRequests();
    },
  });
}

/** A record as the API shows it: its description types `comment` as a string, so a record without one has none. */
function shown(record: CloudflareRecord): Omit<CloudflareRecord, "comment"> & { comment?: string } {
  const { comment, ...rest } = record;
  return comment === null ? rest : { ...rest, comment };
}

function newId(): string {
  return crypto.randomUUID().replaceAll("-", "");
}

/** Cloudflare stores names fully qualified and lowercase; a name outside the zone is taken as relative to it. */
function fullName(name: string, zoneName: string): string {
  const bare = name.trim().toLowerCase().replace(/\.$/, "");
  if (bare === "@" || bare === zoneName) return zoneName;
  return bare.endsWith(`.${zoneName}`) ? bare : `${bare}.${zoneName}`;
}

function contentError(type: string): string {
  return `Content for ${type} record must be a valid ${type === "AAAA" ? "IPv6" : "IPv4"} address.`;
}

function ok(result: unknown): Response {
  return json(200, { success: true, errors: [], messages: [], result });
}

function failure(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { success: false, errors: [{ code, message }], messages: [], result: null }, headers);
}

function unroutable(path: string): Response {
  return failure(400, 7003, `Could not route to ${path}, perhaps your object identifier is invalid?`);
}

function list<T>(items: T[], query: Record<string, string>, defaultPerPage: number, maxPerPage: number): Response {
  const perPage = Math.min(Math.max(Number(query.per_page) || defaultPerPage, 5), maxPerPage);
  const page = Math.max(Number(query.page) || 1, 1);
  const result = items.slice((page - 1) * perPage, page * perPage);
  return json(200, {
    success: true,
    errors: [],
    messages: [],
    result,
    result_info: {
      page,
      per_page: perPage,
      count: result.length,
      total_count: items.length,
      total_pages: Math.max(Math.ceil(items.length / perPage), 1),
    },
  });
}
