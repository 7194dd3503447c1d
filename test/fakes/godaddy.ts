// A faithful stand-in for the GoDaddy Domains API v1 as ddnsd uses it: `Authorization: sso-key
// KEY:SECRET`, the account's domains listed a page at a time (`limit` up to 1,000, `marker` = the
// domain to start after), a domain's records of one type and name (`@` for the apex) read as an
// array (empty when there are none) and replaced whole by a PUT of `[{data, ttl}]` (a TTL left out
// becomes 3600), and GoDaddy's `{code, message, fields}` errors: 401 UNABLE_TO_AUTHENTICATE for an
// unknown key, 403 ACCESS_DENIED for an account GoDaddy keeps out of the API, 404 UNKNOWN_DOMAIN,
// 422 INVALID_BODY with `fields`, 429 TOO_MANY_REQUESTS with `retryAfterSec` in the body.
//
// Switches: `accessDenied` (the account has fewer than 10 domains and no Discount Domain Club plan);
// faults `{status, code?, message?, fields?, retryAfterSec?, retryAfter?}`, `"malformed"`, `"html"`.
//
// TXT records (the ACME challenge) are held as their text, unquoted, replaced whole by the same PUT
// and removed with a DELETE of the type and name (lego's GoDaddy provider does both).
//
// Sources: developer.godaddy.com/doc/endpoint/domains (v1 list, recordGet, recordReplaceTypeName,
// recordDeleteTypeName;
// the Error, ErrorField and ErrorLimit models) and developer.godaddy.com/getstarted (API access
// requirements, 60 requests a minute per endpoint); go-acme/lego providers/dns/godaddy/internal
// (client.go, types.go, fixtures/error-extended.json); qdm12/ddns-updater providers/godaddy
// (PUT `[{data}]`, "Authenticated user is not allowed access"). UNSURE: the default TTL a PUT without
// one gives (modelled as 3600); the fake leaves it out of every test by sending the TTL back.

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

export const GODADDY_FAKE_KEY = "dLP4WKz5PdkS_GuUDNigHcLQFpw4CWNwAQ5";
export const GODADDY_FAKE_SECRET = "GuUFdVFj8nJ1M79RtdwmkZ";
/** The TTL a record gets from a PUT without one. */
const GODADDY_DEFAULT_TTL = 3600;

export interface GodaddyRecord {
  /** Relative to the domain, `@` for the apex. */
  name: string;
  type: string;
  data: string;
  ttl: number;
}

export type GodaddyFault =
  | {
      status: number;
      code?: string;
      message?: string;
      fields?: { code: string; message: string; path: string }[];
      retryAfterSec?: number;
      retryAfter?: number;
    }
  | "malformed"
  | "html";

export interface GodaddyFake extends FakeServer<GodaddyFault> {
  /** key → secret; delete one to revoke it mid-test. */
  keys: Map<string, string>;
  /** GoDaddy's 2024 rule: the account has fewer than 10 domains and no Discount Domain Club plan. */
  accessDenied: boolean;
  domains: Map<string, GodaddyRecord[]>;
  addDomain(name: string): void;
  addRecord(domain: string, record: { name: string; type: string; data: string; ttl?: number }): GodaddyRecord;
  records(domain: string, name: string, type: string): GodaddyRecord[];
  reset(): void;
}

const CODES: Record<number, [string, string]> = {
  400: ["INVALID_BODY", "Request was malformed"],
  401: ["UNABLE_TO_AUTHENTICATE", "Unable to authenticate user based upon the credentials given"],
  403: ["ACCESS_DENIED", "Authenticated user is not allowed access"],
  404: ["UNKNOWN_DOMAIN", "The given domain is not registered, or does not have a zone file"],
  422: ["INVALID_BODY", "Request body doesn't fulfill schema, see details in `fields`"],
  429: ["TOO_MANY_REQUESTS", "Too many requests received within interval"],
  500: ["INTERNAL_SERVER_ERROR", "Internal server error"],
};

