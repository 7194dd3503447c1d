// Mythic Beasts Primary DNS API v2 (docs/services/mythicbeasts.md): the zone service primitives. A
// name's records of one type are addressed by the zone, the host (relative, `@` for the apex) and
// the type: GET /zones/{zone}/records/{host}/{type} reads them (`{records: [{host, ttl, type,
// data}]}`), and PUT to the same URL replaces exactly that selection with the records sent, so an
// update sends the one record with its TTL (the old one's unless the config names one) and nothing
// outside that host and type is touched. The API key's id and secret go as HTTP Basic credentials
// on every request, which the DNS API accepts directly (no separate token request).
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   GET the host's records of the type + PUT them = 2 (1 when the address is already there)
// Without it the zones the key may see are listed first (GET /zones) and the longest holding the name is used.
//
// Sources: mythic-beasts.com/support/api/dnsv2 (authentication, selecting records, PUT replaces the
// selection), its tutorial (zones list, records, `records_added`) and the auth service page;
// go-acme/lego providers/dns/mythicbeasts (records body, `records_added`/`records_removed`);
// libdns/mythicbeasts (PUT per host and type, `{error}` / `{errors: [...]}` bodies); stalwartlabs/dns-update
// mythicbeasts.rs (GET and PUT of a host's type, `@` apex) and its issue #70 (429 `{"message": "Rate limited"}`).

import { asObject, isObject, objectsIn } from "../../util/json";
import { jsonCalls, type ServiceError } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type Zone, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtSet, unquotedTxt } from "../txt";
import { acceptedCounting, relativeName } from "../zones";

const SERVICE = "Mythic Beasts";
/** A new record's TTL when the domain's config names none (the TTL of Mythic Beasts' own examples). */
const NEW_RECORD_TTL = 300;

