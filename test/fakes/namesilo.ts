// A faithful stand-in for the NameSilo API's DNS operations: every operation a GET on
// `/api/<operation>` with `version`, `type=json` and `key` in the query; answers HTTP 200 with the
// `{request, reply: {code, detail, …}}` envelope whether they succeed (code 300) or not (110 invalid
// key, 200 a domain that is not the account's, 280 a DNS change refused, …); `dnsListRecords` lists
// records with `host` the full name and `ttl` as a string, and sends `resource_record` as a bare
// object when the domain has one record; `rrhost` in writes is relative to the domain (`""` for the
// apex); `dnsUpdateRecord` replaces the record (a missing `rrttl` goes back to 7207) and, like
// `dnsAddRecord`, answers the record's id. `code` comes as a number from listings and as a string
// from writes, as the clients below found.
//
// Sources: namesilo.com/api-reference (dnsListRecords, dnsAddRecord, dnsUpdateRecord, dnsDeleteRecord, listDomains,
// response codes); qdm12/ddns-updater providers/namesilo (provider.go); libdns/namesilo (client.go,
// models.go, citing caddy-dns/namesilo#5 for the bare object). UNSURE: whether an update gives the
// record a new id (modelled: it does, and says so in `record_id`), the shape of listDomains' domain
// list (the client reads only its code), and how NameSilo says "slow down" (modelled as HTTP 429
// with the envelope, the wait in Retry-After when the fault names one).

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

export const NAMESILO_FAKE_API_KEY = "a1b2c3d4e5f60718293a4b5c";
/** The TTL a record gets when it is written without one. */
export const NAMESILO_DEFAULT_TTL = 7207;

export interface NamesiloRecord {
  record_id: string;
  type: string;
  /** The full name, e.g. `home.example.com`, or `example.com` for the apex. */
  host: string;
  value: string;
  ttl: number;
}

/**
 * `{code}`: an HTTP 200 refusal with that reply code (`detail` replaces its words); `{status}`: an
 * HTTP error with the envelope (`retryAfter` adds the header); `"malformed"` a 200 with broken JSON;
 * `"html"` a 502 page.
 */
