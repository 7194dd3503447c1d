// Porkbun API v3 client: checks a key pair and points one A/AAAA record at an address. Every call is
// a POST carrying both keys in its JSON body. Each write is preceded by a read of the hostname's
// records of that type: Porkbun refuses an edit to the content a record already has ("Edit error"),
// so the read both avoids rewriting what is there and proves what an id names (`externalIdTrusted`
// is not needed: the external id only picks among the records the read returned).
//
// Requests per write: retrieveByNameType + edit (2) once the domain is known (config.zone_id), plus
// domain/listAll on the first write; 1 when the record already holds the address.
//
// Sources: PROVIDERS.md §3; porkbun.com/llms-full.txt (the API reference); libdns/porkbun; qdm12/
// ddns-updater providers/porkbun and docs/porkbun.md ("Conflicting default records"), its issues
// #546 ("Create error: We were unable to create the DNS record." under a parked CNAME) and #774.

import {
  exchangeJson,
  isObject,
  notCreatedMessage,
  parseJson,
  pauseSeconds,
  pausing,
  retryAfterSeconds,
  unreadableAnswer,
  writtenDetails,
} from "./http";
import type { DnsProvider, RecordTarget, WriteOutcome } from "./provider";
import { type ClientContext, defineService } from "./service";
import { configuredZone, foreignZoneMessage, longestZone, relativeName, zoneHolds } from "./zones";

const SERVICE = "Porkbun";
/** Porkbun's minimum and default TTL. */
const MIN_TTL = 600;
const MAX_TTL = 86400;
/** domain/listAll answers at most this many domains; `start` asks for the next ones. */
const LIST_ALL_PAGE = 1000;
/** A bound on listAll pages, in case a server ignores `start` and repeats the first page. */
const LIST_ALL_MAX_PAGES = 20;

type Failure = Extract<WriteOutcome, { ok: false }>;
type Call = { ok: true; body: Record<string, unknown> } | Failure;

