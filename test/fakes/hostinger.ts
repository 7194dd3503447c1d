// A faithful stand-in for the Hostinger API's DNS zones: a bearer token; `GET
// /api/dns/v1/zones/{domain}` answers the zone's record sets (`{name, type, ttl, records: [{content,
// is_disabled}]}`, `name` relative, `@` for the apex); `PUT` on the same path takes `{overwrite,
// zone: [sets]}` — with `overwrite` true (the default) the sets of the same name and type are
// replaced and missing ones created, with false the TTL is updated and the records appended — and
// answers `{"message": "Request accepted"}`; `DELETE` on it takes `{filters: [{name, type}]}` and
// removes those sets whole; `GET /api/domains/v1/portfolio` lists the account's
// domains; errors are `{message, errors?, correlation_id}` (401 Unauthenticated, 404 a zone that is
// not the account's, 422 validation, 429).
//
// Sources: developers.hostinger.com (the API reference and its OpenAPI description, as carried by
// hostinger/api-cli and hostinger/api-typescript-sdk); lego providers/dns/hostinger (internal/
// client.go, types.go, fixtures: record sets, `overwrite`, the error body). UNSURE: the status for
// a zone that is not the account's (modelled as 404), the PUT's answer body (the client reads none),
// the portfolio items' fields, the TTL range (modelled 60–86400), and whether a 429 names a wait.
//
// Checked against Hostinger's own OpenAPI description (github.com/hostinger/api openapi.json, trimmed
// in test/conformance/descriptions/hostinger.json): a zone update without `zone`, a set without name,
// type or records, a record type it does not list, a TTL that is no integer is refused (422, Hostinger's
// validation answer) and recorded.

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
const DESCRIPTION = openApiDescription("hostinger", {
  title: "Hostinger OpenAPI",
  apiRoot: "/",
  refuse: (_request, problems) => error(422, {}, undefined, { request: problems }),
});

export const HOSTINGER_FAKE_TOKEN = "hostingerfaketoken0123456789abcdefABCDEF";
export const HOSTINGER_DEFAULT_TTL = 14400;

export interface HostingerSet {
  name: string;
  type: string;
  ttl: number;
  records: { content: string; is_disabled: boolean }[];
}

/** `{status}` answers Hostinger's error body for that status (`message`/`errors` replace its words, `retryAfter` adds the header). */
export type HostingerFault =
  | { status: number; message?: string; errors?: Record<string, string[]>; retryAfter?: number }
  | "malformed"
  | "html";

export interface HostingerFake extends FakeServer<HostingerFault> {
  /** The tokens accepted; delete one to revoke it mid-test. */
  tokens: Set<string>;
  zones: Map<string, HostingerSet[]>;
  addZone(name: string): void;
  /** `name` relative to the zone, `@` for the apex; one content makes a set of one. */
  addSet(zone: string, set: { name: string; type: string; contents: string[]; ttl?: number }): HostingerSet;
  set(zone: string, name: string, type: string): HostingerSet | undefined;
  reset(): void;
}

const MESSAGES: Record<number, string> = {
  401: "Unauthenticated",
  404: "Not found",
  405: "Method not allowed",
  422: "The given data was invalid.",
  429: "Too Many Attempts.",
  500: "Internal server error",
};

