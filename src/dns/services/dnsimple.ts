// DNSimple API v2 (docs/services/dnsimple.md): the zone service primitives. Everything lives under
// the account (`/{account}/...`); a zone is named by itself in paths; records are listed with the
// `name` and `type` filters, a page at a time (`pagination: {current_page, total_pages}`), each with a
// numeric id, a name relative to the zone (`""` for the apex), `content` (the address) and `ttl`. A
// PATCH changes only what it is sent, so an update sends the address (and a TTL only when the
// domain's config names one) and keeps everything else.
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   GET records?name=&type= + PATCH the record = 2 (1 when the address is already there)
// Without it the account's zones are listed first (100 a page) and the longest holding the name is used.
//
// Sources: developer.dnsimple.com/v2 (authentication, identity, zones, zone records, pagination,
// errors, rate limiting); libdns/dnsimple provider.go (records by name, PATCH of content and TTL,
// 201 on create); dnsimple/dnsimple-go zones_records.go; lego "DNSimple".

import type { FetchLike } from "../../net/outbound";
import { asObject, isObject, objectsIn } from "../../util/json";
import { type JsonAnswer, requestJson, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import {
  type RecordSet,
  recordSetNamed,
  recordSetOf,
  type TxtApi,
  writtenSet,
  type ZoneApi,
  zoneClient,
  zonesNamed,
} from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { acceptedWithCount, failedCheck, relativeName } from "../zones";

const SERVICE = "DNSimple";
/** The most items DNSimple gives in one page. */
const PER_PAGE = 100;
/** A new record's TTL when the domain's config names none (DNSimple's own default). */
const NEW_RECORD_TTL = 3600;

export function createDnsimpleApi(
  credentials: { account_id: string; token: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const account = `/${encodeURIComponent(credentials.account_id.trim())}`;
  const api = { ...context, fetch: resetAsRetryAfter(context.fetch) };

  function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    return requestJson(
      api,
      SERVICE,
      { method, path: account + path, headers: { Authorization: `Bearer ${credentials.token}` }, body },
      readError,
    );
  }

  /** Every item of a paged listing, page by page until the last page DNSimple names. */
  function listAll(path: string, query: Record<string, string> = {}): Promise<Step<Record<string, unknown>[]>> {
    return paginate(async (next) => {
      const page = Number(next ?? 1);
      const listed = await call(
        "GET",
        `${path}?${new URLSearchParams({ ...query, page: String(page), per_page: String(PER_PAGE) })}`,
      );
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const data = objectsIn(body.data);
      const pages = isObject(body.pagination) ? body.pagination.total_pages : undefined;
      const more = typeof pages === "number" && page < pages && data.length > 0;
      return { ok: true, value: { items: data, next: more ? page + 1 : undefined } };
    });
  }

  const recordsPath = (zone: string) => `/zones/${encodeURIComponent(zone)}/records`;

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "content"), members: records };
  }

  /** The one record a write answered with, for a set of several (refused without an id, as `written`). */
  function answeredRecord(answer: Step<JsonAnswer>): Step<Record<string, unknown>> {
    const set = written(answer);
    return set.ok ? { ok: true, value: asObject(set.value.raw) } : set;
  }

  const recordPath = (zone: string, id: unknown) => `${recordsPath(zone)}/${encodeURIComponent(String(id))}`;

  // One TXT record per value. DNSimple keeps a TXT text in quotes whether it was sent with them or
  // not, so a value is sent bare and read either way.
  const txt = txtRecords({
    async list(zone, name) {
      const relative = relativeName(name, zone.id);
      const listed = await listAll(recordsPath(zone.id), { name: relative, type: "TXT" });
      if (!listed.ok) return listed;
      const records = listed.value.filter(
        (r) => r.type === "TXT" && String(r.name ?? "").toLowerCase() === relative && r.id !== undefined,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.content) })) };
    },
    create: (zone, name, value) =>
      call("POST", recordsPath(zone.id), {
        name: relativeName(name, zone.id),
        type: "TXT",
        content: value,
        ttl: CHALLENGE_TTL,
      }),
    delete: (zone, record) => call("DELETE", recordPath(zone.id, record.id)),
  });

  function written(answer: Step<JsonAnswer>): Step<RecordSet> {
    if (!answer.ok) return answer;
    return writtenSet(SERVICE, isObject(answer.value.body) ? answer.value.body.data : undefined, recordSet);
  }

  return {
    service: SERVICE,
    txt,

    async verify() {
      // Checks the token and the account id together; changes nothing.
      const answer = await call("GET", "/zones?per_page=1");
      if (!answer.ok) return failedCheck(answer);
      const total = asObject(asObject(answer.value.body).pagination).total_entries;
      return acceptedWithCount("Token accepted", total, "zone", ` in account ${credentials.account_id.trim()}`);
    },

    async listZones() {
      const listed = await listAll("/zones");
      if (!listed.ok) return listed;
      // A secondary zone is a copy of another server's: its records are not DNSimple's to change.
      const names = listed.value
        .filter((z) => z.secondary !== true)
        .map((z) => z.name)
        .filter((n): n is string => typeof n === "string");
      return { ok: true, value: zonesNamed(names) };
    },

    async readRecordSet(zone, hostname, type) {
      const relative = relativeName(hostname, zone.id);
      const listed = await listAll(recordsPath(zone.id), { name: relative, type });
      // A zone in the config that left the account: looked up afresh, once.
      if (!listed.ok) return staleOn404(listed);
      return { ok: true, value: recordSetNamed(listed.value, relative, type, recordSet) };
    },

    async updateRecordSet(zone, _hostname, _type, current, address, settings) {
      return written(
        await call("PATCH", recordPath(zone.id, current.id), {
          content: address,
          ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
        }),
      );
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      return written(
        await call("POST", recordsPath(zone.id), {
          name: relativeName(hostname, zone.id),
          type,
          content: address,
          ttl: settings.ttl ?? NEW_RECORD_TTL,
        }),
      );
    },

    // One record per address (address-records.ts); a new one takes the set's TTL.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const ttl = settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL;
      const written = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.content),
        stale: (record) => !((record) => settings.ttl === undefined || record.ttl === settings.ttl)(record),

        create: async (address) =>
          answeredRecord(
            await call("POST", recordsPath(zone.id), {
              name: relativeName(hostname, zone.id),
              type,
              content: address,
              ttl,
            }),
          ),
        edit: async (record, address) =>
          answeredRecord(
            await call("PATCH", recordPath(zone.id, record.id), {
              content: address,
              ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
            }),
          ),
        delete: (record) => call("DELETE", recordPath(zone.id, record.id)),
      });
      return written.ok ? { ok: true, value: recordSet(written.value) } : written;
    },
  };
}

