// A faithful stand-in for Gandi LiveDNS v5 (docs/services/gandi.md): domains listed a page at a time with
// the total in a `total-count` header, record sets addressed by relative name (`@` apex) and type,
// the PUT that replaces the whole set, answers 201 even for an update and resets a TTL it is not
// sent, its validation answers (`{"status": "error", "errors": [...]}`) and its `{code, message,
// object, cause}` errors.
//
// Sources: docs/services/gandi.md; api.gandi.net/docs/livedns; qdm12/ddns-updater providers/gandi/provider.go
// (201 only); libdns/gandi client.go (error shape, total-count); octodns-gandi (TTL minimum 300).
//
// TXT sets (the ACME challenge) hold each value as a quoted string, as a zone file writes it, and a
// DELETE of a set's path removes it (api.gandi.net/docs/livedns, "Delete record"; lego's gandiv5
// provider quotes the value and deletes the set once it is empty).
//
// Documentation: https://api.gandi.net/docs/livedns/. No machine-readable description is published.
//
// Quirk switches: `omittedTtl` ("default": a PUT without rrset_ttl resets it; "kept"), faults
// `{status, message, retryAfter}` (429 with Retry-After for the rate limit).

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

export const GANDI_FAKE_TOKEN = "gandi-fake-pat-0123456789abcdef";
/** What a PUT without `rrset_ttl` leaves in the record set (Gandi's default, reportedly). */
export const GANDI_DEFAULT_TTL = 10800;
const GANDI_MIN_TTL = 300;
const GANDI_MAX_TTL = 2592000;

export interface GandiRrset {
  rrset_name: string;
  rrset_type: string;
  rrset_ttl: number;
  rrset_values: string[];
}

/**
 * `{status}` answers with Gandi's error body for that status (`retryAfter` adds the header);
 * `"malformed"` is a 200 with broken JSON; `"html"` a 502 page from a proxy in front.
 */
export type GandiFault = { status: number; message?: string; retryAfter?: number } | "malformed" | "html";

export interface GandiFake extends FakeServer<GandiFault> {
  /** Tokens that authenticate; delete to revoke (or expire) one mid-test. */
  tokens: Set<string>;
  /**
   * What a PUT without `rrset_ttl` does to an existing set (UNSURE for v5): `"default"` resets it to
   * GANDI_DEFAULT_TTL, as reported; `"kept"` leaves it.
   */
  omittedTtl: "default" | "kept";
  /** Domain fqdn → its record sets by `name|type`. */
  domains: Map<string, Map<string, GandiRrset>>;
  addDomain(fqdn: string): void;
  /** `name` relative to the domain, `@` for the apex. */
  addRrset(fqdn: string, rrset: { name: string; type: string; values: string[]; ttl?: number }): GandiRrset;
  rrset(fqdn: string, name: string, type: string): GandiRrset | undefined;
  reset(): void;
}

const ERRORS: Record<number, { message: string; object: string; cause: string }> = {
  401: {
    message:
      "The server could not verify that you authorized to access the document you requested. Either you supplied the wrong credentials (e.g., bad api key), or your access token has expired",
    object: "HTTPUnauthorized",
    cause: "Unauthorized",
  },
  403: { message: "Access was denied to this resource.", object: "HTTPForbidden", cause: "Forbidden" },
  404: { message: "The resource could not be found.", object: "HTTPNotFound", cause: "Not Found" },
  429: { message: "Too many requests, slow down.", object: "HTTPTooManyRequests", cause: "Too Many Requests" },
  500: { message: "Internal Server Error", object: "HTTPInternalServerError", cause: "Internal Server Error" },
  503: { message: "Service Unavailable", object: "HTTPServiceUnavailable", cause: "Service Unavailable" },
};

