// Njalla's API (JSON-RPC over HTTPS): the zone service primitives. Every call is a POST of
// `{"jsonrpc": "2.0", "id", "method", "params"}` to one URL with `Authorization: Njalla <token>`;
// the answer is HTTP 200 with either `result` or `error: {code, message}` — a refused token too
// (`{"code": 403, "message": "Invalid token."}`), so the body, not the status, says what happened.
// A domain is addressed by its name; its records come in one listing, each with an id, `name`
// (relative to the domain, `@` for the apex), `type`, `content` and `ttl`.
//
// Requests per write, with the domain known (config.zone_id) — the steady state: list-records +
// edit-record (or add-record) = 2 (1 when the address is already there). Without it list-domains
// comes first and the longest domain holding the name is used.
//
// This is not the per-record "dynamic" update URL (`njal.la/update/?h=…&k=…`, what
// qdm12/ddns-updater uses): that needs a key for each dynamic record and cannot read the record,
// while the API token reaches every domain of the account and lets ddnsd read before it writes.
//
// Sources: njal.la/api (methods list-domains, list-records, add-record, edit-record, remove-record;
// the token made under Settings → API); go-acme/lego providers/dns/njalla (request and error fixtures);
// libdns/njalla (record fields, edit-record with the whole record); Sighery/gonjalla (the TTLs
// Njalla takes, numeric record ids where lego reads strings: both are read here).

