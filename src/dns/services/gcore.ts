// Gcore Managed DNS API v2 (docs/services/gcore.md): the zone service primitives. A permanent API
// token goes in `Authorization: APIKey <token>`. A zone is named by itself; a record set (RRset) is
// addressed by zone, full name and type (`/v2/zones/example.com/home.example.com/A`, the apex being
// the zone's own name), read with GET (404 when absent), replaced whole with PUT and created with
// POST. The PUT sends the set back as read — TTL, filters, pickers, meta and each record's flags — with only
// the address changed, so nothing else of the set is lost.
//
// Requests per write, with the zone known (config.zone_id = the zone's name):
//   GET rrset + PUT rrset = 2 (1 when the address is already there)
// Without it the account's zones are listed (a thousand a page) and the longest holding the name is used.
//
// Sources: api.gcore.com/docs/dns (zones, RRsets: get, create, update); the official Go SDK
// G-Core/gcore-dns-sdk-go (paths, `APIKey` header, error body); lego providers/dns/gcore and
// octodns-gcore (resource_records with content arrays, filters kept).

import { asObject, isObject, objectsIn } from "../../util/json";
import { jsonCalls, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, readByValue, txtSet, unquotedTxt } from "../txt";
import { acceptedWithCount, failedCheck, sameAddress } from "../zones";

const SERVICE = "Gcore";
/** A new set's TTL when the config names none: the Gcore portal's default. */
const NEW_SET_TTL = 300;
/** Zones a page, and pages at most (10,000 zones): past this the listing is taken as runaway paging. */
const PER_PAGE = 1000;
const MAX_PAGES = 10;

