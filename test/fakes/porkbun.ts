// A faithful stand-in for the Porkbun API v3 (docs/services/porkbun.md): every call a POST with both keys in
// the JSON body, errors as HTTP 400 `{"status":"ERROR","message":…}`, the per-domain API opt-in, the
// refused edit to a record's current content, the parked ALIAS @ / CNAME * that block A records, and
// the openresty 503 page for a key asking faster than its limit.
//
// Sources besides docs/services/porkbun.md: porkbun.com/llms-full.txt (endpoints, `start` on listAll, delete by id, the create
// answer `{"status":"SUCCESS","id":…}`); qdm12/ddns-updater docs/porkbun.md and issues #546 (the
// create error's words), #774 (the parked records); certbot_dns_porkbun PR #45 ("Invalid domain.").
// Where docs/services/porkbun.md says UNSURE the fake plays both: ids and ttls as strings or numbers, listAll
// paged by `start` or all at once, an edit that resets or keeps the fields it omits.
//
// Documentation: https://porkbun.com/api/json/v3/documentation. Independent clients it follows:
// qdm12/ddns-updater providers/porkbun and libdns/porkbun. No machine-readable description is published.
//
// Quirk switches: `minIntervalMs` (two requests of one key closer than this get the openresty 503
// page; Porkbun's throttle carries no Retry-After), `fault("throttled")` for one such page,
// `numbers` (ids and ttls as "strings" or "numbers"), `listAllPage` (listAll paged by `start`, or
// null: all at once), `editResetsOmitted` (an edit resets the fields it omits, or keeps them), a
// domain's `apiAccess` (off: every call refused), and the parked ALIAS @ / CNAME * records.

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

export const PORKBUN_FAKE_API_KEY = "pk1_fake0123456789abcdef0123456789abcdef";
export const PORKBUN_FAKE_SECRET = "sk1_fake0123456789abcdef0123456789abcdef";
export const PORKBUN_PARKING = "pixie.porkbun.com";

export interface PorkbunRecord {
  id: string;
  /** Fully qualified, as Porkbun answers it. */
  name: string;
  type: string;
  content: string;
  ttl: string;
  prio: string;
  notes: string;
}

export interface PorkbunDomain {
  domain: string;
  status: string;
  tld: string;
  /** The "API ACCESS" switch of the domain. */
  apiAccess: boolean;
  records: PorkbunRecord[];
}

/**
 * `{status}`: a Porkbun JSON error (`message` defaults by status); `"throttled"`: the openresty 503
 * page Porkbun sends a key that asks too often; `"malformed"`: a 200 with broken JSON; `"html"`: a 502 page.
 */
export type PorkbunFault =
  | { status: number; message?: string; retryAfter?: number }
  | "throttled"
  | "malformed"
  | "html";

export interface PorkbunFake extends FakeServer<PorkbunFault> {
  /** API key → its secret; edit to revoke mid-test. */
  keys: Map<string, string>;
  domains: Map<string, PorkbunDomain>;
  /** Ids, ttls and prios in answers: strings (recorded traffic) or numbers (UNSURE). */
  numbers: "strings" | "numbers";
  /** listAll answers this many domains per `start` page, or everything at once, ignoring `start`, when null. */
  listAllPage: number | null;
  /** Whether an edit that omits ttl, prio or notes resets them (UNSURE; resetting is the stricter fake). */
  editResetsOmitted: boolean;
  /** Two requests with one key closer than this get the 503 page (0: no limit). */
  minIntervalMs: number;
  /** New domains get the parked ALIAS @ and CNAME * unless `parked: false`; API access is on unless `apiAccess: false`. */
  addDomain(name: string, options?: { parked?: boolean; apiAccess?: boolean }): PorkbunDomain;
  /** `name` relative ("" apex, "*" wildcard) or fully qualified. */
  addRecord(
    domain: string,
    record: { name: string; type: string; content: string; ttl?: number; notes?: string },
  ): PorkbunRecord;
  record(fqdn: string, type: string): PorkbunRecord | undefined;
  /** How many requests created, edited or deleted records. */
  changes(): number;
  reset(): void;
}

const CHANGE_PATH = /^\/dns\/(create|edit|editByNameType|delete|deleteByNameType)\//;
const DEFAULT_TTL = 600;

