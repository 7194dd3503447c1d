// Vercel DNS (docs/services/vercel.md): the zone service primitives. Vercel serves DNS for the
// domains of a personal account or of a team (`teamId` on every request); a domain's records are
// listed a page at a time, newest first (`limit` up to 100, `until` = the `pagination.next` timestamp
// of the page before), each with an id, `name` relative to the domain (`""` for the apex), `type`,
// `value` and `ttl`. A record is changed by id with a PATCH that carries only the fields to change
// (the value, and the TTL when the config names one), so its TTL and comment stay; a missing one is
// created with a POST. Requests carry `Authorization: Bearer <token>`.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   GET the domain's records (one page of 100 for most domains) + PATCH the record = 2 (1 when the address is already there)
// Without it the account's (or team's) domains are listed first and the longest holding the name is used.
//
// Sources: vercel.com/docs/rest-api (dns: list-existing-dns-records, create-a-dns-record,
// update-an-existing-dns-record; domains: get-domains; errors); the OpenAPI description at
// openapi.vercel.sh as rendered in vercel/sdk docs/models (records, pagination, update body);
// jeessy2/ddns-go dns/vercel.go (list, POST, PATCH by id, teamId); go-acme/lego providers/dns/vercel
// (`{error: {code, message}}`); stalwartlabs/dns-update providers/vercel.rs (`limit`/`until` paging).

import { asObject, isObject } from "../../util/json";
import { failed, type JsonAnswer, requestJson, type ServiceError, staleOn404 } from "../answers";
import type { Step } from "../provider";
import {
  namedZone,
  type RecordSet,
  recordSetNamed,
  recordSetOf,
  type TxtApi,
  type ZoneApi,
  zoneClient,
} from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { failedCheck, longestZone, noZoneMessage, relativeName } from "../zones";

const SERVICE = "Vercel";
/** The most items Vercel gives in one page. */
const PER_PAGE = 100;
/** 10,000 items: past this the listing is taken as runaway pagination, not an account. */
const MAX_PAGES = 100;
/** A new record's TTL when the domain's config names none: Vercel's default and minimum. */
const NEW_RECORD_TTL = 60;
const TEAM_ID = /^[A-Za-z0-9_-]+$/;