export function createPorkbunClient(
  credentials: { api_key: string; secret_api_key: string },
  context: ClientContext,
): DnsProvider {
  async function call(path: string, fields: Record<string, unknown> = {}): Promise<Call> {
    // Every call is a POST with the keys in the JSON body.
    const keys = { apikey: credentials.api_key, secretapikey: credentials.secret_api_key };
    const answer = await exchangeJson(context, "POST", path, {}, { ...keys, ...fields });
    if (!answer.ok) return { ok: false, message: `${SERVICE}: ${answer.reason}` };
    const body = parseJson(answer.text);
    // "Slow down" comes as an openresty 503 page without Retry-After (any 503 is worth the pause), or
    // as a 429 should Porkbun adopt one.
    if (answer.status === 429 || answer.status === 503) {
      const pause = pauseSeconds(retryAfterSeconds(answer.headers));
      const words = isObject(body) && typeof body.message === "string" ? body.message : pageTitle(answer.text);
      return {
        ok: false,
        message: `${SERVICE}: ${words || "too many requests"} (rate limited, HTTP ${answer.status})${pausing(pause)}`,
        retryAfterSeconds: pause,
      };
    }
    if (!isObject(body)) return { ok: false, message: `${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}` };
    // An error can come with any HTTP status, so `status` decides as much as the code does.
    if (body.status === "SUCCESS" && answer.status < 400) return { ok: true, body };
    const reason = typeof body.message === "string" && body.message !== "" ? body.message : "request failed";
    const failure: Failure = { ok: false, message: `${SERVICE}: ${reason} (HTTP ${answer.status})` };
    // Only a new key pair (an edit of the provider) can fix this one; asking again just looks like an attack.
    return /^invalid api key/i.test(reason) ? { ...failure, stopRetrying: true } : failure;
  }

  async function findDomain(hostname: string): Promise<{ ok: true; domain: string } | Failure> {
    const names = new Set<string>();
    for (let page = 0; page < LIST_ALL_MAX_PAGES; page++) {
      const listed = await call("/domain/listAll", { start: String(page * LIST_ALL_PAGE) });
      if (!listed.ok) return listed;
      const domains = recordsOf(listed.body.domains).map((d) => lower(d.domain)).filter((d) => d !== "");
      const known = names.size;
      for (const domain of domains) names.add(domain);
      if (domains.length < LIST_ALL_PAGE || names.size === known) break;
    }
    const domain = longestZone(hostname, names);
    if (domain === undefined) return { ok: false, message: `${SERVICE}: no domain of this account holds ${hostname}` };
    return { ok: true, domain };
  }

  /** When a create failed: the parked ALIAS (apex) or CNAME (any other name) that blocks it, if there is one. */
  async function blockingAlias(domain: string, sub: string): Promise<string> {
    const type = sub === "" ? "ALIAS" : "CNAME";
    const read = await call(`/dns/retrieveByNameType/${domain}/${type}/${encodeURIComponent(sub)}`);
    const alias = read.ok ? recordsOf(read.body.records)[0] : undefined;
    if (!alias) return "";
    return ` — its ${type} record (→ ${String(alias.content)}${
      String(alias.content).includes("porkbun.com") ? ", Porkbun's parking page" : ""
    }) blocks it: delete that record at Porkbun`;
  }

  async function writeInDomain(domain: string, target: RecordTarget, ip: string): Promise<WriteOutcome> {
    const sub = relativeName(target.hostname, domain);
    const type = target.recordType;
    // A raw "*" for the wildcard, an empty last segment for the apex, as Porkbun's reference shows.
    const read = await call(`/dns/retrieveByNameType/${domain}/${type}/${encodeURIComponent(sub)}`);
    if (!read.ok) return read;
    const records = recordsOf(read.body.records).filter(
      (r) => r.type === type && lower(r.name) === target.hostname && idOf(r) !== "",
    );
    const existing = records.find((r) => idOf(r) === target.externalId) ?? records[0];

    if (existing) {
      const id = idOf(existing);
      const success = (ttl: unknown, facts: string[] = []): WriteOutcome => ({
        ok: true,
        action: "updated",
        externalId: id,
        zoneId: domain,
        message: writtenDetails(SERVICE, `record ${id}`, [`ttl ${String(ttl)}`, ...facts]),
      });
      if (existing.content === ip) return success(existing.ttl, ["already held this address, nothing sent"]);
      // Every field goes back as it was: whether Porkbun keeps what an edit omits is not documented.
      const ttl = typeof target.config.ttl === "number" ? String(target.config.ttl) : String(existing.ttl ?? MIN_TTL);
      const fields: Record<string, unknown> = { type, name: sub, content: ip, ttl };
      if (existing.prio !== undefined && existing.prio !== null) fields.prio = String(existing.prio);
      if (typeof existing.notes === "string") fields.notes = existing.notes;
      const edited = await call(`/dns/edit/${domain}/${encodeURIComponent(id)}`, fields);
      return edited.ok ? success(ttl) : edited;
    }

    if (target.config.create_if_missing === false) return { ok: false, message: notCreatedMessage(SERVICE, target) };
    const ttl = String(typeof target.config.ttl === "number" ? target.config.ttl : MIN_TTL);
    const created = await call(`/dns/create/${domain}`, { name: sub, type, content: ip, ttl });
    if (!created.ok) {
      if (created.retryAfterSeconds !== undefined || created.stopRetrying) return created;
      return { ...created, message: created.message + (await blockingAlias(domain, sub)) };
    }
    const id = idOf(created.body);
    if (id === "") return { ok: false, message: `${SERVICE}: the created record came back without an id` };
    return {
      ok: true,
      action: "created",
      externalId: id,
      zoneId: domain,
      message: writtenDetails(SERVICE, `record ${id}`, [`ttl ${ttl}`]),
    };
  }

  return {
    async verify() {
      const answer = await call("/ping");
      if (!answer.ok) return { ok: false, detail: answer.message };
      const seenFrom = typeof answer.body.yourIp === "string" ? ` (Porkbun sees this host as ${answer.body.yourIp})` : "";
      return { ok: true, detail: `API key pair accepted${seenFrom}` };
    },

    async writeRecord(target, ip) {
      const configured = configuredZone(target.config.zone_id);
      if (configured !== undefined) {
        if (!zoneHolds(configured, target.hostname)) {
          return { ok: false, message: foreignZoneMessage(SERVICE, configured, target.hostname) };
        }
        return writeInDomain(configured, target, ip);
      }
      const found = await findDomain(target.hostname);
      return found.ok ? writeInDomain(found.domain, target, ip) : found;
    },
  };
}

export const porkbun = defineService({
  type: "porkbun",
  label: "Porkbun",
  summary:
    "Domains registered at Porkbun, through its API (v3). Switch on API ACCESS for each domain in Porkbun's domain management first.",
  credentials: [
    {
      key: "api_key",
      url: "https://porkbun.com/account/api",
      label: "API key",
      help: "porkbun.com → Account → API Access → Create API Key; the key starting pk1_. Then, under Domain Management, switch on API ACCESS for each domain ddnsd should update.",
      secret: true,
    },
    {
      key: "secret_api_key",
      label: "Secret API key",
      help: "The secret key (sk1_…) shown once, next to the API key, when it is created.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: {
    min: MIN_TTL,
    max: MAX_TTL,
    help: `${MIN_TTL}–${MAX_TTL} seconds; empty keeps the record's TTL (a new record gets ${MIN_TTL})`,
  },
  canVerify: true,
  defaultApiUrl: "https://api.porkbun.com/api/json/v3",
  // About one request a second per key; beyond it Porkbun answers 503 pages.
  rateLimits: [{ requests: 1, perSeconds: 1.25 }],
  createClient: (credentials, _options, context) =>
    createPorkbunClient({ api_key: credentials.api_key ?? "", secret_api_key: credentials.secret_api_key ?? "" }, context),
});

/** Porkbun writes ids as strings or numbers. */
function idOf(record: Record<string, unknown>): string {
  return typeof record.id === "string" || typeof record.id === "number" ? String(record.id) : "";
}

function recordsOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function lower(value: unknown): string {
  return typeof value === "string" ? value.toLowerCase().replace(/\.$/, "") : "";
}

/** An HTML error page's title ("503 Service Temporarily Unavailable"), or "". */
function pageTitle(html: string): string {
  return /<title>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? "";
}