/**
 * DNSimple's "slow down" (429) names the end of its hourly window in `X-RateLimit-Reset` (Unix
 * seconds), not in `Retry-After`: the answer is read as naming that wait, so the provider pauses
 * until the window resets instead of guessing.
 */
function resetAsRetryAfter(fetch: FetchLike): FetchLike {
  return async (input, init) => {
    const response = await fetch(input, init);
    const reset = Number(response.headers.get("x-ratelimit-reset") ?? Number.NaN);
    if (response.status !== 429 || response.headers.has("retry-after") || !Number.isFinite(reset) || reset <= 0)
      return response;
    const headers = new Headers(response.headers);
    headers.set("Retry-After", String(Math.max(0, Math.ceil(reset - Date.now() / 1000))));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/**
 * DNSimple's error body: `{"message", "errors"?: {field: [words]}}`. A wrong or revoked token (401)
 * or one that may not act for this account (403) only comes right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.message !== "string") return undefined;
  const fields = isObject(body.errors)
    ? Object.entries(body.errors).map(
        ([field, words]) => `${field}: ${Array.isArray(words) ? words.join(", ") : String(words)}`,
      )
    : [];
  const words = [body.message, ...fields].filter((w) => w !== "").join("; ") || "request failed";
  return { words, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about DNSimple (docs/services/dnsimple.md). */
export const dnsimple = defineService({
  type: "dnsimple",
  label: "DNSimple",
  summary: "Zones hosted at DNSimple, through its API v2 with an account access token.",
  credentials: [
    {
      key: "account_id",
      label: "Account id",
      help: "The number in your DNSimple dashboard's address (dnsimple.com/a/<account id>/…), also shown under Account → Account.",
      secret: false,
    },
    {
      key: "token",
      label: "Account access token",
      help:
        "In DNSimple: Account → Automation → Account access tokens → New access token. An account token acts only for that account " +
        "(a user token would reach every account of the user); DNSimple tokens carry no narrower scope, so keep it for ddnsd alone.",
      url: "https://support.dnsimple.com/articles/api-access-token/",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, 3600),
  canVerify: true,
  holdsTxt: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.dnsimple.com/v2",
  // DNSimple allows 2,400 requests an hour per token; ddnsd spreads them at 35 a minute (2,100 an hour).
  rateLimits: [{ requests: 35, perSeconds: 60 }],
  createClient: (credentials, _options, context) => {
    const api = createDnsimpleApi(
      { account_id: credentials.account_id ?? "", token: credentials.token ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
