// A stand-in for IPv64.net (docs/services/ipv64.md): the API at `/api` with a Bearer API key
// (`GET /api?get_domains` lists `{"subdomains": {<domain>: {updates, wildcard, domain_update_hash,
// records: [{record_id, content, ttl, type, praefix, last_update, record_key}]}}, "info": "success",
// "status": "200 OK"}`; `POST /api` form `add_record=<domain>&praefix&type&content` adds one) and the
// DynDNS update URL `GET /nic/update?key=<domain_update_hash>&domain=<domain>[&praefix=]&ip=|&ip6=`,
// which changes the record of that family in place (TTL kept) and answers `good <address>` (or
// `nochg <address>`), `badauth` with 401 for an unknown key, `nohost` for a domain it does not cover.
// Errors of the API: `{"status": "401 Unauthorized", "info": "Unauthorized"}` with the same HTTP status.
// There is no call that changes a record through the API, and the fake offers none.
//
// Sources: ipv64.net/dyndns_updater_api; apidoc.ipv64.net; go-acme/lego providers/dns/ipv64
// (internal/fixtures: get_domains.json, add_record.json, error.json); qdm12/ddns-updater providers/ipv64.
//
// Quirk switches: faults `{status, body, retryAfter}` (429 "Too Many Requests": the updater takes at
// most 3 requests in 10 s), `{status, json}` and `{status, text}` (an exact answer: the API's refusal
// inside an HTTP 200, an update answer such as the account's daily limit), `"html"`, `"malformed"` (a
// 200 with broken JSON). UNSURE: the
// words of the updater's over-limit answer are not documented (the updater page documents the limit,
// default 48 a day).

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

export const IPV64_FAKE_API_KEY = "ipv64fakeapikey0123456789abcdef0";

export interface Ipv64Record {
  record_id: number;
  content: string;
  ttl: number;
  type: string;
  praefix: string;
  last_update: string;
  record_key: string;
}

export interface Ipv64Domain {
  updates: number;
  wildcard: number;
  domain_update_hash: string;
  records: Ipv64Record[];
}

export type Ipv64Fault =
  | { status: number; body?: string; retryAfter?: number }
  /** That exact JSON body, e.g. a refusal inside an HTTP 200. */
  | { status: number; json: unknown }
  /** That exact plain-text body, e.g. an update answer. */
  | { status: number; text: string }
  | "html"
  | "malformed";

export interface Ipv64Fake extends FakeServer<Ipv64Fault> {
  apiKeys: Set<string>;
  domains: Map<string, Ipv64Domain>;
  addDomain(name: string): Ipv64Domain;
  addRecord(domain: string, record: { praefix: string; type: string; content: string; ttl?: number }): Ipv64Record;
  recordsOf(domain: string, praefix: string, type: string): Ipv64Record[];
  reset(): void;
}

export function startIpv64Fake(): Ipv64Fake {
  const apiKeys = new Set([IPV64_FAKE_API_KEY]);
  const domains = new Map<string, Ipv64Domain>();
  let nextId = 50664;

  const unauthorized = () => json(401, { status: "401 Unauthorized", info: "Unauthorized" });

  function addRecord(
    domainName: string,
    init: { praefix: string; type: string; content: string; ttl?: number },
  ): Ipv64Record {
    const domain = domains.get(domainName);
    if (!domain) throw new Error(`fake IPv64: no domain ${domainName}`);
    const record = {
      record_id: nextId++,
      content: init.content,
      ttl: init.ttl ?? 60,
      type: init.type,
      praefix: init.praefix,
      last_update: "2023-07-19 13:18:59",
      record_key: `key${nextId}`,
    };
    domain.records.push(record);
    return record;
  }

  function route(request: LoggedRequest): Response {
    if (request.path === "/api") {
      const auth = request.headers.authorization ?? "";
      if (!auth.startsWith("Bearer ") || !apiKeys.has(auth.slice(7))) return unauthorized();
      if (request.method === "GET" && "get_domains" in request.query) {
        return json(200, {
          subdomains: Object.fromEntries(domains),
          info: "success",
          status: "200 OK",
          add_domain: "get_domains",
        });
      }
      if (request.method === "POST" && typeof request.body === "string") {
        const form = new URLSearchParams(request.body);
        const domain = form.get("add_record");
        if (domain !== null) {
          if (!domains.has(domain))
            return json(403, { info: "error", status: "403 Forbidden", add_record: "domain not found" });
          const type = form.get("type") ?? "";
          const content = form.get("content") ?? "";
          if ((type === "A" && !isIPv4(content)) || (type === "AAAA" && !isIPv6(content))) {
            return json(400, { info: "error", status: "400 Bad Request", add_record: "invalid content" });
          }
          addRecord(domain, { praefix: form.get("praefix") ?? "", type, content });
          return json(201, { info: "success", status: "201 Created", add_record: "record added" });
        }
      }
      return json(400, { info: "error", status: "400 Bad Request" });
    }
    if (request.path === "/nic/update") {
      const { key, domain: name, praefix = "", ip, ip6 } = request.query;
      const domain = name === undefined ? undefined : domains.get(name);
      if (!domain) return plainText("nohost", 200);
      if (domain.domain_update_hash !== key) return plainText("badauth", 401);
      const address = ip6 ?? ip ?? "";
      const type = ip6 !== undefined ? "AAAA" : "A";
      if ((type === "A" && !isIPv4(address)) || (type === "AAAA" && !isIPv6(address)))
        return plainText("badrequest", 400);
      const record = domain.records.find((r) => r.praefix === praefix && r.type === type);
      if (!record) return plainText("nohost", 200);
      if (record.content === address) return plainText(`nochg ${address}`);
      record.content = address;
      domain.updates++;
      return plainText(`good ${address}`);
    }
    return plainText("Not Found", 404);
  }

  const server = startFakeServer<Ipv64Fault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      if (mode === "malformed") return malformedJson();
      if ("json" in mode) return json(mode.status, mode.json);
      if ("text" in mode) return plainText(mode.text, mode.status);
      return json(
        mode.status,
        { info: mode.body ?? "Too Many Requests", status: `${mode.status} ${mode.body ?? "Too Many Requests"}` },
        retryAfterHeader(mode.retryAfter),
      );
    },
  });

  const fake: Ipv64Fake = Object.assign(server, {
    apiKeys,
    domains,
    addDomain(name: string) {
      const domain = {
        updates: 0,
        wildcard: 1,
        domain_update_hash: `hash${Buffer.from(name).toString("hex").slice(0, 24)}`,
        records: [],
      };
      domains.set(name, domain);
      return domain;
    },
    addRecord,
    recordsOf: (domain: string, praefix: string, type: string) =>
      domains.get(domain)?.records.filter((r) => r.praefix === praefix && r.type === type) ?? [],
    reset() {
      domains.clear();
      apiKeys.clear();
      apiKeys.add(IPV64_FAKE_API_KEY);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
