// Porkbun API v3 (docs/services/porkbun.md): the zone service primitives. Every call is a POST
// carrying both keys in its JSON body, reads included; a domain's name is its id. Porkbun refuses an
// edit to the content a record already has ("Edit error"), which the reconciler never sends: it reads
// first and leaves a record that holds the address alone.
//
// Requests per write: retrieveByNameType + edit (2) once the domain is known (config.zone_id), plus
// domain/listAll on the first write; 1 when the record already holds the address.
//
// Sources: porkbun.com/llms-full.txt (the API reference); libdns/porkbun; qdm12/ddns-updater
// providers/porkbun and docs/porkbun.md ("Conflicting default records"), its issues #546 ("Create
// error: We were unable to create the DNS record." under a parked CNAME) and #774.

import { exchangeJson, unreadableAnswer } from "../../net/http";
import { isObject, objectsIn, parseJson } from "../../util/json";
import { failed, failedAnswer, throttleWait } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { txtRecords, unquotedTxt } from "../txt";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "Porkbun";
/** Porkbun's minimum and default TTL. */
const MIN_TTL = 600;
const MAX_TTL = 86400;
/** domain/listAll answers at most this many domains; `start` asks for the next ones. */
const LIST_ALL_PAGE = 1000;
/** A bound on listAll pages, in case a server ignores `start` and repeats the first page. */
const LIST_ALL_MAX_PAGES = 20;

export function createPorkbunApi(
  credentials: { api_key: string; secret_api_key: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  async function call(path: string, fields: Record<string, unknown> = {}): Promise<Step<Record<string, unknown>>> {
    const keys = { apikey: credentials.api_key, secretapikey: credentials.secret_api_key };
    const answer = await exchangeJson(context, "POST", path, {}, { ...keys, ...fields });
    if (!answer.ok) return failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause });
    const body = parseJson(answer.text);
    // "Slow down" comes as an openresty 503 page without Retry-After (any 503 is Porkbun's pace
    // limit), or as a 429 should Porkbun adopt one. Only a wait Porkbun names is passed on.
    if (answer.status === 429 || answer.status === 503) {
      const words = isObject(body) && typeof body.message === "string" ? body.message : pageTitle(answer.text);
      return failed(`${SERVICE}: ${words || "too many requests"} (rate limited, HTTP ${answer.status})`, {
        cause: "throttled",
        ...throttleWait(answer.headers),
      });
    }
    if (!isObject(body)) {
      return answer.status >= 200 && answer.status < 300
        ? failed(`${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`, { cause: "unreachable" })
        : failedAnswer(SERVICE, answer.status, answer.headers, answer.text, undefined);
    }
    // An error can come with any HTTP status, so `status` decides as much as the code does.
    if (body.status === "SUCCESS" && answer.status < 400) return { ok: true, value: body };
    const reason = typeof body.message === "string" && body.message !== "" ? body.message : "request failed";
    // Only a new key pair (an edit of the provider) can fix this one; asking again just looks like an attack.
    const badKey = /^invalid api key/i.test(reason);
    return failed(`${SERVICE}: ${reason} (HTTP ${answer.status})`, {
      cause: badKey ? "credentials" : answer.status >= 500 ? "unreachable" : "refused",
      stopRetrying: badKey,
    });
  }

  /** A raw "*" for the wildcard, an empty last segment for the apex, as Porkbun's reference shows. */
  const byNameType = (domain: string, type: string, sub: string) =>
    `/dns/retrieveByNameType/${domain}/${type}/${encodeURIComponent(sub)}`;

  /** When a create failed: the parked ALIAS (apex) or CNAME (any other name) that blocks it, if there is one. */
  async function blockingAlias(domain: string, sub: string): Promise<string> {
    const type = sub === "" ? "ALIAS" : "CNAME";
    const read = await call(byNameType(domain, type, sub));
    const alias = read.ok ? recordsOf(read.value.records)[0] : undefined;
    if (!alias) return "";
    return ` — its ${type} record (→ ${String(alias.content)}${
      String(alias.content).includes("porkbun.com") ? ", Porkbun's parking page" : ""
    }) blocks it: delete that record at Porkbun`;
  }

  // One record per value, its content the text itself (no quotes); removed by id (/dns/delete).
  const txt = txtRecords({
    async list(zone, name) {
      const read = await call(byNameType(zone.id, "TXT", relativeName(name, zone.id)));
      if (!read.ok) return read;
      const records = recordsOf(read.value.records).filter(
        (r) => r.type === "TXT" && lower(r.name) === name && idOf(r) !== "",
      );
      return { ok: true, value: records.map((r) => ({ id: idOf(r), value: unquotedTxt(r.content) })) };
    },
    create: (zone, name, value) =>
      call(`/dns/create/${zone.id}`, {
        name: relativeName(name, zone.id),
        type: "TXT",
        content: value,
        ttl: String(MIN_TTL),
      }),
    delete: (zone, record) => call(`/dns/delete/${zone.id}/${encodeURIComponent(record.id)}`),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("/ping");
      if (!answer.ok) return failedCheck(answer);
      const seenFrom =
        typeof answer.value.yourIp === "string" ? ` (Porkbun sees this host as ${answer.value.yourIp})` : "";
      return { ok: true, detail: `API key pair accepted${seenFrom}` };
    },

    async listZones() {
      const names = new Set<string>();
      for (let page = 0; page < LIST_ALL_MAX_PAGES; page++) {
        const listed = await call("/domain/listAll", { start: String(page * LIST_ALL_PAGE) });
        if (!listed.ok) return listed;
        const domains = recordsOf(listed.value.domains)
          .map((d) => lower(d.domain))
          .filter((d) => d !== "");
        const known = names.size;
        for (const domain of domains) names.add(domain);
        if (domains.length < LIST_ALL_PAGE || names.size === known) break;
      }
      return { ok: true, value: zonesNamed(names) };
    },

    async readRecordSet(zone, hostname, type) {
      const read = await call(byNameType(zone.id, type, relativeName(hostname, zone.id)));
      if (!read.ok) return read;
      const records = recordsOf(read.value.records).filter(
        (r) => r.type === type && lower(r.name) === hostname && idOf(r) !== "",
      );
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const existing = current.raw as Record<string, unknown>;
      // Every field goes back as it was: whether Porkbun keeps what an edit omits is not documented.
      const fields: Record<string, unknown> = {
        type,
        name: relativeName(hostname, zone.id),
        content: address,
        ttl: String(settings.ttl ?? current.ttl ?? MIN_TTL),
      };
      if (existing.prio !== undefined && existing.prio !== null) fields.prio = String(existing.prio);
      if (typeof existing.notes === "string") fields.notes = existing.notes;
      const edited = await call(`/dns/edit/${zone.id}/${encodeURIComponent(current.id)}`, fields);
      return edited.ok ? { ok: true, value: recordSet([{ ...existing, ...fields }]) } : edited;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const sub = relativeName(hostname, zone.id);
      const fields = { name: sub, type, content: address, ttl: String(settings.ttl ?? MIN_TTL) };
      const created = await call(`/dns/create/${zone.id}`, fields);
      if (!created.ok) {
        if (created.cause !== "refused") return created;
        return { ...created, message: created.message + (await blockingAlias(zone.id, sub)) };
      }
      const id = idOf(created.value);
      if (id === "") return failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
      return { ok: true, value: recordSet([{ ...fields, id }]) };
    },

    // One record per address: only the difference is sent, a record whose address goes edited to
    // hold a new one (its notes and priority sent back), never another record of the name touched.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const ttl = String(settings.ttl ?? current?.ttl ?? MIN_TTL);
      const sub = relativeName(hostname, zone.id);
      const written = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.content),
        stale: (record) => settings.ttl !== undefined && Number(record.ttl) !== settings.ttl,
        async edit(record, address) {
          const fields: Record<string, unknown> = { type, name: sub, content: address, ttl };
          if (record.prio !== undefined && record.prio !== null) fields.prio = String(record.prio);
          if (typeof record.notes === "string") fields.notes = record.notes;
          const edited = await call(`/dns/edit/${zone.id}/${encodeURIComponent(idOf(record))}`, fields);
          return edited.ok ? { ok: true, value: { ...record, ...fields } } : edited;
        },
        async create(address) {
          const fields = { name: sub, type, content: address, ttl };
          const created = await call(`/dns/create/${zone.id}`, fields);
          if (!created.ok) return created;
          const id = idOf(created.value);
          if (id === "") return failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
          return { ok: true, value: { ...fields, id } };
        },
        delete: (record) => call(`/dns/delete/${zone.id}/${encodeURIComponent(idOf(record))}`),
      });
      return written.ok ? { ok: true, value: recordSet(written.value) } : written;
    },
  };
}

