// A faithful stand-in for DNSimple API v2's zones and zone records: everything under the account
// (`/{account}/...`), zones named by themselves in paths (ids work too), listings a page at a time
// (`pagination: {current_page, per_page, total_entries, total_pages}`, `per_page` up to 100), the
// records' `name` (exact, relative, `""` for the apex) and `type` filters, a PATCH that changes only
// what it is sent (200 `{data}`), a POST answering 201 `{data}`, a DELETE answering 204, several
// records of one name (an address set, TXT values, each its own record; a bare TXT text kept in
// quotes, as DNSimple does, or as sent), secondary zones, account tokens that
// act only for their own account, and DNSimple's `{"message", "errors"?}` answers with the
// `X-RateLimit-*` headers on a 429.
//
// Checked against DNSimple's own OpenAPI description (dnsimple/dnsimple-developer
// content/v2/openapi.yml, trimmed in test/conformance/descriptions/dnsimple.json): an account id that
// is not a number, a field a record does not have, a record type it does not list, a negative TTL, an
// unknown query parameter is refused (400, DNSimple's `message`) and recorded.
//
// Sources: developer.dnsimple.com/v2 (authentication, zones, zone records, pagination, errors, rate
// limiting); libdns/dnsimple provider.go; dnsimple/dnsimple-go zones_records.go, zones.go. UNSURE: the
// status of an account token used for another account (modelled as 404 "Account not found").

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

/** The service's own published description, checked against every request (compiled once, at import, so no request waits for it). */
const DESCRIPTION = openApiDescription("dnsimple", {
  title: "DNSimple OpenAPI",
  apiRoot: "/v2",
  refuse: (_request, problems) => json(400, { message: `Validation failed: ${problems.join("; ")}` }),
  // The description names `page` and `per_page` on one listing only, while DNSimple's pagination
  // documentation gives them to every listing (zones and zone records among them).
  leniency: { pagingParameters: ["page", "per_page"] },
});

export const DNSIMPLE_FAKE_ACCOUNT = "1385";
export const DNSIMPLE_FAKE_TOKEN = "dnsimpleaccounttoken0123456789abcdef";

export interface DnsimpleRecord {
  id: number;
  zone_id: string;
  parent_id: number | null;
  name: string;
  content: string;
  ttl: number;
  priority: number | null;
  type: string;
  regions: string[];
  system_record: boolean;
}

export interface DnsimpleZone {
  id: number;
  name: string;
  secondary: boolean;
  records: DnsimpleRecord[];
}

/**
 * `{status}` answers with DNSimple's error body for that status (`message` replaces its words,
 * `retryAfter` adds the header, a 429 names its window's end in `X-RateLimit-Reset`, `resetInSeconds`
 * from now, unless `reset` is false); `"malformed"` is a 200 with broken JSON; `"html"` a 502 page.
 */
export type DnsimpleFault =
  | { status: number; message?: string; retryAfter?: number; resetInSeconds?: number; reset?: false }
  | "malformed"
  | "html";

export interface DnsimpleFake extends FakeServer<DnsimpleFault> {
  /** Token → the account it acts for; delete one to revoke it mid-test. */
  tokens: Map<string, string>;
  zones: Map<string, DnsimpleZone>;
  addZone(name: string, options?: { secondary?: boolean }): DnsimpleZone;
  /** `name` relative to the zone, `""` for the apex. */
  addRecord(zone: string, record: { name: string; type: string; content: string; ttl?: number }): DnsimpleRecord;
  record(zone: string, name: string, type: string): DnsimpleRecord | undefined;
  /** Whether a TXT text sent bare is kept in double quotes, as DNSimple does now (true again after reset). */
  quotesTxt: boolean;
  reset(): void;
}

/** Every zone and record answered was created and last changed at this moment (the description requires both). */
const TIMESTAMPS = { created_at: "2026-01-05T09:00:00Z", updated_at: "2026-01-05T09:00:00Z" };

