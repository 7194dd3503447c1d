// A stand-in for Domeneshop's API v0: HTTP Basic auth (token as username, secret as password), the
// account's domains (`?domain=` filters by substring), a domain by id, its DNS records filtered by
// `?host=&type=`, a record created by POST (201, `{"id"}` and a Location header) and replaced by PUT
// (204, no body; a TTL left out becomes 3600) or deleted (204), several records of one name (an
// address set, TXT values), TTLs 60–604800 in multiples of 60, and errors as `{"code", "help"}`.
//
// Sources: api.domeneshop.no/docs (Domeneshop's published OpenAPI description, version v0: getDomains,
// getDnsRecords, POST/PUT/DELETE /domains/{domainId}/dns…, BaseRecord); domeneshop/python-domeneshop
// client.py (the official client: the {code, help} error body, the id from Location); go-acme/lego
// providers/dns/domeneshop (the `services.dns` flag). The error codes' wording is the fake's own.
//
// Checked against Domeneshop's own OpenAPI description (test/conformance/descriptions/domeneshop.json):
// a record without host, type or data, an A whose data is no IPv4 address, a TTL outside 60–604800,
// an unknown query parameter is refused (400 `{"code", "help"}`) and recorded.
//
// Quirk switches: faults `{status, code, help, retryAfter}`, "malformed", "html".

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
const DESCRIPTION = openApiDescription("domeneshop", {
  title: "Domeneshop OpenAPI",
  apiRoot: "/v0",
  refuse: (_request, problems) => json(400, { code: "validation", help: problems.join("; ") }),
});

export const DOMENESHOP_FAKE_TOKEN = "dsfaketoken01234";
export const DOMENESHOP_FAKE_SECRET = "domeneshop-fake-secret-0123456789abcdefghijklmnopqrstuvwxyz";
const DOMENESHOP_DEFAULT_TTL = 3600;

export interface DomeneshopRecord {
  id: number;
  host: string;
  type: string;
  data: string;
  ttl: number;
}

export interface DomeneshopDomain {
  id: number;
  domain: string;
  status: string;
  services: { dns: boolean; email: boolean; registrar: boolean; webhotel: string };
  records: DomeneshopRecord[];
}

