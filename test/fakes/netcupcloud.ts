// A stand-in for netcup's REST API (`https://api.netcup.com/v1`) as far as CloudDNS records go. Every
// request needs `Authorization: Bearer <64-character API key>`; every answer is the envelope
// `{success, errors: [{code, message}], result, meta?: {pagination: {page, perPage, totalEntries,
// lastPage}}}`. `GET /domain?fqdn=` answers the account's domain of that name as `[{id, fqdn,
// isDnsManaged}]`, or `resourceDoesNotExist`; a refused key is `authenticationError` with HTTP 400.
// A zone's records live in revisions: `GET /domain/{id}/dns/revision` lists them (`{identifier,
// createdAt, modifiedAt, state, serial}`, paged), `GET /domain/{id}/dns/revision/{rev}/record` the
// records of one (`{identifier, name, type, rdata, ttl}`, `name` relative, `@` the apex, paged).
// `POST /domain/{id}/changeset` with `{autoCommit, strict, create: [{name, type, rdata, ttl}],
// delete: [...]}` applies both at once as a new committed revision; with `strict` a delete that
// matches no record refuses the whole changeset (422 `recordDoesNotExist`). A TXT record's rdata
// is its text.
//
// Sources: netcup's REST API and its OpenAPI description (api.netcup.com/v1/openapi.json, as the
// clients below read it); acme.sh dnsapi/dns_netcup.sh (PR 7214), libdns/netcup's REST client and
// its test server (changesets, revisions), aellwein/netcup-dns-api pkg/rest/v1 (authenticationError
// with HTTP 400, resourceDoesNotExist). UNSURE: whether record names come relative (modelled so, as
// libdns reads them) and the revision states (modelled "committed", a hand-staged one "draft").
//
// Quirk switches: `perPage` (the page size the fake keeps to), `addDraft(zone)` (a newer revision
// someone staged by hand, not served), faults `{status, code, message, retryAfter}` (an error
// envelope), "malformed", "html".

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

export const NETCUPCLOUD_FAKE_KEY = "ncCloudFakeKey0123456789abcdef0123456789ABCDEF0123456789abcdefgh";

export interface NetcupCloudRecord {
  identifier: string;
  name: string;
  type: string;
  rdata: string;
  ttl: number;
}

interface Revision {
  identifier: string;
  createdAt: string;
  modifiedAt: string;
  state: string;
  serial: number;
  records: NetcupCloudRecord[];
}

export interface NetcupCloudDomain {
  id: number;
  fqdn: string;
  isDnsManaged: boolean;
  revisions: Revision[];
}

export type NetcupCloudFault =
  | { status: number; code?: string; message?: string; retryAfter?: number }
  | "malformed"
  | "html";

export interface NetcupCloudFake extends FakeServer<NetcupCloudFault> {
  keys: Set<string>;
  domains: Map<string, NetcupCloudDomain>;
  /** The most rows one page of a listing holds. */
  perPage: number;
  addDomain(fqdn: string, options?: { isDnsManaged?: boolean }): NetcupCloudDomain;
  /** `name` relative to the domain, `@` for the apex; added to the served revision. */
  addRecord(fqdn: string, record: { name: string; type: string; rdata: string; ttl?: number }): NetcupCloudRecord;
  /** A newer revision staged by hand and not committed: what it holds is not served. */
  addDraft(fqdn: string, records: { name: string; type: string; rdata: string; ttl?: number }[]): void;
  /** The records the zone serves (its newest committed revision). */
  served(fqdn: string): NetcupCloudRecord[];
  changesets(): number;
  reset(): void;
}

const DEFAULT_TTL = 86400;

function envelope(status: number, result: unknown, meta?: unknown): Response {
  return json(status, { success: true, errors: [], result, ...(meta === undefined ? {} : { meta }) });
}

function error(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return json(status, { success: false, errors: [{ code, message }], result: null }, headers);
}