export function startGodaddyFake(): GodaddyFake {
  const keys = new Map([[GODADDY_FAKE_KEY, GODADDY_FAKE_SECRET]]);
  const domains = new Map<string, GodaddyRecord[]>();

  function addRecord(domain: string, init: { name: string; type: string; data: string; ttl?: number }): GodaddyRecord {
    const records = domains.get(domain);
    if (!records) throw new Error(`fake GoDaddy: no domain ${domain}`);
    const record: GodaddyRecord = {
      name: init.name,
      type: init.type,
      data: init.data,
      ttl: init.ttl ?? GODADDY_DEFAULT_TTL,
    };
    records.push(record);
    return record;
  }

  function authorized(request: LoggedRequest): boolean {
    const match = /^sso-key ([^:]+):(.+)$/.exec(request.headers.authorization ?? "");
    return match !== null && keys.get(match[1]!) === match[2];
  }

  function listDomains(request: LoggedRequest): Response {
    const limit = request.query.limit === undefined ? 1000 : Number(request.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      return error(422, {}, undefined, undefined, [
        { code: "INVALID_VALUE", message: "limit must be between 1 and 1000", path: "limit" },
      ]);
    }
    const marker = request.query.marker;
    const names = [...domains.keys()].sort().filter((name) => marker === undefined || name > marker);
    return json(
      200,
      names
        .slice(0, limit)
        .map((domain, i) => ({ domain, domainId: 1000 + i, status: "ACTIVE", locked: true, renewAuto: true })),
    );
  }

  function route(request: LoggedRequest): Response {
    if (!authorized(request)) return error(401);
    if (fake.accessDenied) return error(403);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "domains") return error(404, {}, "NOT_FOUND", "The requested resource was not found");
    if (segments.length === 1)
      return request.method === "GET"
        ? listDomains(request)
        : error(404, {}, "NOT_FOUND", "The requested resource was not found");
    const records = domains.get(segments[1] ?? "");
    if (!records) return error(404);
    if (segments[2] !== "records" || segments.length !== 5)
      return error(404, {}, "NOT_FOUND", "The requested resource was not found");
    const type = segments[3]!;
    const name = segments[4]!;
    const matching = () => records.filter((r) => r.type === type && r.name === name);

    if (request.method === "GET") return json(200, matching());
    if (request.method === "DELETE") {
      // recordDeleteTypeName: every record of this type and name; 404 when there is none.
      if (matching().length === 0) return error(404, {}, "NOT_FOUND", "The requested resource was not found");
      for (const old of matching()) records.splice(records.indexOf(old), 1);
      return new Response(null, { status: 204 });
    }
    if (request.method !== "PUT") return error(404, {}, "NOT_FOUND", "The requested resource was not found");
    const invalid = check(type, request.body);
    if (invalid) return invalid;
    // The PUT replaces every record of this type and name.
    for (const old of matching()) records.splice(records.indexOf(old), 1);
    for (const item of request.body as { data: string; ttl?: number }[])
      addRecord(segments[1]!, { name, type, data: item.data, ttl: item.ttl });
    return new Response(null, { status: 200 });
  }

  const server = startFakeServer<GodaddyFault>({
    prefix: "/v1",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(
        mode.status,
        retryAfterHeader(mode.retryAfter),
        mode.code,
        mode.message,
        mode.fields,
        mode.retryAfterSec,
      );
    },
  });

  const fake: GodaddyFake = Object.assign(server, {
    keys,
    accessDenied: false,
    domains,
    addDomain: (name: string) => void domains.set(name, []),
    addRecord,
    records: (domain: string, name: string, type: string) =>
      domains.get(domain)?.filter((r) => r.name === name && r.type === type) ?? [],
    reset() {
      domains.clear();
      keys.clear();
      keys.set(GODADDY_FAKE_KEY, GODADDY_FAKE_SECRET);
      fake.accessDenied = false;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function check(type: string, body: unknown): Response | undefined {
  const field = (message: string, path: string) =>
    error(422, {}, undefined, undefined, [{ code: "INVALID_VALUE", message, path }]);
  if (type !== "A" && type !== "AAAA" && type !== "TXT") return field("type is not supported by this fake", "type");
  if (!Array.isArray(body) || body.length === 0) return field("must be a non-empty array of records", "records");
  for (const [i, item] of body.entries()) {
    if (typeof item !== "object" || item === null) return field("must be a record", `records[${i}]`);
    const { data, ttl } = item as Record<string, unknown>;
    if (typeof data !== "string" || (type === "A" && !isIPv4(data)) || (type === "AAAA" && !isIPv6(data))) {
      return field(
        type === "TXT" ? "data must be a string" : `data is not a valid ${type === "A" ? "IPv4" : "IPv6"} address`,
        `records[${i}].data`,
      );
    }
    if (ttl !== undefined && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 600 || ttl > 604800)) {
      return field("ttl must be between 600 and 604800", `records[${i}].ttl`);
    }
  }
  return undefined;
}

function error(
  status: number,
  headers: Record<string, string> = {},
  code?: string,
  message?: string,
  fields?: { code: string; message: string; path: string }[],
  retryAfterSec?: number,
): Response {
  const [defaultCode, defaultMessage] = CODES[status] ?? ["ERROR", "Error"];
  return json(
    status,
    {
      code: code ?? defaultCode,
      message: message ?? defaultMessage,
      ...(fields === undefined ? {} : { fields }),
      ...(retryAfterSec === undefined ? {} : { retryAfterSec }),
    },
    headers,
  );
}
