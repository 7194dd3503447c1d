// A faithful stand-in for the Constellix DNS API v1 (api.dns.constellix.com/v1; docs/services/constellix.md):
// every request's `x-cns-security-token` checked for real (an unknown API key, a wrong HMAC or a
// timestamp more than five minutes off is 401 `{"errors": ["Unable to authenticate token"]}`),
// domains and records with numeric ids, records under their type, names relative to the domain
// (`""` the apex), addresses in `roundRobin: [{value, disableFlag}]` and mirrored in `value`, and
// these quirks: a record search answers only ids and names (the record is read by id); a search
// that finds nothing answers 404 `{"errors": [...]}`; a PUT replaces the
// whole record (a field it is not sent goes back to its default: the note is emptied, the TTL
// becomes 3600) and refuses a record that would not change (400 "no changes to save"); a POST
// answers an array holding the created record; pool records (`recordOption: "pools"`) hold no
// roundRobin.
//
// Sources: api-docs.constellix.com (v1: authentication, domains, records, search);
// digicert/dnstrust-constellix-dynamicdns-client ddns_client/ddns.py (official dynamic DNS client);
// go-acme/lego providers/dns/constellix (internal client and its fixtures); octodns/octodns-constellix.
//
// Quirk switches: `keys` (API key → secret; delete one to disable it); faults
// `{status, errors, retryAfter?}`, "malformed", "html".

import { isIPv4, isIPv6 } from "node:net";
import { securityToken } from "../../src/dns/services/constellix";
import {
  type FakeServer,
  htmlErrorPage,
  json,
  type LoggedRequest,
  malformedJson,
  retryAfterHeader,
  startFakeServer,
} from "./server";

export const CONSTELLIX_FAKE_API_KEY = "9f1c2b3a-0000-4000-8000-constellixapi";
export const CONSTELLIX_FAKE_SECRET = "5e6d7c8b-0000-4000-8000-constellixsec";
const DEFAULT_TTL = 3600;
const CLOCK_SKEW_MS = 5 * 60 * 1000;

export interface ConstellixRecord {
  id: number;
  type: string;
  name: string;
  ttl: number;
  recordOption: string;
  roundRobin: { value: string; disableFlag: boolean }[];
  note: string;
  gtdRegion: number;
}

export interface ConstellixDomain {
  id: number;
  name: string;
  records: ConstellixRecord[];
}

export type ConstellixFault = { status: number; errors: string[]; retryAfter?: number } | "malformed" | "html";

export interface ConstellixFake extends FakeServer<ConstellixFault> {
  keys: Map<string, string>;
  domains: Map<number, ConstellixDomain>;
  addDomain(name: string): ConstellixDomain;
  domainNamed(name: string): ConstellixDomain | undefined;
  addRecord(
    domain: string,
    record: { type: string; name: string; values: string[]; ttl?: number; note?: string; recordOption?: string },
  ): ConstellixRecord;
  records(domain: string, name: string, type: string): ConstellixRecord[];
  reset(): void;
}

