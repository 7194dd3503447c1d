// A faithful stand-in for Vercel's REST API as ddnsd uses it for DNS: `Authorization: Bearer
// <token>`, domains owned by the personal account or by a team (a request names the team with
// `teamId`), domains and a domain's records listed newest first a page at a time (`limit` up to 100,
// default 20; `until` = the `pagination.next` timestamp of the page before, null on the last page),
// records with an id (`rec_…`), `name` relative to the domain (`""` for the apex), `type`, `value`,
// `ttl` and an optional `comment`; POST /v2/domains/{domain}/records answering `{uid, updated}`;
// PATCH /v1/domains/records/{id} changing only the fields sent and answering the record; and Vercel's
// `{error: {code, message}}` answers: 403 `forbidden` for a bad token (`invalidToken: true`) or a team
// the token cannot reach, 404 `not_found`, 400 `bad_request`, 429 `rate_limited` with
// `error.limit.reset` (Unix seconds).
//
// Switches: faults `{status, code?, message?, resetInSeconds?, retryAfter?}`, `"malformed"`, `"html"`.
//
// Sources: vercel.com/docs/rest-api (dns: list-existing-dns-records, create-a-dns-record,
// update-an-existing-dns-record, remove-a-dns-record (`DELETE /v2/domains/{domain}/records/{id}`); domains; errors); vercel/sdk docs/models, generated from the OpenAPI
// description at openapi.vercel.sh (ResponseBodyRecords, Pagination, UpdateRecordRequestBody,
// UpdateRecordResponseBody, CreateRecordResponseBody); jeessy2/ddns-go dns/vercel.go; go-acme/lego
// providers/dns/vercel/internal; stalwartlabs/dns-update providers/vercel.rs. UNSURE: the status of a
// request for a team the token is not a member of (modelled as 403 `forbidden`).

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

export const VERCEL_FAKE_TOKEN = "vercelfaketoken0123456789ABCDEF";
export const VERCEL_FAKE_TEAM = "team_ddnsdFakeTeam01";
/** The TTL Vercel gives a record created without one. */
const VERCEL_DEFAULT_TTL = 60;

export interface VercelRecord {
  id: string;
  slug: string;
  name: string;
  type: string;
  value: string;
  creator: string;
  created: number;
  updated: number;
  createdAt: number;
  updatedAt: number;
  ttl: number;
  comment?: string;
}

interface VercelDomain {
  name: string;
  /** `null` for the personal account, else the team's id. */
  team: string | null;
  createdAt: number;
  records: VercelRecord[];
}

export type VercelFault =
  | { status: number; code?: string; message?: string; resetInSeconds?: number; retryAfter?: number }
  | "malformed"
  | "html";

export interface VercelFake extends FakeServer<VercelFault> {
  /** Valid tokens; delete one to revoke it mid-test. */
  tokens: Set<string>;
  /** The teams the tokens can act for. */
  teams: Set<string>;
  domains: Map<string, VercelDomain>;
  addDomain(name: string, team?: string): void;
  addRecord(
    domain: string,
    record: { name: string; type: string; value: string; ttl?: number; comment?: string },
  ): VercelRecord;
  records(domain: string, name: string, type: string): VercelRecord[];
  reset(): void;
}

const DEFAULT_MESSAGES: Record<number, [string, string]> = {
  400: ["bad_request", "Invalid request"],
  403: ["forbidden", "Not authorized"],
  404: ["not_found", "The requested resource could not be found"],
  429: ["rate_limited", "Rate limit exceeded"],
  500: ["internal_server_error", "An unexpected internal error occurred"],
};

