// Bunny DNS, through the bunny.net API (docs/services/bunny.md): the zone service primitives. A zone
// has a numeric id; `GET /dnszone/{id}` answers the zone with its name and all its records at once,
// each with a numeric id, a numeric `Type` (0 = A, 1 = AAAA), a name relative to the zone (`""` for
// the apex), `Value` (the address) and `Ttl`. A record is updated with `POST
// /dnszone/{id}/records/{record}` (204); it is sent its type, name and TTL as read with the new
// address, as independent clients do, since what an update leaves out is not documented.
//
// Requests per write, with the zone id known (config.zone_id) — the steady state:
//   GET /dnszone/{id} (zone and records) + POST the record = 2 (1 when the address is already there)
// Without it the account's zones are listed first (1,000 a page) and the longest holding the name is used.
// Several addresses for one name are several records (one per address): a record whose address
// stays is kept, one whose address goes is updated to a new address or deleted
// (`DELETE /dnszone/{id}/records/{record}`). The ACME challenge TXT (type 3) is one record per value
// too, deleted by its id.
//
// Sources: docs.bunny.net/api-reference/core/dns-zone (list, get, add record, update record; bunny.net
// publishes the API as an OpenAPI description, bunny.net/docs/openapi); libdns/bunny client.go
// (AccessKey header, numeric record types, PUT to add, POST to update); lego "Bunny".

import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, jsonCalls, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import type { RecordType, Step } from "../provider";
import { type RecordSet, recordSetOf, type TxtApi, type Zone, type ZoneApi, zoneClient } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { acceptedWithCount, failedCheck, longestZone, noZoneMessage, relativeName, zoneHolds } from "../zones";

const SERVICE = "Bunny";
/** Bunny's numbers for the record types ddnsd writes. */
const TYPE_NUMBER: Record<RecordType, number> = { A: 0, AAAA: 1 };
const TXT_TYPE = 3;
/** The most zones Bunny gives in one page. */
const PER_PAGE = 1000;
/** A new record's TTL when the domain's config names none (what Bunny's own panel proposes). */
const NEW_RECORD_TTL = 300;

