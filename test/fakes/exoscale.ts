// A stand-in for Exoscale DNS through the Exoscale API v2 (api-<zone>.exoscale.com/v2). Every
// request must carry `Authorization: EXO2-HMAC-SHA256 credential=<key>,[signed-query-args=…,]
// expires=<unix>,signature=<base64>`: the fake recomputes the HMAC-SHA256 with the key's secret over
// "METHOD /escaped/path\nbody\nsigned query values\n\nexpires" and refuses a wrong or expired one (403).
// `GET /dns-domain` (`{"dns-domains": [{id, "unicode-name"}]}`), `GET /dns-domain/{id}`,
// `GET /dns-domain/{id}/record` (`{"dns-domain-records": [{id, name, type, content, ttl, priority}]}`,
// every record, `""` naming the apex), `PUT /dns-domain/{id}/record/{record-id}` (changes only the
// fields sent), `DELETE` of it and `POST /dns-domain/{id}/record` (several records of one name: an
// address set, TXT values) answer an operation `{id, state, reference: {id}}`;
// `GET /operation/{id}` answers it again. Errors: `{"message": "..."}`.
//
// Checked against the Exoscale OpenAPI description (test/conformance/descriptions/exoscale.json):
// every request is validated; a forbidden one gets 400 and is recorded.
//
// Sources: openapi-v2.exoscale.com ("API request signature", list-dns-domains, get-dns-domain,
// list-dns-domain-records, update-dns-domain-record, create-dns-domain-record,
// delete-dns-domain-record, get-operation);
// independent clients: the official SDK exoscale/egoscale v3 (the signer; `Wait` polls the operation
// until it leaves `pending`), lego providers/dns/exoscale, octodns-exoscale.
// Quirks it can play: `pendingChecks` (an operation stays `pending` for that many reads),
// `failOperations` (operations end in `failure` with a reason).
// UNSURE: the exact words and status of a refused signature (modelled as 403 "Invalid request
// signature"), and a throttle answer (modelled as 429 with Retry-After).

import { createHmac, randomUUID } from "node:crypto";
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

const PREFIX = "/v2";

/** Exoscale's own published description, checked against every request (compiled once, at import, so no request waits for it). */
const DESCRIPTION = openApiDescription("exoscale", {
  title: "Exoscale OpenAPI",
  apiRoot: PREFIX,
  refuse: (_request, problems) => json(400, { message: `Invalid request: ${problems.join("; ")}` }),
});
export const EXOSCALE_FAKE_KEY = "EXO0a1b2c3d4e5f60718293a4b5";
export const EXOSCALE_FAKE_SECRET = "fakeExoscaleSecret-0123456789abcdefghijklmno";

export interface ExoscaleRecord {
  id: string;
  name: string;
  type: string;
  content: string;
  ttl: number;
  priority: number;
}

export type ExoscaleFault = { status: number; message?: string; retryAfter?: number } | "malformed" | "html";

export interface ExoscaleFake extends FakeServer<ExoscaleFault> {
  keys: Map<string, string>;
  /** domain id → its name and records. */
  domains: Map<string, { name: string; records: ExoscaleRecord[] }>;
  /** How many reads an operation stays `pending` for (0: it succeeds at once). */
  pendingChecks: number;
  /** Operations end in `failure` with this reason. */
  failOperations: string | null;
  addDomain(name: string): string;
  domainId(name: string): string | undefined;
  addRecord(domain: string, record: { name: string; type: string; content: string; ttl?: number }): ExoscaleRecord;
  records(domain: string, name: string, type: string): ExoscaleRecord[];
  reset(): void;
}

