// A faithful stand-in for DigitalOcean's Domains API v2 (docs/services/digitalocean.md): Bearer tokens, paged
// domain and record listings (`links.pages.next`, `meta.total`), the record filter that wants the
// FQDN while answers name records relative to the domain ("@" for the apex), PATCH that changes only
// what it sends, POST answered 201, `{"id", "message"}` errors, and the rate limit with its
// `ratelimit-*` headers and a 429 that carries `retry-after` (burst) or only `ratelimit-reset`.
//
// Sources besides docs/services/digitalocean.md: digitalocean/openapi specification/resources/domains/*.yml
// (domains_list, domains_list_records, domains_create_record, domains_patch_record,
// domains_delete_record: several records of one name and type, TXT records, deletes by id),
// shared/responses/*.yml (unauthorized, not_found, too_many_requests), description.yml (rate limits).
// UNSURE there, played both ways here: whether PUT resets the ttl it omits (`putResetsTtl`).
//
// Checked against DigitalOcean's own OpenAPI description (test/conformance/descriptions/
// digitalocean.json): every request is validated — a PATCH without `type` is refused (422) and
// recorded, as that description requires it.
//
// Quirk switches: `limit` (requests per minute; 429 with retry-after when `burst`, else only
// ratelimit-reset), `putResetsTtl`, `readOnlyTokens`, faults `{status, id, message, retryAfter, reset}`.

import { isIPv4, isIPv6 } from "node:net";
import { openApiDescription } from "./descriptions";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

/** The service's own published description, checked against every request (compiled once, at import, so no request waits for it). */
const DESCRIPTION = openApiDescription("digitalocean", {
  title: "DigitalOcean OpenAPI",
  apiRoot: "/",
  refuse: (_request, problems) => error(422, { id: "unprocessable_entity", message: problems.join("; ") }),
});

export const DIGITALOCEAN_FAKE_TOKEN = "dop_v1_fake0123456789abcdef0123456789abcdef";
/** What a record gets when a PUT leaves its ttl out, if `putResetsTtl`. */
const DIGITALOCEAN_RESET_TTL = 1800;

export interface DigitalOceanDomain {
  name: string;
  ttl: number;
  zone_file: string;
}

export interface DigitalOceanRecord {
  id: number;
  type: string;
  /** Relative to the domain; "@" for the apex. */
  name: string;
  data: string;
  priority: number | null;
  port: number | null;
  ttl: number;
  weight: number | null;
  flags: number | null;
  tag: string | null;
}

/**
 * `{status}`: a DigitalOcean error (`id` and `message` default by status; for a 429, `retryAfter` adds
 * `retry-after` and `reset` a `ratelimit-reset` that many seconds ahead); `"malformed"`; `"html"`.
 */
export type DigitalOceanFault =
  | { status: number; id?: string; message?: string; retryAfter?: number; reset?: number }
  | "malformed"
  | "html";

export interface DigitalOceanFake extends FakeServer<DigitalOceanFault> {
  tokens: Set<string>;
  /** Tokens that may read but not write (a token without domain:update/create). */
  readOnlyTokens: Set<string>;
  domains: Map<string, DigitalOceanDomain>;
  /** By id; the domain's name is in `domainOf`. */
  records: Map<number, DigitalOceanRecord>;
  domainOf: Map<number, string>;
  /** Requests allowed per minute before 429s (null: no limit); the 429 carries `retry-after` when `burst`. */
  limit: { perMinute: number; burst: boolean } | null;
  putResetsTtl: boolean;
  addDomain(name: string): DigitalOceanDomain;
  addRecord(domain: string, record: { type: string; name: string; data: string; ttl?: number }): DigitalOceanRecord;
  record(domain: string, name: string, type: string): DigitalOceanRecord | undefined;
  /** Every record of the name (relative, "@" for the apex) and type. */
  recordsNamed(domain: string, name: string, type: string): DigitalOceanRecord[];
  reset(): void;
}

const ERRORS: Record<number, [string, string]> = {
  401: ["unauthorized", "Unable to authenticate you."],
  403: ["forbidden", "You do not have access for the attempted action."],
  404: ["not_found", "The resource you were accessing could not be found."],
  422: ["unprocessable_entity", "The request could not be processed."],
  429: ["too_many_requests", "API rate limit exceeded."],
  500: ["server_error", "Server was unable to give you a response."],
};