/** Porkbun answers ids and TTLs as strings (or numbers); the set holds the first record as it came. */
function recordSet(records: Record<string, unknown>[]): RecordSet {
  const first = records[0]!;
  const ttl = Number(first.ttl);
  return {
    id: idOf(first),
    values: records.map((record) => String(record.content)),
    ...(first.ttl !== undefined && Number.isFinite(ttl) ? { ttl } : {}),
    raw: first,
    members: records,
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
  ttl: ttlRange(MIN_TTL, MAX_TTL, MIN_TTL),
  canVerify: true,
  defaultApiUrl: "https://api.porkbun.com/api/json/v3",
  // About one request a second per key; beyond it Porkbun answers 503 pages.
  rateLimits: [{ requests: 1, perSeconds: 1.25 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, _options, context) {
    const api = createPorkbunApi(
      { api_key: credentials.api_key ?? "", secret_api_key: credentials.secret_api_key ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});

/** Porkbun writes ids as strings or numbers. */
function idOf(record: Record<string, unknown>): string {
  return typeof record.id === "string" || typeof record.id === "number" ? String(record.id) : "";
}

function recordsOf(value: unknown): Record<string, unknown>[] {
  return objectsIn(value);
}

function lower(value: unknown): string {
  return typeof value === "string" ? value.toLowerCase().replace(/\.$/, "") : "";
}

/** An HTML error page's title ("503 Service Temporarily Unavailable"), or "". */
function pageTitle(html: string): string {
  return /<title>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? "";
}
