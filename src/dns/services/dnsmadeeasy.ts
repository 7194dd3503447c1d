// DNS Made Easy REST API v2.0 (docs/services/dnsmadeeasy.md): the zone service primitives. Every
// request is signed: `x-dnsme-apiKey`, `x-dnsme-requestDate` (the current time as an HTTP date) and
// `x-dnsme-hmac`, the hex HMAC-SHA1 of that date under the secret key; DNS Made Easy refuses a date
// too far from its own clock. A managed domain has a numeric id, found by its name
// (/dns/managed/name?domainname=); its records are read with the `recordName` and `type` filters, each
// `{id, name (relative, "" for the apex), type, value, ttl, gtdLocation, …}`. A PUT of a record
// replaces it whole, so an update sends the record as it was read with only its value (and the TTL
// the config names) changed; a missing record is created with a POST.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   GET the domain's id by name + GET the records + PUT the record = 3 (2 when the address is already there)
// Without it the hostname and its parents are looked up by name, longest first, until one is a managed domain.
//
// Sources: DNS Made Easy API documentation v2.0 (api-docs.dnsmadeeasy.com: authentication, managed
// DNS domains and records, rate limiting — 150 requests per 5 minutes); go-acme/lego
// providers/dns/dnsmadeeasy (internal/client.go: the signature, the paths; client_test.go: the HMAC
// vector); AnalogJ/lexicon providers/dnsmadeeasy.py (PUT by id, `{"error": [...]}` bodies, the
// rate limit's 400 "Rate limit exceeded"); acme.sh dns_me and its issues #463 and #4272 (the date
// checks' words).

import { createHmac } from "node:crypto";
import { asObject, isObject, objectsIn } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, type JsonAnswer, requestJson, type ServiceError } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, recordSetOf, type TxtApi, type Zone, type ZoneApi, zoneClient } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, quotedTxt, txtRecords, unquotedTxt } from "../txt";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "DNS Made Easy";
/** A new record's TTL when the domain's config names none (DNS Made Easy's default). */
const NEW_RECORD_TTL = 1800;

/** The signature of a request made at `requestDate` (an HTTP date): hex HMAC-SHA1 of the date under the secret. */
export function dnsmeSignature(secret: string, requestDate: string): string {
  return createHmac("sha1", secret).update(requestDate).digest("hex");
}

