// Infomaniak's public API (version 2, DNS zones): the zone service primitives. This is the API
// beside Infomaniak's DynDNS (the dyndns2 preset "Infomaniak"): it edits the records of a zone the
// account hosts with an API token, so a name needs no DynDNS entry of its own.
//
// A zone is addressed by its name (`/2/zones/{zone}/records`); its records come in one listing, each
// with a numeric id, `source` (the name relative to the zone, `@` for the apex — `source_idn` is the
// whole name where the API gives it), `type`, `target` (the address) and `ttl`. Every answer is
// wrapped: `{"result": "success", "data": …}` or `{"result": "error", "error": {"code",
// "description", "errors"?}}`.
//
// Requests per write, with the zone known (config.zone_id) — the steady state: the listing + a PUT
// of the one record (or a POST) = 2 (1 when the address is already there). Without it the names
// that could be the zone are tried longest first until one lists (a 404 means "not a zone of this
// account"), and that listing is the read.
//
// The version-1 endpoints (`/1/product?service_name=domain`, `/1/domain/{id}/dns/record`) are the
// ones older clients used; libdns/infomaniak notes they are no longer supported and both it and lego
// moved to these.
//
// Sources: developer.infomaniak.com/docs/api (DNS zones: GET/POST /2/zones/{zone}/records,
// PUT /2/zones/{zone}/records/{record}); libdns/infomaniak client.go (v2, scopes domain:read,
// dns:read, dns:write); go-acme/lego providers/dns/infomaniak (v2 client, error fixtures).

