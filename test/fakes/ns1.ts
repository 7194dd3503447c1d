// A faithful stand-in for the NS1 (IBM NS1 Connect) REST API v1 as ddnsd uses it: `X-NSONE-Key` on
// every request (401 `{"message": "Unauthorized"}` otherwise; a key limited to some zones gets 403
// for the others); GET /zones (an array of zones, `{zone, id, ttl, secondary: {enabled}}`); records
// at /zones/{zone}/{domain}/{type} with the full domain name: GET (the record: `{id, zone, domain,
// type, ttl, answers: [{id, answer: [rdata], meta?, region?}], filters, meta, link, regions}`, or 404
// "record not found" / "zone not found"), POST changing only the fields sent (answers replaced as a
// list, new answers get new ids) and answering the record, PUT creating it (400 "record already
// exists" when it does; the zone's default TTL when none is sent); errors as `{"message": …}`;
// X-Ratelimit-Limit / -Remaining / -Period on every answer and 429 "rate limit exceeded".
//
// Switches: `zonesPerPage` (GET /zones pages behind `Link: <…>; rel="next"`, as ns1-go follows), faults `{status, message?, retryAfter?}`, `"malformed"`, `"html"`.
//
// A TXT record holds one answer per value, its rdata the text; a record is removed with a DELETE
// of its path (NS1 API reference, "Delete a record"; lego's ns1 provider deletes the TXT record).
//
// Sources: NS1 API reference (ns1.com/api: zones, records GET/PUT/POST/DELETE) and "API rate limiting"
// (help.ns1.com; ibm.com/docs/en/ns1-connect, api-rate-limiting: token buckets, e.g. 900 GETs or 300
// POSTs per 300 s); ns1/ns1-go rest/client.go (the headers, `{message}`), rest/record.go (the
// messages "record not found", "zone not found", "record already exists"), rest/model/dns/record.go,
// answer.go and zone.go; go-acme/lego providers/dns/ns1. UNSURE: the 429's words (modelled as
// "rate limit exceeded").

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

export const NS1_FAKE_KEY = "qACMD09OJXBxT7XOuRs8";
export const NS1_ZONE_DEFAULT_TTL = 3600;

export interface Ns1Answer {
  id: string;
  answer: string[];
  meta?: Record<string, unknown>;
  region?: string;
}

export interface Ns1Record {
  id: string;
  zone: string;
  domain: string;
  type: string;
  ttl: number;
  answers: Ns1Answer[];
  filters: unknown[];
  meta: Record<string, unknown>;
  link: string | null;
  regions: Record<string, unknown>;
  use_client_subnet: boolean;
  tier: number;
}

export type Ns1Fault = { status: number; message?: string; retryAfter?: number } | "malformed" | "html";

export interface Ns1Fake extends FakeServer<Ns1Fault> {
  /** Valid keys → the zones each may use (undefined: every zone). */
  keys: Map<string, Set<string> | undefined>;
  zones: Map<string, { secondary: boolean; records: Ns1Record[] }>;
  /** How many zones one page of GET /zones holds; more are behind `Link: <…>; rel="next"`. */
  zonesPerPage: number;
  addZone(name: string, options?: { secondary?: boolean }): void;
  addRecord(
    zone: string,
    record: {
      domain: string;
      type: string;
      answers: string[];
      ttl?: number;
      meta?: Record<string, unknown>;
      link?: string;
      filters?: unknown[];
    },
  ): Ns1Record;
  record(zone: string, domain: string, type: string): Ns1Record | undefined;
  reset(): void;
}

const RATE_HEADERS = { "X-Ratelimit-Limit": "900", "X-Ratelimit-Remaining": "899", "X-Ratelimit-Period": "300" };

