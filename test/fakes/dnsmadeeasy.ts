// A faithful stand-in for DNS Made Easy's REST API v2.0 (base `…/V2.0`) as ddnsd uses it: every
// request signed with `x-dnsme-apiKey`, `x-dnsme-requestDate` (an HTTP date within a few minutes of
// the fake's clock) and `x-dnsme-hmac` (hex HMAC-SHA1 of the date under the secret key), else 403
// `{"error": [...]}` in DNS Made Easy's words; GET /dns/managed (`{data, page, totalPages,
// totalRecords}`); GET /dns/managed/name?domainname= (the domain, or 404); records of a domain at
// /dns/managed/{id}/records: GET with the `recordName` and `type` filters, POST creating one (201, the
// record), PUT /{recordId} replacing the whole record with what it is sent (200, no body; fields not
// sent are reset, so a client must send the record back whole); 150 requests in a rolling 5 minutes
// counted in `x-dnsme-requestLimit` / `x-dnsme-requestsRemaining`, past which every request gets 400
// `{"error": ["Rate limit exceeded"]}`.
//
// One record per address, each its own id: a name holds several A/AAAA records (lego and lexicon
// list them as such, and delete one by id).
//
// Switches: `requestLimit` (150), `clockOffsetMs` (the service's clock ahead of this machine's), faults `{status, error?}`, `"malformed"`, `"html"`.
//
// Sources: DNS Made Easy API documentation v2.0 (api-docs.dnsmadeeasy.com: authentication, managed
// DNS, records and their deletion by id, rate limiting; a TXT value is quoted, as lego sends it); go-acme/lego providers/dns/dnsmadeeasy (internal client and its
// tests: paths, filters, the signature); AnalogJ/lexicon providers/dnsmadeeasy.py and its issue #437
// (PUT by id, the rate limit's 400 body); acme.sh issues #463 and #4272 (the date checks' words).
// UNSURE: the words of a wrong key or signature (modelled as "API key not found" and "Invalid HMAC"),
// and the status of an unknown domain name (modelled as 404).

import { createHmac } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

export const DNSME_FAKE_KEY = "1c1a3c91-4770-4ce7-96f4-54c0eb0e457a";
export const DNSME_FAKE_SECRET = "c9b5625f-9834-4ff8-baba-4ed5f32cae55";

export interface DnsmeRecord {
  id: number;
  name: string;
  type: string;
  value: string;
  ttl: number;
  gtdLocation: string;
  source: number;
  sourceId: number;
  dynamicDns: boolean;
  failover: boolean;
  monitor: boolean;
  hardLink: boolean;
  failed: boolean;
  password?: string;
}

export type DnsmeFault = { status: number; error?: string } | "malformed" | "html";

export interface DnsmeFake extends FakeServer<DnsmeFault> {
  /** API key → secret key; delete one to revoke it mid-test. */
  keys: Map<string, string>;
  domains: Map<number, { id: number; name: string; records: DnsmeRecord[] }>;
  requestLimit: number;
  /** How far the service's clock runs ahead of this machine's (to play a client whose clock is off). */
  clockOffsetMs: number;
  addDomain(name: string): number;
  addRecord(domain: string, record: Partial<DnsmeRecord> & { name: string; type: string; value: string }): DnsmeRecord;
  records(domain: string, name: string, type: string): DnsmeRecord[];
  reset(): void;
}

/** How far the request date may be from the fake's clock. */
const MAX_SKEW_MS = 5 * 60 * 1000;
const WINDOW_MS = 5 * 60 * 1000;