export type DomeneshopFault =
  | { status: number; code?: string; help?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface DomeneshopFake extends FakeServer<DomeneshopFault> {
  /** `token:secret` pairs that authenticate. */
  credentials: Set<string>;
  domains: DomeneshopDomain[];
  addDomain(name: string, options?: { dns?: boolean }): DomeneshopDomain;
  domain(name: string): DomeneshopDomain | undefined;
  addRecord(domain: string, record: { host: string; type: string; data: string; ttl?: number }): DomeneshopRecord;
  records(domain: string, host: string, type: string): DomeneshopRecord[];
  reset(): void;
}

const ERRORS: Record<number, { code: string; help: string }> = {
  401: { code: "auth:invalid", help: "Invalid API credentials" },
  403: { code: "auth:forbidden", help: "These API credentials may not do this" },
  404: { code: "notFound", help: "The requested resource does not exist" },
  429: { code: "rateLimited", help: "Too many requests" },
  500: { code: "serverError", help: "A server error occurred" },
};

export function startDomeneshopFake(): DomeneshopFake {
  const initial = `${DOMENESHOP_FAKE_TOKEN}:${DOMENESHOP_FAKE_SECRET}`;
  const credentials = new Set([initial]);
  const domains: DomeneshopDomain[] = [];
  let nextDomainId = 500;
  let nextRecordId = 9000;

  function addDomain(name: string, options: { dns?: boolean } = {}): DomeneshopDomain {
    const domain: DomeneshopDomain = {
      id: nextDomainId++,
      domain: name,
      status: "active",
      services: { dns: options.dns ?? true, email: false, registrar: true, webhotel: "none" },
      records: [],
    };
    domains.push(domain);
    return domain;
  }

  const domainNamed = (name: string) => domains.find((d) => d.domain === name);

  function addRecord(name: string, init: { host: string; type: string; data: string; ttl?: number }): DomeneshopRecord {
    const domain = domainNamed(name);
    if (!domain) throw new Error(`fake Domeneshop: no domain ${name}`);
    const record = {
      id: nextRecordId++,
      host: init.host,
      type: init.type,
      data: init.data,
      ttl: init.ttl ?? DOMENESHOP_DEFAULT_TTL,
    };
    domain.records.push(record);
    return record;
  }

  const publicDomain = ({ records: _records, ...domain }: DomeneshopDomain) => ({
    ...domain,
    expiry_date: "2030-01-01",
    registered_date: "2010-01-01",
    renew: true,
    registrant: "Ola Nordmann",
    nameservers: ["ns1.hyp.net", "ns2.hyp.net", "ns3.hyp.net"],
  });

  /** The record fields a POST or PUT sends, checked as Domeneshop checks them; a problem's help text otherwise. */
  function recordFields(body: unknown): { host: string; type: string; data: string; ttl: number } | string {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return "Invalid JSON body";
    const fields = body as Record<string, unknown>;
    if (typeof fields.host !== "string") return "host is required";
    if (
      fields.type !== "A" &&
      fields.type !== "AAAA" &&
      fields.type !== "TXT" &&
      fields.type !== "MX" &&
      fields.type !== "CNAME"
    )
      return "type is invalid";
    if (typeof fields.data !== "string") return "data is required";
    if ((fields.type === "A" && !isIPv4(fields.data)) || (fields.type === "AAAA" && !isIPv6(fields.data)))
      return `data is not a valid ${fields.type === "A" ? "IPv4" : "IPv6"} address`;
    const ttl = fields.ttl ?? DOMENESHOP_DEFAULT_TTL;
    if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 60 || ttl > 604800 || ttl % 60 !== 0)
      return "TTL must be between 60 and 604800 and a multiple of 60";
    return { host: fields.host, type: fields.type, data: fields.data, ttl };
  }

  function route(request: LoggedRequest): Response {
    const auth = request.headers.authorization ?? "";
    const decoded = auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString() : "";
    if (!credentials.has(decoded)) return error(401);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "domains") return error(404);
    if (segments.length === 1) {
      if (request.method !== "GET") return error(405);
      const filter = request.query.domain;
      return json(200, domains.filter((d) => filter === undefined || d.domain.includes(filter)).map(publicDomain));
    }
    const domain = domains.find((d) => String(d.id) === segments[1]);
    if (!domain) return error(404);
    if (segments.length === 2) return request.method === "GET" ? json(200, publicDomain(domain)) : error(405);
    if (segments[2] !== "dns" || segments.length > 4) return error(404);

    if (segments.length === 3) {
      if (request.method === "GET") {
        const { host, type } = request.query;
        return json(
          200,
          domain.records.filter(
            (r) => (host === undefined || r.host === host) && (type === undefined || r.type === type),
          ),
        );
      }
      if (request.method !== "POST") return error(405);
      const fields = recordFields(request.body);
      if (typeof fields === "string") return json(400, { code: "dns:validation", help: fields });
      const record = { id: nextRecordId++, ...fields };
      domain.records.push(record);
      return json(
        201,
        { id: record.id },
        { Location: `https://api.domeneshop.no/v0/domains/${domain.id}/dns/${record.id}` },
      );
    }

    const record = domain.records.find((r) => String(r.id) === segments[3]);
    if (!record) return error(404);
    if (request.method === "GET") return json(200, record);
    if (request.method === "DELETE") {
      domain.records.splice(domain.records.indexOf(record), 1);
      return new Response(null, { status: 204 });
    }
    if (request.method !== "PUT") return error(405);
    const fields = recordFields(request.body);
    if (typeof fields === "string") return json(400, { code: "dns:validation", help: fields });
    // The PUT replaces the record; changed in place so a test holding it sees what the API did.
    Object.assign(record, fields);
    return new Response(null, { status: 204 });
  }

  const server = startFakeServer<DomeneshopFault>({
    prefix: "/v0",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const known = ERRORS[mode.status] ?? { code: "error", help: "Error" };
      return json(
        mode.status,
        { code: mode.code ?? known.code, help: mode.help ?? known.help },
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: DomeneshopFake = Object.assign(server, {
    credentials,
    domains,
    addDomain,
    domain: domainNamed,
    addRecord,
    records: (name: string, host: string, type: string) =>
      domainNamed(name)?.records.filter((r) => r.host === host && r.type === type) ?? [],
    reset() {
      domains.length = 0;
      credentials.clear();
      credentials.add(initial);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function error(status: number): Response {
  const known = ERRORS[status] ?? { code: "methodNotAllowed", help: "Method not allowed" };
  return json(status, known);
}
