// easyDNS REST API (docs/services/easydns.md): the zone service primitives. Every request carries
// the API token and key as HTTP basic auth and `format=json`; answers are an envelope `{msg,
// status, tm, data, count, total, start, max}` (or `{error: {code, message}}`), with `data` an
// array of records for a listing. A record is `{id, domain, host, ttl, prio, geozone_id, type,
// rdata, last_mod}`, every number in it a string; `host` is relative to the domain, `@` the apex.
// A listing pages: `count` records of `total` from `start`, at most `max` a page (lego's recorded
// answer: count 43, total 43, start 0, max 1000; the documentation shows zeros). Further pages are
// asked for with `start` while the pages so far hold fewer than `total`.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   GET /zones/records/all/{domain} + POST /zones/records/{id} = 2 (1 when the address is already there)
// Without it each parent of the hostname is asked for, longest first; a 403 or 404 means "not this one".
//
// "Slow down" is easyDNS's "Enhance Your Calm" (code 420, in the status or in the error body); it
// names no wait. easyDNS words it "Rate limit exceeded … OR you did NOT provide any credentials":
// ddnsd always sends them, so it takes the safer reading (a pause that grows while it repeats, not a
// stop) and says in the history that the credentials are the other possible cause.
//
// Sources: docs.sandbox.rest.easydns.net (the REST API documentation: authentication, zones/records);
// lego providers/dns/easydns/internal (client.go, types.go, readme.md: the listing's real shape,
// fixtures: the 420 error), libdns/easydns provider.go (update by POST, add by PUT answering 201)
// and octodns-easydns (401 the credentials, 403/404 a domain not the account's, `@` the apex).

