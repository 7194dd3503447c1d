// A faithful stand-in for the Dynu API v2 (docs/services/dynu.md): domains, records under them, getroot,
// statusCode in every body, errors flat or nested (and optionally inside HTTP 200), and the
// whole-record replacement that silently resets what a client leaves out.
//
// Documentation: https://www.dynu.com/en-US/Support/API (API v2). Independent client it follows:
// go-acme/lego providers/dns/dynu/internal (getroot, the record list and POST of a whole record, the
// `{statusCode, type, message}` errors). No machine-readable description is published.
//
// Quirk switches: `errorShape` ("flat" | "nested" error bodies); faults `{status, type, message,
// retryAfter, inHttp200}` — `fault({status: 503})` is Dynu's quota answer, "Quota Exception" WITHOUT
// Retry-After (give `retryAfter` only to play a 429 that names a wait); `inHttp200` puts an error
// inside an HTTP 200; a PUT/POST of a record that omits its ttl resets it to DYNU_RESET_TTL.

import { isIPv4, isIPv6 } from "node:net";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

export const DYNU_FAKE_API_KEY = "dynu-fake-key-0123456789abcdef";

/** What Dynu puts in a record the update left without a ttl: a forgotten ttl shows up as this. */
export const DYNU_RESET_TTL = 120;

export interface DynuDomain {
  id: number;
  name: string;
  unicodeName: string;
  token: string;
  state: string;
  group: string;
  /** Absent when empty, as Dynu leaves keys with empty values out. */
  ipv4Address?: string;
  ipv6Address?: string;
  ttl: number;
  ipv4: boolean;
  ipv6: boolean;
  ipv4WildcardAlias: boolean;
  ipv6WildcardAlias: boolean;
  allowZoneTransfer: boolean;
  dnssec: boolean;
  createdOn: string;
  updatedOn: string;
}

export interface DynuRecord {
  id: number;
  domainId: number;
  domainName: string;
  nodeName: string;
  hostname: string;
  recordType: string;
  ttl: number;
  state: boolean;
  group: string;
  ipv4Address?: string;
  ipv6Address?: string;
  /** NS records: the name server. */
  host?: string;
  updatedOn: string;
}

export interface NewDynuRecord {
  nodeName: string;
  recordType: string;
  ipv4Address?: string;
  ipv6Address?: string;
  ttl?: number;
  state?: boolean;
  group?: string;
}

/**
 * `{status}` answers with a Dynu error of that status (type from Dynu's table unless given; `inHttp200`
 * puts it inside an HTTP 200; `retryAfter` adds the header); `"malformed"` is a 200 with broken
 * JSON; `"html"` a 502 HTML page.
 */
export type DynuFault =
  | { status: number; type?: string; message?: string; retryAfter?: number; inHttp200?: boolean }
  | "malformed"
  | "html";

export interface DynuFake extends FakeServer<DynuFault> {
  apiKeys: Set<string>;
  /** "flat" `{statusCode, type, message}` (recorded traffic) or "nested" under `exception` (the OpenAPI document). */
  errorShape: "flat" | "nested";
  /** Report every error inside an HTTP 200, with only `statusCode` telling. */
  errorsInHttp200: boolean;
  /** By id. Fields may be changed in place, except `name`. */
  domains: Map<number, DynuDomain>;
  /** By id, SOA and NS included. Fields may be changed in place, except `nodeName` and `recordType`. */
  records: Map<number, DynuRecord>;
  /** Adds a domain (with its SOA and NS records); `fields` override the defaults (IPv4 on, IPv6 off, ttl 90). */
  addDomain(name: string, fields?: Partial<Omit<DynuDomain, "id" | "name">>): DynuDomain;
  addRecord(domainName: string, record: NewDynuRecord): DynuRecord;
  domain(name: string): DynuDomain | undefined;
  /** The first record with this hostname and type (the apex's own address lives on the domain, not here). */
  record(hostname: string, type: string): DynuRecord | undefined;
  /** Back to a fresh fake on the same port: no domains or records, the initial keys and error style, no faults or logged requests. */
  reset(): void;
}

const ERROR_TYPES: Record<number, string> = {
  401: "Authentication Exception",
  404: "Request Exception",
  429: "Quota Exception",
  500: "Server Exception",
  501: "Argument Exception",
  502: "Parse Exception",
  503: "Quota Exception",
  505: "Validation Exception",
};
const DOMAIN_BOOLEANS = [
  "ipv4",
  "ipv6",
  "ipv4WildcardAlias",
  "ipv6WildcardAlias",
  "allowZoneTransfer",
  "dnssec",
] as const;
const RECORD_TYPES = new Set(["A", "AAAA", "CNAME", "TXT", "MX", "NS", "SOA", "CAA", "SRV"]);