import { asObject, isObject, objectsIn } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, type JsonAnswer, requestJson } from "../answers";
import type { FailureCause, Step } from "../provider";
import {
  type RecordSet,
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
import { failedCheck, relativeName } from "../zones";

const SERVICE = "Njalla";
const APEX = "@";
/** The TTLs Njalla offers for a record. */
const NJALLA_TTLS = [60, 300, 900, 3600, 10800, 21600, 86400] as const;
/** TTL of a record this client creates when the domain's config names none. */
const NEW_RECORD_TTL = 300;

/** The TTL Njalla takes for `ttl`: the nearest it offers (the larger on a tie), since it refuses any other. */
export function njallaTtl(ttl: number): number {
  let best: number = NJALLA_TTLS[0];
  for (const offered of NJALLA_TTLS) if (Math.abs(offered - ttl) <= Math.abs(best - ttl)) best = offered;
  return best;
}

type Row = Record<string, unknown>;

/**
 * The cause an error code in Njalla's answer means; it mirrors HTTP status codes. A 403 "permission
 * denied" names a domain that is not in the account (or not in the token's reach), not a bad token:
 * Njalla's refused token is 403 "Invalid token.".
 */
function causeOfCode(code: number, words: string): FailureCause {
  if (code === 403 && /permission denied/i.test(words)) return "refused";
  if (code === 401 || code === 403) return "credentials";
  if (code === 429) return "throttled";
  if (code >= 500) return "unreachable";
  return "refused";
}

export function createNjallaApi(credentials: { token: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  /** One method call: its `result`, or the failure its `error` (or the HTTP answer) names. */
  async function rpc(method: string, params: Row): Promise<Step<Row> & { code?: number }> {
    const answer: Step<JsonAnswer> = await requestJson(
      context,
      SERVICE,
      {
        method: "POST",
        path: "/",
        headers: { Authorization: `Njalla ${credentials.token}` },
        body: { jsonrpc: "2.0", id: "1", method, params },
      },
      (body) =>
        isObject(body) && isObject(body.error) && typeof body.error.message === "string"
          ? { words: body.error.message }
          : undefined,
    );
    // A token refused at the HTTP level (401/403 without a JSON-RPC error) is as final as one
    // refused in the JSON-RPC answer: only editing the provider helps.
    if (!answer.ok) return answer.status === 401 || answer.status === 403 ? { ...answer, stopRetrying: true } : answer;
    const body = asObject(answer.value.body);
    // `error` as JSON-RPC names it; lego's recorded answers spell it `Error` (Go reads either).
    const error = isObject(body.error) ? body.error : isObject(body.Error) ? body.Error : undefined;
    if (error !== undefined) {
      const code = typeof error.code === "number" ? error.code : 0;
      const words =
        typeof error.message === "string" && error.message !== "" ? error.message : "error without a message";
      const cause = causeOfCode(code, words);
      // A refused token stays refused until the provider is edited.
      return {
        ...failed(`${SERVICE}: ${words} (code ${code})`, { cause, stopRetrying: cause === "credentials" }),
        code,
      };
    }
    if (!isObject(body.result))
      return failed(`${SERVICE}: ${method} answered without a result`, { cause: "unreachable" });
    return { ok: true, value: body.result };
  }

  async function listRecords(domain: string): Promise<Step<Row[]>> {
    const listed = await rpc("list-records", { domain });
    if (!listed.ok) {
      // An unknown domain (deleted, or moved to another account; 403 "permission denied", or 404):
      // look the domain up afresh.
      return listed.code === 404 || (listed.code === 403 && listed.cause === "refused")
        ? { ...listed, staleZone: true }
        : listed;
    }
    return { ok: true, value: objectsIn(listed.value.records) };
  }

  function recordSet(records: Row[]): RecordSet {
    return { ...recordSetOf(records, "content"), members: records };
  }

  function written(answer: Step<Row>, sent: Row): Step<RecordSet> {
    if (!answer.ok) return answer;
    // The answer is the record as stored; what was sent fills in whatever it leaves out.
    return writtenSet(SERVICE, { ...sent, ...answer.value }, recordSet);
  }

  /** The record as read with the new content: its name, type and TTL go back as they were. */
  async function edit(domain: string, hostname: string, type: string, raw: Row, address: string, ttl: unknown) {
    const sent: Row = {
      domain,
      id: raw.id,
      name: typeof raw.name === "string" ? raw.name : relativeName(hostname, domain, APEX),
      type,
      content: address,
      ...(ttl === undefined ? {} : { ttl }),
    };
    return written(await rpc("edit-record", sent), { ...raw, ...sent });
  }

  async function add(domain: string, hostname: string, type: string, address: string, ttl: number) {
    const sent: Row = {
      domain,
      name: relativeName(hostname, domain, APEX),
      type,
      content: address,
      ttl: njallaTtl(ttl),
    };
    return written(await rpc("add-record", sent), sent);
  }

  /** One record of a written set. */
  const member = (set: Step<RecordSet>): Step<Row> => (set.ok ? { ok: true, value: asObject(set.value.raw) } : set);

  // One record per value, its content the text itself; removed by id (remove-record).
  const txt = txtRecords({
    async list(zone, name) {
      const listed = await listRecords(zone.id);
      if (!listed.ok) return listed;
      const relative = relativeName(name, zone.id, APEX);
      const records = listed.value.filter(
        (r) => r.type === "TXT" && r.id !== undefined && String(r.name ?? "").toLowerCase() === relative,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.content) })) };
    },
    create: (zone, name, value) =>
      rpc("add-record", {
        domain: zone.id,
        name: relativeName(name, zone.id, APEX),
        type: "TXT",
        content: value,
        ttl: njallaTtl(CHALLENGE_TTL),
      }),
    delete: (zone, record) => rpc("remove-record", { domain: zone.id, id: record.id }),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const listed = await rpc("list-domains", {});
      if (!listed.ok) return failedCheck(listed);
      const domains = Array.isArray(listed.value.domains) ? listed.value.domains.length : undefined;
      return {
        ok: true,
        detail: domains === undefined ? "Token accepted" : `Token accepted (${plural(domains, "domain")})`,
      };
    },

    async listZones() {
      const listed = await rpc("list-domains", {});
      if (!listed.ok) return listed;
      return {
        ok: true,
        value: zonesNamed(objectsIn(listed.value.domains).map((d) => d.name)),
      };
    },

    async readRecordSet(zone, hostname, type) {
      const listed = await listRecords(zone.id);
      if (!listed.ok) return listed;
      const name = relativeName(hostname, zone.id, APEX);
      const records = listed.value.filter(
        (r) => r.type === type && r.id !== undefined && String(r.name ?? "").toLowerCase() === name,
      );
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const raw = asObject(current.raw);
      const ttl = settings.ttl !== undefined ? njallaTtl(settings.ttl) : current.ttl;
      return edit(zone.id, hostname, type, { ...raw, id: raw.id ?? current.id }, address, ttl);
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      return add(zone.id, hostname, type, address, settings.ttl ?? NEW_RECORD_TTL);
    },

    // One record per address: only the difference is sent, a record whose address goes edited to
    // hold a new one, never another record of the name touched.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const ttl = settings.ttl === undefined ? undefined : njallaTtl(settings.ttl);
      const result = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.content),
        stale: (record) => ttl !== undefined && record.ttl !== ttl,
        edit: async (record, address) =>
          member(await edit(zone.id, hostname, type, record, address, ttl ?? record.ttl)),
        create: async (address) =>
          member(await add(zone.id, hostname, type, address, settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL)),
        delete: (record) => rpc("remove-record", { domain: zone.id, id: record.id }),
      });
      return result.ok ? { ok: true, value: recordSet(result.value) } : result;
    },

    storedTtl: njallaTtl,
  };
}

/** Everything ddnsd knows about Njalla's API. */
export const njalla = defineService({
  type: "njalla",
  label: "Njalla",
  summary: "Records of a domain at Njalla, through its API (JSON-RPC) with an API token.",
  credentials: [
    {
      key: "token",
      url: "https://njal.la/settings/api/",
      label: "API token",
      help: "In Njalla open Settings → API (njal.la/settings/api) → Add token; if the form offers it, limit the token to the address ddnsd calls from. Njalla's tokens reach every domain of the account. This is not the per-record dynamic key of Njalla's Dynamic records.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, 300, {
    note: `sent as the nearest of ${NJALLA_TTLS.join(", ")} (the only ones Njalla takes)`,
  }),
  canVerify: true,
  defaultApiUrl: "https://njal.la/api/1",
  // No documented request limit: the updater's own pacing (one write per changed address) is all it asks.
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, _options, context) {
    const api = createNjallaApi({ token: credentials.token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