import { asObject, isObject } from "../../util/json";
import { failed, type JsonAnswer, requestJson, type ServiceError } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { writeSetByRecords } from "../record-per-address";
import { type ClientContext, cannotCheck, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { relativeName } from "../zones";

const SERVICE = "easyDNS";
/** A new record's TTL when the domain's config names none. */
const NEW_RECORD_TTL = 300;
/** easyDNS's "Enhance Your Calm": too many requests. */
const ENHANCE_YOUR_CALM = 420;
/** Records asked for per page after the first (easyDNS's own first page holds up to 1000). */
const PAGE_SIZE = 1000;
/** A bound on the pages of one listing, so a service that miscounts cannot keep ddnsd asking. */
const MAX_PAGES = 20;
const VERIFY_UNAVAILABLE =
  "easyDNS has no request that checks the API token and key without naming a domain; the first update shows whether they work";

export function createEasydnsApi(
  credentials: { token: string; key: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const authorization = `Basic ${Buffer.from(`${credentials.token}:${credentials.key}`).toString("base64")}`;

  function call(method: string, path: string, body?: unknown, query = ""): Promise<Step<JsonAnswer>> {
    return requestJson(
      context,
      SERVICE,
      { method, path: `${path}?format=json${query}`, headers: { Authorization: authorization }, body },
      readError,
    );
  }

  async function listing(zone: string): Promise<Step<Record<string, unknown>[]>> {
    const records = new Map<string, Record<string, unknown>>();
    let next = 0;
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = page === 0 ? "" : `&start=${next}&max=${PAGE_SIZE}`;
      const answer = await call("GET", `/zones/records/all/${encodeURIComponent(zone)}`, undefined, query);
      if (!answer.ok) return answer;
      const body = asObject(answer.value.body);
      // The documentation shows one object where the service sends an array: either is read.
      const data = (Array.isArray(body.data) ? body.data : isObject(body.data) ? [body.data] : []).filter(isObject);
      const before = records.size;
      for (const record of data) records.set(String(record.id ?? records.size), record);
      // `count` records from `start` were in this page; the next page starts after them.
      const [start, count, total] = [Number(body.start), Number(body.count), Number(body.total)];
      next = Number.isFinite(start) && Number.isFinite(count) && count > 0 ? start + count : next + data.length;
      if (records.size === before || !Number.isFinite(total) || next >= total) break;
    }
    return { ok: true, value: [...records.values()] };
  }

  const hostIn = (hostname: string, zone: string) => relativeName(hostname, zone, "@");

  function recordSet(found: Record<string, unknown>[]): RecordSet {
    const [first] = found;
    const ttl = Number(first!.ttl);
    return {
      id: String(first!.id),
      values: found.map((r) => String(r.rdata)),
      ...(Number.isFinite(ttl) && first!.ttl !== "" ? { ttl } : {}),
      raw: first,
      members: found,
    };
  }

  // One record per value, its rdata the text itself; removed by id (`DELETE /zones/records/{domain}/{id}`).
  const txt = txtRecords({
    async list(zone, name) {
      const records = await listing(zone.id);
      if (!records.ok) return records;
      const host = hostIn(name, zone.id);
      const found = records.value.filter(
        (r) =>
          String(r.type).toUpperCase() === "TXT" && r.id !== undefined && String(r.host ?? "").toLowerCase() === host,
      );
      return { ok: true, value: found.map((r) => ({ id: String(r.id), value: unquotedTxt(r.rdata) })) };
    },
    create: (zone, name, value) =>
      call("PUT", `/zones/records/add/${encodeURIComponent(zone.id)}/TXT`, {
        domain: zone.id,
        host: hostIn(name, zone.id),
        ttl: CHALLENGE_TTL,
        prio: 0,
        type: "TXT",
        rdata: value,
      }),
    delete: (zone, record) =>
      call("DELETE", `/zones/records/${encodeURIComponent(zone.id)}/${encodeURIComponent(record.id)}`),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // Not called (canVerify is false): every read names a domain, so none can tell wrong
      // credentials from a domain that is not the account's.
      return { ok: false, detail: VERIFY_UNAVAILABLE };
    },

    async hasZone(name) {
      const answer = await listing(name);
      return answer.ok || notTheAccounts(answer) ? { ok: true, value: answer.ok } : answer;
    },

    async readRecordSet(zone, hostname, type) {
      const records = await listing(zone.id);
      if (!records.ok) return notTheAccounts(records) ? { ...records, staleZone: true } : records;
      const host = hostIn(hostname, zone.id);
      const found = records.value.filter(
        (r) => String(r.type).toUpperCase() === type && String(r.host ?? "").toLowerCase() === host,
      );
      return { ok: true, value: found.length === 0 ? null : recordSet(found) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const record = asObject(current.raw);
      // What the record has, sent back with the new address (and the TTL the config names).
      const ttl = settings.ttl ?? current.ttl ?? NEW_RECORD_TTL;
      const body = {
        host: String(record.host ?? hostIn(hostname, zone.id)),
        ttl,
        prio: Number(record.prio ?? 0) || 0,
        type,
        rdata: address,
        ...(record.geozone_id === undefined ? {} : { geozone_id: Number(record.geozone_id) || 0 }),
      };
      const answer = await call("POST", `/zones/records/${encodeURIComponent(current.id)}`, body);
      if (!answer.ok) return answer;
      return {
        ok: true,
        value: { id: current.id, values: [address], ttl, raw: { ...record, ...body, ttl: String(ttl) } },
      };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const answer = await call("PUT", `/zones/records/add/${encodeURIComponent(zone.id)}/${type}`, {
        domain: zone.id,
        host: hostIn(hostname, zone.id),
        ttl,
        prio: 0,
        type,
        rdata: address,
      });
      if (!answer.ok) return answer;
      const body = asObject(answer.value.body);
      const data = asObject(body.data);
      if (data.id === undefined || data.id === "")
        return failed(`${SERVICE}: the added record's id is not in the answer`, { cause: "unreachable" });
      return { ok: true, value: { id: String(data.id), values: [address], ttl, raw: data } };
    },

    // One record per address: the difference is added, posted (the record sent back whole) or deleted.
    // One record per address: the difference is sent through the one-record requests.
    writeAddressSet(...args) {
      return writeSetByRecords(
        this,
        {
          address: (record) => String(record.rdata),
          ttl: (record) => (record.ttl === "" || record.ttl === undefined ? undefined : Number(record.ttl)),
          asSet: (record) => recordSet([record]),
          delete: (zone, record) =>
            call("DELETE", `/zones/records/${encodeURIComponent(zone.id)}/${encodeURIComponent(String(record.id))}`),
        },
        args,
      );
    },
  };
}

/**
 * easyDNS answers a domain that is not the account's with 403 or 404 (octoDNS reads both so); a
 * 403 that says "Enhance your calm" is a "slow down", not that.
 */
function notTheAccounts(failure: { status?: number; cause: string }): boolean {
  return failure.cause !== "throttled" && (failure.status === 403 || failure.status === 404);
}

/**
 * easyDNS's words: `{error: {code, message}}` or `{msg, status}`. "Enhance Your Calm" (420) is a
 * "slow down" whatever the HTTP status; a refused token or key stops retries.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const error = isObject(body.error) ? body.error : body;
  const words = [error.message, error.msg].find((w): w is string => typeof w === "string" && w.trim() !== "");
  if (words === undefined) return undefined;
  const code = Number(error.code ?? error.status);
  if (status === ENHANCE_YOUR_CALM || code === ENHANCE_YOUR_CALM || /enhance your calm/i.test(words)) {
    return {
      words: `${words} — easyDNS also answers this to a request without credentials; if it persists, check the token and key`,
      code: `code ${ENHANCE_YOUR_CALM}`,
      cause: "throttled",
    };
  }
  // 403 is a domain that is not the account's, not the credentials (see notTheAccounts).
  if (status === 401) return { words, cause: "credentials", stopRetrying: true };
  if (status === 403) return { words, cause: "refused" };
  return { words };
}

/** Everything ddnsd knows about easyDNS (docs/services/easydns.md). */
export const easydns = defineService({
  type: "easydns",
  label: "easyDNS",
  summary:
    "Domains whose DNS is at easyDNS, through its REST API with an API token and key: ddnsd changes the address and keeps the rest of the record.",
  credentials: [
    {
      key: "token",
      label: "API token",
      help: "In easyDNS's control panel under Security (cp.easydns.com/manage/security/): the REST API token and key (easyDNS grants REST access on request). The token and key give access to every domain of the account: use them for ddnsd alone.",
      url: "https://cp.easydns.com/manage/security/",
      secret: true,
    },
    {
      key: "key",
      label: "API key",
      help: "Shown with the token on the same page.",
      url: "https://cp.easydns.com/manage/security/",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(300, 86400, 300),
  ...cannotCheck(VERIFY_UNAVAILABLE),
  defaultApiUrl: "https://rest.easydns.net",
  // easyDNS documents no number, only its "Enhance Your Calm" answer: ddnsd keeps a gentle pace.
  rateLimits: [{ requests: 1, perSeconds: 1 }],
  holdsAddressSets: true,
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createEasydnsApi({ token: (credentials.token ?? "").trim(), key: credentials.key ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