export function startVercelFake(): VercelFake {
  const tokens = new Set([VERCEL_FAKE_TOKEN]);
  const teams = new Set([VERCEL_FAKE_TEAM]);
  const domains = new Map<string, VercelDomain>();
  // Creation times: each new domain or record is a millisecond younger than the one before.
  let clock = 1_700_000_000_000;
  let nextId = 1;

  function addRecord(
    domain: string,
    init: { name: string; type: string; value: string; ttl?: number; comment?: string },
  ): VercelRecord {
    const owner = domains.get(domain);
    if (!owner) throw new Error(`fake Vercel: no domain ${domain}`);
    const now = ++clock;
    const record: VercelRecord = {
      id: `rec_${String(nextId++).padStart(20, "0")}`,
      slug: `${init.name === "" ? "" : `${init.name}.`}${domain}.-${init.type.toLowerCase()}`,
      name: init.name,
      type: init.type,
      value: init.value,
      creator: "system",
      created: now,
      updated: now,
      createdAt: now,
      updatedAt: now,
      ttl: init.ttl ?? VERCEL_DEFAULT_TTL,
      ...(init.comment === undefined ? {} : { comment: init.comment }),
    };
    owner.records.push(record);
    return record;
  }

  /** A page of `items` (newest first) created before `until`. */
  function page<T extends { createdAt: number }>(request: LoggedRequest, key: string, items: T[]): Response {
    const limit = request.query.limit === undefined ? 20 : Number(request.query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return error(400, {}, "bad_request", "Invalid request: `limit` should be <= 100");
    const until = request.query.until === undefined ? Infinity : Number(request.query.until);
    const older = items.filter((item) => item.createdAt < until).sort((a, b) => b.createdAt - a.createdAt);
    const shown = older.slice(0, limit);
    const last = shown.at(-1);
    return json(200, {
      [key]: shown,
      pagination: {
        count: shown.length,
        next: older.length > limit && last ? last.createdAt : null,
        prev: shown[0]?.createdAt ?? null,
      },
    });
  }

  function route(request: LoggedRequest): Response {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "");
    if (!bearer || !tokens.has(bearer[1]!))
      return json(403, { error: { code: "forbidden", message: "Not authorized", invalidToken: true } });
    const team = request.query.teamId ?? null;
    if (team !== null && !teams.has(team)) return error(403, {}, "forbidden", "Not authorized");
    const visible = (name: string) => {
      const domain = domains.get(name);
      return domain && domain.team === team ? domain : undefined;
    };
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};

    // GET /v5/domains
    if (segments[0] === "v5" && segments[1] === "domains" && segments.length === 2 && request.method === "GET") {
      return page(
        request,
        "domains",
        [...domains.values()]
          .filter((d) => d.team === team)
          .map(({ name, createdAt }) => ({ name, createdAt, verified: true, serviceType: "zeit.world" })),
      );
    }
    // GET /v5/domains/{domain}/records
    if (
      segments[0] === "v5" &&
      segments[1] === "domains" &&
      segments[3] === "records" &&
      segments.length === 4 &&
      request.method === "GET"
    ) {
      const domain = visible(segments[2]!);
      if (!domain) return error(404, {}, "not_found", `Domain ${segments[2]} not found`);
      return page(request, "records", domain.records);
    }
    // POST /v2/domains/{domain}/records
    if (
      segments[0] === "v2" &&
      segments[1] === "domains" &&
      segments[3] === "records" &&
      segments.length === 4 &&
      request.method === "POST"
    ) {
      const domain = visible(segments[2]!);
      if (!domain) return error(404, {}, "not_found", `Domain ${segments[2]} not found`);
      if (typeof body.name !== "string")
        return error(400, {}, "bad_request", "Invalid request: missing required property `name`");
      const invalid = check(body.type, body.value, body.ttl);
      if (invalid) return invalid;
      if (domain.records.some((r) => r.name === body.name && r.type === body.type && r.value === body.value)) {
        return error(400, {}, "record_already_exists", "A record with the same name, type and value already exists");
      }
      const record = addRecord(domain.name, {
        name: body.name,
        type: body.type as string,
        value: body.value as string,
        ttl: body.ttl as number | undefined,
        comment: body.comment as string | undefined,
      });
      return json(200, { uid: record.id, updated: record.updated });
    }
    // DELETE /v2/domains/{domain}/records/{id}
    if (
      segments[0] === "v2" &&
      segments[1] === "domains" &&
      segments[3] === "records" &&
      segments.length === 5 &&
      request.method === "DELETE"
    ) {
      const domain = visible(segments[2]!);
      const at = domain?.records.findIndex((r) => r.id === segments[4]) ?? -1;
      if (!domain || at < 0) return error(404, {}, "not_found", `DNS record ${segments[4]} not found`);
      domain.records.splice(at, 1);
      return json(200, {});
    }
    // PATCH /v1/domains/records/{id}
    if (
      segments[0] === "v1" &&
      segments[1] === "domains" &&
      segments[2] === "records" &&
      segments.length === 4 &&
      request.method === "PATCH"
    ) {
      const owner = [...domains.values()].find((d) => d.team === team && d.records.some((r) => r.id === segments[3]));
      const record = owner?.records.find((r) => r.id === segments[3]);
      if (!owner || !record) return error(404, {}, "not_found", `DNS record ${segments[3]} not found`);
      const invalid = check(body.type ?? record.type, body.value ?? record.value, body.ttl);
      if (invalid) return invalid;
      // Only the fields sent change.
      for (const key of ["name", "type", "value", "ttl", "comment"] as const)
        if (body[key] !== undefined) Object.assign(record, { [key]: body[key] });
      record.updated = record.updatedAt = ++clock;
      return json(200, {
        id: record.id,
        name: record.name,
        type: record.type,
        value: record.value,
        creator: record.creator,
        domain: owner.name,
        ttl: record.ttl,
        comment: record.comment,
        recordType: record.type,
        createdAt: record.createdAt,
      });
    }
    return error(404, {}, "not_found", "The requested resource could not be found");
  }

  const server = startFakeServer<VercelFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const limit =
        mode.resetInSeconds === undefined
          ? {}
          : {
              limit: {
                remaining: 0,
                reset: Math.floor(Date.now() / 1000) + mode.resetInSeconds,
                resetMs: Date.now() + mode.resetInSeconds * 1000,
                total: 100,
              },
            };
      return error(mode.status, retryAfterHeader(mode.retryAfter), mode.code, mode.message, limit);
    },
  });

  const fake: VercelFake = Object.assign(server, {
    tokens,
    teams,
    domains,
    addDomain: (name: string, team?: string) =>
      void domains.set(name, { name, team: team ?? null, createdAt: ++clock, records: [] }),
    addRecord,
    records: (domain: string, name: string, type: string) =>
      domains.get(domain)?.records.filter((r) => r.name === name && r.type === type) ?? [],
    reset() {
      domains.clear();
      tokens.clear();
      tokens.add(VERCEL_FAKE_TOKEN);
      teams.clear();
      teams.add(VERCEL_FAKE_TEAM);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function check(type: unknown, value: unknown, ttl: unknown): Response | undefined {
  if (type !== "A" && type !== "AAAA" && type !== "TXT")
    return error(400, {}, "bad_request", "Invalid request: `type` is not supported by this fake");
  if (typeof value !== "string" || (type === "A" && !isIPv4(value)) || (type === "AAAA" && !isIPv6(value))) {
    return error(400, {}, "invalid_value", `The value is not a valid ${type === "A" ? "IPv4" : "IPv6"} address`);
  }
  if (ttl !== undefined && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 60 || ttl > 2147483647)) {
    return error(400, {}, "bad_request", "Invalid request: `ttl` should be >= 60");
  }
  return undefined;
}

function error(
  status: number,
  headers: Record<string, string> = {},
  code?: string,
  message?: string,
  extra: Record<string, unknown> = {},
): Response {
  const [defaultCode, defaultMessage] = DEFAULT_MESSAGES[status] ?? ["error", "Error"];
  return json(status, { error: { code: code ?? defaultCode, message: message ?? defaultMessage, ...extra } }, headers);
}