export function createMythicBeastsApi(
  credentials: { key_id: string; secret: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const authorization = `Basic ${Buffer.from(`${credentials.key_id}:${credentials.secret}`).toString("base64")}`;

  const call = jsonCalls(context, SERVICE, { Authorization: authorization }, readError);

  async function listZones(): Promise<Step<Zone[]>> {
    const listed = await call("GET", "/zones");
    if (!listed.ok) return listed;
    return {
      ok: true,
      value: zonesNamed(
        isObject(listed.value.body) && Array.isArray(listed.value.body.zones) ? listed.value.body.zones : [],
      ),
    };
  }

  const selection = (zone: Zone, hostname: string, type: string) =>
    `/zones/${encodeURIComponent(zone.id)}/records/${encodeURIComponent(relativeName(hostname, zone.id, "@"))}/${type}`;

  function written(hostname: string, zone: Zone, type: string, address: string, ttl: number): Step<RecordSet> {
    return { ok: true, value: { id: `${relativeName(hostname, zone.id, "@")}/${type}`, values: [address], ttl } };
  }

  // A host's TXT records are one selection, its data the text itself: a PUT replaces it with every
  // value (the TTL read kept), and a DELETE of the selection removes it once no value is left.
  const txt = txtSet({
    async read(zone, name) {
      const read = await call("GET", selection(zone, name, "TXT"));
      if (!read.ok) return read.status === 404 ? { ok: true, value: { values: [] } } : read;
      const host = relativeName(name, zone.id, "@");
      const records = objectsIn(asObject(read.value.body).records).filter(
        (r) => r.type === "TXT" && String(r.host ?? "").toLowerCase() === host && typeof r.data === "string",
      );
      const ttl = records[0]?.ttl;
      return {
        ok: true,
        value: { values: records.map((r) => unquotedTxt(r.data)), ...(typeof ttl === "number" ? { ttl } : {}) },
      };
    },
    write(zone, name, values, held) {
      const host = relativeName(name, zone.id, "@");
      const ttl = held.ttl ?? CHALLENGE_TTL;
      return values.length === 0
        ? call("DELETE", selection(zone, name, "TXT"))
        : call("PUT", selection(zone, name, "TXT"), {
            records: values.map((data) => ({ host, ttl, type: "TXT", data })),
          });
    },
  });

  return {
    service: SERVICE,
    txt,

    // The zones the key may see; changes nothing.
    verify: () => acceptedCounting(listZones(), "API key accepted"),

    listZones,

    async readRecordSet(zone, hostname, type) {
      const read = await call("GET", selection(zone, hostname, type));
      if (!read.ok) {
        if (read.status !== 404) return read;
        // A 404 is either "no such records" or "no such zone": the zone list tells which.
        const zones = await listZones();
        if (!zones.ok) return zones;
        return zones.value.some((z) => z.id === zone.id) ? { ok: true, value: null } : { ...read, staleZone: true };
      }
      const records =
        isObject(read.value.body) && Array.isArray(read.value.body.records)
          ? read.value.body.records.filter(isObject)
          : [];
      const host = relativeName(hostname, zone.id, "@");
      const mine = records.filter(
        (r) => r.type === type && String(r.host ?? "").toLowerCase() === host && typeof r.data === "string",
      );
      if (mine.length === 0) return { ok: true, value: null };
      const ttl = mine[0]!.ttl;
      return {
        ok: true,
        value: {
          id: `${host}/${type}`,
          values: mine.map((r) => String(r.data)),
          ...(typeof ttl === "number" ? { ttl } : {}),
        },
      };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      // The PUT replaces this host's records of this type, which hold the one address being replaced.
      const ttl = settings.ttl ?? current.ttl ?? NEW_RECORD_TTL;
      const put = await call("PUT", selection(zone, hostname, type), {
        records: [{ host: relativeName(hostname, zone.id, "@"), ttl, type, data: address }],
      });
      return put.ok ? written(hostname, zone, type, address, ttl) : put;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const put = await call("PUT", selection(zone, hostname, type), {
        records: [{ host: relativeName(hostname, zone.id, "@"), ttl, type, data: address }],
      });
      return put.ok ? written(hostname, zone, type, address, ttl) : put;
    },

    // The PUT replaces the host's records of the type with what it is sent: the whole set in one request.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const ttl = settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL;
      const host = relativeName(hostname, zone.id, "@");
      const put = await call("PUT", selection(zone, hostname, type), {
        records: addresses.map((data) => ({ host, ttl, type, data })),
      });
      return put.ok ? { ok: true, value: { id: `${host}/${type}`, values: [...addresses], ttl } } : put;
    },
  };
}

/**
 * Mythic Beasts' error bodies: `{"error": "..."}`, `{"errors": ["...", ...]}` (validation) or
 * `{"message": "..."}` (its 429). Refused credentials (401), or a key without the rights to this zone,
 * host or type (403), only come right when the provider (or the key) is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const errors = Array.isArray(body.errors) ? body.errors.map(String) : [];
  const words = [
    typeof body.error === "string" ? body.error : "",
    ...errors,
    typeof body.message === "string" ? body.message : "",
  ]
    .filter((w) => w !== "")
    .join("; ");
  if (words === "") return undefined;
  return { words, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about Mythic Beasts (docs/services/mythicbeasts.md). */
export const mythicbeasts = defineService({
  type: "mythicbeasts",
  label: "Mythic Beasts",
  summary: "Zones hosted on Mythic Beasts' primary DNS, through its DNS API v2 with an API key.",
  credentials: [
    {
      key: "key_id",
      label: "API key ID",
      help:
        "In Mythic Beasts' control panel: API keys → create a key with DNS API access, restricted to the zone and, best, to the " +
        "host names ddnsd updates with the record types A and AAAA. Not a DNS API v1 password.",
      url: "https://www.mythic-beasts.com/customer/api-users",
      secret: false,
    },
    { key: "secret", label: "API key secret", help: "Shown once when the API key is made.", secret: true },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, 300),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.mythic-beasts.com/dns/v2",
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createMythicBeastsApi({ key_id: credentials.key_id ?? "", secret: credentials.secret ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
