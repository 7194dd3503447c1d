// A faithful stand-in for the Linode (Akamai Cloud) API v4's DNS Manager: domains and their records
// listed a page at a time (`{data, page, pages, results}`, `page_size` 25–500), numeric ids, record
// names relative to the domain (`""` for the apex), `ttl_sec` rounded to Linode's nearest valid value
// (0: the domain's default), a PUT that changes only the fields it is sent, secondary ("slave")
// domains whose records cannot change, several records of one name and type, TXT records, deletes
// by id (answered 200 `{}`), tokens scoped read-only or read/write, and Linode's
// `{"errors": [{"reason", "field"?}]}` answers (401 Invalid Token, 403 Unauthorized, 404 Not found).
//
// Checked against Linode's own OpenAPI description (linode/linode-api-docs openapi.yaml, trimmed in
// test/conformance/descriptions/linode.json): a page_size outside 25–500, a field a record does not
// have, a record type it does not list, an unknown query parameter is refused (400, Linode's
// `errors`) and recorded. Sources: techdocs.akamai.com/linode-api (Domains, Domain Records,
// Pagination, Errors, Rate limits); qdm12/ddns-updater providers/linode/provider.go (errors shape,
// PUT of `target` only, records matched by relative name); libdns/linode.

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
const DESCRIPTION = openApiDescription("linode", {
  title: "Linode OpenAPI",
  apiRoot: "/",
  refuse: (_request, problems) => json(400, { errors: problems.map((reason) => ({ reason })) }),
  // The description gives a record's `name` a minimum length of 1 (its prose: "actual length
  // requirements may vary depending on the type of record"), while Linode answers apex records
  // with `name: ""` and its own Go client (linodego) creates them with it.
  leniency: { emptyAllowed: ["name"] },
});

export const LINODE_FAKE_TOKEN = "linode-fake-pat-0123456789abcdef0123456789abcdef";
/** A token with Domains: Read Only. */
export const LINODE_FAKE_READONLY_TOKEN = "linode-fake-readonly-0123456789abcdef0123456789";
/** The values `ttl_sec` is rounded to; 0 means the domain's default. */
export const LINODE_TTLS = [
  0, 30, 120, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200,
];

export interface LinodeRecord {
  id: number;
  type: string;
  name: string;
  target: string;
  ttl_sec: number;
  priority: number;
  weight: number;
  port: number;
  service: string | null;
  protocol: string | null;
  tag: string | null;
}

export interface LinodeDomain {
  id: number;
  domain: string;
  type: "master" | "slave";
  status: "active" | "disabled" | "edit_mode" | "has_errors";
  records: LinodeRecord[];
}

/**
 * `{status}` answers with Linode's error body for that status (`reason` replaces its words,
 * `retryAfter` adds the header); `"malformed"` is a 200 with broken JSON; `"html"` a 502 page.
 */
export type LinodeFault = { status: number; reason?: string; retryAfter?: number } | "malformed" | "html";

export interface LinodeFake extends FakeServer<LinodeFault> {
  /** Token → its Domains scope; delete one to revoke it mid-test. */
  tokens: Map<string, "read_write" | "read_only">;
  domains: Map<number, LinodeDomain>;
  addDomain(name: string, options?: { type?: "master" | "slave"; status?: LinodeDomain["status"] }): LinodeDomain;
  /** `name` relative to the domain, `""` for the apex. */
  addRecord(domain: string, record: { name: string; type: string; target: string; ttl?: number }): LinodeRecord;
  domain(name: string): LinodeDomain | undefined;
  record(domain: string, name: string, type: string): LinodeRecord | undefined;
  /** Every record of the name (relative, `""` for the apex) and type. */
  recordsNamed(domain: string, name: string, type: string): LinodeRecord[];
  /**
   * How a `ttl_sec` Linode does not keep is rounded: to the nearest valid value or up to the next
   * one (Linode's texts say each). Either keeps a valid value as sent.
   */
  rounding: "nearest" | "up";
  reset(): void;
}