export function startConstellixFake(): ConstellixFake {
  const keys = new Map([[CONSTELLIX_FAKE_API_KEY, CONSTELLIX_FAKE_SECRET]]);
  const domains = new Map<number, ConstellixDomain>();
  let next = 100001;
  const errors = (status: number, ...words: string[]) => json(status, { errors: words });

  function addDomain(name: string): ConstellixDomain {
    const domain = { id: next++, name, records: [] };
    domains.set(domain.id, domain);
    return domain;
  }
  const domainNamed = (name: string) => [...domains.values()].find((d) => d.name === name);

  function addRecord(
    domainName: string,
    init: { type: string; name: string; values: string[]; ttl?: number; note?: string; recordOption?: string },
  ): ConstellixRecord {
    const domain = domainNamed(domainName);
    if (!domain) throw new Error(`fake Constellix: no domain ${domainName}`);
    const pool = init.recordOption === "pools";
    const record: ConstellixRecord = {
      id: next++,
      type: init.type,
      name: init.name,
      ttl: init.ttl ?? DEFAULT_TTL,
      recordOption: init.recordOption ?? "roundRobin",
      roundRobin: pool ? [] : init.values.map((value) => ({ value, disableFlag: false })),
      note: init.note ?? "",
      gtdRegion: 1,
    };
    domain.records.push(record);
    return record;
  }

  const recordJson = (domain: ConstellixDomain, r: ConstellixRecord) => ({
    id: r.id,
    type: r.type,
    recordType: r.type.toLowerCase(),
    name: r.name,
    recordOption: r.recordOption,
    noAnswer: false,
    note: r.note,
    ttl: r.ttl,
    gtdRegion: r.gtdRegion,
    parentId: domain.id,
    parent: "domain",
    source: "Domain",
    modifiedTs: 1700000000000,
    value: r.roundRobin.map((v) => v.value),
    roundRobin: r.roundRobin,
  });
  const domainJson = (d: ConstellixDomain) => ({
    id: d.id,
    name: d.name,
    typeId: 1,
    hasGtdRegions: false,
    hasGeoIP: false,
    nameserverGroup: 1,
    nameservers: ["ns11.constellix.com."],
    status: "ACTIVE",
    version: 1,
  });

  function authenticate(request: LoggedRequest): Response | null {
    const [apiKey = "", hmac = "", time = ""] = (request.headers["x-cns-security-token"] ?? "").split(":");
    const secret = keys.get(apiKey);
    const epoch = Number(time);
    if (secret === undefined || !/^\d{13}$/.test(time) || Math.abs(Date.now() - epoch) > CLOCK_SKEW_MS)
      return errors(401, "Unable to authenticate token");
    return securityToken(apiKey, secret, epoch) === `${apiKey}:${hmac}:${time}`
      ? null
      : errors(401, "Unable to authenticate token");
  }

  function roundRobinOf(
    type: string,
    body: Record<string, unknown>,
  ): { value: string; disableFlag: boolean }[] | Response {
    const list = Array.isArray(body.roundRobin) ? body.roundRobin : [];
    const values = list.map((v) =>
      typeof v === "object" && v !== null ? (v as Record<string, unknown>).value : undefined,
    );
    if (
      values.length === 0 ||
      !values.every((v) => typeof v === "string" && ((type === "A" && isIPv4(v)) || (type === "AAAA" && isIPv6(v))))
    ) {
      return errors(400, `Invalid ${type} record value`);
    }
    return list.map((v) => ({
      value: (v as { value: string }).value,
      disableFlag: (v as { disableFlag?: unknown }).disableFlag === true,
    }));
  }

  function route(request: LoggedRequest): Response {
    const refused = authenticate(request);
    if (refused) return refused;
    const s = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (s[0] !== "domains") return errors(404, "Not found");
    if (s.length === 1 && request.method === "GET") return json(200, [...domains.values()].map(domainJson));
    if (s.length === 2 && s[1] === "search" && request.method === "GET") {
      const found = [...domains.values()].filter((d) => d.name === request.query.exact);
      return found.length === 0 ? errors(404, "No domain found") : json(200, found.map(domainJson));
    }
    const domain = domains.get(Number(s[1]));
    if (!domain) return errors(404, "Domain not found");
    if (s.length === 2) return request.method === "GET" ? json(200, domainJson(domain)) : errors(400, "Unsupported");
    if (s[2] !== "records" || (s[3] !== "A" && s[3] !== "AAAA")) return errors(404, "Not found");
    const type = s[3];
    const body =
      typeof request.body === "object" && request.body !== null && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : {};

    if (s.length === 5 && s[4] === "search" && request.method === "GET") {
      const exact = request.query.exact ?? "";
      const found = domain.records.filter((r) => r.type === type && r.name === exact);
      // A search answers only the records' ids and names (lego's records-Search.json fixture); the
      // record itself (TTL, note, addresses, pool or round robin) is read by id, as lego and the
      // official dynamic DNS client do.
      return found.length === 0
        ? errors(404, "No record found")
        : json(
            200,
            found.map((r) => ({ id: r.id, name: r.name, recordType: "", type: "" })),
          );
    }

    if (s.length === 5 && request.method === "GET") {
      const record = domain.records.find((r) => r.id === Number(s[4]) && r.type === type);
      return record ? json(200, recordJson(domain, record)) : errors(404, "Record not found");
    }

    if (s.length === 4 && request.method === "POST") {
      const name = typeof body.name === "string" ? body.name : "";
      const roundRobin = roundRobinOf(type, body);
      if (roundRobin instanceof Response) return roundRobin;
      if (domain.records.some((r) => r.type === type && r.name === name))
        return errors(400, `Record with name '${name}' already exists`);
      const record: ConstellixRecord = {
        id: next++,
        type,
        name,
        ttl: typeof body.ttl === "number" ? body.ttl : DEFAULT_TTL,
        recordOption: "roundRobin",
        roundRobin,
        note: typeof body.note === "string" ? body.note : "",
        gtdRegion: 1,
      };
      domain.records.push(record);
      return json(201, [recordJson(domain, record)]);
    }

    if (s.length === 5 && request.method === "PUT") {
      const record = domain.records.find((r) => r.id === Number(s[4]) && r.type === type);
      if (!record) return errors(404, "Record not found");
      const roundRobin = roundRobinOf(type, body);
      if (roundRobin instanceof Response) return roundRobin;
      // The PUT replaces the whole record: what it is not sent goes back to its default.
      const replaced = {
        ttl: typeof body.ttl === "number" ? body.ttl : DEFAULT_TTL,
        note: typeof body.note === "string" ? body.note : "",
        gtdRegion: typeof body.gtdRegion === "number" ? body.gtdRegion : 1,
        roundRobin,
      };
      if (
        JSON.stringify(replaced) ===
        JSON.stringify({
          ttl: record.ttl,
          note: record.note,
          gtdRegion: record.gtdRegion,
          roundRobin: record.roundRobin,
        })
      ) {
        return errors(400, "no changes to save");
      }
      Object.assign(record, replaced);
      return json(200, { success: `Record ${record.id} updated successfully` });
    }
    return errors(404, "Not found");
  }

  const server = startFakeServer<ConstellixFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return json(mode.status, { errors: mode.errors }, retryAfterHeader(mode.retryAfter));
    },
  });

  const fake: ConstellixFake = Object.assign(server, {
    keys,
    domains,
    addDomain,
    domainNamed,
    addRecord,
    records: (domain: string, name: string, type: string) =>
      (domainNamed(domain)?.records ?? []).filter((r) => r.name === name && r.type === type),
    reset() {
      domains.clear();
      keys.clear();
      keys.set(CONSTELLIX_FAKE_API_KEY, CONSTELLIX_FAKE_SECRET);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
