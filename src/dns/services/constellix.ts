// Constellix DNS API v1 (docs/services/constellix.md): the zone service primitives. Every request
// carries `x-cns-security-token: {apiKey}:{hmac}:{epoch ms}`, the HMAC being the base64 HMAC-SHA1
// of the epoch milliseconds under the secret key (`securityToken` below). Domains (zones) have
// numeric ids; records live under their type (`/domains/{id}/records/A`), with a numeric id, a
// name relative to the domain (`""` for the apex), `ttl` and, for a plain record, `recordOption`
// "roundRobin" with its addresses in `roundRobin: [{value, disableFlag}]`.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   GET /domains/{id} + GET records/{type}/search?exact= + GET records/{type}/{id} + PUT records/{type}/{id}
//   = 4 (3 when the address is already there)
// Without it the domain is searched by exact name, the hostname first, then each parent.
//
// The PUT takes the whole record: the record read is sent back with only its address (and a TTL
// the domain's config names) changed, so its note, region and flags stay. Pool and failover records
// are not plain addresses: ddnsd leaves them alone.
//
// Sources: api-docs.constellix.com (the v1 API: authentication, domains, A and AAAA records, search);
// digicert/dnstrust-constellix-dynamicdns-client ddns_client/ddns.py (the official dynamic DNS client:
// search by exact name, the record read by id, PUT of the read record with `value` and `roundRobin`
// replaced); lego's fixture records-Search.json (a search answers ids and names only);
// go-acme/lego providers/dns/constellix (the token, errors `{"errors": [...]}`, a search that finds
// nothing answering 404); octodns/octodns-constellix.

import { createHmac } from "node:crypto";
import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, type JsonAnswer, requestJson, type ServiceError, staleOn404 } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { candidateZones, failedCheck, foreignZoneMessage, noZoneMessage, relativeName, zoneHolds } from "../zones";

const SERVICE = "Constellix";
/** A new record's TTL when the domain's config names none (Constellix's form default). */
const NEW_RECORD_TTL = 3600;

/** `x-cns-security-token` for a request made at `epochMs`: `{apiKey}:{base64 HMAC-SHA1(secret, epochMs)}:{epochMs}`. */
export function securityToken(apiKey: string, secretKey: string, epochMs: number): string {
  const time = String(Math.trunc(epochMs));
  return `${apiKey}:${createHmac("sha1", secretKey).update(time).digest("base64")}:${time}`;
}