export function startDnsmeFake(): DnsmeFake {
  const keys = new Map([[DNSME_FAKE_KEY, DNSME_FAKE_SECRET]]);
  const domains = new Map<number, { id: number; name: string; records: DnsmeRecord[] }>();
  let nextDomainId = 1119443;
  let nextRecordId = 66814826;
  let counted: number[] = [];

  const byName = (name: string) => [...domains.values()].find((d) => d.name === name);

  function addRecord(
    domain: string,
    init: Partial<DnsmeRecord> & { name: string; type: string; value: string },
  ): DnsmeRecord {
    const owner = byName(domain);
    if (!owner) throw new Error(`fake DNS Made Easy: no domain ${domain}`);
    const record: DnsmeRecord = {
      gtdLocation: "DEFAULT",
      ttl: 1800,
      source: 1,
      dynamicDns: false,
      failover: false,
      monitor: false,
      hardLink: false,
      failed: false,
      ...init,
      id: nextRecordId++,
      sourceId: owner.id,
    };
    owner.records.push(record);
    return record;
  }

  function limitHeaders(): Record<string, string> {
    return {
      "x-dnsme-requestLimit": String(fake.requestLimit),
      "x-dnsme-requestsRemaining": String(Math.max(0, fake.requestLimit - counted.length)),
    };
  }
  const reply = (status: number, body: unknown) =>
    body === null ? new Response(null, { status, headers: limitHeaders() }) : json(status, body, limitHeaders());
  const refuse = (status: number, ...words: string[]) => reply(status, { error: words });

  function route(request: LoggedRequest): Response {
    const key = request.headers["x-dnsme-apikey"];
    const date = request.headers["x-dnsme-requestdate"];
    const hmac = request.headers["x-dnsme-hmac"];
    if (!key || !hmac || !date) return refuse(403, "Missing API key or HMAC");
    const secret = keys.get(key);
    if (secret === undefined) return refuse(403, "API key not found");
    const when = Date.parse(date);
    if (!/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(date) || Number.isNaN(when))
      return refuse(400, `Invalid request date header: ${date}`);
    const serviceNow = Date.now() + fake.clockOffsetMs;
    if (Math.abs(when - serviceNow) > MAX_SKEW_MS)
      return refuse(
        403,
        `Request sent with date header too far out of sync.  Difference in times is ${serviceNow - when}, header value is ${when}`,
      );
    if (hmac !== createHmac("sha1", secret).update(date).digest("hex")) return refuse(403, "Invalid HMAC");

    const now = Date.now();
    counted = counted.filter((at) => now - at < WINDOW_MS);
    if (counted.length >= fake.requestLimit) return refuse(400, "Rate limit exceeded");
    counted.push(now);

    const segments = request.path.split("/").filter(Boolean);
    if (segments.join("/") === "dns/managed" && request.method === "GET") {
      const data = [...domains.values()].map(({ id, name }) => ({
        id,
        name,
        gtdEnabled: false,
        folderId: 1,
        processMulti: false,
        activeThirdParties: [],
        pendingActionId: 0,
      }));
      return reply(200, { data, page: 0, totalPages: 1, totalRecords: data.length });
    }
    if (segments.join("/") === "dns/managed/name" && request.method === "GET") {
      const domain = byName(request.query.domainname ?? "");
      return domain
        ? reply(200, { id: domain.id, name: domain.name, gtdEnabled: false, processMulti: false, pendingActionId: 0 })
        : refuse(404, "Domain not found");
    }
    if (segments[0] === "dns" && segments[1] === "managed" && segments[3] === "records") {
      const domain = domains.get(Number(segments[2]));
      if (!domain) return refuse(404, "Domain not found");
      if (segments.length === 4 && request.method === "GET") {
        const data = domain.records.filter(
          (r) =>
            (request.query.recordName === undefined || r.name === request.query.recordName) &&
            (request.query.type === undefined || r.type === request.query.type),
        );
        return reply(200, { data, page: 0, totalPages: 1, totalRecords: data.length });
      }
      const body =
        typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
      if (segments.length === 4 && request.method === "POST") {
        const problems = check(body);
        if (problems.length > 0) return refuse(400, ...problems);
        if (domain.records.some((r) => r.name === body.name && r.type === body.type && r.value === body.value))
          return refuse(400, "Record with this type (A), name, and value already exists.");
        const { id: _id, sourceId: _source, ...fields } = body;
        return reply(
          201,
          addRecord(domain.name, fields as Partial<DnsmeRecord> & { name: string; type: string; value: string }),
        );
      }
      if (segments.length === 5 && request.method === "DELETE") {
        const index = domain.records.findIndex((r) => r.id === Number(segments[4]));
        if (index < 0) return refuse(404, "Record not found");
        domain.records.splice(index, 1);
        return reply(200, {});
      }
      if (segments.length === 5 && request.method === "PUT") {
        const index = domain.records.findIndex((r) => r.id === Number(segments[4]));
        if (index < 0) return refuse(404, "Record not found");
        if (body.id !== undefined && body.id !== domain.records[index]!.id)
          return refuse(400, "Record id does not match");
        const problems = check(body);
        if (problems.length > 0) return refuse(400, ...problems);
        // The record is replaced by what was sent: a field left out falls back to its default.
        const old = domain.records[index]!;
        domain.records[index] = {
          id: old.id,
          sourceId: old.sourceId,
          source: 1,
          gtdLocation: "DEFAULT",
          ttl: 1800,
          dynamicDns: false,
          failover: false,
          monitor: false,
          hardLink: false,
          failed: false,
          ...(body as Partial<DnsmeRecord>),
        } as DnsmeRecord;
        return reply(200, null);
      }
    }
    return refuse(404, "Not found");
  }

  const server = startFakeServer<DnsmeFault>({
    prefix: "/V2.0",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return refuse(mode.status, mode.error ?? (mode.status >= 500 ? "Internal server error" : "Bad request"));
    },
  });

  const fake: DnsmeFake = Object.assign(server, {
    keys,
    domains,
    requestLimit: 150,
    clockOffsetMs: 0,
    addDomain(name: string) {
      const id = nextDomainId++;
      domains.set(id, { id, name, records: [] });
      return id;
    },
    addRecord,
    records: (domain: string, name: string, type: string) =>
      byName(domain)?.records.filter((r) => r.name === name && r.type === type) ?? [],
    reset() {
      // As at the start: a domain added again gets the id it had, as a client that cached it expects.
      domains.clear();
      nextDomainId = 1119443;
      keys.clear();
      keys.set(DNSME_FAKE_KEY, DNSME_FAKE_SECRET);
      fake.requestLimit = 150;
      fake.clockOffsetMs = 0;
      counted = [];
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function check(body: Record<string, unknown>): string[] {
  const { name, type, value, ttl } = body;
  const problems: string[] = [];
  if (typeof name !== "string") problems.push("Name is required.");
  if (type !== "A" && type !== "AAAA" && type !== "TXT") problems.push("This fake knows A, AAAA and TXT records only.");
  if (type === "TXT" && (typeof value !== "string" || !/^".*"$/.test(value)))
    problems.push("A TXT record's value must be quoted.");
  if (type !== "TXT" && (typeof value !== "string" || (type === "A" ? !isIPv4(value) : !isIPv6(value))))
    problems.push(`Value is not a valid ${type === "AAAA" ? "IPv6" : "IPv4"} address.`);
  if (ttl !== undefined && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 0))
    problems.push("TTL must be a non-negative number.");
  return problems;
}