export function startPorkbunFake(): PorkbunFake {
  const keys = new Map([[PORKBUN_FAKE_API_KEY, PORKBUN_FAKE_SECRET]]);
  const domains = new Map<string, PorkbunDomain>();
  const lastRequestByKey = new Map<string, number>();
  let nextId = 400_000_001;

  function fullName(name: string, domain: string): string {
    const bare = name.toLowerCase().replace(/\.$/, "");
    if (bare === "" || bare === "@" || bare === domain) return domain;
    return bare.endsWith(`.${domain}`) ? bare : `${bare}.${domain}`;
  }

  function addDomain(name: string, options: { parked?: boolean; apiAccess?: boolean } = {}): PorkbunDomain {
    const domain: PorkbunDomain = {
      domain: name.toLowerCase(),
      status: "ACTIVE",
      tld: name.split(".").at(-1) ?? "",
      apiAccess: options.apiAccess ?? true,
      records: [],
    };
    domains.set(domain.domain, domain);
    if (options.parked ?? true) {
      addRecord(domain.domain, { name: "", type: "ALIAS", content: PORKBUN_PARKING });
      addRecord(domain.domain, { name: "*", type: "CNAME", content: PORKBUN_PARKING });
    }
    return domain;
  }

  function addRecord(
    domainName: string,
    init: { name: string; type: string; content: string; ttl?: number; notes?: string },
  ): PorkbunRecord {
    const domain = domains.get(domainName.toLowerCase());
    if (!domain) throw new Error(`fake Porkbun: no domain ${domainName}`);
    const record: PorkbunRecord = {
      id: String(nextId++),
      name: fullName(init.name, domain.domain),
      type: init.type,
      content: init.content,
      ttl: String(Math.max(init.ttl ?? DEFAULT_TTL, DEFAULT_TTL)),
      prio: "0",
      notes: init.notes ?? "",
    };
    domain.records.push(record);
    return record;
  }

  function shown(record: PorkbunRecord): Record<string, unknown> {
    if (fake.numbers === "strings") return { ...record };
    return { ...record, id: Number(record.id), ttl: Number(record.ttl), prio: Number(record.prio) };
  }

  /** Why Porkbun would refuse this content or ttl for the type, or null. */
  function invalid(type: string, content: unknown, ttl: unknown): string | null {
    if (typeof content !== "string" || (type === "A" && !isIPv4(content)) || (type === "AAAA" && !isIPv6(content))) {
      return `Invalid content for ${type} record.`;
    }
    if (ttl !== undefined && !/^\d+$/.test(String(ttl))) return "Invalid TTL.";
    return null;
  }

  /** An A/AAAA cannot share its name with a CNAME, nor the apex with an ALIAS: Porkbun's parked records do both. */
  function blocked(domain: PorkbunDomain, name: string, type: string): boolean {
    if (type !== "A" && type !== "AAAA") return false;
    return domain.records.some(
      (r) => r.name === name && (r.type === "CNAME" || (r.type === "ALIAS" && name === domain.domain)),
    );
  }

  function applyEdit(record: PorkbunRecord, fields: Record<string, unknown>): void {
    record.content = String(fields.content);
    const ttl = fields.ttl ?? (fake.editResetsOmitted ? DEFAULT_TTL : undefined);
    if (ttl !== undefined) record.ttl = String(Math.max(Number(ttl), DEFAULT_TTL));
    const prio = fields.prio ?? (fake.editResetsOmitted ? "0" : undefined);
    if (prio !== undefined) record.prio = String(prio);
    const notes = fields.notes ?? (fake.editResetsOmitted ? "" : undefined);
    if (notes !== undefined) record.notes = String(notes);
  }

  function route(request: LoggedRequest): Response {
    if (request.method !== "POST") return error("Invalid request method.", 405);
    const body =
      typeof request.body === "object" && request.body !== null ? (request.body as Record<string, unknown>) : {};
    const apikey = typeof body.apikey === "string" ? body.apikey : "";
    if (fake.minIntervalMs > 0) {
      const last = lastRequestByKey.get(apikey);
      lastRequestByKey.set(apikey, request.receivedAt);
      if (last !== undefined && request.receivedAt - last < fake.minIntervalMs) return throttledPage();
    }
    if (keys.get(apikey) === undefined || keys.get(apikey) !== body.secretapikey)
      return error("Invalid API key. (002)");

    const segments = request.path.split("/").slice(1).map(decodeURIComponent);
    const [group, action, domainName = "", ...rest] = segments;
    if (group === "ping" && segments.length === 1) return success({ yourIp: "203.0.113.200" });
    if (group === "domain" && action === "listAll") {
      const all = [...domains.values()].map((d) => ({
        domain: d.domain,
        status: d.status,
        tld: d.tld,
        createDate: "2024-01-02 03:04:05",
        expireDate: "2027-01-02 03:04:05",
        securityLock: "1",
        whoisPrivacy: "1",
        autoRenew: "1",
        notLocal: 0,
      }));
      if (fake.listAllPage === null) return success({ domains: all });
      const start = Number(body.start ?? 0) || 0;
      return success({ domains: all.slice(start, start + fake.listAllPage) });
    }
    if (group !== "dns") return error("Invalid endpoint.", 404);
    const domain = domains.get(domainName.toLowerCase());
    if (!domain) return error("Invalid domain.");
    if (!domain.apiAccess) return error("Domain is not opted in to API access.");

    switch (action) {
      case "retrieve": {
        const records = rest[0] ? domain.records.filter((r) => r.id === rest[0]) : domain.records;
        return success({ cloudflare: "enabled", records: records.map(shown) });
      }
      case "retrieveByNameType": {
        const [type = "", sub = ""] = rest;
        const name = fullName(sub, domain.domain);
        return success({
          cloudflare: "enabled",
          records: domain.records.filter((r) => r.name === name && r.type === type).map(shown),
        });
      }
      case "create": {
        const type = String(body.type ?? "");
        const name = fullName(String(body.name ?? ""), domain.domain);
        const why = invalid(type, body.content, body.ttl);
        if (why) return error(why);
        if (blocked(domain, name, type)) return error("Create error: We were unable to create the DNS record.");
        const record = addRecord(domain.domain, {
          name,
          type,
          content: String(body.content),
          ttl: body.ttl === undefined ? undefined : Number(body.ttl),
          notes: typeof body.notes === "string" ? body.notes : undefined,
        });
        return success({ id: Number(record.id) });
      }
      case "edit": {
        const record = domain.records.find((r) => r.id === rest[0]);
        if (!record) return error("Edit error: We were unable to edit the DNS record.");
        const type = String(body.type ?? "");
        const why = invalid(type, body.content, body.ttl);
        if (why) return error(why);
        if (type !== record.type || fullName(String(body.name ?? ""), domain.domain) !== record.name) {
          // An edit by id may rename or retype; the client never means to, so the fake refuses it loudly.
          return error("Edit error: this fake refuses an edit that renames or retypes a record.");
        }
        if (record.content === body.content && (body.ttl === undefined || String(body.ttl) === record.ttl)) {
          return error("Edit error: We were unable to edit the DNS record.");
        }
        applyEdit(record, body);
        return success();
      }
      case "editByNameType": {
        const [type = "", sub = ""] = rest;
        const name = fullName(sub, domain.domain);
        const why = invalid(type, body.content, body.ttl);
        if (why) return error(why);
        const matching = domain.records.filter((r) => r.name === name && r.type === type);
        if (matching.length === 0 || matching.every((r) => r.content === body.content)) {
          return error("Edit error: We were unable to edit the DNS record.");
        }
        for (const record of matching) applyEdit(record, body);
        return success();
      }
      case "delete": {
        // `/dns/delete/{domain}/{id}` (porkbun.com/llms-full.txt, "Delete Record by Domain and ID").
        const at = domain.records.findIndex((r) => r.id === rest[0]);
        if (at < 0) return error("Delete error: We were unable to delete the DNS record.");
        domain.records.splice(at, 1);
        return success();
      }
      default:
        return error("Invalid endpoint.", 404);
    }
  }

  const server = startFakeServer<PorkbunFault>({
    prefix: "/api/json/v3",
    route,
    renderFault(mode) {
      if (mode === "throttled") return throttledPage();
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const headers = retryAfterHeader(mode.retryAfter);
      return error(mode.message ?? "Internal server error.", mode.status, headers);
    },
  });

  const fake: PorkbunFake = Object.assign(server, {
    keys,
    domains,
    numbers: "strings" as const,
    listAllPage: 1000 as number | null,
    editResetsOmitted: true,
    minIntervalMs: 0,
    addDomain,
    addRecord,
    record(fqdn: string, type: string) {
      for (const domain of domains.values()) {
        const found = domain.records.find((r) => r.name === fqdn && r.type === type);
        if (found) return found;
      }
      return undefined;
    },
    changes: () => server.requests.filter((r) => CHANGE_PATH.test(r.path)).length,
    reset() {
      domains.clear();
      lastRequestByKey.clear();
      keys.clear();
      keys.set(PORKBUN_FAKE_API_KEY, PORKBUN_FAKE_SECRET);
      Object.assign(fake, { numbers: "strings", listAllPage: 1000, editResetsOmitted: true, minIntervalMs: 0 });
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}

function success(fields: Record<string, unknown> = {}): Response {
  return json(200, { status: "SUCCESS", ...fields });
}

function error(message: string, status = 400, headers: Record<string, string> = {}): Response {
  return json(status, { status: "ERROR", message }, headers);
}

/** What Porkbun's openresty front sends a key that asks faster than about once a second. */
function throttledPage(): Response {
  return new Response(
    "<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>openresty</center>\r\n</body>\r\n</html>\r\n",
    { status: 503, headers: { "Content-Type": "text/html" } },
  );
}
