// A stand-in for Netcup's CCP DNS API (the JSON flavour of its domain web service): one endpoint,
// `POST …/endpoint.php?JSON`, with `{"action", "param"}` bodies. `login` trades the customer number,
// API key and API password for an `apisessionid`; every other action carries the customer number,
// API key and that session id. Each answer is HTTP 200 with Netcup's envelope `{serverrequestid,
// clientrequestid, action, status, statuscode, shortmessage, longmessage, responsedata}`; `status`
// is "success" (statuscode 2000) or "error" (a 4xxx/5xxx statuscode). Records (`infoDnsRecords`) are
// `{id, hostname, type, priority, destination, deleterecord, state}` with string ids, `hostname`
// relative to the domain (`@` for the apex) and NO per-record TTL: the zone's TTL (`infoDnsZone`)
// applies to every record. `updateDnsRecords` takes `dnsrecordset.dnsrecords`: a record with an id
// is changed, one without is created, one with `deleterecord: true` is deleted (a TXT record's
// destination is its text; lego's netcup provider deletes its TXT record so), and the answer is the
// zone's whole record set.
//
// Sources: ccp.netcup.net/run/webservice/servers/endpoint.php (the web service's own description:
// login, infoDnsZone, infoDnsRecords, updateDnsRecords, Dnsrecord, Responsemessage) and the
// netcup-wiki DNS API page it links; independent clients: qdm12/ddns-updater providers/netcup
// (login.go, info.go, update.go, json.go: `status == "error"` is a failure) and lego
// providers/dns/netcup/internal (types.go, fixtures: statuscode 4013 "Validation Error.").
// UNSURE: the words and code of a refused login and of an unknown domain (modelled as 4013
// "Validation Error." with a longmessage saying why); the code of an expired session (modelled as
// 4001, sessions ending 15 minutes after login); Netcup documents no request limit and no "slow down"
// answer, so the throttle fault is a plain HTTP 429 with an optional Retry-After.
// `cloudDomains` holds the account's domains on the CloudDNS backend: every action on them answers
// statuscode 5028 "The zone … could not be found." (acme.sh issue 7188; lego issue 3226).

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

export const NETCUP_FAKE_CUSTOMER = "123456";
export const NETCUP_FAKE_API_KEY = "netcupFakeApiKey0123456789abcdefABCDEF";
export const NETCUP_FAKE_API_PASSWORD = "netcupFakeApiPassword0123456789abcdef";
/** The zone TTL a domain has unless a test sets another: Netcup's default. */
export const NETCUP_ZONE_TTL = 86400;
/** How long a session lives in the fake (Netcup's wiki: 15 minutes). */
const NETCUP_SESSION_MS = 15 * 60 * 1000;

export interface NetcupRecord {
  id: string;
  hostname: string;
  type: string;
  priority: string;
  destination: string;
  deleterecord: boolean;
  state: string;
}

export interface NetcupZone {
  ttl: number;
  records: NetcupRecord[];
}

/**
 * `{statuscode}`: Netcup's error envelope (HTTP 200) with those words; `{httpStatus}`: an HTTP error
 * (`retryAfter` adds the header); `"malformed"` a 200 with broken JSON; `"html"` a 502 page.
 */
export type NetcupFault =
  | { statuscode: number; shortmessage?: string; longmessage?: string }
  | { httpStatus: number; retryAfter?: number }
  | "malformed"
  | "html";

export interface NetcupFake extends FakeServer<NetcupFault> {
  /** Customer number → {apikey, apipassword}; delete one to revoke it. */
  customers: Map<string, { apikey: string; apipassword: string }>;
  domains: Map<string, NetcupZone>;
  /** Domains on CloudDNS, which this API answers 5028 for. */
  cloudDomains: Set<string>;
  /** Session ids handed out, with when they stop working (`performance.now()` based). */
  sessions: Map<string, number>;
  /** Ends every session at once, as Netcup does 15 minutes after a login. */
  expireSessions(): void;
  /** How many logins succeeded. */
  logins(): number;
  addDomain(name: string, ttl?: number): void;
  /** `hostname` relative to the domain, `@` for the apex. */
  addRecord(domain: string, record: { hostname: string; type: string; destination: string }): NetcupRecord;
  record(domain: string, hostname: string, type: string): NetcupRecord | undefined;
  /** Requests whose action changes something (`updateDnsRecords`). */
  changes(): number;
  reset(): void;
}