import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, failedAnswer, type JsonAnswer, jsonCalls, type ServiceError, staleOn404 } from "../answers";
import { cannotVerify } from "../one-shot";
import type { Step } from "../provider";
import { type RecordSet, recordSetOf, type TxtApi, type Zone, type ZoneApi, zoneClient } from "../reconcile";
import { writeSetByRecords } from "../record-per-address";
import { type ClientContext, cannotCheck, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { candidateZones, relativeName } from "../zones";

const SERVICE = "Infomaniak";
/** The name the API gives the zone's own records. */
const APEX = "@";
/** TTL of a record this client creates when the domain's config names none (libdns's default too). */
const NEW_RECORD_TTL = 300;
/** The API has no request that checks a token without naming a zone it may see. */
const CANNOT_VERIFY = "Infomaniak's API cannot check a token without a zone to look at; the first update checks it";

type RecordRow = Record<string, unknown>;

export function createInfomaniakApi(credentials: { token: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const send = jsonCalls(context, SERVICE, { Authorization: `Bearer ${credentials.token}` }, readError);

  async function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    const answer = await send(method, path, body);
    // The envelope, not only the status, says whether it worked.
    if (answer.ok && isObject(answer.value.body) && answer.value.body.result !== "success") {
      const text = JSON.stringify(answer.value.body);
      return failedAnswer(
        SERVICE,
        answer.value.status,
        answer.value.headers,
        text,
        readError(answer.value.body, answer.value.status),
      );
    }
    return answer;
  }

  const recordsPath = (zone: string) => `/2/zones/${encodeURIComponent(zone)}/records`;

  /** The zone's records, or the failure (a 404: no such zone in this account). */
  async function listRecords(zone: string): Promise<Step<RecordRow[]>> {
    const listed = await call("GET", recordsPath(zone));
    if (!listed.ok) return listed;
    const data = isObject(listed.value.body) ? listed.value.body.data : undefined;
    return { ok: true, value: objectsIn(data) };
  }

  // The listing that found the zone is also the read that follows it, within one write.
  let foundListing: { zone: string; records: RecordRow[] } | undefined;
  // The names whose last listing was refused with 403, for the refusal when no name is a zone.
  const forbidden = new Set<string>();

  function nameOf(record: RecordRow, zone: string): string {
    if (typeof record.source_idn === "string" && record.source_idn !== "")
      return record.source_idn.toLowerCase().replace(/\.$/, "");
    const source = typeof record.source === "string" ? record.source.toLowerCase() : "";
    return source === APEX || source === "." || source === "" ? zone : `${source}.${zone}`;
  }

  function recordSet(records: RecordRow[]): RecordSet {
    return { ...recordSetOf(records, "target"), members: records };
  }

  function written(answer: Step<JsonAnswer>, sent: RecordRow): Step<RecordSet> {
    if (!answer.ok) return answer;
    const data = isObject(answer.value.body) ? answer.value.body.data : undefined;
    // The answer is the record as stored; an id alone (older answers) is completed with what was sent.
    const record = isObject(data)
      ? data
      : typeof data === "number" || typeof data === "string"
        ? { ...sent, id: data }
        : undefined;
    if (record === undefined || record.id === undefined)
      return failed(`${SERVICE}: the written record came back without an id`, { cause: "refused" });
    return { ok: true, value: recordSet([{ ...sent, ...record }]) };
  }

  /** The zone's records of one name and type: from the listing that found the zone (once), else listed afresh. */
  async function recordsNamed(zone: Zone, hostname: string, type: string): Promise<Step<RecordRow[]>> {
    let records: RecordRow[];
    if (foundListing?.zone === zone.id) {
      records = foundListing.records;
    } else {
      const listed = staleOn404(await listRecords(zone.id));
      if (!listed.ok) return listed;
      records = listed.value;
    }
    foundListing = undefined;
    const zoneName = zone.name ?? zone.id;
    return {
      ok: true,
      value: records.filter((r) => r.type === type && r.id !== undefined && nameOf(r, zoneName) === hostname),
    };
  }

  // One record per value, its target the text itself; removed by id.
  const txt = txtRecords({
    async list(zone, name) {
      const named = await recordsNamed(zone, name, "TXT");
      if (!named.ok) return named;
      return { ok: true, value: named.value.map((r) => ({ id: String(r.id), value: unquotedTxt(r.target) })) };
    },
    create: (zone, name, value) =>
      call("POST", recordsPath(zone.id), {
        source: relativeName(name, zone.name ?? zone.id, APEX),
        type: "TXT",
        target: value,
        ttl: CHALLENGE_TTL,
      }),
    delete: (zone, record) => call("DELETE", `${recordsPath(zone.id)}/${encodeURIComponent(record.id)}`),
  });

  return {
    service: SERVICE,
    txt,

    // Not called by the appliance (canVerify is false); a direct call says why, without a request.
    verify: cannotVerify(CANNOT_VERIFY),

    // A name is a zone when its records list (the reconciler asks for the name and each parent,
    // longest first, so a delegated sub-zone wins). A name that is no zone of the account may be
    // answered 404 (object_not_found), 403 or 422: each only says "not this one".
    async hasZone(name) {
      const listed = await listRecords(name);
      forbidden.delete(name);
      if (listed.ok) {
        foundListing = { zone: name, records: listed.value };
        return { ok: true, value: true };
      }
      const notAZone =
        listed.status === 404 ||
        listed.status === 403 ||
        listed.status === 422 ||
        listed.message.includes("(object_not_found,");
      if (!notAZone) return listed;
      if (listed.status === 403) forbidden.add(name);
      return { ok: true, value: false };
    },

    // The refusal is not final: the zone may be added to the account, or the token given the scopes, later.
    noZoneHint: (hostname) =>
      candidateZones(hostname).some((name) => forbidden.has(name))
        ? " (some names were refused with 403: the token may lack the domain:read, dns:read and dns:write scopes, or may not see the zone)"
        : "",

    async readRecordSet(zone, hostname, type) {
      const named = await recordsNamed(zone, hostname, type);
      if (!named.ok) return named;
      return { ok: true, value: named.value.length === 0 ? null : recordSet(named.value) };
    },

    async updateRecordSet(zone, _hostname, type, current, address, settings) {
      const raw = asObject(current.raw);
      // The record as read, with the new address: its name, type and TTL are sent back unchanged.
      const sent: RecordRow = {
        source: typeof raw.source === "string" ? raw.source : APEX,
        type,
        target: address,
        ...(settings.ttl !== undefined ? { ttl: settings.ttl } : current.ttl !== undefined ? { ttl: current.ttl } : {}),
      };
      const put = await call("PUT", `${recordsPath(zone.id)}/${encodeURIComponent(current.id)}`, sent);
      return written(put, { ...raw, ...sent });
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const sent: RecordRow = {
        source: relativeName(hostname, zone.name ?? zone.id, APEX),
        type,
        target: address,
        ttl: settings.ttl ?? NEW_RECORD_TTL,
      };
      return written(await call("POST", recordsPath(zone.id), sent), sent);
    },

    // One record per address: the difference is posted, put or deleted.
    // One record per address: the difference is sent through the one-record requests.
    writeAddressSet(...args) {
      return writeSetByRecords(
        this,
        {
          address: (record) => String(record.target),
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
 * Infomaniak's envelope: `{"result": "error", "error": {"code", "description", "errors": [{"code",
 * "description"}]}}`. A refused token (401) only comes right when the provider is edited. A 403
 * may be a token without the DNS scopes or a zone it may not see: it is retried, since the scopes or
 * the zone can be granted without editing the provider.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || !isObject(body.error)) return undefined;
  const error = body.error;
  const details = objectsIn(error.errors)
    .map((e) => e.description)
    .filter((d): d is string => typeof d === "string" && d !== "");
  const head = typeof error.description === "string" && error.description !== "" ? error.description : undefined;
  const words = [head, ...details].filter(Boolean).join(": ");
  if (words === "") return undefined;
  return {
    words,
    ...(typeof error.code === "string" && error.code !== "" ? { code: error.code } : {}),
    ...(status === 401 ? { stopRetrying: true } : {}),
  };
}

/** Everything ddnsd knows about Infomaniak's DNS API. */
export const infomaniak = defineService({
  type: "infomaniak",
  label: "Infomaniak (API)",
  summary:
    "Records in a zone hosted at Infomaniak, through its API with a token (beside the DynDNS preset of dyndns2).",
  credentials: [
    {
      key: "token",
      url: "https://manager.infomaniak.com/v3/infomaniak-api",
      label: "API token",
      help: "In Infomaniak's Manager open Developer → API (manager.infomaniak.com/v3/infomaniak-api) → Create a token; give it only the scopes dns:read and dns:write (domain:read too, if the form asks for it) and an expiry you will remember to renew.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, 300),
  ...cannotCheck(CANNOT_VERIFY),
  defaultApiUrl: "https://api.infomaniak.com",
  // Infomaniak's API is reported to allow about 60 requests a minute per token; ddnsd stays under it.
  rateLimits: [{ requests: 50, perSeconds: 60 }],
  holdsAddressSets: true,
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createInfomaniakApi({ token: credentials.token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
