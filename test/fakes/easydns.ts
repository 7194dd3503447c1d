// A stand-in for the easyDNS REST API (`https://rest.easydns.net`): HTTP basic auth with the API
// token and key, `format=json` on every request. `GET /zones/records/all/{domain}` answers the
// envelope `{msg, status, tm, data, count, total, start, max}` with `data` an array of the domain's
// records from `start` (query, default 0), at most `max` (query, default `pageSize`) of them, and
// `count`/`total` saying how many are in the page and in all (as lego's recorded answer has them), each `{id, domain, host, ttl, prio,
// geozone_id, type, rdata, last_mod}` with its numbers as strings and `host` relative (`@` the apex);
// `POST /zones/records/{id}` changes a record (`{host, ttl, prio, type, rdata}`) and answers 200;
// `PUT /zones/records/add/{domain}/{type}` adds one and answers 201 with it (its new `id` in `data`);
// `DELETE /zones/records/{domain}/{id}` removes one (lego's easydns provider deletes its TXT so; a
// TXT record's rdata is its text).
// Wrong credentials: 401; a domain not the account's: 403 (404 where the fake's `unknownDomain` says
// so); too many requests: "Enhance Your Calm", `{"error": {"code": 420, "message": …}}` with HTTP 420.
//
// Sources: docs.sandbox.rest.easydns.net (the REST documentation: authentication, zones/records);
// independent clients: lego providers/dns/easydns/internal (client.go, types.go, readme.md: "data is
// an array, id/ttl are strings"; fixtures error1.json: the 420 body, error.json: `{msg, status}`),
// libdns/easydns provider.go (POST update answering 200, PUT add answering 201) and octodns-easydns
// (401 unauthorized, 403/404 an unknown domain, `@` for the apex).
// UNSURE: the HTTP status of the 420 answer (modelled as 420; lego's fixture has a 403 with "Enhance
// your calm" too, switch `calm403`); the body of a 401 and 403 (modelled as `{error: {code, message}}`).
//
// Faults: `{status, message?, code?}` an error body with that status; `"calm"` the 420 answer;
// `"calm403"` lego's `{msg: "Enhance your calm", status: 403}`; `"malformed"`; `"html"`.

import { isIPv4, isIPv6 } from "node:net";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

export const EASYDNS_FAKE_TOKEN = "easydnsFakeToken0123456789";
export const EASYDNS_FAKE_KEY = "easydnsFakeKey0123456789abcdef";

export interface EasydnsRecord {
  id: string;
  domain: string;
  host: string;
  ttl: string;
  prio: string;
  geozone_id: string;
  type: string;
  rdata: string;
  last_mod: string;
}

export type EasydnsFault = { status: number; message?: string } | "calm" | "calm403" | "malformed" | "html";

export interface EasydnsFake extends FakeServer<EasydnsFault> {
  credentials: Map<string, string>;
  domains: Map<string, EasydnsRecord[]>;
  /** The most records one page of a listing holds (easyDNS: 1000). */
  pageSize: number;
  /** The status a domain that is not the account's gets (403 or 404). */
  unknownDomain: 403 | 404;
  addDomain(name: string): void;
  addRecord(
    domain: string,
    record: { host: string; type: string; rdata: string; ttl?: number; prio?: number },
  ): EasydnsRecord;
  records(domain: string, host: string, type: string): EasydnsRecord[];
  reset(): void;
}

const CALM =
  "Enhance Your Calm. Rate limit exceeded (too many requests) OR you did NOT provide any credentials with your request!";

function error(status: number, message: string): Response {
  return json(status, { error: { code: status, message } });
}