export function startNetcupFake(): NetcupFake {
  const customers = new Map([
    [NETCUP_FAKE_CUSTOMER, { apikey: NETCUP_FAKE_API_KEY, apipassword: NETCUP_FAKE_API_PASSWORD }],
  ]);
  const domains = new Map<string, NetcupZone>();
  const sessions = new Map<string, number>();
  let nextId = 1000;
  let logins = 0;

  function addRecord(domain: string, init: { hostname: string; type: string; destination: string }): NetcupRecord {
    const zone = domains.get(domain);
    if (!zone) throw new Error(`fake Netcup: no domain ${domain}`);
    const record: NetcupRecord = {
      id: String(++nextId),
      hostname: init.hostname,
      type: init.type,
      priority: "0",
      destination: init.destination,
      deleterecord: false,
      state: "yes",
    };
    zone.records.push(record);
    return record;
  }

  function envelope(
    action: string,
    status: "success" | "error",
    statuscode: number,
    shortmessage: string,
    longmessage: string,
    responsedata: unknown = "",
  ): Response {
    return json(200, {
      serverrequestid: `srv${Date.now().toString(36)}`,
      clientrequestid: "",
      action,
      status,
      statuscode,
      shortmessage,
      longmessage,
      responsedata,
    });
  }
  const validation = (action: string, why: string) => envelope(action, "error", 4013, "Validation Error.", why);

  function route(request: LoggedRequest): Response {
    if (request.method !== "POST" || request.path !== "/" || !("JSON" in request.query))
      return new Response("Not Found", { status: 404 });
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
    const action = typeof body.action === "string" ? body.action : "";
    const param = typeof body.param === "object" && body.param !== null ? (body.param as Record<string, unknown>) : {};
    const customer = customers.get(String(param.customernumber ?? ""));
    if (action === "") return validation("", "Message is empty.");

    if (action === "login") {
      if (!customer || customer.apikey !== param.apikey || customer.apipassword !== param.apipassword) {
        return validation(action, "The login failed. Check the customer number, API key and API password.");
      }
      const id = `sess${crypto.randomUUID().replaceAll("-", "")}`;
      sessions.set(id, performance.now() + NETCUP_SESSION_MS);
      logins++;
      return envelope(action, "success", 2000, "Login successful", "Session has been created successful.", {
        apisessionid: id,
      });
    }

    if (!customer || customer.apikey !== param.apikey)
      return validation(action, "The API key does not belong to this customer number.");
    const session = typeof param.apisessionid === "string" ? sessions.get(param.apisessionid) : undefined;
    if (session === undefined || session < performance.now())
      return envelope(
        action,
        "error",
        4001,
        "The session id is not in a valid format.",
        "The API session is invalid or expired; log in again.",
      );
    const domain = String(param.domainname ?? "").toLowerCase();
    const zone = domains.get(domain);
    if (fake.cloudDomains.has(domain) && action !== "logout") {
      return envelope(action, "error", 5028, "Validation Error.", `The zone ${domain} could not be found.`);
    }

    switch (action) {
      case "logout":
        sessions.delete(String(param.apisessionid));
        return envelope(action, "success", 2000, "Logout successful", "Session has been terminated successful.");
      case "infoDnsZone":
        if (!zone) return validation(action, `Domain not found: ${domain}`);
        return envelope(action, "success", 2000, "DNS zone found", "DNS zone was found.", {
          name: domain,
          ttl: String(zone.ttl),
          serial: "2026112401",
          refresh: "28800",
          retry: "7200",
          expire: "1209600",
          dnssecstatus: false,
        });
      case "infoDnsRecords":
        if (!zone) return validation(action, `Domain not found: ${domain}`);
        return envelope(action, "success", 2000, "DNS records found", "DNS Records for this zone were found.", {
          dnsrecords: zone.records,
        });
      case "updateDnsRecords": {
        if (!zone) return validation(action, `Domain not found: ${domain}`);
        const set =
          typeof param.dnsrecordset === "object" && param.dnsrecordset !== null
            ? (param.dnsrecordset as Record<string, unknown>)
            : {};
        const given = Array.isArray(set.dnsrecords) ? (set.dnsrecords as Record<string, unknown>[]) : [];
        if (given.length === 0) return validation(action, "dnsrecordset holds no records.");
        // Checked as a whole before anything changes: Netcup applies a set or refuses it.
        for (const record of given) {
          const problem = check(record, zone);
          if (problem) return envelope(action, "error", 4013, "Validation Error.", problem);
        }
        for (const record of given) {
          if (record.id === undefined || record.id === "") {
            addRecord(domain, {
              hostname: String(record.hostname),
              type: String(record.type),
              destination: String(record.destination),
            });
            continue;
          }
          const index = zone.records.findIndex((r) => r.id === String(record.id));
          if (record.deleterecord === true) {
            zone.records.splice(index, 1);
            continue;
          }
          Object.assign(zone.records[index]!, {
            hostname: String(record.hostname),
            type: String(record.type),
            destination: String(record.destination),
            ...(typeof record.priority === "string" ? { priority: record.priority } : {}),
          });
        }
        return envelope(
          action,
          "success",
          2000,
          "DNS records successful updated",
          "The given DNS records for this zone were updated.",
          { dnsrecords: zone.records },
        );
      }
      default:
        return envelope(action, "error", 4013, "Validation Error.", `Unknown action ${action}.`);
    }
  }

  const server = startFakeServer<NetcupFault>({
    prefix: "/run/webservice/servers/endpoint.php",
    route,
    renderFault(mode, request) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      if ("httpStatus" in mode)
        return json(mode.httpStatus, { message: "Too Many Requests" }, retryAfterHeader(mode.retryAfter));
      const action =
        typeof (request.body as { action?: unknown } | undefined)?.action === "string"
          ? String((request.body as { action: string }).action)
          : "";
      return envelope(action, "error", mode.statuscode, mode.shortmessage ?? "Error.", mode.longmessage ?? "");
    },
  });

  const fake: NetcupFake = Object.assign(server, {
    customers,
    domains,
    cloudDomains: new Set<string>(),
    sessions,
    expireSessions: () => sessions.clear(),
    logins: () => logins,
    addDomain: (name: string, ttl = NETCUP_ZONE_TTL) => void domains.set(name, { ttl, records: [] }),
    addRecord,
    record: (domain: string, hostname: string, type: string) =>
      domains.get(domain)?.records.find((r) => r.hostname === hostname && r.type === type),
    changes: () =>
      server.requests.filter((r) => (r.body as { action?: unknown } | undefined)?.action === "updateDnsRecords").length,
    reset() {
      domains.clear();
      fake.cloudDomains.clear();
      sessions.clear();
      customers.clear();
      customers.set(NETCUP_FAKE_CUSTOMER, { apikey: NETCUP_FAKE_API_KEY, apipassword: NETCUP_FAKE_API_PASSWORD });
      logins = 0;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

/** What Netcup's validation says about one record of a set; undefined when it is fine. */
function check(record: Record<string, unknown>, zone: NetcupZone): string | undefined {
  if (typeof record.hostname !== "string" || record.hostname === "")
    return "Value in field hostname does not match requirements of type: hostname.";
  if (record.type !== "A" && record.type !== "AAAA" && record.type !== "TXT")
    return "The type of this record is not supported by this fake.";
  const destination = record.destination;
  if (
    typeof destination !== "string" ||
    (record.type === "A" && !isIPv4(destination)) ||
    (record.type === "AAAA" && !isIPv6(destination))
  ) {
    return `Value in field destination does not match requirements of type: ${record.type === "A" ? "ipv4" : "ipv6"}.`;
  }
  if (record.id !== undefined && record.id !== "" && !zone.records.some((r) => r.id === String(record.id)))
    return `DNS record ${String(record.id)} not found.`;
  return undefined;
}
