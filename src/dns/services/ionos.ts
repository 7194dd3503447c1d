// IONOS DNS API (docs/services/ionos.md): the zone service primitives — not IONOS's DynDNS bulk
// URL, which replaces every name it covers at once. Requests carry `X-API-Key: prefix.secret`.
// Zones have UUID ids (`GET /v1/zones`); `GET /v1/zones/{id}?recordName=&recordType=` answers the
// zone with the matching records (`{id, name, type, content, ttl, prio, disabled}`, `name` the full
// name); `PUT /v1/zones/{id}/records/{recordId}` replaces a record's content, TTL, priority and
// state, so what was read is sent back; `POST /v1/zones/{id}/records` takes a list of new records.
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   GET the name's records + PUT the record = 2 (1 when the address is already there)
// Without it the account's zones are listed first and the longest holding the name is used.
//
// Sources: developer.hosting.ionos.com (DNS API v1 reference and its OpenAPI description: zones,
// records, record-update, errors); lego providers/dns/ionos (internal/client.go, types.go:
// X-API-Key, zone and record shapes, the `recordName`/`recordType` filters, `[{code, message}]`
// errors).

import { asObject, isObject, objectsIn } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, jsonCalls, type ServiceError } from "../answers";
import { type RecordSet, recordSetOf, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { writeSetByRecords } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { configuredZone, failedCheck, longestZone, noZoneMessage } from "../zones";

const SERVICE = "IONOS";
/** A new record's TTL when the domain's config names none: the TTL IONOS recommends. */
const NEW_RECORD_TTL = 3600;

export function createIonosApi(credentials: { api_key: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const call = jsonCalls(context, SERVICE, { "X-API-Key": credentials.api_key }, readError);

  const zonePath = (id: string) => `/v1/zones/${encodeURIComponent(id)}`;

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "content"), members: records };
  }

  // One record per value, its content the text itself; removed by id.
  const txt = txtRecords({
    async list(zone, name) {
      const answer = await call(
        "GET",
        `${zonePath(zone.id)}?${new URLSearchParams({ recordName: name, recordType: "TXT" })}`,
      );
      if (!answer.ok) return answer.status === 404 ? { ...answer, staleZone: true } : answer;
      const records = objectsIn(asObject(answer.value.body).records).filter(
        (r) => r.type === "TXT" && r.id !== undefined && String(r.name ?? "").toLowerCase() === name,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.content) })) };
    },
    create: (zone, name, value) =>
      call("POST", `${zonePath(zone.id)}/records`, [
        { name, type: "TXT", content: value, ttl: CHALLENGE_TTL, prio: 0, disabled: false },
      ]),
    delete: (zone, record) => call("DELETE", `${zonePath(zone.id)}/records/${encodeURIComponent(record.id)}`),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("GET", "/v1/zones");
      if (!answer.ok) return failedCheck(answer);
      const count = Array.isArray(answer.value.body) ? answer.value.body.length : 0;
      return { ok: true, detail: `API key accepted (${plural(count, "zone")})` };
    },

    async findZone(hostname, configured) {
      const given = configuredZone(configured);
      // A zone id from the config: its name is asked for before anything is created in it.
      if (given !== undefined) return { ok: true, value: { id: given, name: null } };
      const listed = await call("GET", "/v1/zones");
      if (!listed.ok) return listed;
      const zones = objectsIn(listed.value.body);
      const name = longestZone(
        hostname,
        zones.map((z) => String(z.name ?? "")),
      );
      const zone = zones.find(
        (z) =>
          String(z.name ?? "")
            .toLowerCase()
            .replace(/\.$/, "") === name,
      );
      return zone === undefined || name === undefined
        ? failed(noZoneMessage(SERVICE, hostname), { cause: "refused" })
        : { ok: true, value: { id: String(zone.id), name } };
    },

    async zoneName(zoneId) {
      const answer = await call("GET", `${zonePath(zoneId)}?recordType=SOA`);
      if (!answer.ok) return answer;
      const name = isObject(answer.value.body) ? answer.value.body.name : undefined;
      return typeof name === "string"
        ? { ok: true, value: name.toLowerCase() }
        : failed(`${SERVICE}: zone ${zoneId} came back without a name`, { cause: "refused" });
    },

    async readRecordSet(zone, hostname, type) {
      const answer = await call(
        "GET",
        `${zonePath(zone.id)}?${new URLSearchParams({ recordName: hostname, recordType: type })}`,
      );
      // A zone in the config that left the account: looked up afresh, once.
      if (!answer.ok) return answer.status === 404 ? { ...answer, staleZone: true } : answer;
      const body = asObject(answer.value.body);
      const records = (Array.isArray(body.records) ? body.records : [])
        .filter(isObject)
        .filter((r) => r.type === type && r.id !== undefined && String(r.name ?? "").toLowerCase() === hostname);
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
    },

    async updateRecordSet(zone, _hostname, _type, current, address, settings) {
      // The PUT replaces the record: its TTL, priority and state are sent back as they were read.
      const raw = asObject(current.raw);
      const ttl = settings.ttl ?? current.ttl ?? NEW_RECORD_TTL;
      const answer = await call("PUT", `${zonePath(zone.id)}/records/${encodeURIComponent(current.id)}`, {
        content: address,
        ttl,
        ...(typeof raw.prio === "number" ? { prio: raw.prio } : {}),
        disabled: raw.disabled === true,
      });
      return answer.ok ? { ok: true, value: { id: current.id, values: [address], ttl } } : answer;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const answer = await call("POST", `${zonePath(zone.id)}/records`, [
        { name: hostname, type, content: address, ttl, prio: 0, disabled: false },
      ]);
      if (!answer.ok) return answer;
      const created = Array.isArray(answer.value.body) ? answer.value.body.filter(isObject)[0] : undefined;
      if (created?.id === undefined)
        return failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
      return { ok: true, value: { id: String(created.id), values: [address], ttl } };
    },

    // One record per address: the difference is posted, put (TTL, priority and state sent back) or deleted.
    // One record per address: the difference is sent through the one-record requests.
    writeAddressSet(...args) {
      return writeSetByRecords(
        this,
        {
          address: (record) => String(record.content),
          ttl: (record) => (typeof record.ttl === "number" ? record.ttl : undefined),
          asSet: (record) => recordSet([record]),
          delete: (zone, record) =>
            call("DELETE", `${zonePath(zone.id)}/records/${encodeURIComponent(String(record.id))}`),
        },
        args,
      );
    },
  };
}