export function createConstellixApi(
  credentials: { api_key: string; secret_key: string },
  context: ClientContext,
): ZoneApi {
  const apiKey = credentials.api_key.trim();

  function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    const headers = { "x-cns-security-token": securityToken(apiKey, credentials.secret_key, Date.now()) };
    return requestJson(context, SERVICE, { method, path, headers, body }, readError);
  }

  /** A search: its items, none when Constellix answers 404 ("nothing matched"). */
  async function search(path: string): Promise<Step<Record<string, unknown>[]>> {
    const found = await call("GET", path);
    if (!found.ok) return found.status === 404 ? { ok: true, value: [] } : found;
    return { ok: true, value: objectsIn(found.value.body) };
  }

  const recordsPath = (domainId: string, type: string) => `/domains/${encodeURIComponent(domainId)}/records/${type}`;

  function recordSet(record: Record<string, unknown>): RecordSet {
    const values = Array.isArray(record.roundRobin)
      ? record.roundRobin.filter(isObject).map((v) => String(v.value))
      : [];
    return {
      id: String(record.id),
      values,
      ...(typeof record.ttl === "number" ? { ttl: record.ttl } : {}),
      raw: record,
    };
  }

  return {
    service: SERVICE,

    async verify() {
      // Lists the account's domains: the same access the writes need; changes nothing. (The listing
      // may be a first page only, so its length is not reported as the number of domains.)
      const listed = await call("GET", "/domains");
      return listed.ok ? { ok: true, detail: "API key accepted" } : failedCheck(listed);
    },

    async findZone(hostname, configured) {
      if (configured !== undefined) {
        if (!/^\d+$/.test(configured))
          return failed(
            `${SERVICE}: config.zone_id ${configured} is not a Constellix domain id (a number); correct it or remove it`,
            { cause: "refused" },
          );
        const found = await call("GET", `/domains/${configured}`);
        if (!found.ok) return staleOn404(found);
        const name =
          isObject(found.value.body) && typeof found.value.body.name === "string"
            ? found.value.body.name.toLowerCase().replace(/\.$/, "")
            : "";
        if (!zoneHolds(name, hostname))
          return failed(foreignZoneMessage(SERVICE, `${configured} (${name || "unnamed"})`, hostname), {
            cause: "refused",
          });
        return { ok: true, value: { id: configured, name } };
      }
      // The longest domain holding the name: its own name first, then each parent.
      for (const candidate of candidateZones(hostname)) {
        const found = await search(`/domains/search?${new URLSearchParams({ exact: candidate })}`);
        if (!found.ok) return found;
        const domain = found.value.find(
          (d) => typeof d.id === "number" && String(d.name ?? "").toLowerCase() === candidate,
        );
        if (domain) return { ok: true, value: { id: String(domain.id), name: candidate } };
      }
      return failed(noZoneMessage(SERVICE, hostname), { cause: "refused" });
    },

    async readRecordSet(zone, hostname, type) {
      const name = relativeName(hostname, zone.name ?? hostname);
      const found = await search(`${recordsPath(zone.id, type)}/search?${new URLSearchParams({ exact: name })}`);
      if (!found.ok) return found;
      // The search names only ids and names: each record is read by id for its TTL, note, addresses
      // and kind, which the PUT must send back whole.
      const records: Record<string, unknown>[] = [];
      for (const stub of found.value.filter(
        (r) => typeof r.id === "number" && String(r.name ?? "").toLowerCase() === name,
      )) {
        const read = await call("GET", `${recordsPath(zone.id, type)}/${stub.id}`);
        if (!read.ok) return staleOn404(read);
        if (isObject(read.value.body)) records.push(read.value.body);
      }
      const [record] = records;
      if (record === undefined) return { ok: true, value: null };
      // Pools and failover hand out addresses by rules ddnsd knows nothing of.
      if (typeof record.recordOption === "string" && record.recordOption !== "roundRobin") {
        return failed(
          `${SERVICE}: ${hostname} ${type} is a ${record.recordOption} record; ddnsd changes only a plain one, so nothing was written`,
          { cause: "refused" },
        );
      }
      if (records.length > 1)
        return { ok: true, value: { ...recordSet(record), values: records.flatMap((r) => recordSet(r).values) } };
      return { ok: true, value: recordSet(record) };
    },

    async updateRecordSet(zone, _hostname, type, current, address, settings) {
      const read = asObject(current.raw);
      const [first] = objectsIn(read.roundRobin);
      const record = {
        ...read,
        ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
        value: [address],
        roundRobin: [{ ...(first ?? { disableFlag: false }), value: address }],
      };
      const put = await call("PUT", `${recordsPath(zone.id, type)}/${encodeURIComponent(current.id)}`, record);
      if (!put.ok) return staleOn404(put);
      return { ok: true, value: recordSet(record) };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const post = await call("POST", recordsPath(zone.id, type), {
        name: relativeName(hostname, zone.name ?? hostname),
        ttl: settings.ttl ?? NEW_RECORD_TTL,
        roundRobin: [{ value: address, disableFlag: false }],
      });
      if (!post.ok) return staleOn404(post);
      const [created] = objectsIn(post.value.body);
      if (created === undefined || typeof created.id !== "number")
        return failed(`${SERVICE}: the created record came back without an id`, { cause: "unreachable" });
      return { ok: true, value: recordSet(created) };
    },
  };
}

/**
 * Constellix's error body: `{"errors": [words]}`. A refused token (401) or one without access to the
 * domain (403) only comes right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || !Array.isArray(body.errors)) return undefined;
  const words =
    body.errors
      .map(String)
      .filter((w) => w !== "")
      .join("; ") || "request failed";
  return { words, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about Constellix DNS (docs/services/constellix.md). */
export const constellix = defineService({
  type: "constellix",
  label: "Constellix",
  summary: "Domains hosted at Constellix DNS, through its API v1 with a user's API key and secret key.",
  credentials: [
    {
      key: "api_key",
      url: "https://manage.constellix.com/users",
      label: "API key",
      help:
        "In the Constellix manager, Account → Users: add a user for ddnsd alone, give it access only to the domains it updates, " +
        "then open the user's API keys and copy its API key. The API key is not a secret by itself.",
      secret: false,
    },
    {
      key: "secret_key",
      label: "Secret key",
      help: "Shown beside the API key of that user; together they sign every request.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 2147483647, 3600),
  canVerify: true,
  defaultApiUrl: "https://api.dns.constellix.com/v1",
  // Constellix publishes no figure for the v1 API (its own clients offer a delay between requests): ddnsd keeps to one a second.
  rateLimits: [{ requests: 1, perSeconds: 1 }],
  createClient: (credentials, _options, context) =>
    zoneClient(
      createConstellixApi({ api_key: credentials.api_key ?? "", secret_key: credentials.secret_key ?? "" }, context),
    ),
});
