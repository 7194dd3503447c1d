// A faithful stand-in for the Name.com API v4's DNS records: HTTP Basic credentials (username and
// API token), the account's registered domains and each domain's records listed a page at a time
// (`perPage` up to 1,000, `nextPage` and `lastPage` while there are more), numeric record ids,
// `host` relative to the domain (`""` for the apex) with `fqdn` (trailing dot), a PUT that replaces
// the record (a TTL left out goes back to 300), a POST that creates one, both answering the record,
// and Name.com's `{"message", "details"}` answers.
//
// Sources: docs.name.com (API v4: authentication, domains, DNS records, errors, rate limits;
// DeleteRecord, `DELETE /v4/domains/{domain}/records/{id}`, answers `{}`; a TXT record's answer is
// its text);
// qdm12/ddns-updater providers/namecom (getrecord.go, updaterecord.go, createrecord.go,
// response.go); lego namedotcom (via namedotcom/go). UNSURE: the status for wrong credentials
// (modelled as 403 "Permission Denied", as the clients above read it).

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

export const NAMECOM_FAKE_USERNAME = "ddnsd-user";
export const NAMECOM_FAKE_TOKEN = "namecomfaketoken0123456789abcdef01234567";
/** The TTL a record gets when it is written without one. */
export const NAMECOM_DEFAULT_TTL = 300;

export interface NamecomRecord {
  id: number;
  domainName: string;
  host: string;
  fqdn: string;
  type: string;
  answer: string;
  ttl: number;
}

/**
 * `{status}` answers with Name.com's error body for that status (`message`/`details` replace its
 * words, `retryAfter` adds the header); `"malformed"` is a 200 with broken JSON; `"html"` a 502 page.
 */