export function startHostingerFake(): HostingerFake {
  const tokens = new Set([HOSTINGER_FAKE_TOKEN]);
  const zones = new Map<string, HostingerSet[]>();

  function addSet(zone: string, init: { name: string; type: string; contents: string[]; ttl?: number }): HostingerSet {
    const sets = zones.get(zone);
    if (!sets) throw new Error(`fake Hostinger: no zone ${zone}`);
    const set: HostingerSet = {
      name: init.name,
      type: init.type,
      ttl: init.ttl ?? HOSTINGER_DEFAULT_TTL,
      records: init.contents.map((content) => ({ content, is_disabled: false })),
    };
    sets.push(set);
    return set;
  }

  function route(request: LoggedRequest): Response {
    if (
      request.headers.authorization === undefined ||
      !tokens.has(request.headers.authorization.replace(/^Bearer /, ""))
    )
      return error(401);
    if (request.path === "/api/domains/v1/portfolio") {
      return request.method === "GET"
        ? json(
            200,
            [...zones.keys()].sort().map((domain, i) => ({ id: i + 1, domain, type: "domain", status: "active" })),
          )
        : error(405);
    }
    const match = /^\/api\/dns\/v1\/zones\/([^/]+)$/.exec(request.path);
    if (!match) return error(404);
    const domain = decodeURIComponent(match[1]!);
    const sets = zones.get(domain);
    if (!sets) return error(404);
    if (request.method === "GET") return json(200, sets);
    if (request.method !== "PUT" && request.method !== "DELETE") return error(405);

    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
    if (request.method === "DELETE") {
      // Every set matching a filter (name and type) goes, all its records with it.
      const filters = Array.isArray(body.filters) ? (body.filters as Record<string, unknown>[]) : [];
      if (filters.length === 0)
        return error(422, {}, "The filters field is required.", { filters: ["The filters field is required."] });
      const kept = sets.filter((set) => !filters.some((f) => f.name === set.name && f.type === set.type));
      sets.splice(0, sets.length, ...kept);
      return json(200, { message: "Request accepted" });
    }
    const given = Array.isArray(body.zone) ? (body.zone as Record<string, unknown>[]) : undefined;
    if (!given || given.length === 0)
      return error(422, {}, "The zone field is required.", { zone: ["The zone field is required."] });
    for (const item of given) {
      const invalid = check(item);
      if (invalid) return error(422, {}, invalid, { zone: [invalid] });
    }
    const overwrite = body.overwrite !== false;
    for (const item of given) {
      // A record sent without is_disabled is enabled, whatever it was before.
      const contents = (item.records as { content: string; is_disabled?: unknown }[]).map((r) => ({
        content: r.content,
        is_disabled: r.is_disabled === true,
      }));
      const existing = sets.find((s) => s.name === item.name && s.type === item.type);
      const ttl = typeof item.ttl === "number" ? item.ttl : HOSTINGER_DEFAULT_TTL;
      if (!existing) sets.push({ name: item.name as string, type: item.type as string, ttl, records: contents });
      else if (overwrite) Object.assign(existing, { ttl, records: contents });
      else Object.assign(existing, { ttl, records: [...existing.records, ...contents] });
    }
    return json(200, { message: "Request accepted" });
  }

  const server = startFakeServer<HostingerFault>({
    prefix: "",
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(mode.status, retryAfterHeader(mode.retryAfter), mode.message, mode.errors);
    },
  });

  const fake: HostingerFake = Object.assign(server, {
    tokens,
    zones,
    addZone: (name: string) => void zones.set(name, []),
    addSet,
    set: (zone: string, name: string, type: string) => zones.get(zone)?.find((s) => s.name === name && s.type === type),
    reset() {
      zones.clear();
      tokens.clear();
      tokens.add(HOSTINGER_FAKE_TOKEN);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function check(item: Record<string, unknown>): string | undefined {
  if (typeof item.name !== "string" || item.name === "") return "The zone.0.name field is required.";
  if (item.type !== "A" && item.type !== "AAAA" && item.type !== "TXT") return "The selected zone.0.type is invalid.";
  if (!Array.isArray(item.records) || item.records.length === 0) return "The zone.0.records field is required.";
  for (const record of item.records as unknown[]) {
    const content = (record as { content?: unknown })?.content;
    if (
      typeof content !== "string" ||
      (item.type === "A" && !isIPv4(content)) ||
      (item.type === "AAAA" && !isIPv6(content))
    )
      return "The zone.0.records.0.content is invalid.";
  }
  if (
    item.ttl !== undefined &&
    (typeof item.ttl !== "number" || !Number.isInteger(item.ttl) || item.ttl < 60 || item.ttl > 86400)
  )
    return "The zone.0.ttl must be between 60 and 86400.";
  return undefined;
}

function error(
  status: number,
  headers: Record<string, string> = {},
  message?: string,
  errors?: Record<string, string[]>,
): Response {
  return json(
    status,
    {
      message: message ?? MESSAGES[status] ?? "Error",
      ...(errors === undefined ? {} : { errors }),
      correlation_id: "5f2c1d8e-0000-4000-8000-000000000000",
    },
    headers,
  );
}
