// A stand-in for Njalla's API: JSON-RPC over one URL (`POST /api/1/`), `Authorization: Njalla
// <token>`, the methods list-domains, list-records, add-record and edit-record, and answers that are
// HTTP 200 with either `result` or `error: {code, message}` — a refused token included
// (`{"code": 403, "message": "Invalid token."}`). Records have string ids, a name relative to the
// domain (`@` for the apex), type, content and a TTL from Njalla's list.
//
// Sources: njal.la/api (the method list and parameters; remove-record takes the domain and id, as
// lego's njalla provider removes its TXT record); go-acme/lego providers/dns/njalla/internal
// (fixtures: list_records, add_record, auth_error "Invalid token." code 403, missing-parameter
// errors code 400); libdns/njalla types.go (record fields, edit-record with the whole record);
// Sighery/gonjalla records.go (the TTLs Njalla takes: 60, 300, 900, 3600, 10800, 21600, 86400).
// Njalla documents no error code list: a domain not in the account answers code 403 "permission
// denied" (seen from the real service: the same code as a refused token, other words); a TTL outside
// the list answering code 400 is this fake's reading.
//
// Quirk switches: faults `{code, message}` (a JSON-RPC error, HTTP 200), `{status, retryAfter}` (an
// HTTP-level answer, e.g. 429 or 502), "malformed", "html".

import { isIPv4, isIPv6 } from "node:net";
import {
  type FakeServer,
  htmlErrorPage,
  json,
  type LoggedRequest,
  malformedJson,
  plainText,
  retryAfterHeader,
  startFakeServer,
} from "./server";

export const NJALLA_FAKE_TOKEN = "0123456789abcdef0123456789abcdef01234567";
const TTLS = [60, 300, 900, 3600, 10800, 21600, 86400];

export interface NjallaRecord {
  id: string;
  name: string;
  type: string;
  content: string;
  ttl: number;
}

export type NjallaFault =
  | { code: number; message: string }
  | { status: number; retryAfter?: number }
  | "malformed"
  | "html";

export interface NjallaFake extends FakeServer<NjallaFault> {
  tokens: Set<string>;
  /** Domain name → its records. */
  domains: Map<string, NjallaRecord[]>;
  addDomain(name: string): void;
  addRecord(domain: string, record: { name: string; type: string; content: string; ttl?: number }): NjallaRecord;
  records(domain: string, name: string, type: string): NjallaRecord[];
  reset(): void;
}

export function startNjallaFake(): NjallaFake {
  const tokens = new Set([NJALLA_FAKE_TOKEN]);
  const domains = new Map<string, NjallaRecord[]>();
  let nextId = 7000;

  function addRecord(
    domain: string,
    init: { name: string; type: string; content: string; ttl?: number },
  ): NjallaRecord {
    const records = domains.get(domain);
    if (!records) throw new Error(`fake Njalla: no domain ${domain}`);
    const record = {
      id: String(nextId++),
      name: init.name,
      type: init.type,
      content: init.content,
      ttl: init.ttl ?? 10800,
    };
    records.push(record);
    return record;
  }

  const rpcError = (id: unknown, code: number, message: string) =>
    json(200, { jsonrpc: "2.0", id, error: { code, message } });
  const rpcResult = (id: unknown, result: unknown) => json(200, { jsonrpc: "2.0", id, result });

  /** What is wrong with a record's fields; undefined when Njalla would take them. */
  function invalid(type: unknown, fields: Record<string, unknown>): string | undefined {
    if (typeof fields.content !== "string") return "missing content";
    if ((type === "A" && !isIPv4(fields.content)) || (type === "AAAA" && !isIPv6(fields.content)))
      return "invalid content";
    if (fields.ttl !== undefined && !TTLS.includes(fields.ttl as number)) return "invalid ttl";
    return undefined;
  }

  function route(request: LoggedRequest): Response {
    if (request.method !== "POST" || request.path !== "/") return plainText("Not Found", 404);
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : undefined;
    if (!body || typeof body.method !== "string") return rpcError(null, 400, "invalid request");
    const auth = request.headers.authorization ?? "";
    if (!auth.startsWith("Njalla ") || !tokens.has(auth.slice("Njalla ".length)))
      return rpcError(body.id, 403, "Invalid token.");
    const params =
      typeof body.params === "object" && body.params !== null ? (body.params as Record<string, unknown>) : {};

    if (body.method === "list-domains") {
      return rpcResult(body.id, {
        domains: [...domains.keys()].map((name) => ({ name, status: "active", expiry: "2030-01-01T00:00:00Z" })),
      });
    }
    if (!["list-records", "add-record", "edit-record", "remove-record"].includes(body.method))
      return rpcError(body.id, 400, "unknown method");
    if (typeof params.domain !== "string") return rpcError(body.id, 400, "missing domain");
    const records = domains.get(params.domain);
    if (!records) return rpcError(body.id, 403, "permission denied");

    if (body.method === "list-records") return rpcResult(body.id, { records });

    if (body.method === "add-record") {
      if (typeof params.name !== "string") return rpcError(body.id, 400, "missing name");
      if (typeof params.type !== "string") return rpcError(body.id, 400, "missing type");
      const problem = invalid(params.type, params);
      if (problem) return rpcError(body.id, 400, problem);
      return rpcResult(
        body.id,
        addRecord(params.domain, {
          name: params.name,
          type: params.type,
          content: params.content as string,
          ttl: (params.ttl as number | undefined) ?? 10800,
        }),
      );
    }

    if (params.id === undefined) return rpcError(body.id, 400, "missing id");
    const record = records.find((r) => r.id === String(params.id));
    if (!record) return rpcError(body.id, 404, "Record not found.");
    if (body.method === "remove-record") {
      records.splice(records.indexOf(record), 1);
      return rpcResult(body.id, {});
    }
    const problem = invalid(record.type, params);
    if (problem) return rpcError(body.id, 400, problem);
    // Changed in place, so a test holding the record sees what the API did.
    record.content = params.content as string;
    if (typeof params.ttl === "number") record.ttl = params.ttl;
    return rpcResult(body.id, record);
  }

  const server = startFakeServer<NjallaFault>({
    prefix: "/api/1",
    route,
    renderFault(mode, request) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      if ("code" in mode) {
        const id =
          typeof request.body === "object" && request.body !== null
            ? (request.body as Record<string, unknown>).id
            : null;
        return rpcError(id, mode.code, mode.message);
      }
      return plainText(
        mode.status === 429 ? "Too Many Requests" : "Error",
        mode.status,
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: NjallaFake = Object.assign(server, {
    tokens,
    domains,
    addDomain: (name: string) => void domains.set(name, []),
    addRecord,
    records: (domain: string, name: string, type: string) =>
      domains.get(domain)?.filter((r) => r.name === name && r.type === type) ?? [],
    reset() {
      domains.clear();
      tokens.clear();
      tokens.add(NJALLA_FAKE_TOKEN);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