export function createBunnyApi(credentials: { api_key: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const call = jsonCalls(context, SERVICE, { AccessKey: credentials.api_key }, readError);

  /** The zone with its name and records; a 404 means the zone id names nothing (any more). */
  async function zone(zoneId: string): Promise<Step<{ name: string; records: Record<string, unknown>[] }>> {
    const answer = await call("GET", `/dnszone/${encodeURIComponent(zoneId)}`);
    if (!answer.ok) return staleOn404(answer);
    const body = asObject(answer.value.body);
    return {
      ok: true,
      value: {
        name: typeof body.Domain === "string" ? body.Domain.toLowerCase() : "",
        records: objectsIn(body.Records),
      },
    };
  }

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "Value", { id: "Id", ttl: "Ttl" }), members: records };
  }

  /** The zone's records of that type number and name, the zone checked to hold the name. */
  async function named(known: Zone, hostname: string, type: number): Promise<Step<Record<string, unknown>[]>> {
    const held = await zone(known.id);
    if (!held.ok) return held;
    if (!zoneHolds(held.value.name, hostname)) {
      return failed(
        `${SERVICE}: zone ${known.id} is ${held.value.name || "unnamed"}, which does not hold ${hostname}; correct config.zone_id or remove it`,
        {
          cause: "refused",
        },
      );
    }
    const relative = relativeName(hostname, held.value.name);
    const records = held.value.records.filter(
      (r) => r.Type === type && typeof r.Id === "number" && String(r.Name ?? "").toLowerCase() === relative,
    );
    return { ok: true, value: records };
  }

  const recordsPath = (zoneId: string) => `/dnszone/${encodeURIComponent(zoneId)}/records`;
  const recordPath = (zoneId: string, id: unknown) => `${recordsPath(zoneId)}/${encodeURIComponent(String(id))}`;

  /** A PUT's record (201), or a failure saying it came back without an id. */
  function addedRecord(answer: Step<{ body: unknown }>): Step<Record<string, unknown>> {
    if (!answer.ok) return answer;
    const record = answer.value.body;
    if (!isObject(record) || typeof record.Id !== "number")
      return failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
    return { ok: true, value: record };
  }

  // One record per value: adding creates one, removing deletes exactly the one holding the value.
  const txt = txtRecords({
    async list(known, name) {
      const records = await named(known, name, TXT_TYPE);
      return records.ok
        ? { ok: true, value: records.value.map((r) => ({ id: String(r.Id), value: unquotedTxt(r.Value) })) }
        : records;
    },
    create: (known, name, value) =>
      call("PUT", recordsPath(known.id), {
        Type: TXT_TYPE,
        Name: relativeName(name, known.name ?? name),
        Value: value,
        Ttl: CHALLENGE_TTL,
      }),
    delete: (known, record) => call("DELETE", recordPath(known.id, record.id)),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // The zone listing the writes start from, one zone long; changes nothing.
      const answer = await call("GET", "/dnszone?page=1&perPage=5");
      if (!answer.ok) return failedCheck(answer);
      return acceptedWithCount("API key accepted", asObject(answer.value.body).TotalItems, "DNS zone");
    },

    async findZone(hostname, configured) {
      // A configured id is checked to hold the name when its records are read (one request for both).
      if (configured !== undefined) return { ok: true, value: { id: configured, name: null } };
      const zones = await paginate(async (next) => {
        const page = Number(next ?? 1);
        const listed = await call("GET", `/dnszone?page=${page}&perPage=${PER_PAGE}`);
        if (!listed.ok) return listed;
        const body = asObject(listed.value.body);
        const items = objectsIn(body.Items);
        const last = body.HasMoreItems !== true || items.length === 0;
        return { ok: true, value: { items, next: last ? undefined : page + 1 } };
      });
      if (!zones.ok) return zones;
      const usable = zones.value.filter((z) => typeof z.Domain === "string" && typeof z.Id === "number");
      const name = longestZone(
        hostname,
        usable.map((z) => z.Domain as string),
      );
      const found = usable.find((z) => (z.Domain as string).toLowerCase() === name);
      if (name === undefined || found === undefined)
        return failed(noZoneMessage(SERVICE, hostname), { cause: "refused" });
      return { ok: true, value: { id: String(found.Id), name } };
    },

    async zoneName(zoneId) {
      const held = await zone(zoneId);
      return held.ok ? { ok: true, value: held.value.name } : held;
    },

    async readRecordSet(known, hostname, type) {
      const records = await named(known, hostname, TYPE_NUMBER[type]);
      if (!records.ok) return records;
      return { ok: true, value: records.value.length === 0 ? null : recordSet(records.value) };
    },

    async updateRecordSet(known, _hostname, type, current, address, settings) {
      const record = asObject(current.raw);
      const ttl = settings.ttl ?? current.ttl;
      const posted = await call(
        "POST",
        `/dnszone/${encodeURIComponent(known.id)}/records/${encodeURIComponent(current.id)}`,
        {
          Type: TYPE_NUMBER[type],
          Name: typeof record.Name === "string" ? record.Name : "",
          Value: address,
          ...(ttl === undefined ? {} : { Ttl: ttl }),
        },
      );
      // 204 without a body: the record is what was sent over what was read.
      return posted.ok
        ? { ok: true, value: { ...current, values: [address], ...(ttl === undefined ? {} : { ttl }) } }
        : posted;
    },

    async createRecordSet(known, hostname, type, address, settings) {
      const created = await call("PUT", recordsPath(known.id), {
        Type: TYPE_NUMBER[type],
        Name: relativeName(hostname, known.name ?? hostname),
        Value: address,
        Ttl: settings.ttl ?? NEW_RECORD_TTL,
      });
      const record = addedRecord(created);
      return record.ok ? { ok: true, value: recordSet([record.value]) } : record;
    },

    async writeAddressSet(known, hostname, type, current, addresses, settings) {
      const records = (current?.members ?? []) as Record<string, unknown>[];
      const first = records[0]?.Ttl;
      const ttlOf = (r: Record<string, unknown>) => settings.ttl ?? (typeof r.Ttl === "number" ? r.Ttl : undefined);
      const kept = await writePerAddress(records, addresses, {
        address: (r) => String(r.Value),
        stale: (r) => !(settings.ttl === undefined || r.Ttl === settings.ttl),
        async edit(r, address) {
          const ttl = ttlOf(r);
          // Sent its type, name and TTL as read with the new address, as a one-address update is.
          const posted = await call("POST", recordPath(known.id, r.Id), {
            Type: TYPE_NUMBER[type],
            Name: typeof r.Name === "string" ? r.Name : "",
            Value: address,
            ...(ttl === undefined ? {} : { Ttl: ttl }),
          });
          return posted.ok
            ? { ok: true, value: { ...r, Value: address, ...(ttl === undefined ? {} : { Ttl: ttl }) } }
            : posted;
        },
        create: async (address) =>
          addedRecord(
            await call("PUT", recordsPath(known.id), {
              Type: TYPE_NUMBER[type],
              Name: relativeName(hostname, known.name ?? hostname),
              Value: address,
              Ttl: settings.ttl ?? (typeof first === "number" ? first : NEW_RECORD_TTL),
            }),
          ),
        delete: (r) => call("DELETE", recordPath(known.id, r.Id)),
      });
      return kept.ok ? { ok: true, value: recordSet(kept.value) } : kept;
    },
  };
}

/**
 * Bunny's error body: `{"ErrorKey", "Field", "Message"}` (or just `Message` for a refused key). A
 * wrong or revoked key (401) or one that may not touch DNS (403) only comes right when the provider
 * is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.Message !== "string" || body.Message === "") return undefined;
  return {
    words: body.Message,
    ...(typeof body.ErrorKey === "string" && body.ErrorKey !== "" ? { code: body.ErrorKey } : {}),
    ...(status === 401 || status === 403 ? { stopRetrying: true } : {}),
  };
}

/** Everything ddnsd knows about Bunny DNS (docs/services/bunny.md). */
export const bunny = defineService({
  type: "bunny",
  label: "Bunny DNS",
  summary: "DNS zones hosted at bunny.net (Bunny DNS), through the bunny.net API with the account's API key.",
  credentials: [
    {
      key: "api_key",
      label: "API key",
      help:
        "In the bunny.net dashboard: Account settings → API key. It is the account's one key and reaches everything the account has " +
        "(bunny.net offers no narrower key for DNS), so keep it for ddnsd alone and regenerate it if it leaks.",
      aliases: ["access_key"],
      url: "https://dash.bunny.net/account/api-key",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, 300),
  canVerify: true,
  defaultApiUrl: "https://api.bunny.net",
  holdsTxt: true,
  holdsAddressSets: true,
  // bunny.net publishes no limit for its API; ddnsd keeps to a modest 2 requests a second.
  rateLimits: [{ requests: 2, perSeconds: 1 }],
  createClient: (credentials, _options, context) => {
    const api = createBunnyApi({ api_key: credentials.api_key ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