export type NamecomFault =
  | { status: number; message?: string; details?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface NamecomFake extends FakeServer<NamecomFault> {
  /** username → token; delete one to revoke it mid-test. */
  accounts: Map<string, string>;
  domains: Map<string, NamecomRecord[]>;
  addDomain(name: string): void;
  /** `host` relative to the domain, `""` for the apex. */
  addRecord(domain: string, record: { host: string; type: string; answer: string; ttl?: number }): NamecomRecord;
  record(domain: string, host: string, type: string): NamecomRecord | undefined;
  reset(): void;
}

const MESSAGES: Record<number, string> = {
  400: "Invalid Argument",
  401: "Unauthenticated",
  403: "Permission Denied",
  404: "Not Found",
  405: "Method Not Allowed",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function startNamecomFake(): NamecomFake {
  const accounts = new Map([[NAMECOM_FAKE_USERNAME, NAMECOM_FAKE_TOKEN]]);
  const domains = new Map<string, NamecomRecord[]>();
  let nextId = 200;

  function addRecord(
    domain: string,
    init: { host: string; type: string; answer: string; ttl?: number },
  ): NamecomRecord {
    const records = domains.get(domain);
    if (!records) throw new Error(`fake Name.com: no domain ${domain}`);
    const record: NamecomRecord = {
      id: ++nextId,
      domainName: domain,
      host: init.host,
      fqdn: `${init.host === "" ? "" : `${init.host}.`}${domain}.`,
      type: init.type,
      answer: init.answer,
      ttl: init.ttl ?? NAMECOM_DEFAULT_TTL,
    };
    records.push(record);
    return record;
  }

  function page(request: LoggedRequest, key: string, items: unknown[]): Response {
    const perPage = request.query.perPage === undefined ? 1000 : Number(request.query.perPage);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 1000)
      return error(400, {}, undefined, "perPage must be between 1 and 1000");
    const current = request.query.page === undefined ? 1 : Number(request.query.page);
    const lastPage = Math.max(1, Math.ceil(items.length / perPage));
    return json(200, {
      [key]: items.slice((current - 1) * perPage, current * perPage),
      ...(current < lastPage ? { nextPage: current + 1, lastPage } : {}),
      ...(key === "domains" ? { totalCount: items.length } : {}),
    });
  }

  function authorized(request: LoggedRequest): boolean {
    const header = request.headers.authorization ?? "";
    if (!header.startsWith("Basic ")) return false;
    const [username = "", ...rest] = Buffer.from(header.slice("Basic ".length), "base64").toString().split(":");
    return accounts.get(username) === rest.join(":");
  }

  function route(request: LoggedRequest): Response {
    if (!authorized(request)) return error(403, {}, undefined, "Authentication Error - Invalid Username Or Api Token");
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "domains") return error(404);
    if (segments.length === 1)
      return request.method === "GET"
        ? page(
            request,
            "domains",
            [...domains.keys()].sort().map((domainName) => ({ domainName, locked: true, autorenewEnabled: true })),
          )
        : error(405);
    const domain = segments[1] ?? "";
    const records = domains.get(domain);
    if (!records) return error(404);
    if (segments[2] !== "records" || segments.length > 4) return error(404);

    const fields =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
    if (segments.length === 3) {
      if (request.method === "GET") return page(request, "records", records);
      if (request.method !== "POST") return error(405);
      const invalid = check(fields);
      if (invalid) return invalid;
      return json(
        200,
        addRecord(domain, {
          host: fields.host as string,
          type: fields.type as string,
          answer: fields.answer as string,
          ttl: fields.ttl as number | undefined,
        }),
      );
    }
    const record = records.find((r) => r.id === Number(segments[3]));
    if (!record) return error(404);
    if (request.method === "GET") return json(200, record);
    if (request.method === "DELETE") {
      records.splice(records.indexOf(record), 1);
      return json(200, {});
    }
    if (request.method !== "PUT") return error(405);
    const invalid = check(fields);
    if (invalid) return invalid;
    // The PUT replaces the record: a TTL left out goes back to the default.
    Object.assign(record, {
      host: fields.host,
      fqdn: `${fields.host === "" ? "" : `${String(fields.host)}.`}${domain}.`,
      type: fields.type,
      answer: fields.answer,
      ttl: typeof fields.ttl === "number" ? fields.ttl : NAMECOM_DEFAULT_TTL,
    });
    return json(200, record);
  }

  const server = startFakeServer<NamecomFault>({
    prefix: "/v4",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(mode.status, retryAfterHeader(mode.retryAfter), mode.message, mode.details);
    },
  });

  const fake: NamecomFake = Object.assign(server, {
    accounts,
    domains,
    addDomain: (name: string) => void domains.set(name, []),
    addRecord,
    record: (domain: string, host: string, type: string) =>
      domains.get(domain)?.find((r) => r.host === host && r.type === type),
    reset() {
      domains.clear();
      accounts.clear();
      accounts.set(NAMECOM_FAKE_USERNAME, NAMECOM_FAKE_TOKEN);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function check(fields: Record<string, unknown>): Response | undefined {
  if (typeof fields.host !== "string") return error(400, {}, undefined, "host is required");
  if (fields.type !== "A" && fields.type !== "AAAA" && fields.type !== "TXT")
    return error(400, {}, undefined, "type is not supported by this fake");
  const answer = fields.answer;
  if (
    typeof answer !== "string" ||
    (fields.type === "A" && !isIPv4(answer)) ||
    (fields.type === "AAAA" && !isIPv6(answer))
  ) {
    return error(400, {}, undefined, `answer is not a valid ${fields.type === "A" ? "IPv4" : "IPv6"} address`);
  }
  if (
    fields.ttl !== undefined &&
    (typeof fields.ttl !== "number" || !Number.isInteger(fields.ttl) || fields.ttl < 300)
  ) {
    return error(400, {}, undefined, "TTL must be at least 300");
  }
  return undefined;
}

function error(status: number, headers: Record<string, string> = {}, message?: string, details?: string): Response {
  return json(
    status,
    { message: message ?? MESSAGES[status] ?? "Error", ...(details === undefined ? {} : { details }) },
    headers,
  );
}
