// A stand-in for the Loopia API: XML-RPC, every call a `POST` of a `<methodCall>` to one address
// (`https://api.loopia.se/RPCSERV`), answered HTTP 200 with a `<methodResponse>`. Each method's first
// parameters are the API user's name and password, then (a reseller in a customer's account only)
// the customer number. Methods played: getDomains → domain_obj[] (`{domain, paid, registered,
// renewal_status, expiration_date, reference_no}`); getSubdomains(domain) → string[];
// getZoneRecords(domain, subdomain) → record_obj[] (`{type, ttl, priority, rdata, record_id}`, `@` the
// apex, an unknown subdomain an empty list); updateZoneRecord(domain, subdomain, record_obj),
// addZoneRecord(domain, subdomain, record_obj) and addSubdomain(domain, subdomain) → a status
// string. Status words: OK, AUTH_ERROR (wrong user or password, or a method the API user has no
// permission for), RATE_LIMITED (over 60 calls a minute), BAD_INDATA, UNKNOWN_ERROR. A listing that
// is refused answers its status as the only element of an array.
//
// Sources: support.loopia.se/wiki — "LoopiaAPI – Innan du börjar" (server, authentication, 60 calls a
// minute), getDomains, getSubdomains, getZoneRecords, updateZoneRecord, addZoneRecord, addSubdomain,
// record_obj, domain_obj, Felkoder; independent clients: lego providers/dns/loopia/internal
// (client.go: status strings, types.go: record_obj decoding) and DNSControl providers/loopia
// (client.go: the subdomain model, a rate limit seen as XML-RPC fault 429).
// UNSURE: the exact answer of a refused listing (modelled as `["AUTH_ERROR"]`, as the Ruby loopiator
// client reads RATE_LIMITED); an unknown domain (UNKNOWN_ERROR); a record added under a subdomain
// Loopia does not know (UNKNOWN_ERROR, so clients add the subdomain first).
//
// Quirks and their switches: `fault({status})` answers that status word from the next calls;
// `fault({faultCode, faultString})` an XML-RPC fault; `fault({httpStatus})` an HTTP error;
// `"malformed"` a cut-off XML body; `"html"` a 502 page. `permissions` limits the API user's methods.
// `padded` answers every string padded with newlines and indentation, as the real server does in
// the traffic lego recorded (providers/dns/loopia/internal/mock_test.go: `<string>\n  OK\n</string>`).

import { isIPv4, isIPv6 } from "node:net";
import {
  decodeMethodCall,
  encodeFault,
  encodeMethodResponse,
  isStruct,
  type XmlRpcValue,
} from "../../src/dns/protocols/xmlrpc";
import { type FakeServer, htmlErrorPage, type LoggedRequest, retryAfterHeader, startFakeServer } from "./server";

export const LOOPIA_FAKE_USER = "ddnsd@loopiaapi";
export const LOOPIA_FAKE_PASSWORD = "loopiaFakeApiPassword0123456789";
/** A customer of the reseller account the fake user may also work in. */
export const LOOPIA_FAKE_CUSTOMER = "C123456";
const LOOPIA_DEFAULT_TTL = 3600;

export interface LoopiaRecord {
  type: string;
  ttl: number;
  priority: number;
  rdata: string;
  record_id: number;
}

export type LoopiaFault =
  | { status: string }
  | { faultCode: number; faultString: string }
  | { httpStatus: number; retryAfter?: number }
  | "malformed"
  | "html";

export interface LoopiaFake extends FakeServer<LoopiaFault> {
  users: Map<string, string>;
  /** The methods the API user may call; every one when null. */
  permissions: Set<string> | null;
  /** Domain → subdomain (`@` the apex) → records; the customer's account is a second such map. */
  domains: Map<string, Map<string, LoopiaRecord[]>>;
  customerDomains: Map<string, Map<string, LoopiaRecord[]>>;
  addDomain(name: string, account?: "own" | "customer"): void;
  addRecord(
    domain: string,
    subdomain: string,
    record: { type: string; rdata: string; ttl?: number; priority?: number },
    account?: "own" | "customer",
  ): LoopiaRecord;
  records(domain: string, subdomain: string, type: string, account?: "own" | "customer"): LoopiaRecord[];
  /** Every string of an answer padded with whitespace, as Loopia's server sends them. */
  padded: boolean;
  /** The method of each logged request. */
  methods(): string[];
  /** Requests whose method changes something. */
  changes(): number;
  reset(): void;
}

