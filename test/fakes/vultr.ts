// A faithful stand-in for Vultr API v2's DNS: domains named by themselves, domains and records
// listed with cursor pagination (`per_page` up to 500, `meta: {total, links: {next, prev}}`), record
// ids that are UUIDs, names relative to the domain (`""` for the apex), a PATCH that changes only what
// it is sent and answers 204 with no body, a POST answering 201 `{record}`, several records of one
// name and type, TXT records (data kept as sent, in the quotes Vultr's panel and clients give it), a
// DELETE by id answering 204, API keys limited to
// allowed addresses (access control), and Vultr's `{"error", "status"}` answers.
//
// Checked against Vultr's own OpenAPI description (the one behind www.vultr.com/api, trimmed in
// test/conformance/descriptions/vultr.json): a new record without name, type or data, a TTL that is
// no integer, an unknown query parameter is refused (400, Vultr's `{"error", "status"}`) and
// recorded. Sources: www.vultr.com/api (DNS); docs.vultr.com (API keys,
// access control, rate limits); qdm12/ddns-updater providers/vultr (getrecord.go, updaterecord.go,
// createrecord.go); libdns/vultr; go-acme/lego providers/dns/vultr (TXT data in double quotes).

import { randomUUID } from "node:crypto";
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
const DESCRIPTION = openApiDescription("vultr", {
  title: "Vultr OpenAPI",
  apiRoot: "/v2",
  refuse: (_request, problems) => error(400, {}, problems.join("; ")),
});

export const VULTR_FAKE_API_KEY = "VULTRFAKEKEY0123456789ABCDEFGHIJKLMNO";
/** A key whose access control does not allow the address the requests come from. */
export const VULTR_FAKE_FENCED_KEY = "VULTRFENCEDKEY0123456789ABCDEFGHIJKL";

export interface VultrRecord {
  id: string;
  type: string;
  name: string;
  data: string;
  priority: number;
  ttl: number;
}

/**
 * `{status}` answers with Vultr's error body for that status (`error` replaces its words,
 * `retryAfter` adds the header); `"malformed"` is a 200 with broken JSON; `"html"` a 502 page.
 */
export type VultrFault = { status: number; error?: string; retryAfter?: number } | "malformed" | "html";

export interface VultrFake extends FakeServer<VultrFault> {
  /** Keys that authenticate; delete one to revoke it mid-test. */
  keys: Set<string>;
  /** Domain name → its records. */
  domains: Map<string, VultrRecord[]>;
  addDomain(name: string): void;
  /** `name` relative to the domain, `""` for the apex. */
  addRecord(domain: string, record: { name: string; type: string; data: string; ttl?: number }): VultrRecord;
  record(domain: string, name: string, type: string): VultrRecord | undefined;
  /** Every record of the name (relative, `""` for the apex) and type. */
  recordsNamed(domain: string, name: string, type: string): VultrRecord[];
  reset(): void;
}

const ERRORS: Record<number, string> = {
  401: "Invalid API token.",
  403: "Unauthorized",
  404: "Not found",
  405: "Method not allowed",
  429: "Rate limit reached - please try your request again later.",
  500: "Internal server error",
  503: "Service unavailable",
};