export function createVercelApi(
  options: { token: string; teamId?: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  async function call(
    method: string,
    path: string,
    query: Record<string, string>,
    body?: unknown,
  ): Promise<Step<JsonAnswer>> {
    const search = new URLSearchParams({ ...query, ...(options.teamId ? { teamId: options.teamId } : {}) }).toString();
    // A 429's body names when the window opens again (`error.limit.reset`, Unix seconds).
    let resetAt: number | undefined;
    const answer = await requestJson(
      context,
      SERVICE,
      {
        method,
        path: search === "" ? path : `${path}?${search}`,
        headers: { Authorization: `Bearer ${options.token}` },
        body,
      },
      (error, status) => {
        resetAt = limitReset(error);
        return readError(error, status);
      },
    );
    if (!answer.ok && answer.cause === "throttled" && answer.retryAfterSeconds === undefined && resetAt !== undefined) {
      return { ...answer, retryAfterSeconds: Math.max(0, Math.ceil(resetAt - Date.now() / 1000)) };
    }
    return answer;
  }

  /**
   * Every item of a listing (`key` in each page), newest first, page by page while Vercel names a
   * next one. `pagination.next` is the creation time (ms) of a page's last item and the next page
   * holds what was created before it, so an item created in that same millisecond but not shown
   * would be skipped — and a record skipped is a record created twice. Each page therefore asks for
   * what was created up to and including that millisecond, and items seen already (by id, or by
   * name for domains) are dropped.
   */
  async function listAll(path: string, key: string): Promise<Step<Record<string, unknown>[]>> {
    const items: Record<string, unknown>[] = [];
    const seen = new Set<string>();
    let until: string | undefined;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const listed = await call("GET", path, { limit: String(PER_PAGE), ...(until === undefined ? {} : { until }) });
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const found = Array.isArray(body[key]) ? (body[key] as unknown[]).filter(isObject) : [];
      let added = 0;
      for (const item of found) {
        const identity = String(item.id ?? item.name ?? JSON.stringify(item));
        if (seen.has(identity)) continue;
        seen.add(identity);
        items.push(item);
        added++;
      }
      const next = isObject(body.pagination) ? body.pagination.next : undefined;
      // A page with nothing new ends it too: a millisecond holding a whole page would repeat forever.
      if (typeof next !== "number" || added === 0 || String(next + 1) === until) break;
      until = String(next + 1);
    }
    return { ok: true, value: items };
  }

  const recordsPath = (domain: string) => `/v5/domains/${encodeURIComponent(domain)}/records`;

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "value"), members: records };
  }

  /** Only what changes is sent: the record keeps its TTL (unless the config names one) and comment. */
  async function patch(
    record: Record<string, unknown>,
    type: string,
    address: string,
    ttl: number | undefined,
  ): Promise<Step<Record<string, unknown>>> {
    const patched = await call(
      "PATCH",
      `/v1/domains/records/${encodeURIComponent(String(record.id))}`,
      {},
      { value: address, ...(ttl === undefined ? {} : { ttl }) },
    );
    if (!patched.ok) return patched;
    const answered = asObject(patched.value.body);
    const kept = typeof answered.ttl === "number" ? answered.ttl : (ttl ?? record.ttl);
    return { ok: true, value: { ...record, type, value: address, ...(kept === undefined ? {} : { ttl: kept }) } };
  }

  async function create(
    domain: string,
    hostname: string,
    type: string,
    address: string,
    ttl: number,
  ): Promise<Step<Record<string, unknown>>> {
    const name = relativeName(hostname, domain);
    const created = await call(
      "POST",
      `/v2/domains/${encodeURIComponent(domain)}/records`,
      {},
      { name, type, value: address, ttl },
    );
    if (!created.ok) return created;
    const uid = isObject(created.value.body) ? created.value.body.uid : undefined;
    if (typeof uid !== "string" || uid === "")
      return failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
    return { ok: true, value: { id: uid, name, type, value: address, ttl } };
  }

  // One record per value, its value the text itself; removed by id (remove-a-dns-record).
  const txt = txtRecords({
    async list(zone, name) {
      const listed = await listAll(recordsPath(zone.id), "records");
      if (!listed.ok) return staleOn404(listed);
      const relative = relativeName(name, zone.id);
      const records = listed.value.filter(
        (r) => r.type === "TXT" && typeof r.id === "string" && String(r.name ?? "").toLowerCase() === relative,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.value) })) };
    },
    create: (zone, name, value) =>
      call(
        "POST",
        `/v2/domains/${encodeURIComponent(zone.id)}/records`,
        {},
        { name: relativeName(name, zone.id), type: "TXT", value, ttl: CHALLENGE_TTL },
      ),
    delete: (zone, record) =>
      call("DELETE", `/v2/domains/${encodeURIComponent(zone.id)}/records/${encodeURIComponent(record.id)}`, {}),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // The listing the writes start from; changes nothing.
      const answer = await call("GET", "/v5/domains", { limit: "1" });
      if (!answer.ok) return failedCheck(answer);
      return { ok: true, detail: options.teamId ? `Token accepted for team ${options.teamId}` : "Token accepted" };
    },

    async findZone(hostname, configured) {
      const named = namedZone(SERVICE, configured, hostname);
      if (named) return named;
      const listed = await listAll("/v5/domains", "domains");
      if (!listed.ok) return listed;
      const zone = longestZone(
        hostname,
        listed.value.map((d) => d.name).filter((n): n is string => typeof n === "string"),
      );
      return zone === undefined
        ? failed(noZoneMessage(SERVICE, hostname, options.teamId ? "this team" : undefined), { cause: "refused" })
        : { ok: true, value: { id: zone, name: zone } };
    },

    async readRecordSet(zone, hostname, type) {
      const listed = await listAll(recordsPath(zone.id), "records");
      // A domain in the config that left the account: looked up afresh, once.
      if (!listed.ok) return staleOn404(listed);
      return { ok: true, value: recordSetNamed(listed.value, relativeName(hostname, zone.id), type, recordSet) };
    },

    async updateRecordSet(_zone, _hostname, type, current, address, settings) {
      const patched = await patch(asObject(current.raw), type, address, settings.ttl);
      return patched.ok ? { ok: true, value: recordSet([patched.value]) } : patched;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const created = await create(zone.id, hostname, type, address, settings.ttl ?? NEW_RECORD_TTL);
      return created.ok ? { ok: true, value: recordSet([created.value]) } : created;
    },

    // One record per address: only the difference is sent, a record whose address goes patched to
    // hold a new one (its comment stays), never another record of the name touched.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const written = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.value),
        stale: (record) => settings.ttl !== undefined && record.ttl !== settings.ttl,
        edit: (record, address) => patch(record, type, address, settings.ttl),
        create: (address) => create(zone.id, hostname, type, address, settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL),
        delete: (record) =>
          call(
            "DELETE",
            `/v2/domains/${encodeURIComponent(zone.id)}/records/${encodeURIComponent(String(record.id))}`,
            {},
          ),
      });
      return written.ok ? { ok: true, value: recordSet(written.value) } : written;
    },
  };
}

