// LuaDNS REST API v1 (docs/services/luadns.md): the zone service primitives. Requests carry HTTP Basic
// credentials (the account's e-mail and an API key) and must say `Accept: application/json` (LuaDNS
// answers 403 "Invalid 'Accept' header" otherwise). Zones have numeric ids; a zone's records come in
// one answer (the documented `limit` defaults to 0, no limit), each with a numeric id, `name` as a
// fully qualified name with a trailing dot, `type`, `content` (the address), `ttl` and `generated`.
// The PUT replaces a record, so its name, type and TTL read are sent back with the new content.
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   GET /zones/{id}/records + PUT /zones/{id}/records/{recordId} = 2 (1 when the address is already there)
// Without it the account's zones are listed first and the longest one holding the hostname is used.
//
// Sources: luadns.com/api.html (authentication, pagination, errors, "rate-limited to 1200 every 5
// minutes"); luadns/luadns-ruby (its recorded answers: error bodies, 400 validation arrays, 429 with
// Retry-After and X-Ratelimit-Reset); qdm12/ddns-updater providers/luadns (list, then PUT the record
// found); lego "LuaDNS" (e-mail + API token).

import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, type JsonAnswer, jsonCalls, listedObjects, type ServiceError, staleOn404 } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, recordSetOf, type TxtApi, writtenSet, type ZoneApi, zoneClient } from "../reconcile";
import { writeSetByRecords } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { acceptedCounting, configuredZone, foreignZoneMessage, longestZone, zoneHolds } from "../zones";

const SERVICE = "LuaDNS";
/** A new record's TTL when the domain's config names none (lego's default for LuaDNS). */
const NEW_RECORD_TTL = 300;

export function createLuadnsApi(
  credentials: { email: string; apiKey: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const authorization = `Basic ${Buffer.from(`${credentials.email}:${credentials.apiKey}`).toString("base64")}`;

  const call = jsonCalls(context, SERVICE, { Authorization: authorization }, readError);

  const recordsPath = (zoneId: string) => `/zones/${encodeURIComponent(zoneId)}/records`;
  const fqdn = (hostname: string) => `${hostname}.`;

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "content"), members: records };
  }

  function written(answer: Step<JsonAnswer>): Step<RecordSet> {
    return answer.ok ? writtenSet(SERVICE, answer.value.body, recordSet) : staleOn404(answer);
  }

  // One record per value, its content the text itself; removed by id.
  const txt = txtRecords({
    async list(zone, name) {
      const listed = staleOn404(await call("GET", recordsPath(zone.id)));
      if (!listed.ok) return listed;
      const records = objectsIn(listed.value.body).filter(
        (r) =>
          r.type === "TXT" && typeof r.name === "string" && r.name.toLowerCase() === fqdn(name) && r.id !== undefined,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.content) })) };
    },
    create: (zone, name, value) =>
      call("POST", recordsPath(zone.id), { name: fqdn(name), type: "TXT", content: value, ttl: CHALLENGE_TTL }),
    delete: (zone, record) => call("DELETE", `${recordsPath(zone.id)}/${encodeURIComponent(record.id)}`),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("GET", "/zones");
      return acceptedCounting(listedObjects(answer), `API key accepted for ${credentials.email}`);
    },

    async findZone(hostname, configured) {
      const listed = async () => {
        const answer = await call("GET", "/zones");
        if (!answer.ok) return answer;
        return { ok: true as const, value: objectsIn(answer.value.body) };
      };
      if (configured !== undefined && /^\d+$/.test(configured)) {
        // The zone's id, saved by an earlier write: its records carry full names, so its own name is
        // needed only before a record is created in it (zoneName).
        return { ok: true, value: { id: configured, name: null } };
      }
      const given = configuredZone(configured);
      if (given !== undefined && !zoneHolds(given, hostname))
        return failed(foreignZoneMessage(SERVICE, given, hostname), { cause: "refused" });
      const zones = await listed();
      if (!zones.ok) return zones;
      const names = zones.value.map((z) => z.name).filter((n): n is string => typeof n === "string");
      const name = given ?? longestZone(hostname, names);
      const zone = zones.value.find(
        (z) => typeof z.name === "string" && z.name.toLowerCase().replace(/\.$/, "") === name,
      );
      if (name === undefined || zone === undefined) {
        return failed(
          `${SERVICE}: no zone of this account${given ? ` is named ${given}` : ` holds ${hostname}`}; add it at LuaDNS or check the API key's zone`,
          { cause: "refused" },
        );
      }
      return { ok: true, value: { id: String(zone.id), name } };
    },

    async zoneName(zoneId) {
      const zone = staleOn404(await call("GET", `/zones/${encodeURIComponent(zoneId)}`));
      if (!zone.ok) return zone;
      const name = isObject(zone.value.body) && typeof zone.value.body.name === "string" ? zone.value.body.name : "";
      return { ok: true, value: name.toLowerCase().replace(/\.$/, "") };
    },

    async readRecordSet(zone, hostname, type) {
      const listed = staleOn404(await call("GET", recordsPath(zone.id)));
      if (!listed.ok) return listed;
      const name = fqdn(hostname);
      const records = objectsIn(listed.value.body).filter(
        (r) => r.type === type && typeof r.name === "string" && r.name.toLowerCase() === name && r.id !== undefined,
      );
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const record = asObject(current.raw);
      if (record.generated === true) {
        return failed(
          `${SERVICE}: ${hostname} ${type} is generated by LuaDNS (from a template or an alias), so it cannot be changed through the API; change its source at LuaDNS`,
          {
            cause: "refused",
            stopRetrying: true,
          },
        );
      }
      // The PUT replaces the record: its name and TTL are sent back as read.
      const ttl = settings.ttl ?? current.ttl ?? NEW_RECORD_TTL;
      return written(
        await call("PUT", `${recordsPath(zone.id)}/${encodeURIComponent(current.id)}`, {
          name: typeof record.name === "string" ? record.name : fqdn(hostname),
          type,
          content: address,
          ttl,
        }),
      );
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      return written(
        await call("POST", recordsPath(zone.id), {
          name: fqdn(hostname),
          type,
          content: address,
          ttl: settings.ttl ?? NEW_RECORD_TTL,
        }),
      );
    },

    // One record per address: the difference is posted, put or deleted.
    // One record per address: the difference is sent through the one-record requests.
    writeAddressSet(...args) {
      return writeSetByRecords(
        this,
        {
          address: (record) => String(record.content),
          ttl: (record) => (typeof record.ttl === "number" ? record.ttl : undefined),
          asSet: (record) => recordSet([record]),
          delete: (zone, record) => call("DELETE", `${recordsPath(zone.id)}/${encodeURIComponent(String(record.id))}`),
        },
        args,
      );
    },
  };
}