export function startNs1Fake(): Ns1Fake {
  const keys = new Map<string, Set<string> | undefined>([[NS1_FAKE_KEY, undefined]]);
  const zones = new Map<string, { secondary: boolean; records: Ns1Record[] }>();
  let nextId = 1;
  const newId = () => (nextId++).toString(16).padStart(24, "0");

  function addRecord(
    zone: string,
    init: {
      domain: string;
      type: string;
      answers: string[];
      ttl?: number;
      meta?: Record<string, unknown>;
      link?: string;
      filters?: unknown[];
    },
  ): Ns1Record {
    const owner = zones.get(zone);
    if (!owner) throw new Error(`fake NS1: no zone ${zone}`);
    const record: Ns1Record = {
      id: newId(),
      zone,
      domain: init.domain,
      type: init.type,
      ttl: init.ttl ?? NS1_ZONE_DEFAULT_TTL,
      answers: init.answers.map((a) => ({ id: newId(), answer: [a], ...(init.meta ? { meta: init.meta } : {}) })),
      filters: init.filters ?? [],
      meta: {},
      link: init.link ?? null,
      regions: {},
      use_client_subnet: true,
      tier: 1,
    };
    owner.records.push(record);
    return record;
  }

  const reply = (status: number, body: unknown) => json(status, body, RATE_HEADERS);
  const message = (status: number, words: string) => reply(status, { message: words });

  function route(request: LoggedRequest): Response {
    const key = request.headers["x-nsone-key"];
    if (key === undefined || !keys.has(key)) return message(401, "Unauthorized");
    const allowed = keys.get(key);
    const may = (zone: string) => allowed === undefined || allowed.has(zone);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);

    if (segments.length === 1 && segments[0] === "zones" && request.method === "GET") {
      const all = [...zones.entries()]
        .filter(([name]) => may(name))
        .map(([name, zone], i) => ({
          id: String(i + 1).padStart(24, "0"),
          zone: name,
          ttl: NS1_ZONE_DEFAULT_TTL,
          nx_ttl: 3600,
          retry: 7200,
          refresh: 43200,
          expiry: 1209600,
          dnssec: false,
          primary: { enabled: false },
          secondary: { enabled: zone.secondary },
        }));
      const start = request.query.after === undefined ? 0 : all.findIndex((z) => z.zone === request.query.after) + 1;
      const shown = all.slice(start, start + fake.zonesPerPage);
      const more = start + fake.zonesPerPage < all.length;
      const link: Record<string, string> = more
        ? {
            Link: `<${fake.url}/zones?after=${encodeURIComponent(shown.at(-1)!.zone)}&limit=${fake.zonesPerPage}>; rel="next"`,
          }
        : {};
      return json(200, shown, { ...RATE_HEADERS, ...link });
    }
    if (segments.length === 4 && segments[0] === "zones") {
      const [, zoneName, domain, type] = segments as [string, string, string, string];
      const zone = zones.get(zoneName);
      if (!zone) return message(404, "zone not found");
      if (!may(zoneName)) return message(403, "insufficient permissions");
      const record = zone.records.find((r) => r.domain === domain && r.type === type);
      const body =
        typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
      if (request.method === "GET") return record ? reply(200, record) : message(404, "record not found");
      if (request.method === "DELETE") {
        if (!record) return message(404, "record not found");
        zone.records.splice(zone.records.indexOf(record), 1);
        return reply(200, {});
      }
      if (request.method === "POST") {
        if (!record) return message(404, "record not found");
        const problem = check(type, body);
        if (problem) return message(400, problem);
        if (body.answers !== undefined)
          record.answers = (body.answers as Record<string, unknown>[]).map((a) => ({ ...a, id: newId() }) as Ns1Answer);
        if (body.ttl !== undefined) record.ttl = body.ttl as number;
        return reply(200, record);
      }
      if (request.method === "PUT") {
        if (zone.secondary) return message(400, "zone is a secondary zone");
        if (record) return message(400, "record already exists");
        if (!(domain === zoneName || domain.endsWith(`.${zoneName}`))) return message(400, "domain is not in zone");
        const problem = check(type, body);
        if (problem) return message(400, problem);
        if (!Array.isArray(body.answers) || body.answers.length === 0)
          return message(400, "record must have at least one answer");
        const created = addRecord(zoneName, { domain, type, answers: [], ttl: body.ttl as number | undefined });
        created.answers = (body.answers as Record<string, unknown>[]).map((a) => ({ ...a, id: newId() }) as Ns1Answer);
        return reply(200, created);
      }
    }
    return message(404, "Not Found");
  }

  const server = startFakeServer<Ns1Fault>({
    prefix: "/v1",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const words =
        mode.message ??
        (mode.status === 429 ? "rate limit exceeded" : mode.status >= 500 ? "internal server error" : "bad request");
      return json(
        mode.status,
        { message: words },
        {
          ...RATE_HEADERS,
          ...(mode.status === 429 ? { "X-Ratelimit-Remaining": "0" } : {}),
          ...retryAfterHeader(mode.retryAfter),
        },
      );
    },
  });

  const fake: Ns1Fake = Object.assign(server, {
    keys,
    zones,
    zonesPerPage: 1000,
    addZone: (name: string, options: { secondary?: boolean } = {}) =>
      void zones.set(name, { secondary: options.secondary ?? false, records: [] }),
    addRecord,
    record: (zone: string, domain: string, type: string) =>
      zones.get(zone)?.records.find((r) => r.domain === domain && r.type === type),
    reset() {
      zones.clear();
      keys.clear();
      keys.set(NS1_FAKE_KEY, undefined);
      fake.zonesPerPage = 1000;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

/** What NS1 refuses in a record body: answers of the wrong kind, a TTL that is not a whole number. */
function check(type: string, body: Record<string, unknown>): string | undefined {
  if (type !== "A" && type !== "AAAA" && type !== "TXT") return "this fake knows A, AAAA and TXT records only";
  if (body.answers !== undefined) {
    if (!Array.isArray(body.answers)) return "answers must be a list";
    for (const answer of body.answers as Record<string, unknown>[]) {
      const rdata = Array.isArray(answer?.answer) ? answer.answer[0] : undefined;
      if (typeof rdata !== "string" || (type === "A" && !isIPv4(rdata)) || (type === "AAAA" && !isIPv6(rdata)))
        return `invalid rdata for ${type} answer`;
    }
  }
  if (body.ttl !== undefined && (typeof body.ttl !== "number" || !Number.isInteger(body.ttl) || body.ttl < 0))
    return "ttl must be a non-negative integer";
  return undefined;
}