const MESSAGES: Record<number, string> = {
  401: "Authentication failed",
  403: "Permission Denied",
  404: "Not found",
  405: "Method not allowed",
  429: "API rate limit exceeded",
  500: "Internal server error",
  503: "Service unavailable",
};

export function startDnsimpleFake(): DnsimpleFake {
  const tokens = new Map([[DNSIMPLE_FAKE_TOKEN, DNSIMPLE_FAKE_ACCOUNT]]);
  const zones = new Map<string, DnsimpleZone>();
  let nextId = 100;

  function addRecord(
    zone: string,
    init: { name: string; type: string; content: string; ttl?: number },
  ): DnsimpleRecord {
    const held = zones.get(zone);
    if (!held) throw new Error(`fake DNSimple: no zone ${zone}`);
    const record: DnsimpleRecord = {
      id: ++nextId,
      zone_id: zone,
      parent_id: null,
      name: init.name,
      content: init.content,
      ttl: init.ttl ?? 3600,
      priority: null,
      type: init.type,
      regions: ["global"],
      system_record: false,
    };
    held.records.push(record);
    return record;
  }

  function page(request: LoggedRequest, items: unknown[]): Response {
    const perPage = request.query.per_page === undefined ? 30 : Number(request.query.per_page);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) return error(400, {}, "Invalid per_page value");
    const current = request.query.page === undefined ? 1 : Number(request.query.page);
    const totalPages = Math.max(1, Math.ceil(items.length / perPage));
    return json(200, {
      data: items.slice((current - 1) * perPage, current * perPage),
      pagination: { current_page: current, per_page: perPage, total_entries: items.length, total_pages: totalPages },
    });
  }

  const zoneJson = (zone: DnsimpleZone) => ({
    id: zone.id,
    account_id: Number(DNSIMPLE_FAKE_ACCOUNT),
    name: zone.name,
    reverse: false,
    secondary: zone.secondary,
    last_transferred_at: null,
    active: true,
    ...TIMESTAMPS,
  });
  const recordJson = (record: DnsimpleRecord) => ({ ...record, ...TIMESTAMPS });

  function route(request: LoggedRequest): Response {
    const auth = request.headers.authorization ?? "";
    const owner = auth.startsWith("Bearer ") ? tokens.get(auth.slice("Bearer ".length)) : undefined;
    if (owner === undefined) return error(401);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    const [account, collection] = segments;
    if (account !== owner) return error(404, {}, `Account \`${account}\` not found`);
    if (collection !== "zones") return error(404);
    if (segments.length === 2)
      return request.method === "GET" ? page(request, [...zones.values()].map(zoneJson)) : error(405);

    const key = segments[2] ?? "";
    const zone = zones.get(key) ?? [...zones.values()].find((z) => String(z.id) === key);
    if (!zone) return error(404, {}, `Zone \`${key}\` not found`);
    if (segments.length === 3) return request.method === "GET" ? json(200, { data: zoneJson(zone) }) : error(405);
    if (segments[3] !== "records" || segments.length > 5) return error(404);

    if (segments.length === 4) {
      if (request.method === "GET") {
        const { name, type } = request.query;
        return page(
          request,
          zone.records
            .filter((r) => (name === undefined || r.name === name) && (type === undefined || r.type === type))
            .map(recordJson),
        );
      }
      if (request.method !== "POST") return error(405);
      if (zone.secondary) return error(400, {}, "Records of a secondary zone cannot be changed");
      const fields = objectBody(request);
      if (fields.type !== "A" && fields.type !== "AAAA" && fields.type !== "TXT")
        return validation("type", "is not supported by this fake");
      const invalid = checkContent(fields.type, fields.content) ?? checkTtl(fields.ttl);
      if (invalid) return invalid;
      const content = fields.content as string;
      const record = addRecord(zone.name, {
        name: typeof fields.name === "string" ? fields.name : "",
        type: fields.type,
        content: fields.type === "TXT" && fake.quotesTxt && !content.startsWith('"') ? `"${content}"` : content,
        ttl: typeof fields.ttl === "number" ? fields.ttl : 3600,
      });
      return json(201, { data: recordJson(record) });
    }

    const record = zone.records.find((r) => r.id === Number(segments[4]));
    if (!record) return error(404, {}, "Record not found");
    if (request.method === "GET") return json(200, { data: recordJson(record) });
    if (request.method !== "PATCH" && request.method !== "DELETE") return error(405);
    if (zone.secondary) return error(400, {}, "Records of a secondary zone cannot be changed");
    if (request.method === "DELETE") {
      zone.records.splice(zone.records.indexOf(record), 1);
      return new Response(null, { status: 204 });
    }
    const fields = objectBody(request);
    const invalid =
      (fields.content === undefined ? undefined : checkContent(record.type, fields.content)) ?? checkTtl(fields.ttl);
    if (invalid) return invalid;
    // Only what is sent changes.
    if (typeof fields.content === "string") record.content = fields.content;
    if (typeof fields.ttl === "number") record.ttl = fields.ttl;
    if (typeof fields.name === "string") record.name = fields.name;
    return json(200, { data: recordJson(record) });
  }

  const server = startFakeServer<DnsimpleFault>({
    prefix: "/v2",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const headers: Record<string, string> = { ...retryAfterHeader(mode.retryAfter) };
      // A 429 says when the hourly window resets (Unix seconds), unless the test takes that away.
      if (mode.status === 429 && mode.reset !== false) {
        const reset = Math.ceil(Date.now() / 1000) + (mode.resetInSeconds ?? 1800);
        Object.assign(headers, {
          "X-RateLimit-Limit": "2400",
          "X-RateLimit-Remaining": "0",
          "X-RateLimit-Reset": String(reset),
        });
      }
      return error(mode.status, headers, mode.message);
    },
  });

  const fake: DnsimpleFake = Object.assign(server, {
    tokens,
    zones,
    addZone(name: string, options: { secondary?: boolean } = {}) {
      const zone: DnsimpleZone = { id: ++nextId, name, secondary: options.secondary ?? false, records: [] };
      zones.set(name, zone);
      return zone;
    },
    addRecord,
    quotesTxt: true,
    record: (zone: string, name: string, type: string) =>
      zones.get(zone)?.records.find((r) => r.name === name && r.type === type),
    reset() {
      zones.clear();
      tokens.clear();
      tokens.set(DNSIMPLE_FAKE_TOKEN, DNSIMPLE_FAKE_ACCOUNT);
      fake.quotesTxt = true;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function objectBody(request: LoggedRequest): Record<string, unknown> {
  return typeof request.body === "object" && request.body !== null && !Array.isArray(request.body)
    ? (request.body as Record<string, unknown>)
    : {};
}

function checkContent(type: unknown, content: unknown): Response | undefined {
  if (type === "TXT")
    return typeof content === "string" && content !== "" ? undefined : validation("content", "can't be blank");
  if (typeof content !== "string" || (type === "A" && !isIPv4(content)) || (type === "AAAA" && !isIPv6(content))) {
    return validation("content", `must be a valid ${type === "A" ? "IPv4" : "IPv6"} address`);
  }
  return undefined;
}

function checkTtl(ttl: unknown): Response | undefined {
  if (ttl === undefined) return undefined;
  return typeof ttl === "number" && Number.isInteger(ttl) && ttl >= 60
    ? undefined
    : validation("ttl", "must be greater than or equal to 60");
}

function error(status: number, headers: Record<string, string> = {}, message?: string): Response {
  return json(status, { message: message ?? MESSAGES[status] ?? "Error" }, headers);
}

function validation(field: string, words: string): Response {
  return json(400, { message: "Validation failed", errors: { [field]: [words] } });
}
