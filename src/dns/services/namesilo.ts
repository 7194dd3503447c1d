// NameSilo API (docs/services/namesilo.md): the zone service primitives. NameSilo serves DNS for
// domains registered with it. Every operation is a GET on `/api/<operation>` with `version=1`,
// `type=json` and the account's API key in the query (the only way NameSilo takes it). Answers are
// HTTP 200 whether they succeed or not: `reply.code` 300 is success, anything else is the refusal,
// with its words in `reply.detail`. A record is `{record_id, type, host, value, ttl}`, `host` the
// full name; writes name the host relative to the domain (`""` for the apex). An update without
// `rrttl` would reset the TTL, so the TTL read is always sent back.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   dnsListRecords + dnsUpdateRecord = 2 (1 when the address is already there)
// Without it the hostname and each parent are tried with dnsListRecords (NameSilo answers code 200
// for a domain that is not the account's) until one is the account's.
//
// Sources: namesilo.com/api-reference (dnsListRecords, dnsAddRecord, dnsUpdateRecord, listDomains,
// response codes); qdm12/ddns-updater providers/namesilo (provider.go: full `host` in listings,
// `rrhost` relative, the code table, `code` sent as a number or a string); libdns/namesilo
// (client.go, models.go: `resource_record` sent as a bare object when there is one record, `ttl`
// as a string).

import { isObject } from "../../util/json";
import { failed, failedAnswer, type JsonAnswer, requestJson, type ServiceError } from "../answers";
import type { FailureCause, Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { txtRecords, unquotedTxt } from "../txt";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "NameSilo";
/** The code of every successful answer. */
const SUCCESS = 300;
/** "Domain is not active, or does not belong to this user". */
const NOT_THIS_ACCOUNTS = 200;
/** A new record's TTL when the domain's config names none: NameSilo's own default. */
const NEW_RECORD_TTL = 7207;
/** NameSilo's shortest TTL, a challenge value's. */
const MIN_TTL = 3600;

/** What each of NameSilo's codes means beyond its words (the codes not named here are refusals). */
const CODES: Record<number, Pick<ServiceError, "cause" | "stopRetrying">> = {
  // Invalid API key; the API is not open to sub-accounts; the key is restricted to other addresses.
  110: { cause: "credentials", stopRetrying: true },
  112: { cause: "credentials", stopRetrying: true },
  113: { cause: "credentials", stopRetrying: true },
  // Internal system error.
  201: { cause: "unreachable" },
};

export function createNamesiloApi(credentials: { api_key: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  /** One operation; a 300 answer's `reply` is the value, any other code a failure in NameSilo's words. */
  async function call(
    operation: string,
    params: Record<string, string>,
  ): Promise<Step<Record<string, unknown>> & { code?: number }> {
    const query = new URLSearchParams({ version: "1", type: "json", key: credentials.api_key, ...params });
    const answer = await requestJson(
      context,
      SERVICE,
      { method: "GET", path: `/${operation}?${query}`, headers: {} },
      readError,
    );
    if (!answer.ok) return answer;
    return replyOf(answer.value);
  }

  async function listRecords(domain: string) {
    const listed = await call("dnsListRecords", { domain });
    if (!listed.ok) return listed;
    const found = listed.value.resource_record;
    // One record comes as a bare object, none as no field at all.
    const records = (Array.isArray(found) ? found : found === undefined ? [] : [found]).filter(isObject);
    return { ok: true as const, value: records };
  }

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    const first = records[0]!;
    const ttl = Number(first.ttl);
    return {
      id: String(first.record_id),
      values: records.map((r) => String(r.value)),
      ...(Number.isInteger(ttl) && ttl > 0 ? { ttl } : {}),
      members: records,
    };
  }

  /** The record a write left: NameSilo answers its id (UNSURE whether an update always gives a new one). */
  function written(
    answer: Step<Record<string, unknown>>,
    fallbackId: string | undefined,
    address: string,
    ttl: number,
  ): Step<RecordSet> {
    if (!answer.ok) return answer;
    const id =
      typeof answer.value.record_id === "string" && answer.value.record_id !== "" ? answer.value.record_id : fallbackId;
    if (id === undefined) return failed(`${SERVICE}: the written record came back without an id`, { cause: "refused" });
    return { ok: true, value: { id, values: [address], ttl } };
  }

  /** An update without `rrttl` would reset the TTL, so it is always sent. */
  const update = (domain: string, hostname: string, id: string, address: string, ttl: number) =>
    call("dnsUpdateRecord", {
      domain,
      rrid: id,
      rrhost: relativeName(hostname, domain),
      rrvalue: address,
      rrttl: String(ttl),
    });

  const add = (domain: string, hostname: string, type: string, address: string, ttl: number) =>
    call("dnsAddRecord", {
      domain,
      rrtype: type,
      rrhost: relativeName(hostname, domain),
      rrvalue: address,
      rrttl: String(ttl),
    });

  // One record per value, its value the text itself; removed by id (dnsDeleteRecord).
  const txt = txtRecords({
    async list(zone, name) {
      const listed = await listRecords(zone.id);
      if (!listed.ok) return listed;
      const records = listed.value.filter(
        (r) =>
          r.type === "TXT" &&
          r.record_id !== undefined &&
          String(r.host ?? "")
            .toLowerCase()
            .replace(/\.$/, "") === name,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.record_id), value: unquotedTxt(r.value) })) };
    },
    create: (zone, name, value) =>
      call("dnsAddRecord", {
        domain: zone.id,
        rrtype: "TXT",
        rrhost: relativeName(name, zone.id),
        rrvalue: value,
        rrttl: String(MIN_TTL),
      }),
    delete: (zone, record) => call("dnsDeleteRecord", { domain: zone.id, rrid: record.id }),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // The account's domains: read-only, and answered only to a working key.
      const answer = await call("listDomains", {});
      return answer.ok ? { ok: true, detail: "API key accepted" } : failedCheck(answer);
    },

    async hasZone(name) {
      const listed = await call("dnsListRecords", { domain: name });
      return listed.ok || listed.code === NOT_THIS_ACCOUNTS ? { ok: true, value: listed.ok } : listed;
    },

    async readRecordSet(zone, hostname, type) {
      const listed = await listRecords(zone.id);
      // A domain in the config that left the account: looked up afresh, once.
      if (!listed.ok) return listed.code === NOT_THIS_ACCOUNTS ? { ...listed, staleZone: true } : listed;
      const records = listed.value.filter(
        (r) =>
          r.type === type &&
          r.record_id !== undefined &&
          String(r.host ?? "")
            .toLowerCase()
            .replace(/\.$/, "") === hostname,
      );
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
    },

    async updateRecordSet(zone, hostname, _type, current, address, settings) {
      const ttl = settings.ttl ?? current.ttl ?? NEW_RECORD_TTL;
      return written(await update(zone.id, hostname, current.id, address, ttl), current.id, address, ttl);
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      return written(await add(zone.id, hostname, type, address, ttl), undefined, address, ttl);
    },

    // One record per address: only the difference is sent, a record whose address goes updated to
    // hold a new one (its TTL sent back), never another record of the name touched.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const record = (set: Step<RecordSet>): Step<Record<string, unknown>> =>
        set.ok ? { ok: true, value: { record_id: set.value.id, value: set.value.values[0], ttl: set.value.ttl } } : set;
      const result = await writePerAddress(current?.members ?? [], addresses, {
        address: (held) => String(held.value),
        stale: (held) => settings.ttl !== undefined && Number(held.ttl) !== settings.ttl,
        async edit(held, address) {
          const ttl = settings.ttl ?? (Number(held.ttl) || NEW_RECORD_TTL);
          const id = String(held.record_id);
          return record(written(await update(zone.id, hostname, id, address, ttl), id, address, ttl));
        },
        async create(address) {
          const ttl = settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL;
          return record(written(await add(zone.id, hostname, type, address, ttl), undefined, address, ttl));
        },
        delete: (held) => call("dnsDeleteRecord", { domain: zone.id, rrid: String(held.record_id) }),
      });
      return result.ok ? { ok: true, value: recordSet(result.value) } : result;
    },
  };
}