const REASONS: Record<number, string> = {
  401: "Invalid Token",
  403: "Unauthorized",
  404: "Not found",
  405: "Method Not Allowed",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** Linode's rounding of `ttl_sec` up to the next valid value (the longest for anything above). */
export function linodeTtlUp(value: number): number {
  return LINODE_TTLS.find((ttl) => ttl >= value) ?? LINODE_TTLS[LINODE_TTLS.length - 1]!;
}

/** Linode's rounding of `ttl_sec`: to the nearest valid value (the higher on a tie). */
export function linodeTtl(value: number): number {
  let best = 0;
  for (const ttl of LINODE_TTLS) if (Math.abs(ttl - value) <= Math.abs(best - value)) best = ttl;
  return best;
}

export function startLinodeFake(): LinodeFake {
  const round = (value: number) => (fake.rounding === "up" ? linodeTtlUp(value) : linodeTtl(value));
  const tokens = new Map<string, "read_write" | "read_only">([
    [LINODE_FAKE_TOKEN, "read_write"],
    [LINODE_FAKE_READONLY_TOKEN, "read_only"],
  ]);
  const domains = new Map<number, LinodeDomain>();
  let nextId = 1000;

  const byName = (name: string) => [...domains.values()].find((d) => d.domain === name);

  function addRecord(name: string, init: { name: string; type: string; target: string; ttl?: number }): LinodeRecord {
    const domain = byName(name);
    if (!domain) throw new Error(`fake Linode: no domain ${name}`);
    const record: LinodeRecord = {
      id: ++nextId,
      type: init.type,
      name: init.name,
      target: init.target,
      ttl_sec: init.ttl ?? 0,
      priority: 0,
      weight: 0,
      port: 0,
      service: null,
      protocol: null,
      tag: null,
    };
    domain.records.push(record);
    return record;
  }

  function page(request: LoggedRequest, items: unknown[]): Response {
    const pageSize = request.query.page_size === undefined ? 100 : Number(request.query.page_size);
    if (!Number.isInteger(pageSize) || pageSize < 25 || pageSize > 500) return invalid("page_size", "Must be 25-500");
    const number = request.query.page === undefined ? 1 : Number(request.query.page);
    const pages = Math.max(1, Math.ceil(items.length / pageSize));
    if (!Number.isInteger(number) || number < 1 || number > pages) return invalid("page", `Must be 1-${pages}`);
    return json(200, {
      data: items.slice((number - 1) * pageSize, number * pageSize),
      page: number,
      pages,
      results: items.length,
    });
  }

  function domainJson(domain: LinodeDomain) {
    const { records: _, ...rest } = domain;
    // No `description` or `group`: unset here, and the description gives neither an empty value.
    return {
      ...rest,
      soa_email: `admin@${domain.domain}`,
      ttl_sec: 0,
      refresh_sec: 0,
      retry_sec: 0,
      expire_sec: 0,
      tags: [],
      master_ips: [],
      axfr_ips: [],
    };
  }

  function route(request: LoggedRequest): Response {
    const auth = request.headers.authorization ?? "";
    const scope = auth.startsWith("Bearer ") ? tokens.get(auth.slice("Bearer ".length)) : undefined;
    if (scope === undefined) return error(401);
    if (request.method !== "GET" && scope !== "read_write") return error(403);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "domains") return error(404);
    if (segments.length === 1)
      return request.method === "GET" ? page(request, [...domains.values()].map(domainJson)) : error(405);

    const domain = domains.get(Number(segments[1]));
    if (!domain) return error(404);
    if (segments.length === 2) return request.method === "GET" ? json(200, domainJson(domain)) : error(405);
    if (segments[2] !== "records" || segments.length > 4) return error(404);

    if (segments.length === 3) {
      if (request.method === "GET") return page(request, domain.records);
      if (request.method !== "POST") return error(405);
      if (domain.type === "slave") return invalid(null, "You may not create records on a slave domain");
      const fields = objectBody(request);
      if (fields.type !== "A" && fields.type !== "AAAA" && fields.type !== "TXT")
        return invalid("type", "type is not supported by this fake");
      const checked = checkTarget(fields.type, fields.target) ?? checkTtl(fields.ttl_sec);
      if (checked) return checked;
      const name = typeof fields.name === "string" ? fields.name : "";
      const record = addRecord(domain.domain, {
        name,
        type: fields.type,
        target: fields.target as string,
        ttl: round(Number(fields.ttl_sec ?? 0)),
      });
      return json(200, record);
    }

    const record = domain.records.find((r) => r.id === Number(segments[3]));
    if (!record) return error(404);
    if (request.method === "GET") return json(200, record);
    if (request.method === "DELETE") {
      if (domain.type === "slave") return invalid(null, "You may not delete records on a slave domain");
      domain.records = domain.records.filter((r) => r !== record);
      return json(200, {});
    }
    if (request.method !== "PUT") return error(405);
    if (domain.type === "slave") return invalid(null, "You may not edit records on a slave domain");
    const fields = objectBody(request);
    const checked =
      (fields.target === undefined ? undefined : checkTarget(record.type, fields.target)) ?? checkTtl(fields.ttl_sec);
    if (checked) return checked;
    // Only what is sent changes; the rest of the record stays as it was.
    if (typeof fields.target === "string") record.target = fields.target;
    if (typeof fields.ttl_sec === "number") record.ttl_sec = round(fields.ttl_sec);
    if (typeof fields.name === "string") record.name = fields.name;
    return json(200, record);
  }

  const server = startFakeServer<LinodeFault>({
    prefix: "/v4",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(mode.status, retryAfterHeader(mode.retryAfter), mode.reason);
    },
  });

  const fake: LinodeFake = Object.assign(server, {
    tokens,
    domains,
    addDomain(name: string, options: { type?: "master" | "slave"; status?: LinodeDomain["status"] } = {}) {
      const domain: LinodeDomain = {
        id: ++nextId,
        domain: name,
        type: options.type ?? "master",
        status: options.status ?? "active",
        records: [],
      };
      domains.set(domain.id, domain);
      return domain;
    },
    addRecord,
    domain: byName,
    record: (domain: string, name: string, type: string) =>
      byName(domain)?.records.find((r) => r.name === name && r.type === type),
    recordsNamed: (domain: string, name: string, type: string) =>
      (byName(domain)?.records ?? []).filter((r) => r.name === name && r.type === type),
    rounding: "nearest" as "nearest" | "up",
    reset() {
      fake.rounding = "nearest";
      domains.clear();
      tokens.clear();
      tokens.set(LINODE_FAKE_TOKEN, "read_write");
      tokens.set(LINODE_FAKE_READONLY_TOKEN, "read_only");
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

function checkTarget(type: unknown, target: unknown): Response | undefined {
  if (type === "TXT") return typeof target === "string" && target !== "" ? undefined : invalid("target", "Required");
  if (typeof target !== "string" || (type === "A" && !isIPv4(target)) || (type === "AAAA" && !isIPv6(target))) {
    return invalid("target", `You must provide a valid ${type === "A" ? "IPv4" : "IPv6"} address.`);
  }
  return undefined;
}

function checkTtl(ttl: unknown): Response | undefined {
  if (ttl === undefined) return undefined;
  if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 0 || ttl > 2419200)
    return invalid("ttl_sec", "Must be an integer between 0 and 2419200");
  return undefined;
}

function error(status: number, headers: Record<string, string> = {}, reason?: string): Response {
  return json(status, { errors: [{ reason: reason ?? REASONS[status] ?? "Error" }] }, headers);
}

function invalid(field: string | null, reason: string): Response {
  return json(400, { errors: [field === null ? { reason } : { field, reason }] });
}