/**
 * LuaDNS's error bodies: `{"status", "request_id", "message"}`, or for a refused body a list
 * `[{"fieldNames": [...], "classification"?, "message"}]`. A wrong key (401), or one not allowed
 * this zone or with API access turned off (403), only comes right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  const stop = status === 401 || status === 403 ? { stopRetrying: true } : {};
  if (Array.isArray(body)) {
    const words = body
      .filter(isObject)
      .map((e) => {
        const fields = Array.isArray(e.fieldNames) ? e.fieldNames.filter((f) => typeof f === "string").join(", ") : "";
        return [fields, typeof e.message === "string" ? e.message : ""].filter(Boolean).join(" ");
      })
      .filter(Boolean)
      .join("; ");
    return words === "" ? undefined : { words, ...stop };
  }
  if (!isObject(body)) return undefined;
  const message =
    typeof body.message === "string" && body.message !== ""
      ? body.message
      : typeof body.status === "string"
        ? body.status
        : "";
  return message === "" ? undefined : { words: message, ...stop };
}

export const luadns = defineService({
  type: "luadns",
  label: "LuaDNS",
  summary:
    "Zones at LuaDNS through its REST API, with the account's e-mail and an API key: ddnsd reads the record and writes back only its address, keeping its TTL; a missing record is created.",
  credentials: [
    {
      key: "email",
      label: "E-mail",
      help: "The e-mail address you sign in to LuaDNS with (the API's username).",
      secret: false,
    },
    {
      key: "api_key",
      url: "https://www.luadns.com/api.html",
      label: "API key",
      help: "Sign in at luadns.com, turn on API access in the account settings (it is off by default), then make a key on the API Keys page and restrict it to the zone ddnsd updates (a key can be global or limited to one zone).",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, 300),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.luadns.com/v1",
  // LuaDNS allows 1200 requests every 5 minutes; ddnsd stays under it.
  rateLimits: [{ requests: 1000, perSeconds: 300 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createLuadnsApi({ email: credentials.email ?? "", apiKey: credentials.api_key ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