/** NameSilo's envelope: `{request, reply: {code, detail, …}}`; `code` is a number or a string. */
function replyOf(answer: JsonAnswer): Step<Record<string, unknown>> & { code?: number } {
  const reply = isObject(answer.body) && isObject(answer.body.reply) ? answer.body.reply : undefined;
  const code = Number(reply?.code);
  if (reply !== undefined && code === SUCCESS) return { ok: true, value: reply };
  const error = reply === undefined ? undefined : readError(answer.body, answer.status);
  return {
    ...failedAnswer(SERVICE, answer.status, answer.headers, JSON.stringify(answer.body), error),
    ...(Number.isInteger(code) ? { code } : {}),
  };
}

/**
 * NameSilo's words and code, from the envelope of a refusal (HTTP 200: the code says what it means)
 * or of an HTTP error (the status says it, a 429 "slow down" among them).
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  const reply = isObject(body) && isObject(body.reply) ? body.reply : undefined;
  if (reply === undefined) return undefined;
  const code = Number(reply.code);
  const words = typeof reply.detail === "string" && reply.detail !== "" ? reply.detail : "no detail given";
  if (!Number.isInteger(code)) return { words };
  const meaning: { cause?: FailureCause; stopRetrying?: boolean } =
    status >= 300 ? {} : (CODES[code] ?? { cause: "refused" });
  return { words, code: `code ${code}`, ...meaning };
}

/** Everything ddnsd knows about NameSilo (docs/services/namesilo.md). */
export const namesilo = defineService({
  type: "namesilo",
  label: "NameSilo",
  summary: "Domains registered at NameSilo that use its DNS, through the NameSilo API with the account's API key.",
  credentials: [
    {
      key: "api_key",
      label: "API key",
      help:
        "At namesilo.com, Account → API Manager: generate a key with the primary account (the API is closed to sub-accounts). NameSilo keys are " +
        "not scoped: a key can do everything the account can, so make one for ddnsd alone. Do not restrict it to an IP address: yours changes.",
      url: "https://www.namesilo.com/account/api-manager",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(MIN_TTL, 2592000, NEW_RECORD_TTL),
  canVerify: true,
  defaultApiUrl: "https://www.namesilo.com/api",
  // NameSilo publishes no limit for its API; ddnsd keeps to one request a second.
  rateLimits: [{ requests: 1, perSeconds: 1 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, _options, context) {
    const api = createNamesiloApi({ api_key: credentials.api_key ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