export function startNetcupCloudFake(): NetcupCloudFake {
  const keys = new Set([NETCUPCLOUD_FAKE_KEY]);
  const domains = new Map<string, NetcupCloudDomain>();
  let nextId = 4200;
  let nextRecord = 1;
  let clock = Date.parse("2026-01-01T00:00:00Z");

  const stamp = () => new Date((clock += 1000)).toISOString();

  function served(domain: NetcupCloudDomain): Revision {
    const committed = domain.revisions.filter((r) => r.state === "committed");
    return committed[committed.length - 1]!;
  }

  function commit(domain: NetcupCloudDomain, records: NetcupCloudRecord[]): Revision {
    const at = stamp();
    const last = served(domain);
    const revision: Revision = {
      identifier: `rev-${domain.id}-${domain.revisions.length + 1}`,
      createdAt: at,
      modifiedAt: at,
      state: "committed",
      serial: last.serial + 1,
      records,
    };
    domain.revisions.push(revision);
    return revision;
  }

  function page(request: LoggedRequest, rows: unknown[]): Response {
    const perPage = Math.min(Number(request.query.perPage ?? fake.perPage) || fake.perPage, fake.perPage);
    const pageNumber = Math.max(1, Number(request.query.page ?? 1) || 1);
    const lastPage = Math.max(1, Math.ceil(rows.length / perPage));
    return envelope(200, rows.slice((pageNumber - 1) * perPage, pageNumber * perPage), {
      pagination: { page: pageNumber, perPage, totalEntries: rows.length, lastPage },
    });
  }

  function valid(item: unknown): item is { name: string; type: string; rdata: string; ttl: number } {
    if (typeof item !== "object" || item === null) return false;
    const { name, type, rdata, ttl } = item as Record<string, unknown>;
    if (typeof name !== "string" || typeof type !== "string" || typeof rdata !== "string" || typeof ttl !== "number")
      return false;
    if (type === "A" && !isIPv4(rdata)) return false;
    if (type === "AAAA" && !isIPv6(rdata)) return false;
    return ttl >= 60;
  }

  function route(request: LoggedRequest): Response {
    const auth = request.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || !keys.has(auth.slice("Bearer ".length)))
      return error(400, "authenticationError", "The API key is invalid or expired.");
    const parts = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== "domain") return error(404, "resourceDoesNotExist", "Not found.");

    if (request.method === "GET" && parts.length === 1) {
      const domain = domains.get((request.query.fqdn ?? "").toLowerCase());
      if (!domain) return error(404, "resourceDoesNotExist", `The domain ${request.query.fqdn ?? ""} does not exist.`);
      return envelope(200, [{ id: domain.id, fqdn: domain.fqdn, isDnsManaged: domain.isDnsManaged }]);
    }
    const domain = [...domains.values()].find((d) => String(d.id) === parts[1]);
    if (!domain) return error(404, "resourceDoesNotExist", `The domain ${parts[1]} does not exist.`);

    if (request.method === "GET" && parts[2] === "dns" && parts[3] === "revision" && parts.length === 4) {
      return page(
        request,
        domain.revisions.map(({ records: _records, ...revision }) => revision),
      );
    }
    if (
      request.method === "GET" &&
      parts[2] === "dns" &&
      parts[3] === "revision" &&
      parts[5] === "record" &&
      parts.length === 6
    ) {
      const revision = domain.revisions.find((r) => r.identifier === parts[4]);
      if (!revision) return error(404, "resourceDoesNotExist", `The revision ${parts[4]} does not exist.`);
      return page(
        request,
        revision.records.map((r) => ({ ...r, immutable: false })),
      );
    }
    if (request.method === "POST" && parts[2] === "changeset" && parts.length === 3) {
      const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
        string,
        unknown
      >;
      const create = Array.isArray(body.create) ? body.create : [];
      const remove = Array.isArray(body.delete) ? body.delete : [];
      if (![...create, ...remove].every(valid)) return error(422, "validationError", "A record is invalid.");
      const records = served(domain).records.map((r) => ({ ...r }));
      for (const item of remove as { name: string; type: string; rdata: string; ttl: number }[]) {
        const index = records.findIndex(
          (r) => r.name === item.name && r.type === item.type && r.rdata === item.rdata && r.ttl === item.ttl,
        );
        if (index === -1) {
          if (body.strict === true)
            return error(422, "recordDoesNotExist", `No record ${item.name} ${item.type} ${item.rdata} to delete.`);
          continue;
        }
        records.splice(index, 1);
      }
      for (const item of create as { name: string; type: string; rdata: string; ttl: number }[]) {
        records.push({
          identifier: `rec-${nextRecord++}`,
          name: item.name,
          type: item.type,
          rdata: item.rdata,
          ttl: item.ttl,
        });
      }
      const revision = commit(domain, records);
      const { records: _records, ...result } = revision;
      return envelope(200, result);
    }
    return error(405, "methodNotAllowed", "Method not allowed.");
  }

  const server = startFakeServer<NetcupCloudFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(
        mode.status,
        mode.code ?? (mode.status === 429 ? "tooManyRequests" : "internalError"),
        mode.message ?? (mode.status === 429 ? "Too many requests." : "Internal error."),
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: NetcupCloudFake = Object.assign(server, {
    keys,
    domains,
    perPage: 100,
    addDomain(fqdn: string, options: { isDnsManaged?: boolean } = {}) {
      const at = stamp();
      const domain: NetcupCloudDomain = {
        id: nextId++,
        fqdn,
        isDnsManaged: options.isDnsManaged ?? true,
        revisions: [
          {
            identifier: `rev-${nextId}-1`,
            createdAt: at,
            modifiedAt: at,
            state: "committed",
            serial: 2026010101,
            records: [],
          },
        ],
      };
      domains.set(fqdn, domain);
      return domain;
    },
    addRecord(fqdn: string, init: { name: string; type: string; rdata: string; ttl?: number }) {
      const domain = domains.get(fqdn);
      if (!domain) throw new Error(`fake Netcup CloudDNS: no domain ${fqdn}`);
      const record: NetcupCloudRecord = {
        identifier: `rec-${nextRecord++}`,
        name: init.name,
        type: init.type,
        rdata: init.rdata,
        ttl: init.ttl ?? DEFAULT_TTL,
      };
      served(domain).records.push(record);
      return record;
    },
    addDraft(fqdn: string, records: { name: string; type: string; rdata: string; ttl?: number }[]) {
      const domain = domains.get(fqdn);
      if (!domain) throw new Error(`fake Netcup CloudDNS: no domain ${fqdn}`);
      const at = stamp();
      domain.revisions.push({
        identifier: `rev-${domain.id}-draft`,
        createdAt: at,
        modifiedAt: at,
        state: "draft",
        serial: 0,
        records: records.map((r) => ({
          identifier: `rec-${nextRecord++}`,
          name: r.name,
          type: r.type,
          rdata: r.rdata,
          ttl: r.ttl ?? DEFAULT_TTL,
        })),
      });
    },
    served: (fqdn: string) => {
      const domain = domains.get(fqdn);
      return domain ? served(domain).records : [];
    },
    changesets: () => server.requests.filter((r) => r.method === "POST").length,
    reset() {
      domains.clear();
      keys.clear();
      keys.add(NETCUPCLOUD_FAKE_KEY);
      fake.perPage = 100;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