export function startDynuFake(
  options: { apiKeys?: string[]; errorShape?: "flat" | "nested"; errorsInHttp200?: boolean } = {},
): DynuFake {
  const domains = new Map<number, DynuDomain>();
  const domainsByName = new Map<string, DynuDomain>();
  const records = new Map<number, DynuRecord>();
  const recordsOfDomain = new Map<number, Set<number>>();
  // Hostname+type → record ids: keeps lookups constant-time for the 1,000-domain benchmark.
  const recordsByKey = new Map<string, Set<number>>();
  let nextDomainId = 100_001;
  let nextRecordId = 9_000_001;

  const key = (hostname: string, type: string) => `${hostname}|${type}`;

  function index(record: DynuRecord): void {
    records.set(record.id, record);
    recordsOfDomain.get(record.domainId)?.add(record.id);
    const ids = recordsByKey.get(key(record.hostname, record.recordType)) ?? new Set<number>();
    ids.add(record.id);
    recordsByKey.set(key(record.hostname, record.recordType), ids);
  }

  function unindex(record: DynuRecord): void {
    records.delete(record.id);
    recordsOfDomain.get(record.domainId)?.delete(record.id);
    recordsByKey.get(key(record.hostname, record.recordType))?.delete(record.id);
  }

  function recordsNamed(hostname: string, type: string): DynuRecord[] {
    return [...(recordsByKey.get(key(hostname, type)) ?? [])].flatMap((id) => records.get(id) ?? []);
  }

  function addDomain(name: string, fields: Partial<Omit<DynuDomain, "id" | "name">> = {}): DynuDomain {
    const now = timestamp();
    const lower = name.toLowerCase();
    const domain: DynuDomain = {
      id: nextDomainId++,
      name: lower,
      unicodeName: lower,
      token: crypto.randomUUID().replaceAll("-", ""),
      state: "Complete",
      group: "",
      ttl: 90,
      ipv4: true,
      ipv6: false,
      ipv4WildcardAlias: false,
      ipv6WildcardAlias: false,
      allowZoneTransfer: false,
      dnssec: false,
      createdOn: now,
      updatedOn: now,
      ...fields,
    };
    domains.set(domain.id, domain);
    domainsByName.set(domain.name, domain);
    recordsOfDomain.set(domain.id, new Set());
    const base = {
      domainId: domain.id,
      domainName: domain.name,
      nodeName: "",
      hostname: domain.name,
      state: true,
      group: "",
      updatedOn: now,
    };
    index({ ...base, id: nextRecordId++, recordType: "SOA", ttl: 3600 });
    for (const host of ["ns1.dynu.com", "ns2.dynu.com"]) {
      index({ ...base, id: nextRecordId++, recordType: "NS", ttl: 3600, host });
    }
    return domain;
  }

  function addRecord(domainName: string, init: NewDynuRecord): DynuRecord {
    const domain = domainsByName.get(domainName.toLowerCase());
    if (!domain) throw new Error(`fake Dynu: no domain ${domainName}`);
    const record = buildRecord(domain, nextRecordId++, {
      ...init,
      ttl: init.ttl ?? DYNU_RESET_TTL,
      state: init.state ?? true,
      group: init.group ?? "",
    });
    index(record);
    return record;
  }

  function error(
    statusCode: number,
    message: string,
    extra: { type?: string; inHttp200?: boolean; headers?: Record<string, string> } = {},
  ): Response {
    const detail = { statusCode, type: extra.type ?? ERROR_TYPES[statusCode] ?? "Server Exception", message };
    const body = fake.errorShape === "nested" ? { statusCode, exception: detail } : detail;
    return json(extra.inHttp200 || fake.errorsInHttp200 ? 200 : statusCode, body, extra.headers);
  }

  /** A record from a create or whole-record update body, or the error Dynu would answer. */
  function recordFromBody(domain: DynuDomain, id: number, body: unknown): DynuRecord | Response {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return error(502, "The request body could not be parsed.");
    }
    const fields = body as Record<string, unknown>;
    if (typeof fields.nodeName !== "string") return error(501, "Node name is required.");
    if (typeof fields.recordType !== "string" || !RECORD_TYPES.has(fields.recordType)) {
      return error(501, "Invalid record type.");
    }
    if (fields.recordType === "A" && (typeof fields.ipv4Address !== "string" || !isIPv4(fields.ipv4Address))) {
      return error(505, "Invalid IPv4 address.");
    }
    if (fields.recordType === "AAAA" && (typeof fields.ipv6Address !== "string" || !isIPv6(fields.ipv6Address))) {
      return error(505, "Invalid IPv6 address.");
    }
    if (fields.ttl !== undefined && !validTtl(fields.ttl)) return error(505, "Invalid TTL.");
    if (fields.state !== undefined && typeof fields.state !== "boolean") return error(505, "Invalid state.");
    // The update replaces the whole record: whatever the body leaves out falls back to defaults.
    return buildRecord(domain, id, {
      nodeName: fields.nodeName,
      recordType: fields.recordType,
      ipv4Address: fields.recordType === "A" ? (fields.ipv4Address as string) : undefined,
      ipv6Address: fields.recordType === "AAAA" ? (fields.ipv6Address as string) : undefined,
      ttl: typeof fields.ttl === "number" ? fields.ttl : DYNU_RESET_TTL,
      state: typeof fields.state === "boolean" ? fields.state : true,
      group: typeof fields.group === "string" ? fields.group : "",
    });
  }

  function updateDomain(domain: DynuDomain, body: unknown): Response {
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return error(502, "The request body could not be parsed.");
    }
    const fields = body as Record<string, unknown>;
    if (typeof fields.name !== "string" || fields.name === "") return error(501, "Name is required.");
    if (fields.name.toLowerCase() !== domain.name) return error(501, "Invalid domain name.");
    for (const [field, valid] of [
      ["ipv4Address", isIPv4],
      ["ipv6Address", isIPv6],
    ] as const) {
      const value = fields[field];
      if (value !== undefined && value !== null && value !== "" && (typeof value !== "string" || !valid(value))) {
        return error(505, `Invalid ${field === "ipv4Address" ? "IPv4" : "IPv6"} address.`);
      }
    }
    if (fields.ttl !== undefined && !validTtl(fields.ttl)) return error(505, "Invalid TTL.");
    for (const field of DOMAIN_BOOLEANS) {
      if (fields[field] !== undefined && typeof fields[field] !== "boolean") return error(505, `Invalid ${field}.`);
    }
    // Only the fields sent change.
    for (const field of ["ipv4Address", "ipv6Address"] as const) {
      const value = fields[field];
      if (value === null || value === "") delete domain[field];
      else if (typeof value === "string") domain[field] = value;
    }
    if (typeof fields.ttl === "number") domain.ttl = fields.ttl;
    if (typeof fields.group === "string") domain.group = fields.group;
    for (const field of DOMAIN_BOOLEANS) {
      if (typeof fields[field] === "boolean") domain[field] = fields[field] as boolean;
    }
    domain.updatedOn = timestamp();
    return json(200, { statusCode: 200 });
  }

  function route(request: LoggedRequest): Response {
    const apiKey = request.headers["api-key"];
    if (apiKey === undefined || !fake.apiKeys.has(apiKey)) return error(401, "Failed.");
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    const { method } = request;
    if (segments[0] !== "dns") return error(404, "Not found.");

    if (segments.length === 1) {
      if (method !== "GET") return error(404, "Not found.");
      return json(200, { statusCode: 200, domains: [...domains.values()] });
    }
    if (segments[1] === "getroot" && segments.length === 3 && method === "GET") {
      const hostname = (segments[2] ?? "").toLowerCase().replace(/\.$/, "");
      const labels = hostname.split(".");
      for (let i = 0; i < labels.length; i++) {
        const domain = domainsByName.get(labels.slice(i).join("."));
        if (domain) {
          return json(200, {
            statusCode: 200,
            id: domain.id,
            domainName: domain.name,
            hostname,
            node: labels.slice(0, i).join("."),
          });
        }
      }
      return error(501, "Invalid hostname.");
    }

    const domain = /^\d+$/.test(segments[1] ?? "") ? domains.get(Number(segments[1])) : undefined;
    if (!domain) return error(501, "Invalid domain.");
    if (segments.length === 2) {
      if (method === "GET") return json(200, { statusCode: 200, ...domain });
      if (method === "POST") return updateDomain(domain, request.body);
      return error(404, "Not found.");
    }
    if (segments[2] !== "record" || segments.length > 4) return error(404, "Not found.");

    if (segments.length === 3) {
      if (method === "GET") {
        const listing = [...(recordsOfDomain.get(domain.id) ?? [])].flatMap((id) => records.get(id) ?? []);
        return json(200, { statusCode: 200, dnsRecords: listing.map(serialize) });
      }
      if (method !== "POST") return error(404, "Not found.");
      const created = recordFromBody(domain, nextRecordId, request.body);
      if (created instanceof Response) return created;
      // Stricter than Dynu is known to be: a client that creates a second record instead of updating
      // the first is exactly the bug these tests hunt.
      if (recordsNamed(created.hostname, created.recordType).length > 0) return error(501, "Record already exists.");
      nextRecordId++;
      index(created);
      return json(200, { statusCode: 200, ...serialize(created) });
    }

    const recordId = /^\d+$/.test(segments[3] ?? "") ? Number(segments[3]) : NaN;
    const existing = records.get(recordId);
    if (!existing || existing.domainId !== domain.id) return error(501, "Invalid record.");
    switch (method) {
      case "GET":
        return json(200, { statusCode: 200, ...serialize(existing) });
      case "DELETE":
        unindex(existing);
        return json(200, { statusCode: 200 });
      case "POST": {
        const replaced = recordFromBody(domain, existing.id, request.body);
        if (replaced instanceof Response) return replaced;
        // Replaced in place, so a test holding the record object sees what the API did to it.
        unindex(existing);
        for (const field of Object.keys(existing) as (keyof DynuRecord)[]) delete existing[field];
        index(Object.assign(existing, replaced));
        return json(200, { statusCode: 200, ...serialize(existing) });
      }
      default:
        return error(404, "Not found.");
    }
  }

  const server = startFakeServer<DynuFault>({
    prefix: "/v2",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const headers: Record<string, string> =
        mode.retryAfter === undefined ? {} : { "retry-after": String(mode.retryAfter) };
      const throttled = mode.status === 429 || mode.status === 503;
      const message = mode.message ?? (throttled ? "Too many requests." : "An error occurred.");
      return error(mode.status, message, { headers, type: mode.type, inHttp200: mode.inHttp200 });
    },
  });

  const fake: DynuFake = Object.assign(server, {
    apiKeys: new Set(options.apiKeys ?? [DYNU_FAKE_API_KEY]),
    errorShape: options.errorShape ?? "flat",
    errorsInHttp200: options.errorsInHttp200 ?? false,
    domains,
    records,
    addDomain,
    addRecord,
    domain: (name: string) => domainsByName.get(name.toLowerCase()),
    record: (hostname: string, type: string) => recordsNamed(hostname.toLowerCase(), type)[0],
    reset() {
      for (const map of [domains, domainsByName, records, recordsOfDomain, recordsByKey]) map.clear();
      fake.apiKeys = new Set(options.apiKeys ?? [DYNU_FAKE_API_KEY]);
      fake.errorShape = options.errorShape ?? "flat";
      fake.errorsInHttp200 = options.errorsInHttp200 ?? false;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function buildRecord(
  domain: DynuDomain,
  id: number,
  init: Required<Pick<NewDynuRecord, "nodeName" | "recordType" | "ttl" | "state" | "group">> & NewDynuRecord,
): DynuRecord {
  const nodeName = init.nodeName.toLowerCase();
  const record: DynuRecord = {
    id,
    domainId: domain.id,
    domainName: domain.name,
    nodeName,
    hostname: nodeName === "" ? domain.name : `${nodeName}.${domain.name}`,
    recordType: init.recordType,
    ttl: init.ttl,
    state: init.state,
    group: init.group,
    updatedOn: timestamp(),
  };
  if (init.ipv4Address !== undefined) record.ipv4Address = init.ipv4Address;
  if (init.ipv6Address !== undefined) record.ipv6Address = init.ipv6Address;
  return record;
}

/** A record as the listing shows it, with Dynu's zone-file `content` line. */
function serialize(record: DynuRecord): DynuRecord & { content: string } {
  const value = record.ipv4Address ?? record.ipv6Address ?? record.host ?? "ns1.dynu.com. administrator.dynu.com.";
  return { ...record, content: `${record.hostname}. ${record.ttl} IN ${record.recordType} ${value}` };
}

function validTtl(ttl: unknown): boolean {
  return typeof ttl === "number" && Number.isInteger(ttl) && ttl >= 30 && ttl <= 86400;
}

/** Dynu's style: local ISO time to hundredths, no zone suffix (`2025-05-06T18:32:32.19`). */
function timestamp(): string {
  return new Date().toISOString().slice(0, 22);
}
