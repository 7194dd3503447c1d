// A faithful stand-in for the bunny.net API's DNS zones: the `AccessKey` header, zones listed a page
// at a time (`{Items, CurrentPage, TotalItems, HasMoreItems}`, `perPage` 5–1000) each with all its
// records, `GET /dnszone/{id}` answering the zone with its records, numeric record types (0 = A,
// 1 = AAAA), names relative to the zone (`""` for the apex), `PUT /dnszone/{id}/records` adding a
// record (201 with it), `POST /dnszone/{id}/records/{record}` updating one (204; what it is not sent
// stays, UNSURE: not documented), `DELETE /dnszone/{id}/records/{record}` (204), several records of
// one name and type, TXT records (type 3, the text as sent), and bunny.net's `{"ErrorKey", "Field",
// "Message"}` answers.
//
// Checked against bunny.net's own OpenAPI description (the Core Platform API's public.json, trimmed in
// test/conformance/descriptions/bunny.json): a field a record does not have (its models allow no
// other), a record type number it does not list, a `perPage` outside 5–1000, a zone or record id that
// is not a number, an unknown query parameter is refused (400, bunny.net's `ErrorKey`) and recorded.
// Sources: docs.bunny.net/api-reference/core/dns-zone (list,
// get, add record, update record, errors); libdns/bunny client.go.

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
const DESCRIPTION = openApiDescription("bunny", {
  title: "bunny.net OpenAPI",
  apiRoot: "/",
  refuse: (_request, problems) => error(400, "validation_error", problems.join("; ")),
});

export const BUNNY_FAKE_API_KEY = "bunny-fake-0123-4567-89ab-cdef01234567-0123-4567";

export interface BunnyRecord {
  Id: number;
  Type: number;
  Ttl: number;
  Value: string;
  Name: string;
  Weight: number;
  Priority: number;
  Comment: string | null;
  Disabled: boolean;
  SmartRoutingType: number;
}

export interface BunnyZone {
  Id: number;
  Domain: string;
  Records: BunnyRecord[];
}

/**
 * `{status}` answers with bunny.net's error body for that status (`message` replaces its words,
 * `retryAfter` adds the header); `"malformed"` is a 200 with broken JSON; `"html"` a 502 page.
 */