/** `error.limit.reset` of a 429's body: the Unix time (seconds) the window opens again. */
function limitReset(body: unknown): number | undefined {
  const limit = isObject(body) && isObject(body.error) && isObject(body.error.limit) ? body.error.limit : undefined;
  return typeof limit?.reset === "number" && limit.reset > 0 ? limit.reset : undefined;
}

/**
 * Vercel's error body: `{error: {code, message, invalidToken?}}`. A wrong, expired or revoked token,
 * or one without access to this team (403 `forbidden`), only comes right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  const error = isObject(body) && isObject(body.error) ? body.error : undefined;
  if (!error || typeof error.message !== "string" || error.message === "") return undefined;
  return {
    words: error.message,
    ...(typeof error.code === "string" && error.code !== "" ? { code: error.code } : {}),
    ...(status === 401 || status === 403 ? { stopRetrying: true } : {}),
  };
}

/** Everything ddnsd knows about Vercel DNS (docs/services/vercel.md). */
export const vercel = defineService({
  type: "vercel",
  label: "Vercel",
  summary:
    "Domains that use Vercel's DNS (its name servers), through the Vercel REST API with an access token; a team's domains with its team ID.",
  credentials: [
    {
      key: "token",
      url: "https://vercel.com/account/settings/tokens",
      label: "Access token",
      help:
        "In Vercel's dashboard: Account Settings → Tokens → Create, with the scope set to the personal account or the one team that owns the domain, and an expiration. " +
        "Vercel tokens cannot be limited to DNS: make one for ddnsd alone, and delete it when you stop using ddnsd.",
      secret: true,
    },
  ],
  options: [
    {
      key: "team_id",
      label: "Team ID",
      help: "For a domain owned by a team: the team's ID (team_…), under Team Settings → General. Leave empty for a personal account's domains.",
      kind: "text",
      validate: (value) => (TEAM_ID.test(value) ? undefined : "must be a Vercel team ID such as team_abc123"),
    },
  ],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 2147483647, 60),
  canVerify: true,
  defaultApiUrl: "https://api.vercel.com",
  // Vercel publishes no limit for its DNS endpoints, only that limits are per endpoint and a 429
  // names when its window opens. A conservative pace keeps a burst of many domains from reaching an
  // unknown limit: 100 a minute is still 30 or more writes a minute at 2–3 requests each.
  rateLimits: [{ requests: 100, perSeconds: 60 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, options, context) {
    const api = createVercelApi(
      {
        token: credentials.token ?? "",
        ...(typeof options.team_id === "string" && options.team_id !== "" ? { teamId: options.team_id } : {}),
      },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
