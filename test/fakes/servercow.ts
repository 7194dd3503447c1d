// A stand-in for Servercow's DNS API v1: `/dns/v1/domains/{domain}` with the X-Auth-Username and
// X-Auth-Password headers; GET lists the domain's records (`name` relative, `""` for the apex;
// `content` a string, or an array for TXT/CAA/TLSA), POST `{type, name, content, ttl}` creates the
// name and type or replaces everything it held and answers `{"message": "ok"}`, DELETE `{type,
// name}` removes that set (the wiki's api-syntax; lego's servercow provider deletes its TXT so,
// and sends a TXT set's values as an array). Failures are
// `{"error": "…"}` with HTTP 200 — refused credentials too — and a domain outside the account
// answers `no such domain in user context`.
//
// Sources: wiki.servercow.de/en/domains/dns_api/api-syntax; go-acme/lego providers/dns/servercow
// (records fixture, "the API always returns 200 even if the authentication failed");
// qdm12/ddns-updater providers/servercow (`"message": "ok"`); acme.sh dns_servercow (`no such domain
// in user context`). UNSURE: Servercow publishes no wording for refused credentials or a bad value:
// the fake's are its own ("authentication failed", "invalid content for type A"); whether an unknown
// user gets that or `no such domain in user context` is not documented either.
//
// Quirk switches: faults `{error}` (HTTP 200 with that error), `{status, retryAfter}` (an HTTP-level
// answer, e.g. 429 or 502), "malformed", "html".

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

export const SERVERCOW_FAKE_USERNAME = "ddnsd-api-user";
export const SERVERCOW_FAKE_PASSWORD = "servercow-fake-password-0123456789";

export interface ServercowRecord {
  name: string;
  type: string;
  ttl: number;
  content: string | string[];
}

export type ServercowFault = { error: string } | { status: number; retryAfter?: number } | "malformed" | "html";

export interface ServercowFake extends FakeServer<ServercowFault> {
  /** `username:password` pairs that authenticate. */
  credentials: Set<string>;
  /** Domain → its records. */
  domains: Map<string, ServercowRecord[]>;
  addDomain(name: string): void;
  addRecord(domain: string, record: ServercowRecord): ServercowRecord;
  records(domain: string, name: string, type: string): ServercowRecord[];
  reset(): void;
}

export function startServercowFake(): ServercowFake {
  const initial = `${SERVERCOW_FAKE_USERNAME}:${SERVERCOW_FAKE_PASSWORD}`;
  const credentials = new Set([initial]);
  const domains = new Map<string, ServercowRecord[]>();

  function addRecord(domain: string, record: ServercowRecord): ServercowRecord {
    const records = domains.get(domain);
    if (!records) throw new Error(`fake Servercow: no domain ${domain}`);
    records.push(record);
    return record;
  }

  const error = (words: string) => json(200, { error: words });

  function route(request: LoggedRequest): Response {
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments.length !== 1) return plainText("Not Found", 404);
    const user = request.headers["x-auth-username"] ?? "";
    const password = request.headers["x-auth-password"] ?? "";
    if (!credentials.has(`${user}:${password}`)) return error("authentication failed");
    const records = domains.get(segments[0]!);
    if (!records) return error("no such domain in user context");

    if (request.method === "GET") return json(200, records);
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
    if (request.method === "DELETE") {
      // `{type, name}`: the name and type's whole set goes.
      if (typeof body.type !== "string" || typeof body.name !== "string") return error("missing parameters");
      const doomed = records.filter((r) => r.name === body.name && r.type === body.type);
      for (const record of doomed) records.splice(records.indexOf(record), 1);
      return json(200, { message: "ok" });
    }
    if (request.method !== "POST") return error("method not allowed");
    const { type, name, content, ttl } = body;
    if (typeof type !== "string" || typeof name !== "string" || content === undefined)
      return error("missing parameters");
    const values = Array.isArray(content) ? content : [content];
    for (const value of values) {
      if (typeof value !== "string" || (type === "A" && !isIPv4(value)) || (type === "AAAA" && !isIPv6(value)))
        return error(`invalid content for type ${type}`);
    }
    if (ttl !== undefined && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 1))
      return error("invalid ttl");
    // The name and type's whole set is replaced by what was sent; the first record is changed in
    // place so a test holding it sees what the API did.
    const existing = records.filter((r) => r.name === name && r.type === type);
    const kept = existing[0];
    for (const extra of existing.slice(1)) records.splice(records.indexOf(extra), 1);
    const stored = { name, type, ttl: typeof ttl === "number" ? ttl : 120, content: content as string | string[] };
    if (kept) Object.assign(kept, stored);
    else records.push(stored);
    return json(200, { message: "ok" });
  }

  const server = startFakeServer<ServercowFault>({
    prefix: "/dns/v1/domains",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      if ("error" in mode) return error(mode.error);
      return plainText(
        mode.status === 429 ? "Too Many Requests" : "Error",
        mode.status,
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: ServercowFake = Object.assign(server, {
    credentials,
    domains,
    addDomain: (name: string) => void domains.set(name, []),
    addRecord,
    records: (domain: string, name: string, type: string) =>
      domains.get(domain)?.filter((r) => r.name === name && r.type === type) ?? [],
    reset() {
      domains.clear();
      credentials.clear();
      credentials.add(initial);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
