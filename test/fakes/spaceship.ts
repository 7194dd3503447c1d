// A faithful stand-in for the Spaceship API as ddnsd uses it for DNS (base `…/api`): `X-API-Key` +
// `X-API-Secret` on every request (401 otherwise); GET /v1/domains and GET /v1/dns/records/{domain}
// paged with the required `take` and `skip` (`{items, total}`; 100 domains, 500 records a page at
// most); records with no id, known by type, name (relative, `@` for the apex) and data, each with a
// `ttl` and a `group: {type}` (`custom` for a person's records); PUT /v1/dns/records/{domain}
// `{force, items}` that ADDS each record, or changes the TTL of one with the same type, name and
// address, answering 204; DELETE /v1/dns/records/{domain} with the list of records to delete, by
// type, name and address, answering 204; errors as `{detail, data?: [{field, details}]}`: 401 for
// wrong credentials, 404 "SOA record for domain … not found." for a domain that is not the
// account's, 422 for a record it refuses, 429 with `Retry-After` (seconds) for the rate limit.
//
// Switches: faults `{status, detail?, retryAfter?}`, `"malformed"`, `"html"` (match DELETE only to
// play a failure between the two requests of a change of address).
//
// Sources: docs.spaceship.dev (authentication, domain list, DNS records: list, save, delete; rate
// limits); qdm12/ddns-updater providers/spaceship (getrecord.go: take/skip required, the 404 detail;
// types.go: the error body; createrecord.go, deleterecord.go: 204); jeessy2/ddns-go dns/spaceship.go
// (`{items, total}`, `group`, DELETE body); namecheap/terraform-provider-spaceship internal/client/dns.go
// (paging by total, take 500) and docs/resources/dns_record.md (records matched by type, name and data;
// TTL 60–3600). UNSURE: the exact words of a 401 (modelled as "Unauthorized").

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

export const SPACESHIP_FAKE_KEY = "JdIS8QYFMZpVKupJtdc3";
export const SPACESHIP_FAKE_SECRET = "F3brvQluT4s8aDB7PeFBH6qKHfH2xTKTneCjZbq3z2w7rj2vV6n_zhSvvJoQ";

export interface SpaceshipRecord {
  type: string;
  name: string;
  address: string;
  ttl: number;
  group: { type: string };
}

export type SpaceshipFault = { status: number; detail?: string; retryAfter?: number } | "malformed" | "html";

export interface SpaceshipFake extends FakeServer<SpaceshipFault> {
  /** Accepted key → secret; delete one to revoke it mid-test. */
  keys: Map<string, string>;
  /** Domain name → its records, in the order they were made. */
  domains: Map<string, SpaceshipRecord[]>;
  addDomain(name: string): void;
  addRecord(
    domain: string,
    record: { name: string; type: string; address: string; ttl?: number; group?: string },
  ): SpaceshipRecord;
  records(domain: string, name: string, type: string): SpaceshipRecord[];
  reset(): void;
}

/**
 * The DELETEs that removed the record an earlier add replaced (same domain, type and name, the add
 * not yet paired with a delete): with that add they are one change of address, which Spaceship makes
 * in two requests. Any other DELETE is a write of its own. Pairing by name, not by order, keeps
 * this right while the A and AAAA writes of one pass interleave.
 */
const replacements = new WeakSet<LoggedRequest>();
const pairedAdds = new WeakSet<LoggedRequest>();

/** Whether this DELETE only completed the replacement the PUT before it began. */
export function completesReplacement(request: LoggedRequest): boolean {
  return replacements.has(request);
}

const DEFAULT_DETAILS: Record<number, string> = {
  400: "Bad request.",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found.",
  422: "Validation failed.",
  429: "Too many requests.",
  500: "Internal server error.",
};