export function startEasydnsFake(): EasydnsFake {
  const credentials = new Map([[EASYDNS_FAKE_TOKEN, EASYDNS_FAKE_KEY]]);
  const domains = new Map<string, EasydnsRecord[]>();
  let nextId = 60898900;

  function addRecord(
    domain: string,
    init: { host: string; type: string; rdata: string; ttl?: number; prio?: number },
  ): EasydnsRecord {
    const list = domains.get(domain);
    if (!list) throw new Error(`fake easyDNS: no domain ${domain}`);
    const record: EasydnsRecord = {
      id: String(++nextId),
      domain,
      host: init.host,
      ttl: String(init.ttl ?? 300),
      prio: String(init.prio ?? 0),
      geozone_id: "0",
      type: init.type,
      rdata: init.rdata,
      last_mod: "2026-11-24 10:00:00",
    };
    list.push(record);
    return record;
  }

  const envelope = (status: number, data: unknown, msg = "OK", paging = { count: 0, total: 0, start: 0, max: 0 }) =>
    json(status, { msg, status, tm: Math.floor(Date.now() / 1000), data, ...paging });

  function authorized(request: LoggedRequest): boolean {
    const header = request.headers.authorization ?? "";
    if (!header.startsWith("Basic ")) return false;
    const [token, ...key] = Buffer.from(header.slice(6), "base64").toString().split(":");
    return token !== undefined && credentials.get(token) === key.join(":");
  }

  function route(request: LoggedRequest): Response {
    if (request.query.format !== "json") return new Response("format=json missing", { status: 400 });
    if (!request.headers.authorization) return error(420, CALM);
    if (!authorized(request)) return error(401, "Unauthorized: the API token or key is wrong");
    const parts = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};

    // GET /zones/records/all/{domain}
    if (
      request.method === "GET" &&
      parts.length === 4 &&
      parts[0] === "zones" &&
      parts[1] === "records" &&
      parts[2] === "all"
    ) {
      const list = domains.get(parts[3]!.toLowerCase());
      if (!list) return error(fake.unknownDomain, `Domain ${parts[3]} is not in this account`);
      const start = Number(request.query.start ?? 0) || 0;
      const max = Math.min(Number(request.query.max ?? fake.pageSize) || fake.pageSize, fake.pageSize);
      const page = list.slice(start, start + max);
      return envelope(200, page, "OK", { count: page.length, total: list.length, start, max });
    }
    // PUT /zones/records/add/{domain}/{type}
    if (
      request.method === "PUT" &&
      parts.length === 5 &&
      parts[0] === "zones" &&
      parts[1] === "records" &&
      parts[2] === "add"
    ) {
      const domain = parts[3]!.toLowerCase();
      if (!domains.has(domain)) return error(fake.unknownDomain, `Domain ${parts[3]} is not in this account`);
      const problem = check(body, parts[4]!);
      if (problem) return error(400, problem);
      const record = addRecord(domain, {
        host: String(body.host),
        type: parts[4]!,
        rdata: String(body.rdata),
        ttl: Number(body.ttl),
        prio: Number(body.prio ?? 0),
      });
      return envelope(201, record, "Record added");
    }
    // DELETE /zones/records/{domain}/{id}
    if (request.method === "DELETE" && parts.length === 4 && parts[0] === "zones" && parts[1] === "records") {
      const records = domains.get(parts[2]!);
      const at = records?.findIndex((r) => r.id === parts[3]) ?? -1;
      if (!records || at < 0) return error(404, `Record ${parts[3]} not found`);
      const [gone] = records.splice(at, 1);
      return envelope(200, gone, "Record deleted");
    }
    // POST /zones/records/{id}
    if (request.method === "POST" && parts.length === 3 && parts[0] === "zones" && parts[1] === "records") {
      const record = [...domains.values()].flat().find((r) => r.id === parts[2]);
      if (!record) return error(404, `Record ${parts[2]} not found`);
      const problem = check(body, String(body.type ?? record.type));
      if (problem) return error(400, problem);
      Object.assign(record, {
        host: String(body.host ?? record.host),
        ttl: String(body.ttl ?? record.ttl),
        prio: String(body.prio ?? record.prio),
        type: String(body.type ?? record.type),
        rdata: String(body.rdata),
        ...(body.geozone_id === undefined ? {} : { geozone_id: String(body.geozone_id) }),
      });
      return envelope(200, record, "Record updated");
    }
    return error(404, "Not found");
  }

  const server = startFakeServer<EasydnsFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      if (mode === "calm") return error(420, CALM);
      if (mode === "calm403") return json(403, { msg: "Enhance your calm", status: 403 });
      return error(mode.status, mode.message ?? "Internal error");
    },
  });

  const fake: EasydnsFake = Object.assign(server, {
    credentials,
    domains,
    unknownDomain: 403 as 403 | 404,
    pageSize: 1000,
    addDomain: (name: string) => void domains.set(name, []),
    addRecord,
    records: (domain: string, host: string, type: string) =>
      domains.get(domain)?.filter((r) => r.host === host && r.type === type) ?? [],
    reset() {
      domains.clear();
      credentials.clear();
      credentials.set(EASYDNS_FAKE_TOKEN, EASYDNS_FAKE_KEY);
      fake.unknownDomain = 403;
      fake.pageSize = 1000;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

/** What easyDNS's validation says about a record body; undefined when it is fine. */
function check(body: Record<string, unknown>, type: string): string | undefined {
  const rdata = String(body.rdata ?? "");
  if (typeof body.host !== "string" || body.host === "") return "host is required";
  if (type === "A" && !isIPv4(rdata)) return "rdata must be an IPv4 address";
  if (type === "AAAA" && !isIPv6(rdata)) return "rdata must be an IPv6 address";
  const ttl = Number(body.ttl);
  if (!Number.isInteger(ttl) || ttl < 0) return "ttl must be a number";
  return undefined;
}