export type NamesiloFault =
  | { code: number; detail?: string }
  | { status: number; detail?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface NamesiloFake extends FakeServer<NamesiloFault> {
  /** The keys accepted; delete one to revoke it mid-test. */
  keys: Set<string>;
  domains: Map<string, NamesiloRecord[]>;
  addDomain(name: string): void;
  /** `host` relative to the domain, `""` for the apex. */
  addRecord(domain: string, record: { host: string; type: string; value: string; ttl?: number }): NamesiloRecord;
  /** `host` relative to the domain, `""` for the apex. */
  record(domain: string, host: string, type: string): NamesiloRecord | undefined;
  /** Requests that changed a record (every request is a GET). */
  writes(): number;
  reset(): void;
}

const DETAILS: Record<number, string> = {
  110: "Invalid API Key",
  112: "API not available to Sub-Accounts",
  113: "This API account cannot be accessed from your IP",
  200: "Domain is not active, or does not belong to this user",
  201: "Internal system error",
  210: "General error",
  280: "DNS modification error",
};

const WRITES = new Set(["dnsAddRecord", "dnsUpdateRecord", "dnsDeleteRecord"]);

export function startNamesiloFake(): NamesiloFake {
  const keys = new Set([NAMESILO_FAKE_API_KEY]);
  const domains = new Map<string, NamesiloRecord[]>();
  let nextId = 0;
  const newId = () => (++nextId).toString(16).padStart(32, "0");
  const fullName = (domain: string, host: string) => (host === "" ? domain : `${host}.${domain}`);

  function addRecord(
    domain: string,
    init: { host: string; type: string; value: string; ttl?: number },
  ): NamesiloRecord {
    const records = domains.get(domain);
    if (!records) throw new Error(`fake NameSilo: no domain ${domain}`);
    const record: NamesiloRecord = {
      record_id: newId(),
      type: init.type,
      host: fullName(domain, init.host),
      value: init.value,
      ttl: init.ttl ?? NAMESILO_DEFAULT_TTL,
    };
    records.push(record);
    return record;
  }

  function route(request: LoggedRequest): Response {
    const operation = request.path.replace(/^\//, "");
    const q = request.query;
    if (request.method !== "GET") return reply(operation, 100, "Invalid request method");
    if (q.version !== "1" || q.type !== "json") return reply(operation, 104, "Invalid API version or type");
    if (!keys.has(q.key ?? "")) return reply(operation, 110);
    if (operation === "listDomains")
      return reply(operation, 300, undefined, { domains: { domain: [...domains.keys()].sort() } });
    if (!["dnsListRecords", "dnsAddRecord", "dnsUpdateRecord", "dnsDeleteRecord"].includes(operation))
      return reply(operation, 101, "Invalid API operation");
    const domain = q.domain ?? "";
    const records = domains.get(domain);
    if (!records) return reply(operation, 200);

    if (operation === "dnsListRecords") {
      const listed = records.map((r) => ({ ...r, ttl: String(r.ttl), distance: 0 }));
      return reply(
        operation,
        300,
        undefined,
        listed.length === 0 ? {} : { resource_record: listed.length === 1 ? listed[0] : listed },
        true,
      );
    }
    if (operation === "dnsDeleteRecord") {
      const at = records.findIndex((r) => r.record_id === q.rrid);
      if (at < 0) return reply(operation, 280, "Invalid record ID");
      records.splice(at, 1);
      return reply(operation, 300);
    }
    const invalid = check(q, operation === "dnsAddRecord");
    if (invalid) return reply(operation, 280, invalid);
    if (operation === "dnsAddRecord") {
      const record = addRecord(domain, {
        host: q.rrhost!,
        type: q.rrtype!,
        value: q.rrvalue!,
        ...(q.rrttl === undefined ? {} : { ttl: Number(q.rrttl) }),
      });
      return reply(operation, 300, undefined, { record_id: record.record_id });
    }
    const record = records.find((r) => r.record_id === q.rrid);
    if (!record) return reply(operation, 280, "Invalid record ID");
    const value = q.rrvalue!;
    if ((record.type === "A" && !isIPv4(value)) || (record.type === "AAAA" && !isIPv6(value)))
      return reply(operation, 280, `Invalid ${record.type} record value`);
    // The update replaces the record under a new id: a TTL left out goes back to the default.
    Object.assign(record, {
      record_id: newId(),
      host: fullName(domain, q.rrhost!),
      value,
      ttl: q.rrttl === undefined ? NAMESILO_DEFAULT_TTL : Number(q.rrttl),
    });
    return reply(operation, 300, undefined, { record_id: record.record_id });
  }

  const server = startFakeServer<NamesiloFault>({
    prefix: "/api",
    route,
    renderFault(mode, request) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const operation = request.path.replace(/^\//, "");
      if ("code" in mode) return reply(operation, mode.code, mode.detail);
      return json(
        mode.status,
        envelope(operation, String(mode.status), mode.detail ?? "Too many requests"),
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: NamesiloFake = Object.assign(server, {
    keys,
    domains,
    addDomain: (name: string) => void domains.set(name, []),
    addRecord,
    record: (domain: string, host: string, type: string) =>
      domains.get(domain)?.find((r) => r.host === fullName(domain, host) && r.type === type),
    writes: () => server.requests.filter((r) => WRITES.has(r.path.replace(/^\//, ""))).length,
    reset() {
      domains.clear();
      keys.clear();
      keys.add(NAMESILO_FAKE_API_KEY);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

/** Why a write's fields are refused (NameSilo's code 280), or undefined. */
function check(q: Record<string, string>, adding: boolean): string | undefined {
  if (q.rrhost === undefined || q.rrvalue === undefined) return "rrhost and rrvalue are required";
  if (!adding && q.rrid === undefined) return "rrid is required";
  if (adding) {
    if (q.rrtype !== "A" && q.rrtype !== "AAAA" && q.rrtype !== "TXT") return "rrtype is not supported by this fake";
    if ((q.rrtype === "A" && !isIPv4(q.rrvalue)) || (q.rrtype === "AAAA" && !isIPv6(q.rrvalue)))
      return `Invalid ${q.rrtype} record value`;
  }
  if (q.rrttl !== undefined) {
    const ttl = Number(q.rrttl);
    if (!Number.isInteger(ttl) || ttl < 3600 || ttl > 2592000) return "TTL must be between 3600 and 2592000";
  }
  return undefined;
}

function envelope(operation: string, code: number | string, detail: string, extra: Record<string, unknown> = {}) {
  return { request: { operation, ip: "127.0.0.1" }, reply: { code, detail, ...extra } };
}

/** NameSilo's answer: always HTTP 200; `numeric` sends the code as a number, as its listings do. */
function reply(
  operation: string,
  code: number,
  detail?: string,
  extra: Record<string, unknown> = {},
  numeric = false,
): Response {
  return json(
    200,
    envelope(
      operation,
      numeric ? code : String(code),
      detail ?? (code === 300 ? "success" : (DETAILS[code] ?? "Error")),
      extra,
    ),
  );
}
