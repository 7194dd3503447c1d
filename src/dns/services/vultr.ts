// Vultr API v2 DNS (docs/services/vultr.md): the zone service primitives. A domain (zone) is named
// by itself (no other id); its records are listed with cursor pagination (`meta.links.next`), each
// with an id, a name relative to the domain (`""` for the apex), `data` (the address) and `ttl`. A
// PATCH changes only the fields it is sent and answers 204, so an update sends the address (and a
// TTL only when the domain's config names one) and keeps everything else.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   GET records (one page of 500) + PATCH the record = 2 (1 when the address is already there)
// Without it the account's domains are listed first (500 a page) and the longest holding the name is used.
// Several addresses for one name are several records (one per address): a record whose address
// stays is kept, one whose address goes is patched to a new address or deleted. The ACME challenge
// TXT is one record per value too (its data in double quotes, as Vultr's clients write it), deleted
// by its id.
//
// Sources: www.vultr.com/api (DNS: list domains, list/create/update records; Vultr publishes the API
// as an OpenAPI description) and docs.vultr.com (API keys and access control, rate limits);
// qdm12/ddns-updater providers/vultr (getrecord.go, updaterecord.go: PATCH answers 204; errors as
// `{"error", "status"}`); libdns/vultr; lego "Vultr" (providers/dns/vultr: TXT data quoted).

import { asObject, isObject } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, jsonCalls, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import {
  type RecordSet,
  recordSetNamed,
  recordSetOf,
  type TxtApi,
  type ZoneApi,
  zoneClient,
  zonesNamed,
} from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, quotedTxt, txtRecords, unquotedTxt } from "../txt";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "Vultr";
/** The most items Vultr gives in one page. */
const PER_PAGE = 500;
/** A new record's TTL when the domain's config names none (what Vultr's own panel proposes). */
const NEW_RECORD_TTL = 300;