const ARITY: Record<string, number> = {
  getDomains: 0,
  getSubdomains: 1,
  getZoneRecords: 2,
  updateZoneRecord: 3,
  addZoneRecord: 3,
  addSubdomain: 2,
};
const LISTINGS = new Set(["getDomains", "getSubdomains", "getZoneRecords"]);
export const LOOPIA_CHANGES = new Set(["updateZoneRecord", "addZoneRecord", "addSubdomain"]);

function xmlResponse(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "Content-Type": "text/xml; charset=utf-8", ...headers } });
}

/** Every string of an XML-RPC document on lines of its own, indented, as Loopia's server writes them. */
function pad(body: string): string {
  return body.replace(/<string>([^<]*)<\/string>/g, "<string>\n          $1\n        </string>");
}

/** The method a logged request called ("" when its body is no method call). */
export function loopiaMethod(request: LoggedRequest): string {
  return typeof request.body === "string" ? (decodeMethodCall(request.body)?.method ?? "") : "";
}

export function startLoopiaFake(): LoopiaFake {
  const users = new Map([[LOOPIA_FAKE_USER, LOOPIA_FAKE_PASSWORD]]);
  const domains = new Map<string, Map<string, LoopiaRecord[]>>();
  const customerDomains = new Map<string, Map<string, LoopiaRecord[]>>();
  let nextId = 5000;

  const xml = (body: string, status?: number, headers?: Record<string, string>) =>
    xmlResponse(fake.padded ? pad(body) : body, status, headers);
  const accountOf = (account: "own" | "customer" = "own") => (account === "own" ? domains : customerDomains);

  function addRecord(
    domain: string,
    subdomain: string,
    init: { type: string; rdata: string; ttl?: number; priority?: number },
    account?: "own" | "customer",
  ): LoopiaRecord {
    const zone = accountOf(account).get(domain);
    if (!zone) throw new Error(`fake Loopia: no domain ${domain}`);
    const record: LoopiaRecord = {
      type: init.type,
      ttl: init.ttl ?? LOOPIA_DEFAULT_TTL,
      priority: init.priority ?? 0,
      rdata: init.rdata,
      record_id: ++nextId,
    };
    if (!zone.has(subdomain)) zone.set(subdomain, []);
    zone.get(subdomain)!.push(record);
    return record;
  }

  function answerStatus(method: string, word: string): Response {
    return xml(encodeMethodResponse(LISTINGS.has(method) ? [word] : word));
  }

  function route(request: LoggedRequest): Response {
    if (request.method !== "POST" || request.path !== "/") return new Response("Not Found", { status: 404 });
    const call = typeof request.body === "string" ? decodeMethodCall(request.body) : undefined;
    if (!call) return xml(encodeFault(-32700, "parse error. not well formed"));
    const arity = ARITY[call.method];
    if (arity === undefined) return xml(encodeFault(-32601, `server error. requested method ${call.method} not found`));
    const [user, password] = call.params;
    let rest = call.params.slice(2);
    let account = domains;
    if (rest.length === arity + 1) {
      if (rest[0] !== LOOPIA_FAKE_CUSTOMER) return answerStatus(call.method, "AUTH_ERROR");
      account = customerDomains;
      rest = rest.slice(1);
    } else if (rest.length !== arity) {
      return xml(encodeFault(-32602, "server error. invalid method parameters"));
    }
    if (typeof user !== "string" || users.get(user) !== password) return answerStatus(call.method, "AUTH_ERROR");
    if (fake.permissions !== null && !fake.permissions.has(call.method)) return answerStatus(call.method, "AUTH_ERROR");

    const domain = String(rest[0] ?? "").toLowerCase();
    const zone = account.get(domain);
    const subdomain = String(rest[1] ?? "").toLowerCase();
    switch (call.method) {
      case "getDomains":
        return xml(
          encodeMethodResponse(
            [...account.keys()].map((name) => ({
              domain: name,
              paid: 1,
              registered: 1,
              renewal_status: "NORMAL",
              expiration_date: "2027-06-01",
              reference_no: 0,
            })),
          ),
        );
      case "getSubdomains":
        if (!zone) return answerStatus(call.method, "UNKNOWN_ERROR");
        return xml(encodeMethodResponse([...zone.keys()]));
      case "getZoneRecords":
        if (!zone) return answerStatus(call.method, "UNKNOWN_ERROR");
        return xml(encodeMethodResponse((zone.get(subdomain) ?? []).map((r) => ({ ...r }))));
      case "addSubdomain":
        if (!zone || subdomain === "") return answerStatus(call.method, "BAD_INDATA");
        if (!zone.has(subdomain)) zone.set(subdomain, []);
        return answerStatus(call.method, "OK");
      case "addZoneRecord":
      case "updateZoneRecord": {
        const record = rest[2];
        if (!zone || !isStruct(record)) return answerStatus(call.method, "BAD_INDATA");
        const list = zone.get(subdomain);
        if (!list) return answerStatus(call.method, "UNKNOWN_ERROR");
        const problem = check(record);
        if (problem) return answerStatus(call.method, "BAD_INDATA");
        const fields = {
          type: String(record.type),
          ttl: Number(record.ttl),
          priority: Number(record.priority ?? 0),
          rdata: String(record.rdata),
        };
        if (call.method === "addZoneRecord") {
          list.push({ ...fields, record_id: ++nextId });
          return answerStatus(call.method, "OK");
        }
        const existing = list.find((r) => r.record_id === Number(record.record_id));
        if (!existing) return answerStatus(call.method, "UNKNOWN_ERROR");
        Object.assign(existing, fields);
        return answerStatus(call.method, "OK");
      }
      default:
        return answerStatus(call.method, "UNKNOWN_ERROR");
    }
  }

  const server = startFakeServer<LoopiaFault>({
    prefix: "/RPCSERV",
    route,
    renderFault(mode, request) {
      if (mode === "malformed") return xml('<?xml version="1.0"?><methodResponse><params><param><value><array><data>');
      if (mode === "html") return htmlErrorPage();
      if ("httpStatus" in mode)
        return new Response("Too Many Requests", {
          status: mode.httpStatus,
          headers: retryAfterHeader(mode.retryAfter),
        });
      if ("faultCode" in mode) return xml(encodeFault(mode.faultCode, mode.faultString));
      return answerStatus(loopiaMethod(request), mode.status);
    },
  });

  const fake: LoopiaFake = Object.assign(server, {
    users,
    permissions: null as Set<string> | null,
    padded: false,
    domains,
    customerDomains,
    addDomain: (name: string, account?: "own" | "customer") => void accountOf(account).set(name, new Map([["@", []]])),
    addRecord,
    records: (domain: string, subdomain: string, type: string, account?: "own" | "customer") =>
      accountOf(account)
        .get(domain)
        ?.get(subdomain)
        ?.filter((r) => r.type === type) ?? [],
    methods: () => server.requests.map(loopiaMethod),
    changes: () => server.requests.filter((r) => LOOPIA_CHANGES.has(loopiaMethod(r))).length,
    reset() {
      domains.clear();
      customerDomains.clear();
      users.clear();
      users.set(LOOPIA_FAKE_USER, LOOPIA_FAKE_PASSWORD);
      fake.permissions = null;
      fake.padded = false;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

/** Whether Loopia would take the record: a known type, an address of that type, a TTL. */
function check(record: { [member: string]: XmlRpcValue }): string | undefined {
  const rdata = String(record.rdata ?? "");
  if (record.type === "A" && !isIPv4(rdata)) return "rdata";
  if (record.type === "AAAA" && !isIPv6(rdata)) return "rdata";
  if (typeof record.ttl !== "number" || record.ttl < 0) return "ttl";
  return undefined;
}