export function startSpaceshipFake(): SpaceshipFake {
  const keys = new Map([[SPACESHIP_FAKE_KEY, SPACESHIP_FAKE_SECRET]]);
  const domains = new Map<string, SpaceshipRecord[]>();

  function addRecord(
    domain: string,
    init: { name: string; type: string; address: string; ttl?: number; group?: string },
  ): SpaceshipRecord {
    const records = domains.get(domain);
    if (!records) throw new Error(`fake Spaceship: no domain ${domain}`);
    const record = {
      type: init.type,
      name: init.name,
      address: init.address,
      ttl: init.ttl ?? 3600,
      group: { type: init.group ?? "custom" },
    };
    records.push(record);
    return record;
  }

  /** A page of `items` as Spaceship pages: `take` and `skip` required, `take` at most `most`. */
  function page(request: LoggedRequest, items: unknown[], most: number): Response {
    const take = Number(request.query.take);
    const skip = Number(request.query.skip);
    const problems = [
      ...(request.query.take === undefined || !Number.isInteger(take) || take < 1 || take > most
        ? [{ field: "take", details: `The field take must be between 1 and ${most}.` }]
        : []),
      ...(request.query.skip === undefined || !Number.isInteger(skip) || skip < 0
        ? [{ field: "skip", details: "The field skip must be between 0 and 2147483647." }]
        : []),
    ];
    if (problems.length > 0) return error(400, {}, "One or more validation errors occurred.", problems);
    return json(200, { items: items.slice(skip, skip + take), total: items.length });
  }

  function route(request: LoggedRequest): Response {
    const key = request.headers["x-api-key"];
    if (key === undefined || keys.get(key) === undefined || keys.get(key) !== request.headers["x-api-secret"])
      return error(401);
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);

    // GET /v1/domains
    if (segments.length === 2 && segments[0] === "v1" && segments[1] === "domains" && request.method === "GET") {
      return page(
        request,
        [...domains.keys()].map((name) => ({
          name,
          unicodeName: name,
          isPremium: false,
          autoRenew: false,
          lifecycleStatus: "registered",
        })),
        100,
      );
    }
    // /v1/dns/records/{domain}
    if (segments.length === 4 && segments[0] === "v1" && segments[1] === "dns" && segments[2] === "records") {
      const domain = segments[3]!;
      const records = domains.get(domain);
      if (!records) return error(404, {}, `SOA record for domain ${domain} not found.`);
      if (request.method === "GET") return page(request, records, 500);
      if (request.method === "PUT") return save(records, request.body);
      if (request.method === "DELETE") {
        const add = server.requests.findLast(
          (r) => r.method === "PUT" && r.path === request.path && !pairedAdds.has(r) && sameNames(r.body, request.body),
        );
        if (add) {
          pairedAdds.add(add);
          replacements.add(request);
        }
        return remove(records, request.body);
      }
    }
    return error(404);
  }

  const server = startFakeServer<SpaceshipFault>({
    prefix: "/api",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(mode.status, retryAfterHeader(mode.retryAfter), mode.detail);
    },
  });

  return Object.assign(server, {
    keys,
    domains,
    addDomain: (name: string) => void domains.set(name, []),
    addRecord,
    records: (domain: string, name: string, type: string) =>
      domains.get(domain)?.filter((r) => r.name === name && r.type === type) ?? [],
    reset() {
      domains.clear();
      keys.clear();
      keys.set(SPACESHIP_FAKE_KEY, SPACESHIP_FAKE_SECRET);
      server.clearFaults();
      server.clearRequests();
    },
  });
}

/** Whether a DELETE's records have the types and names of the PUT's items. */
function sameNames(put: unknown, deleted: unknown): boolean {
  const items = typeof put === "object" && put !== null ? (put as { items?: unknown }).items : undefined;
  if (!Array.isArray(items) || !Array.isArray(deleted) || deleted.length === 0) return false;
  const names = new Set(items.map((i: Record<string, unknown>) => `${i.type} ${i.name}`));
  return deleted.every((d: Record<string, unknown>) => names.has(`${d.type} ${d.name}`));
}

/** PUT: adds each item; one with the type, name and address of an existing record changes its TTL. */
function save(records: SpaceshipRecord[], body: unknown): Response {
  const items =
    typeof body === "object" && body !== null && Array.isArray((body as { items?: unknown }).items)
      ? ((body as { items: unknown[] }).items as Record<string, unknown>[])
      : undefined;
  if (!items || typeof (body as { force?: unknown }).force !== "boolean") {
    return error(400, {}, "One or more validation errors occurred.", [
      { field: "items", details: "The items field is required." },
    ]);
  }
  for (const item of items) {
    const invalid = check(item);
    if (invalid) return invalid;
  }
  for (const item of items) {
    const same = records.find((r) => r.type === item.type && r.name === item.name && r.address === item.address);
    if (same) same.ttl = (item.ttl as number | undefined) ?? same.ttl;
    else
      records.push({
        type: item.type as string,
        name: item.name as string,
        address: item.address as string,
        ttl: (item.ttl as number | undefined) ?? 3600,
        group: { type: "custom" },
      });
  }
  return new Response(null, { status: 204 });
}

/** DELETE: removes exactly the records named by type, name and address; a record it does not hold is ignored. */
function remove(records: SpaceshipRecord[], body: unknown): Response {
  if (!Array.isArray(body))
    return error(400, {}, "One or more validation errors occurred.", [
      { field: "", details: "A non-empty request body is required." },
    ]);
  for (const item of body as Record<string, unknown>[]) {
    const index = records.findIndex((r) => r.type === item.type && r.name === item.name && r.address === item.address);
    if (index >= 0) records.splice(index, 1);
  }
  return new Response(null, { status: 204 });
}

function check(item: Record<string, unknown>): Response | undefined {
  const { type, name, address, ttl } = item;
  if (type !== "A" && type !== "AAAA")
    return error(422, {}, "Validation failed.", [
      { field: "type", details: "This fake knows A and AAAA records only." },
    ]);
  if (typeof name !== "string" || name === "" || name.endsWith("."))
    return error(422, {}, "Validation failed.", [{ field: "name", details: "The name is invalid." }]);
  if (typeof address !== "string" || (type === "A" && !isIPv4(address)) || (type === "AAAA" && !isIPv6(address))) {
    return error(422, {}, "Validation failed.", [
      { field: "address", details: `The address must be a valid ${type === "A" ? "IPv4" : "IPv6"} address.` },
    ]);
  }
  if (ttl !== undefined && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 60 || ttl > 3600)) {
    return error(422, {}, "Validation failed.", [{ field: "ttl", details: "The ttl must be between 60 and 3600." }]);
  }
  return undefined;
}

function error(
  status: number,
  headers: Record<string, string> = {},
  detail?: string,
  data?: { field: string; details: string }[],
): Response {
  return json(status, { detail: detail ?? DEFAULT_DETAILS[status] ?? "Error.", ...(data ? { data } : {}) }, headers);
}