export function startDigitalOceanFake(): DigitalOceanFake {
  const tokens = new Set([DIGITALOCEAN_FAKE_TOKEN]);
  const readOnlyTokens = new Set<string>();
  const domains = new Map<string, DigitalOceanDomain>();
  const records = new Map<number, DigitalOceanRecord>();
  const domainOf = new Map<number, string>();
  let requestTimes: number[] = [];
  let nextId = 3352896;

  function addDomain(name: string): DigitalOceanDomain {
    const domain = { name: name.toLowerCase(), ttl: 1800, zone_file: `$ORIGIN ${name}.\n$TTL 1800\n` };
    domains.set(domain.name, domain);
    return domain;
  }

  function addRecord(
    domain: string,
    init: { type: string; name: string; data: string; ttl?: number },
  ): DigitalOceanRecord {
    const record: DigitalOceanRecord = {
      id: nextId++,
      type: init.type,
      name: init.name,
      data: init.data,
      priority: null,
      port: null,
      ttl: init.ttl ?? 1800,
      weight: null,
      flags: null,
      tag: null,
    };
    records.set(record.id, record);
    domainOf.set(record.id, domain);
    return record;
  }

  function recordsIn(domain: string): DigitalOceanRecord[] {
    return [...records.values()].filter((r) => domainOf.get(r.id) === domain);
  }

  /** A page of `items` as DigitalOcean lays it out, with absolute `links.pages` URLs. */
  function page(request: LoggedRequest, key: string, items: unknown[]): Response {
    const perPage = Math.min(Math.max(Number(request.query.per_page) || 20, 1), 200);
    const number = Math.max(Number(request.query.page) || 1, 1);
    const last = Math.max(Math.ceil(items.length / perPage), 1);
    const link = (n: number) =>
      `https://api.digitalocean.com/v2${request.path}?${new URLSearchParams({ ...request.query, page: String(n), per_page: String(perPage) })}`;
    const pages: Record<string, string> = {};
    if (number < last) Object.assign(pages, { next: link(number + 1), last: link(last) });
    if (number > 1) Object.assign(pages, { first: link(1), prev: link(number - 1) });
    return json(200, {
      [key]: items.slice((number - 1) * perPage, number * perPage),
      links: { pages },
      meta: { total: items.length },
    });
  }

  /** Why the fields are not a valid A/AAAA record (422), or null. */
  function invalid(type: string, fields: Record<string, unknown>): Response | null {
    if (fields.data !== undefined) {
      const data = fields.data;
      if (typeof data !== "string" || (type === "A" && !isIPv4(data)) || (type === "AAAA" && !isIPv6(data))) {
        return error(422, { message: `IP address did not match ${type === "AAAA" ? "IPv6" : "IPv4"} format.` });
      }
    }
    if (fields.ttl !== undefined && (typeof fields.ttl !== "number" || fields.ttl < 30)) {
      return error(422, { message: "TTL must be at least 30 seconds." });
    }
    return null;
  }

  function route(request: LoggedRequest): Response {
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    if (!tokens.has(token) && !readOnlyTokens.has(token)) return error(401);
    if (fake.limit) {
      const now = request.receivedAt;
      requestTimes = requestTimes.filter((t) => now - t < 60_000);
      if (requestTimes.length >= fake.limit.perMinute) {
        const wait = Math.ceil((requestTimes[0]! + 60_000 - now) / 1000);
        return throttled(fake.limit.burst ? wait : undefined, wait);
      }
      requestTimes.push(now);
    }
    const { method } = request;
    if (method !== "GET" && readOnlyTokens.has(token)) return error(403);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);

    if (segments[0] === "account" && segments.length === 1 && method === "GET") {
      return json(200, {
        account: {
          droplet_limit: 25,
          floating_ip_limit: 3,
          email: "owner@example.net",
          uuid: "b6fr89dbf6d9156cace5f3c78dc9851d957381ef",
          email_verified: true,
          status: "active",
          status_message: "",
        },
      });
    }
    if (segments[0] !== "domains") return error(404);
    if (segments.length === 1)
      return method === "GET"
        ? page(request, "domains", [...domains.values()])
        : error(405, { id: "method_not_allowed", message: "Method not allowed." });
    const domain = domains.get(segments[1] ?? "");
    if (!domain) return error(404);
    if (segments.length === 2)
      return method === "GET"
        ? json(200, { domain })
        : error(405, { id: "method_not_allowed", message: "Method not allowed." });
    if (segments[2] !== "records" || segments.length > 4) return error(404);
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};

    if (segments.length === 3) {
      if (method === "GET") {
        // `name` matches the FQDN only: a relative name (or "@") matches nothing, as at DigitalOcean.
        const { type, name } = request.query;
        const relative =
          name === undefined
            ? undefined
            : name === domain.name
              ? "@"
              : name.endsWith(`.${domain.name}`)
                ? name.slice(0, -(domain.name.length + 1))
                : null;
        const matching = recordsIn(domain.name).filter(
          (r) => (type === undefined || r.type === type) && (relative === undefined || r.name === relative),
        );
        return page(request, "domain_records", matching);
      }
      if (method !== "POST") return error(405, { id: "method_not_allowed", message: "Method not allowed." });
      for (const field of ["type", "name", "data"]) {
        if (typeof body[field] !== "string") return error(422, { message: `${field} is required.` });
      }
      const bad = invalid(String(body.type), body);
      if (bad) return bad;
      const record = addRecord(domain.name, {
        type: String(body.type),
        name: String(body.name),
        data: String(body.data),
        ttl: typeof body.ttl === "number" ? body.ttl : 1800,
      });
      return json(201, { domain_record: record });
    }

    const record = records.get(Number(segments[3]));
    if (!record || domainOf.get(record.id) !== domain.name) return error(404);
    switch (method) {
      case "GET":
        return json(200, { domain_record: record });
      case "PATCH":
      case "PUT": {
        const bad = invalid(typeof body.type === "string" ? body.type : record.type, body);
        if (bad) return bad;
        if (method === "PUT" && typeof body.type !== "string") return error(422, { message: "type is required." });
        for (const field of ["type", "name", "data", "ttl"] as const) {
          if (body[field] !== undefined) Object.assign(record, { [field]: body[field] });
        }
        if (method === "PUT" && body.ttl === undefined && fake.putResetsTtl) record.ttl = DIGITALOCEAN_RESET_TTL;
        return json(200, { domain_record: record });
      }
      case "DELETE":
        records.delete(record.id);
        return new Response(null, { status: 204 });
      default:
        return error(405, { id: "method_not_allowed", message: "Method not allowed." });
    }
  }

  const server = startFakeServer<DigitalOceanFault>({
    prefix: "/v2",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      if (mode.status === 429) return throttled(mode.retryAfter, mode.reset);
      return error(mode.status, { id: mode.id, message: mode.message });
    },
  });

  const fake: DigitalOceanFake = Object.assign(server, {
    tokens,
    readOnlyTokens,
    domains,
    records,
    domainOf,
    limit: null as { perMinute: number; burst: boolean } | null,
    putResetsTtl: true,
    addDomain,
    addRecord,
    record: (domain: string, name: string, type: string) =>
      recordsIn(domain).find((r) => r.name === name && r.type === type),
    recordsNamed: (domain: string, name: string, type: string) =>
      recordsIn(domain).filter((r) => r.name === name && r.type === type),
    reset() {
      for (const map of [domains, records, domainOf]) map.clear();
      tokens.clear();
      tokens.add(DIGITALOCEAN_FAKE_TOKEN);
      readOnlyTokens.clear();
      requestTimes = [];
      fake.limit = null;
      fake.putResetsTtl = true;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function error(
  status: number,
  fields: { id?: string; message?: string } = {},
  headers: Record<string, string> = {},
): Response {
  const [id, message] = ERRORS[status] ?? ["error", "Something went wrong."];
  return json(
    status,
    { id: fields.id ?? id, message: fields.message ?? message, request_id: crypto.randomUUID() },
    headers,
  );
}

/** A 429: `retry-after` only for a burst; `ratelimit-reset` (epoch seconds) when `resetIn` is given. */
function throttled(retryAfter: number | undefined, resetIn: number | undefined): Response {
  const headers: Record<string, string> = { "ratelimit-limit": "5000", "ratelimit-remaining": "0" };
  if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
  if (resetIn !== undefined) headers["ratelimit-reset"] = String(Math.ceil(Date.now() / 1000) + resetIn);
  return error(429, {}, headers);
}