export function startGandiFake(options: { tokens?: string[] } = {}): GandiFake {
  const initialTokens = options.tokens ?? [GANDI_FAKE_TOKEN];
  const tokens = new Set(initialTokens);
  const domains = new Map<string, Map<string, GandiRrset>>();
  const key = (name: string, type: string) => `${name}|${type}`;

  function addRrset(fqdn: string, init: { name: string; type: string; values: string[]; ttl?: number }): GandiRrset {
    const sets = domains.get(fqdn);
    if (!sets) throw new Error(`fake Gandi: no domain ${fqdn}`);
    const rrset = {
      rrset_name: init.name,
      rrset_type: init.type,
      rrset_ttl: init.ttl ?? GANDI_DEFAULT_TTL,
      rrset_values: init.values,
    };
    sets.set(key(init.name, init.type), rrset);
    return rrset;
  }

  function route(request: LoggedRequest): Response {
    const auth = request.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || !tokens.has(auth.slice("Bearer ".length))) return error(401);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "domains") return error(404);

    if (segments.length === 1) {
      if (request.method !== "GET") return error(405);
      const perPage = Math.min(Math.max(Number(request.query.per_page) || 100, 1), 1000);
      const page = Math.max(Number(request.query.page) || 1, 1);
      const names = [...domains.keys()].sort();
      const items = names.slice((page - 1) * perPage, page * perPage).map((fqdn) => ({
        fqdn,
        fqdn_unicode: fqdn,
        domain_href: `https://api.gandi.net/v5/livedns/domains/${fqdn}`,
        domain_records_href: `https://api.gandi.net/v5/livedns/domains/${fqdn}/records`,
        automatic_snapshots: false,
      }));
      return json(200, items, { "total-count": String(names.length) });
    }

    const fqdn = segments[1] ?? "";
    const sets = domains.get(fqdn);
    if (!sets) return error(404);
    if (segments.length === 2) {
      return request.method === "GET" ? json(200, { fqdn, automatic_snapshots: false }) : error(405);
    }
    if (segments[2] !== "records" || segments.length !== 5) return error(404);
    const name = segments[3] ?? "";
    const type = segments[4] ?? "";

    if (request.method === "GET") {
      const rrset = sets.get(key(name, type));
      if (!rrset)
        return json(404, {
          code: 404,
          message: `Can't find the DNS record ${name}/${type} in the zone`,
          object: "dns-record",
          cause: "Not Found",
        });
      return json(200, {
        ...rrset,
        rrset_href: `https://api.gandi.net/v5/livedns/domains/${fqdn}/records/${name}/${type}`,
      });
    }
    if (request.method === "DELETE") {
      if (!sets.delete(key(name, type)))
        return json(404, { code: 404, message: "The resource could not be found.", object: "HTTPNotFound" });
      return new Response(null, { status: 204 });
    }
    if (request.method !== "PUT") return error(405);

    const body = request.body;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return invalid("body", "Invalid JSON body");
    const fields = body as Record<string, unknown>;
    const values = fields.rrset_values;
    if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === "string")) {
      return invalid("rrset_values", "Missing data for required field.");
    }
    for (const value of values as string[]) {
      if ((type === "A" && !isIPv4(value)) || (type === "AAAA" && !isIPv6(value))) {
        return invalid("rrset_values", `${value} is not a valid ${type === "A" ? "IPv4" : "IPv6"} address`);
      }
    }
    const existing = sets.get(key(name, type));
    let ttl = fake.omittedTtl === "kept" && existing ? existing.rrset_ttl : GANDI_DEFAULT_TTL;
    if (fields.rrset_ttl !== undefined) {
      if (typeof fields.rrset_ttl !== "number" || !Number.isInteger(fields.rrset_ttl))
        return invalid("rrset_ttl", "Not a valid integer.");
      if (fields.rrset_ttl < GANDI_MIN_TTL)
        return invalid("rrset_ttl", `${fields.rrset_ttl} is less than minimum value ${GANDI_MIN_TTL}`);
      if (fields.rrset_ttl > GANDI_MAX_TTL)
        return invalid("rrset_ttl", `${fields.rrset_ttl} is greater than maximum value ${GANDI_MAX_TTL}`);
      ttl = fields.rrset_ttl;
    }
    if (existing) {
      // Changed in place, so a test holding the record set sees what the API did to it.
      Object.assign(existing, { rrset_ttl: ttl, rrset_values: [...(values as string[])] });
    } else {
      sets.set(key(name, type), {
        rrset_name: name,
        rrset_type: type,
        rrset_ttl: ttl,
        rrset_values: [...(values as string[])],
      });
    }
    return json(201, { message: "DNS Record Created" });
  }

  const server = startFakeServer<GandiFault>({
    prefix: "/v5/livedns",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const headers = retryAfterHeader(mode.retryAfter);
      return error(mode.status, headers, mode.message);
    },
  });

  const fake: GandiFake = Object.assign(server, {
    tokens,
    omittedTtl: "default" as "default" | "kept",
    domains,
    addDomain: (fqdn: string) => void domains.set(fqdn, new Map()),
    addRrset,
    rrset: (fqdn: string, name: string, type: string) => domains.get(fqdn)?.get(key(name, type)),
    reset() {
      domains.clear();
      tokens.clear();
      for (const token of initialTokens) tokens.add(token);
      fake.omittedTtl = "default";
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function error(status: number, headers: Record<string, string> = {}, message?: string): Response {
  const known = ERRORS[status] ?? {
    message: "Method Not Allowed",
    object: "HTTPMethodNotAllowed",
    cause: "Method Not Allowed",
  };
  return json(
    status,
    { code: status, message: message ?? known.message, object: known.object, cause: known.cause },
    headers,
  );
}

function invalid(name: string, description: string): Response {
  return json(400, { status: "error", errors: [{ location: "body", name, description }] });
}