export function startVultrFake(): VultrFake {
  const keys = new Set([VULTR_FAKE_API_KEY]);
  const domains = new Map<string, VultrRecord[]>();

  function addRecord(domain: string, init: { name: string; type: string; data: string; ttl?: number }): VultrRecord {
    const records = domains.get(domain);
    if (!records) throw new Error(`fake Vultr: no domain ${domain}`);
    const record: VultrRecord = {
      id: randomUUID(),
      type: init.type,
      name: init.name,
      data: init.data,
      priority: -1,
      ttl: init.ttl ?? 300,
    };
    records.push(record);
    return record;
  }

  /** One page: the cursor is the offset, opaque to the client (Vultr's are base64 strings). */
  function page(request: LoggedRequest, key: string, items: unknown[]): Response {
    const perPage = request.query.per_page === undefined ? 100 : Number(request.query.per_page);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 500) return error(400, {}, "Invalid per_page value.");
    const start =
      request.query.cursor === undefined
        ? 0
        : Number(
            Buffer.from(request.query.cursor, "base64")
              .toString()
              .replace(/^next__/, ""),
          );
    if (!Number.isInteger(start) || start < 0) return error(400, {}, "Invalid cursor.");
    const end = start + perPage;
    const next = end < items.length ? Buffer.from(`next__${end}`).toString("base64") : "";
    const prev = start > 0 ? Buffer.from(`prev__${Math.max(0, start - perPage)}`).toString("base64") : "";
    return json(200, { [key]: items.slice(start, end), meta: { total: items.length, links: { next, prev } } });
  }

  function route(request: LoggedRequest): Response {
    const auth = request.headers.authorization ?? "";
    const key = auth.startsWith("Bearer ") ? auth.slice("Bearer ".length) : "";
    if (key === VULTR_FAKE_FENCED_KEY) return error(401, {}, "Unauthorized IP address: 127.0.0.1");
    if (!keys.has(key)) return error(401);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "domains") return error(404);
    if (segments.length === 1) {
      if (request.method !== "GET") return error(405);
      return page(
        request,
        "domains",
        [...domains.keys()]
          .sort()
          .map((domain) => ({ domain, date_created: "2024-01-01T00:00:00+00:00", dns_sec: "disabled" })),
      );
    }
    const name = segments[1] ?? "";
    const records = domains.get(name);
    if (!records) return error(404, {}, "Invalid domain.");
    if (segments.length === 2)
      return request.method === "GET"
        ? json(200, { domain: { domain: name, date_created: "2024-01-01T00:00:00+00:00", dns_sec: "disabled" } })
        : error(405);
    if (segments[2] !== "records" || segments.length > 4) return error(404);

    if (segments.length === 3) {
      if (request.method === "GET") return page(request, "records", records);
      if (request.method !== "POST") return error(405);
      const fields = objectBody(request);
      if (typeof fields.name !== "string") return error(400, {}, "Missing name.");
      if (fields.type !== "A" && fields.type !== "AAAA" && fields.type !== "TXT")
        return error(400, {}, "Invalid record type.");
      const invalid = checkData(fields.type, fields.data) ?? checkTtl(fields.ttl);
      if (invalid) return invalid;
      const record = addRecord(name, {
        name: fields.name,
        type: fields.type,
        data: fields.data as string,
        ttl: typeof fields.ttl === "number" ? fields.ttl : 300,
      });
      return json(201, { record });
    }

    const record = records.find((r) => r.id === segments[3]);
    if (!record) return error(404, {}, "Invalid record.");
    if (request.method === "GET") return json(200, { record });
    if (request.method === "DELETE") {
      domains.set(
        name,
        records.filter((r) => r !== record),
      );
      return new Response(null, { status: 204 });
    }
    if (request.method !== "PATCH") return error(405);
    const fields = objectBody(request);
    const invalid =
      (fields.data === undefined ? undefined : checkData(record.type, fields.data)) ?? checkTtl(fields.ttl);
    if (invalid) return invalid;
    // Only what is sent changes.
    if (typeof fields.data === "string") record.data = fields.data;
    if (typeof fields.ttl === "number") record.ttl = fields.ttl;
    if (typeof fields.name === "string") record.name = fields.name;
    return new Response(null, { status: 204 });
  }

  const server = startFakeServer<VultrFault>({
    prefix: "/v2",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(mode.status, retryAfterHeader(mode.retryAfter), mode.error);
    },
  });

  const fake: VultrFake = Object.assign(server, {
    keys,
    domains,
    addDomain: (name: string) => void domains.set(name, []),
    addRecord,
    record: (domain: string, name: string, type: string) =>
      domains.get(domain)?.find((r) => r.name === name && r.type === type),
    recordsNamed: (domain: string, name: string, type: string) =>
      (domains.get(domain) ?? []).filter((r) => r.name === name && r.type === type),
    reset() {
      domains.clear();
      keys.clear();
      keys.add(VULTR_FAKE_API_KEY);
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

function checkData(type: unknown, data: unknown): Response | undefined {
  if (type === "TXT") return typeof data === "string" && data !== "" ? undefined : error(400, {}, "Missing data.");
  if (typeof data !== "string" || (type === "A" && !isIPv4(data)) || (type === "AAAA" && !isIPv6(data))) {
    return error(400, {}, `Invalid ${type === "A" ? "IPv4" : "IPv6"} address.`);
  }
  return undefined;
}

function checkTtl(ttl: unknown): Response | undefined {
  if (ttl === undefined) return undefined;
  return typeof ttl === "number" && Number.isInteger(ttl) && ttl >= 0 ? undefined : error(400, {}, "Invalid TTL.");
}

function error(status: number, headers: Record<string, string> = {}, words?: string): Response {
  return json(status, { error: words ?? ERRORS[status] ?? "Error", status }, headers);
}