export function createDnsMadeEasyApi(
  credentials: { api_key: string; secret_key: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  /** Managed domains' ids by name, learned from lookups; a 404 under one forgets it. */
  const ids = new Map<string, number>();

  function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    const requestDate = new Date().toUTCString();
    const headers = {
      "x-dnsme-apiKey": credentials.api_key,
      "x-dnsme-requestDate": requestDate,
      "x-dnsme-hmac": dnsmeSignature(credentials.secret_key, requestDate),
    };
    return requestJson(context, SERVICE, { method, path, headers, body }, readError);
  }

  /** The managed domain's id, or null when no managed domain has that name. */
  async function domainId(name: string): Promise<Step<number | null>> {
    const known = ids.get(name);
    if (known !== undefined) return { ok: true, value: known };
    const found = await call("GET", `/dns/managed/name?${new URLSearchParams({ domainname: name })}`);
    if (!found.ok) return found.status === 404 ? { ok: true, value: null } : found;
    const id = isObject(found.value.body) ? found.value.body.id : undefined;
    if (typeof id !== "number") return { ok: true, value: null };
    ids.set(name, id);
    return { ok: true, value: id };
  }

  /** The id of a zone ddnsd writes in; a zone gone from the account is looked up afresh. */
  async function zoneId(zone: Zone): Promise<Step<number>> {
    const id = await domainId(zone.id);
    if (!id.ok) return id;
    return id.value === null
      ? failed(`${SERVICE}: no managed domain ${zone.id} in this account`, { cause: "refused", staleZone: true })
      : { ok: true, value: id.value };
  }

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "value"), members: records };
  }

  // One record per value, its value the text in quotes; removed by id.
  const txt = txtRecords({
    async list(zone, name) {
      const id = await zoneId(zone);
      if (!id.ok) return id;
      const relative = relativeName(name, zone.id);
      const query = new URLSearchParams({ ...(relative === "" ? {} : { recordName: relative }), type: "TXT" });
      const listed = await call("GET", `/dns/managed/${id.value}/records?${query}`);
      if (!listed.ok) return listed;
      const records = objectsIn(asObject(listed.value.body).data).filter(
        (r) => r.type === "TXT" && typeof r.id === "number" && String(r.name ?? "").toLowerCase() === relative,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.value) })) };
    },
    async create(zone, name, value) {
      const id = await zoneId(zone);
      if (!id.ok) return id;
      return call("POST", `/dns/managed/${id.value}/records`, {
        name: relativeName(name, zone.id),
        type: "TXT",
        value: quotedTxt(value),
        ttl: CHALLENGE_TTL,
        gtdLocation: "DEFAULT",
      });
    },
    async delete(zone, record) {
      const id = await zoneId(zone);
      if (!id.ok) return id;
      return call("DELETE", `/dns/managed/${id.value}/records/${encodeURIComponent(record.id)}`);
    },
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // The account's managed domains; changes nothing.
      const listed = await call("GET", "/dns/managed");
      if (!listed.ok) return failedCheck(listed);
      const total = isObject(listed.value.body) ? listed.value.body.totalRecords : undefined;
      return {
        ok: true,
        detail: typeof total === "number" ? `API key accepted (${plural(total, "domain")})` : "API key accepted",
      };
    },

    async hasZone(name) {
      const id = await domainId(name);
      return id.ok ? { ok: true, value: id.value !== null } : id;
    },

    async readRecordSet(zone, hostname, type) {
      const id = await zoneId(zone);
      if (!id.ok) return id;
      const name = relativeName(hostname, zone.id);
      // The apex's name is empty, which DNS Made Easy does not take as a filter: its records of the type are filtered here.
      const query = new URLSearchParams({ ...(name === "" ? {} : { recordName: name }), type });
      const listed = await call("GET", `/dns/managed/${id.value}/records?${query}`);
      if (!listed.ok) {
        if (listed.status === 404) ids.delete(zone.id);
        return listed.status === 404 ? { ...listed, staleZone: true } : listed;
      }
      const data =
        isObject(listed.value.body) && Array.isArray(listed.value.body.data)
          ? listed.value.body.data.filter(isObject)
          : [];
      const records = data.filter(
        (r) => r.type === type && typeof r.id === "number" && String(r.name ?? "").toLowerCase() === name,
      );
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
    },

    async updateRecordSet(zone, _hostname, _type, current, address, settings) {
      const id = await zoneId(zone);
      if (!id.ok) return id;
      // The PUT replaces the whole record: everything read is sent back, with only the value (and a configured TTL) changed.
      const record = {
        ...asObject(current.raw),
        value: address,
        ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
      };
      const put = await call("PUT", `/dns/managed/${id.value}/records/${encodeURIComponent(current.id)}`, record);
      if (!put.ok) return put;
      return { ok: true, value: recordSet([record]) };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const id = await zoneId(zone);
      if (!id.ok) return id;
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const posted = await call("POST", `/dns/managed/${id.value}/records`, {
        name: relativeName(hostname, zone.id),
        type,
        value: address,
        ttl,
        gtdLocation: "DEFAULT",
      });
      if (!posted.ok) return posted;
      const record = asObject(posted.value.body);
      if (typeof record.id !== "number")
        return failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
      return {
        ok: true,
        value: recordSet([{ ...record, value: address, ttl: typeof record.ttl === "number" ? record.ttl : ttl }]),
      };
    },

    // One record per address: the difference is posted, put (the record sent back whole) or deleted.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const id = await zoneId(zone);
      if (!id.ok) return id;
      const ttl = settings.ttl ?? current?.ttl;
      let setId = current?.id;
      const done = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.value),
        stale: (record) =>
          settings.ttl !== undefined && (typeof record.ttl === "number" ? record.ttl : undefined) !== settings.ttl,
        edit: (record, address) => this.updateRecordSet(zone, hostname, type, recordSet([record]), address, settings),
        create: async (address) => {
          const created = await this.createRecordSet(zone, hostname, type, address, ttl === undefined ? {} : { ttl });
          if (created.ok) setId ??= created.value.id;
          return created;
        },
        delete: (record) => call("DELETE", `/dns/managed/${id.value}/records/${encodeURIComponent(String(record.id))}`),
      });
      if (!done.ok) return done;
      return { ok: true, value: { id: setId ?? "", values: [...addresses], ...(ttl === undefined ? {} : { ttl }) } };
    },
  };
}

/**
 * DNS Made Easy's error body: `{"error": ["..."]}`. Its rate limit is a 400 "Rate limit exceeded"
 * (a "slow down" naming no wait). A refused key or signature (403) only comes right when the
 * provider is edited — unless it is this machine's clock that is off, which the words name.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const words = (
    Array.isArray(body.error) ? body.error.map(String) : typeof body.error === "string" ? [body.error] : []
  ).join("; ");
  if (words === "") return undefined;
  if (/rate limit exceeded/i.test(words)) return { words, cause: "throttled" };
  if (/date header/i.test(words)) return { words: `${words} (check this machine's clock)`, cause: "refused" };
  return { words, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about DNS Made Easy (docs/services/dnsmadeeasy.md). */
export const dnsmadeeasy = defineService({
  type: "dnsmadeeasy",
  label: "DNS Made Easy",
  summary: "Managed domains at DNS Made Easy, through its REST API v2.0 with an API key and secret key.",
  credentials: [
    {
      key: "api_key",
      label: "API key",
      help:
        "In DNS Made Easy's control panel: Account Information → API Credentials. DNS Made Easy's API keys act for the " +
        "whole account and carry no narrower scope: keep them for ddnsd alone.",
      url: "https://cp.dnsmadeeasy.com/account/info",
      secret: false,
    },
    { key: "secret_key", label: "Secret key", help: "Shown beside the API key under API Credentials.", secret: true },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 2147483647, 1800),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.dnsmadeeasy.com/V2.0",
  // DNS Made Easy allows 150 requests in any 5 minutes; ddnsd stays at 120.
  rateLimits: [{ requests: 120, perSeconds: 300 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createDnsMadeEasyApi(
      { api_key: credentials.api_key ?? "", secret_key: credentials.secret_key ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