export function createVultrApi(credentials: { api_key: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const call = jsonCalls(context, SERVICE, { Authorization: `Bearer ${credentials.api_key}` }, readError);

  /** Every item of a cursor-paged listing (`key` in each page), until Vultr names no next page. */
  function listAll(path: string, key: string): Promise<Step<Record<string, unknown>[]>> {
    return paginate(async (cursor) => {
      const query = new URLSearchParams({
        per_page: String(PER_PAGE),
        ...(cursor === undefined ? {} : { cursor: String(cursor) }),
      });
      const listed = await call("GET", `${path}?${query}`);
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const items = Array.isArray(body[key]) ? (body[key] as unknown[]).filter(isObject) : [];
      const links = asObject(asObject(body.meta).links);
      return {
        ok: true,
        value: {
          items,
          next: typeof links.next === "string" && links.next !== "" && items.length > 0 ? links.next : undefined,
        },
      };
    });
  }

  const recordsPath = (domain: string) => `/domains/${encodeURIComponent(domain)}/records`;

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "data"), members: records };
  }

  const recordPath = (domain: string, id: unknown) => `${recordsPath(domain)}/${encodeURIComponent(String(id))}`;

  /** A POST's `{record}`, or a failure saying it came back without an id. */
  function createdRecord(created: Step<{ body: unknown }>): Step<Record<string, unknown>> {
    if (!created.ok) return created;
    const record = isObject(created.value.body) ? created.value.body.record : undefined;
    if (!isObject(record) || typeof record.id !== "string")
      return failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
    return { ok: true, value: record };
  }

  // One record per value: adding creates one, removing deletes exactly the one holding the value.
  const txt = txtRecords({
    async list(zone, name) {
      const listed = await listAll(recordsPath(zone.id), "records");
      if (!listed.ok) return staleOn404(listed);
      const relative = relativeName(name, zone.id);
      const records = listed.value.filter(
        (r) => r.type === "TXT" && typeof r.id === "string" && String(r.name ?? "").toLowerCase() === relative,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.data) })) };
    },
    create: (zone, name, value) =>
      call("POST", recordsPath(zone.id), {
        name: relativeName(name, zone.id),
        type: "TXT",
        data: quotedTxt(value),
        ttl: CHALLENGE_TTL,
      }),
    delete: (zone, record) => call("DELETE", recordPath(zone.id, record.id)),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // The same listing the writes start from; changes nothing.
      const answer = await call("GET", "/domains?per_page=1");
      if (!answer.ok) return failedCheck(answer);
      const body = asObject(answer.value.body);
      const total = isObject(body.meta) ? body.meta.total : undefined;
      if (typeof total !== "number") return { ok: true, detail: "API key accepted" };
      return { ok: true, detail: `API key accepted (${plural(total, "domain")})` };
    },

    async listZones() {
      const listed = await listAll("/domains", "domains");
      if (!listed.ok) return listed;
      return { ok: true, value: zonesNamed(listed.value.map((d) => d.domain)) };
    },

    async readRecordSet(zone, hostname, type) {
      const listed = await listAll(recordsPath(zone.id), "records");
      // A domain in the config that left the account: looked up afresh, once.
      if (!listed.ok) return staleOn404(listed);
      return { ok: true, value: recordSetNamed(listed.value, relativeName(hostname, zone.id), type, recordSet) };
    },

    async updateRecordSet(zone, _hostname, _type, current, address, settings) {
      const ttl = settings.ttl ?? current.ttl;
      const patched = await call("PATCH", `${recordsPath(zone.id)}/${encodeURIComponent(current.id)}`, {
        data: address,
        ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
      });
      // 204 without a body: the record is what was sent over what was read.
      return patched.ok
        ? { ok: true, value: { id: current.id, values: [address], ...(ttl === undefined ? {} : { ttl }) } }
        : patched;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const created = await call("POST", recordsPath(zone.id), {
        name: relativeName(hostname, zone.id),
        type,
        data: address,
        ttl: settings.ttl ?? NEW_RECORD_TTL,
      });
      const record = createdRecord(created);
      return record.ok ? { ok: true, value: recordSet([record.value]) } : record;
    },

    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const records = (current?.members ?? []) as Record<string, unknown>[];
      const first = records[0]?.ttl;
      const kept = await writePerAddress(records, addresses, {
        address: (r) => String(r.data),
        stale: (r) => !(settings.ttl === undefined || r.ttl === settings.ttl),
        async edit(r, address) {
          const patched = await call("PATCH", recordPath(zone.id, r.id), {
            data: address,
            ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
          });
          // 204 without a body: the record is what was sent over what was read.
          return patched.ok
            ? { ok: true, value: { ...r, data: address, ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }) } }
            : patched;
        },
        create: async (address) =>
          createdRecord(
            await call("POST", recordsPath(zone.id), {
              name: relativeName(hostname, zone.id),
              type,
              data: address,
              ttl: settings.ttl ?? (typeof first === "number" ? first : NEW_RECORD_TTL),
            }),
          ),
        delete: (r) => call("DELETE", recordPath(zone.id, r.id)),
      });
      return kept.ok ? { ok: true, value: recordSet(kept.value) } : kept;
    },
  };
}

/**
 * Vultr's error body: `{"error": "<words>", "status": <status>}`. A wrong key, one from an address
 * its access control does not allow (both 401), or a sub-account without the right (403) only comes
 * right when the provider or the key's settings are edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.error !== "string" || body.error === "") return undefined;
  return { words: body.error, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about Vultr DNS (docs/services/vultr.md). */
export const vultr = defineService({
  type: "vultr",
  label: "Vultr",
  summary: "Domains whose DNS is hosted at Vultr (Products → Network → DNS), through its API v2.",
  credentials: [
    {
      key: "api_key",
      label: "API key",
      help:
        "In my.vultr.com: Account → API → Enable API (or a user's API key under Account → Users). A Vultr key reaches the whole account, " +
        "so under Access Control allow only the address ddnsd calls from, or use a sub-account or user that can manage DNS only.",
      aliases: ["token"],
      url: "https://my.vultr.com/settings/#settingsapi",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, 300),
  canVerify: true,
  defaultApiUrl: "https://api.vultr.com/v2",
  holdsTxt: true,
  holdsAddressSets: true,
  // Vultr allows 30 requests a second per address and answers 429 past it; ddnsd stays under it.
  rateLimits: [{ requests: 20, perSeconds: 1 }],
  createClient: (credentials, _options, context) => {
    const api = createVultrApi({ api_key: credentials.api_key ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