/** IONOS's error body: `[{"code", "message"}]`. A refused key (401) only comes right when the provider is edited. */
function readError(body: unknown, status: number): ServiceError | undefined {
  const first = (Array.isArray(body) ? body : [body]).find(isObject);
  if (first === undefined || typeof first.message !== "string" || first.message === "") return undefined;
  return {
    words: first.message,
    ...(typeof first.code === "string" ? { code: first.code } : {}),
    ...(status === 401 ? { stopRetrying: true } : {}),
  };
}

/** Everything ddnsd knows about IONOS (docs/services/ionos.md). */
export const ionos = defineService({
  type: "ionos",
  label: "IONOS",
  summary: "DNS zones at IONOS, through the IONOS DNS API (not the DynDNS bulk URL) with an API key.",
  credentials: [
    {
      key: "api_key",
      label: "API key",
      help:
        "At developer.hosting.ionos.com: API keys → Create, then paste it as prefix.secret (both parts, joined by a dot). IONOS keys are not scoped: " +
        "a key can change every zone of the account, so make one for ddnsd alone and delete it when you stop using ddnsd.",
      url: "https://developer.hosting.ionos.com/keys",
      secret: true,
      validate: (value) =>
        /^[^.\s]+\.[^.\s]+$/.test(value.trim())
          ? undefined
          : "must be prefix.secret: the key's two parts joined by a dot",
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, 3600),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.hosting.ionos.com/dns",
  // IONOS's documentation names no request limit for this API that ddnsd could find; ddnsd keeps to two requests a second.
  rateLimits: [{ requests: 2, perSeconds: 1 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createIonosApi({ api_key: (credentials.api_key ?? "").trim() }, context);
    return zoneClient(api, api.txt);
  },
});