export function createGcoreApi(credentials: { api_token: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const call = jsonCalls(context, SERVICE, { Authorization: `APIKey ${credentials.api_token}` }, readError);

  const setPath = (zone: string, hostname: string, type: string) =>
    `/v2/zones/${encodeURIComponent(zone)}/${encodeURIComponent(hostname)}/${type}`;

  function recordSet(hostname: string, type: string, rrset: Record<string, unknown>): RecordSet {
    const records = Array.isArray(rrset.resource_records) ? rrset.resource_records.filter(isObject) : [];
    const values = records.flatMap((r) => (Array.isArray(r.content) ? r.content.map(String) : []));
    return {
      id: `${hostname}/${type}`,
      values,
      ...(typeof rrset.ttl === "number" ? { ttl: rrset.ttl } : {}),
      raw: rrset,
    };
  }

  // An RRset holds every value of the name, one resource record each (its content the text): a PUT
  // writes it whole (each kept record as read, its TTL kept), a POST creates it, a DELETE removes it.
  const txt = txtSet({
    async read(zone, name) {
      const read = await call("GET", setPath(zone.id, name, "TXT"));
      if (!read.ok) {
        if (read.status !== 404) return read;
        const held = staleOn404(await call("GET", `/v2/zones/${encodeURIComponent(zone.id)}`));
        return held.ok ? { ok: true, value: { values: [] } } : held;
      }
      const rrset = asObject(read.value.body);
      const records = objectsIn(rrset.resource_records);
      const values = records.map((r) => unquotedTxt(Array.isArray(r.content) ? r.content.join("") : ""));
      return {
        ok: true,
        value: { values, ...(typeof rrset.ttl === "number" ? { ttl: rrset.ttl } : {}), raw: records },
      };
    },
    write(zone, name, values, held) {
      const path = setPath(zone.id, name, "TXT");
      if (values.length === 0) return call("DELETE", path);
      const kept = readByValue(held);
      const resource_records = values.map((value) => {
        const { id: _id, ...record } = kept.get(value) ?? { content: [value], enabled: true };
        return record;
      });
      const rrset = { ttl: held.ttl ?? CHALLENGE_TTL, resource_records };
      return call(held.values.length > 0 ? "PUT" : "POST", path, rrset);
    },
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const listed = await call("GET", "/v2/zones?limit=1");
      if (!listed.ok) return failedCheck(listed);
      return acceptedWithCount("API token accepted", asObject(listed.value.body).total_amount);
    },

    async listZones() {
      // Every zone of the account, a thousand a page (the official SDK's paging).
      const names = await paginate(async (_, count) => {
        const listed = await call(
          "GET",
          `/v2/zones?${new URLSearchParams({ limit: String(PER_PAGE), offset: String(count) })}`,
        );
        if (!listed.ok) return listed;
        const body = asObject(listed.value.body);
        const zones = objectsIn(body.zones);
        const items = zones.map((z) => z.name).filter((n): n is string => typeof n === "string");
        // A page shorter than asked for is not the end: the total says when every zone is in.
        const last =
          zones.length === 0 || typeof body.total_amount !== "number" || count + items.length >= body.total_amount;
        return { ok: true, value: { items, next: last ? undefined : count + items.length } };
      }, MAX_PAGES);
      return names.ok ? { ok: true, value: zonesNamed(names.value) } : names;
    },

    async readRecordSet(zone, hostname, type) {
      const read = await call("GET", setPath(zone.id, hostname, type));
      if (!read.ok) {
        if (read.status !== 404) return read;
        // The same 404 means "no such set" and "no such zone": the zone is asked for to tell them apart.
        const held = staleOn404(await call("GET", `/v2/zones/${encodeURIComponent(zone.id)}`));
        return held.ok ? { ok: true, value: null } : held;
      }
      const set = recordSet(hostname, type, asObject(read.value.body));
      return { ok: true, value: set.values.length === 0 ? null : set };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const read = asObject(current.raw);
      const [first = {}] = Array.isArray(read.resource_records) ? read.resource_records.filter(isObject) : [];
      // The record keeps its flags and meta; the server's own fields (ids, names, dates) are not sent back.
      const { id: _id, ...kept } = first;
      const ttl = settings.ttl ?? current.ttl;
      const rrset = {
        ...(ttl === undefined ? {} : { ttl }),
        resource_records: [{ ...kept, content: [address] }],
        ...(read.filters === undefined || read.filters === null ? {} : { filters: read.filters }),
        // A dynamic set's geo-balancing chain (the current API's name for its filters): a PUT without it drops it.
        ...(read.pickers === undefined || read.pickers === null ? {} : { pickers: read.pickers }),
        ...(isObject(read.meta) ? { meta: read.meta } : {}),
      };
      const put = staleOn404(await call("PUT", setPath(zone.id, hostname, type), rrset));
      return put.ok ? { ok: true, value: recordSet(hostname, type, rrset) } : put;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const rrset = { ttl: settings.ttl ?? NEW_SET_TTL, resource_records: [{ content: [address], enabled: true }] };
      const post = staleOn404(await call("POST", setPath(zone.id, hostname, type), rrset));
      return post.ok ? { ok: true, value: recordSet(hostname, type, rrset) } : post;
    },

    // The whole set in one PUT (a POST when there is none): an address that stays keeps its record's
    // flags and meta, a new one gets a record of its own, and the set's filters, pickers and meta stay.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const read = asObject(current?.raw);
      const held = Array.isArray(read.resource_records) ? read.resource_records.filter(isObject) : [];
      const records = addresses.map((address) => {
        const holding = held.find(
          (record) => Array.isArray(record.content) && sameAddress(String(record.content[0]), address),
        );
        if (holding === undefined) return { content: [address], enabled: true };
        const { id: _id, ...kept } = holding;
        return kept;
      });
      const ttl = settings.ttl ?? current?.ttl ?? NEW_SET_TTL;
      const rrset = {
        ttl,
        resource_records: records,
        ...(read.filters === undefined || read.filters === null ? {} : { filters: read.filters }),
        ...(read.pickers === undefined || read.pickers === null ? {} : { pickers: read.pickers }),
        ...(isObject(read.meta) ? { meta: read.meta } : {}),
      };
      const sent = staleOn404(await call(current === null ? "POST" : "PUT", setPath(zone.id, hostname, type), rrset));
      return sent.ok ? { ok: true, value: recordSet(hostname, type, rrset) } : sent;
    },
  };
}

/** Gcore's error body: `{"error": "..."}` (some gateways answer `{"message": "..."}`). A refused token only comes right when it changes. */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const words = [body.error, body.message].find((w): w is string => typeof w === "string" && w !== "");
  if (words === undefined) return undefined;
  return { words, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about Gcore DNS (docs/services/gcore.md). */
export const gcore = defineService({
  type: "gcore",
  label: "Gcore",
  summary: "Zones hosted at Gcore Managed DNS, with a permanent API token.",
  credentials: [
    {
      key: "api_token",
      label: "Permanent API token",
      help: 'Gcore portal → Profile → API tokens → Create token: give it an expiry date and the least role that can edit DNS records ("Engineers" for a user-scoped token); copy the token shown once.',
      url: "https://portal.gcore.com/accounts/profile/api-tokens",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 2147483647, 300),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.gcore.com/dns",
  // Gcore limits requests per account and product without naming the DNS API's number; the one it
  // names (about 4 a second, for its Streaming API) is kept under.
  rateLimits: [{ requests: 3, perSeconds: 1 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createGcoreApi({ api_token: (credentials.api_token ?? "").trim() }, context);
    return zoneClient(api, api.txt);
  },
});