export type BunnyFault =
  | { status: number; message?: string; errorKey?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface BunnyFake extends FakeServer<BunnyFault> {
  /** Keys that authenticate; delete one to revoke it mid-test. */
  keys: Set<string>;
  zones: Map<number, BunnyZone>;
  addZone(domain: string): BunnyZone;
  /** `name` relative to the zone, `""` for the apex; `type` "A" or "AAAA". */
  addRecord(
    domain: string,
    record: { name: string; type: string; value: string; ttl?: number; comment?: string },
  ): BunnyRecord;
  zone(domain: string): BunnyZone | undefined;
  record(domain: string, name: string, type: string): BunnyRecord | undefined;
  /** Every record of the name (relative, `""` for the apex) and type. */
  recordsNamed(domain: string, name: string, type: string): BunnyRecord[];
  reset(): void;
}

const TYPES: Record<string, number> = { A: 0, AAAA: 1, TXT: 3 };

export function startBunnyFake(): BunnyFake {
  const keys = new Set([BUNNY_FAKE_API_KEY]);
  const zones = new Map<number, BunnyZone>();
  let nextId = 5000;

  const byDomain = (domain: string) => [...zones.values()].find((z) => z.Domain === domain);

  function addRecord(
    domain: string,
    init: { name: string; type: string; value: string; ttl?: number; comment?: string },
  ): BunnyRecord {
    const zone = byDomain(domain);
    if (!zone) throw new Error(`fake Bunny: no zone ${domain}`);
    const record: BunnyRecord = {
      Id: ++nextId,
      Type: TYPES[init.type] ?? 3,
      Ttl: init.ttl ?? 300,
      Value: init.value,
      Name: init.name,
      Weight: 100,
      Priority: 0,
      Comment: init.comment ?? null,
      Disabled: false,
      SmartRoutingType: 0,
    };
    zone.Records.push(record);
    return record;
  }

  const zoneJson = (zone: BunnyZone) => ({
    ...zone,
    Nameserver1: "kiki.bunny.net",
    Nameserver2: "coco.bunny.net",
    DnsSecEnabled: false,
  });

  function route(request: LoggedRequest): Response {
    if (!keys.has(request.headers.accesskey ?? ""))
      return json(401, { Message: "Authorization has been denied for this request." });
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "dnszone") return error(404, "not_found", "Not found");
    if (segments.length === 1) {
      if (request.method !== "GET") return error(405, "method_not_allowed", "Method not allowed");
      const perPage = request.query.perPage === undefined ? 1000 : Number(request.query.perPage);
      if (!Number.isInteger(perPage) || perPage < 5 || perPage > 1000)
        return error(400, "validation_error", "perPage must be between 5 and 1000", "perPage");
      const page = request.query.page === undefined ? 1 : Number(request.query.page);
      const all = [...zones.values()].map(zoneJson);
      const items = all.slice((page - 1) * perPage, page * perPage);
      return json(200, {
        Items: items,
        CurrentPage: page,
        TotalItems: all.length,
        HasMoreItems: page * perPage < all.length,
      });
    }
    const zone = zones.get(Number(segments[1]));
    if (!zone) return error(404, "dnszone.zone.not_found", "The requested DNS zone was not found", "Id");
    if (segments.length === 2)
      return request.method === "GET"
        ? json(200, zoneJson(zone))
        : error(405, "method_not_allowed", "Method not allowed");
    if (segments[2] !== "records" || segments.length > 4) return error(404, "not_found", "Not found");

    const fields =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
    if (segments.length === 3) {
      if (request.method !== "PUT") return error(405, "method_not_allowed", "Method not allowed");
      const type = Object.entries(TYPES).find(([, n]) => n === fields.Type)?.[0];
      if (type === undefined)
        return error(400, "validation_error", "The record type is not supported by this fake", "Type");
      const invalid = checkValue(type, fields.Value) ?? checkTtl(fields.Ttl);
      if (invalid) return invalid;
      const record = addRecord(zone.Domain, {
        name: typeof fields.Name === "string" ? fields.Name : "",
        type,
        value: fields.Value as string,
        ttl: fields.Ttl as number | undefined,
      });
      return json(201, record);
    }

    const record = zone.Records.find((r) => r.Id === Number(segments[3]));
    if (!record) return error(404, "dnszone.record.not_found", "The requested DNS record was not found", "Id");
    if (request.method === "DELETE") {
      zone.Records = zone.Records.filter((r) => r !== record);
      return new Response(null, { status: 204 });
    }
    if (request.method !== "POST") return error(405, "method_not_allowed", "Method not allowed");
    const type = Object.entries(TYPES).find(([, n]) => n === record.Type)?.[0];
    const invalid = (fields.Value === undefined ? undefined : checkValue(type, fields.Value)) ?? checkTtl(fields.Ttl);
    if (invalid) return invalid;
    if (typeof fields.Value === "string") record.Value = fields.Value;
    if (typeof fields.Ttl === "number") record.Ttl = fields.Ttl;
    if (typeof fields.Name === "string") record.Name = fields.Name;
    if (typeof fields.Type === "number") record.Type = fields.Type;
    return new Response(null, { status: 204 });
  }

  const server = startFakeServer<BunnyFault>({
    prefix: "",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const headers = retryAfterHeader(mode.retryAfter);
      if (mode.status === 401)
        return json(401, { Message: mode.message ?? "Authorization has been denied for this request." }, headers);
      return error(
        mode.status,
        mode.errorKey ?? `error_${mode.status}`,
        mode.message ?? (mode.status === 429 ? "Too many requests" : "Something went wrong"),
        undefined,
        headers,
      );
    },
  });

  const fake: BunnyFake = Object.assign(server, {
    keys,
    zones,
    addZone(domain: string) {
      const zone: BunnyZone = { Id: ++nextId, Domain: domain, Records: [] };
      zones.set(zone.Id, zone);
      return zone;
    },
    addRecord,
    zone: byDomain,
    record: (domain: string, name: string, type: string) =>
      byDomain(domain)?.Records.find((r) => r.Name === name && r.Type === TYPES[type]),
    recordsNamed: (domain: string, name: string, type: string) =>
      (byDomain(domain)?.Records ?? []).filter((r) => r.Name === name && r.Type === TYPES[type]),
    reset() {
      zones.clear();
      keys.clear();
      keys.add(BUNNY_FAKE_API_KEY);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function checkValue(type: string | undefined, value: unknown): Response | undefined {
  if (type === "TXT")
    return typeof value === "string" && value !== ""
      ? undefined
      : error(400, "validation_error", "The value is required", "Value");
  if (typeof value !== "string" || (type === "A" && !isIPv4(value)) || (type === "AAAA" && !isIPv6(value))) {
    return error(
      400,
      "validation_error",
      `The value is not a valid ${type === "A" ? "IPv4" : "IPv6"} address`,
      "Value",
    );
  }
  return undefined;
}

function checkTtl(ttl: unknown): Response | undefined {
  if (ttl === undefined) return undefined;
  return typeof ttl === "number" && Number.isInteger(ttl) && ttl >= 0
    ? undefined
    : error(400, "validation_error", "The TTL is not valid", "Ttl");
}

function error(
  status: number,
  errorKey: string,
  message: string,
  field?: string,
  headers: Record<string, string> = {},
): Response {
  return json(status, { ErrorKey: errorKey, Field: field ?? "", Message: message }, headers);
}