export function startExoscaleFake(): ExoscaleFake {
  const keys = new Map([[EXOSCALE_FAKE_KEY, EXOSCALE_FAKE_SECRET]]);
  const domains: ExoscaleFake["domains"] = new Map();
  const operations = new Map<string, { state: string; reads: number; reference: string; reason?: string }>();

  const domainId = (name: string) => [...domains.entries()].find(([, d]) => d.name === name)?.[0];

  function addRecord(
    domain: string,
    init: { name: string; type: string; content: string; ttl?: number },
  ): ExoscaleRecord {
    const id = domainId(domain);
    if (id === undefined) throw new Error(`fake Exoscale: no domain ${domain}`);
    const record = {
      id: randomUUID(),
      name: init.name,
      type: init.type,
      content: init.content,
      ttl: init.ttl ?? 3600,
      priority: 0,
    };
    domains.get(id)!.records.push(record);
    return record;
  }

  function signed(request: LoggedRequest): string | null {
    const header = request.headers.authorization ?? "";
    const match =
      /^EXO2-HMAC-SHA256 credential=([^,]+)(?:,signed-query-args=([^,]*))?,expires=(\d+),signature=(.+)$/.exec(header);
    if (!match) return "Invalid request signature";
    const [, key, args, expires, signature] = match as unknown as [string, string, string | undefined, string, string];
    const secret = keys.get(key);
    if (secret === undefined) return "Invalid request signature";
    if (Number(expires) < Date.now() / 1000) return "Request signature has expired";
    const names = args === undefined || args === "" ? [] : args.split(";");
    const values = names.map((n) => request.query[n] ?? "").join("");
    const body =
      request.body === undefined ? "" : typeof request.body === "string" ? request.body : JSON.stringify(request.body);
    const expected = createHmac("sha256", secret)
      .update([`${request.method} ${PREFIX}${request.path}`, body, values, "", expires].join("\n"))
      .digest("base64");
    return expected === signature ? null : "Invalid request signature";
  }

  function operation(reference: string): Response {
    const id = randomUUID();
    const op = {
      state: fake.pendingChecks > 0 ? "pending" : fake.failOperations ? "failure" : "success",
      reads: 0,
      reference,
      ...(fake.failOperations ? { reason: fake.failOperations } : {}),
    };
    operations.set(id, op);
    return json(200, render(id, op));
  }

  function render(id: string, op: { state: string; reference: string; reason?: string }) {
    return {
      id,
      state: op.state,
      reference: { id: op.reference, link: `/v2/dns-domain-record/${op.reference}`, command: "get-dns-domain-record" },
      ...(op.reason ? { reason: op.reason, message: "The operation could not be completed" } : {}),
    };
  }

  function route(request: LoggedRequest): Response {
    const refusal = signed(request);
    if (refusal) return json(403, { message: refusal });
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] === "operation" && segments.length === 2 && request.method === "GET") {
      const op = operations.get(segments[1]!);
      if (!op) return json(404, { message: "Operation not found" });
      if (op.state === "pending" && ++op.reads >= fake.pendingChecks) op.state = op.reason ? "failure" : "success";
      return json(200, render(segments[1]!, op));
    }
    if (segments[0] !== "dns-domain") return json(404, { message: "Not found" });
    if (segments.length === 1 && request.method === "GET") {
      return json(200, {
        "dns-domains": [...domains.entries()].map(([id, d]) => ({
          id,
          "unicode-name": d.name,
          "created-at": "2024-01-01T00:00:00Z",
        })),
      });
    }
    const domain = domains.get(segments[1]!);
    if (!domain) return json(404, { message: `DNS domain ${segments[1]} not found` });
    if (segments.length === 2 && request.method === "GET")
      return json(200, { id: segments[1], "unicode-name": domain.name, "created-at": "2024-01-01T00:00:00Z" });
    if (segments[2] !== "record") return json(404, { message: "Not found" });
    const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
      string,
      unknown
    >;
    const checkContent = (type: string, content: unknown) =>
      typeof content === "string" && (type === "A" ? isIPv4(content) : type === "AAAA" ? isIPv6(content) : true);
    if (segments.length === 3 && request.method === "GET")
      return json(200, {
        "dns-domain-records": domain.records.map((r) => ({
          ...r,
          "created-at": "2024-01-01T00:00:00Z",
          "updated-at": "2024-01-01T00:00:00Z",
        })),
      });
    if (segments.length === 3 && request.method === "POST") {
      const type = String(body.type);
      if (typeof body.name !== "string" || !checkContent(type, body.content))
        return json(400, { message: "Invalid record: name, type and content are required" });
      if (body.ttl !== undefined && (typeof body.ttl !== "number" || body.ttl < 1))
        return json(400, { message: "Invalid ttl" });
      const record = {
        id: randomUUID(),
        name: body.name,
        type,
        content: String(body.content),
        ttl: typeof body.ttl === "number" ? body.ttl : 3600,
        priority: 0,
      };
      if (fake.failOperations === null) domain.records.push(record);
      return operation(record.id);
    }
    const record = domain.records.find((r) => r.id === segments[3]);
    if (segments.length === 4 && request.method === "PUT") {
      if (!record) return json(404, { message: `DNS record ${segments[3]} not found` });
      if (body.content !== undefined && !checkContent(record.type, body.content))
        return json(400, { message: "Invalid content" });
      if (body.ttl !== undefined && (typeof body.ttl !== "number" || body.ttl < 1))
        return json(400, { message: "Invalid ttl" });
      if (fake.failOperations === null) {
        if (typeof body.content === "string") record.content = body.content;
        if (typeof body.ttl === "number") record.ttl = body.ttl;
        if (typeof body.name === "string") record.name = body.name;
      }
      return operation(record.id);
    }
    if (segments.length === 4 && request.method === "DELETE") {
      if (!record) return json(404, { message: `DNS record ${segments[3]} not found` });
      if (fake.failOperations === null) domain.records.splice(domain.records.indexOf(record), 1);
      return operation(record.id);
    }
    return json(404, { message: "Not found" });
  }

  const server = startFakeServer<ExoscaleFault>({
    prefix: PREFIX,
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return json(
        mode.status,
        { message: mode.message ?? (mode.status === 429 ? "Too many requests" : "Internal server error") },
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: ExoscaleFake = Object.assign(server, {
    keys,
    domains,
    pendingChecks: 0,
    failOperations: null as string | null,
    addDomain(name: string) {
      const id = randomUUID();
      domains.set(id, { name, records: [] });
      return id;
    },
    domainId,
    addRecord,
    records: (domain: string, name: string, type: string) =>
      domains.get(domainId(domain) ?? "")?.records.filter((r) => r.name === name && r.type === type) ?? [],
    reset() {
      domains.clear();
      operations.clear();
      keys.clear();
      keys.set(EXOSCALE_FAKE_KEY, EXOSCALE_FAKE_SECRET);
      fake.pendingChecks = 0;
      fake.failOperations = null;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
