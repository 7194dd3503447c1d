// Domeneshop API v0: the zone service primitives. A domain has a numeric id; its DNS records are
// listed with a filter (`?host=&type=`), each with a numeric id, `host` (relative to the domain, `@`
// for the apex), `type`, `data` (the address) and `ttl` (60–604800, a multiple of 60; 3600 when not
// sent). A PUT replaces the whole record and answers 204 with no body, so an update sends back the
// host, type and TTL it read with the new address.
//
// Requests per write, with the domain known (config.zone_id) — the steady state: the domain (its
// name, to check it holds the hostname), the filtered listing and the PUT or POST = 3 (2 when the
// address is already there). Without it the account's domains are listed once, the longest that
// holds the name and has Domeneshop's DNS service wins. Domeneshop's DynDNS endpoint
// (`/v0/dyndns/update`, what qdm12/ddns-updater uses) is not used: it cannot read a record first.
//
// Sources: api.domeneshop.no/docs (the OpenAPI description it publishes: getDomains, getDnsRecords,
// POST/PUT/DELETE /domains/{domainId}/dns…, BaseRecord's TTL rule); domeneshop/python-domeneshop client.py
// (the official client: Basic auth, PUT with host/data/ttl/type, errors as {code, help}); go-acme/lego
// providers/dns/domeneshop (domains without the DNS service skipped).

import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, jsonCalls, listedObjects, type ServiceError, staleOn404 } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, recordSetOf, type TxtApi, type Zone, type ZoneApi, zoneClient } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { acceptedCounting, foreignZoneMessage, longestZone, noZoneMessage, relativeName, zoneHolds } from "../zones";

const SERVICE = "Domeneshop";
const APEX = "@";
/** TTL of a record this client creates when the domain's config names none (Domeneshop's own default is 3600). */
const NEW_RECORD_TTL = 300;

/**
 * The TTL Domeneshop takes for `ttl`: the nearest multiple of 60 within 60–604800. It refuses any
 * other, and a refusal would come back on every retry until the config changed.
 */
function domeneshopTtl(ttl: number): number {
  return Math.min(604800, Math.max(60, Math.round(ttl / 60) * 60));
}

type Row = Record<string, unknown>;

export function createDomeneshopApi(
  credentials: { token: string; secret: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const authorization = `Basic ${Buffer.from(`${credentials.token}:${credentials.secret}`).toString("base64")}`;

  const call = jsonCalls(context, SERVICE, { Authorization: authorization }, readError);

  const recordsPath = (domainId: string) => `/domains/${encodeURIComponent(domainId)}/dns`;

  function recordSet(records: Row[]): RecordSet {
    return { ...recordSetOf(records, "data"), members: records };
  }

  const recordPath = (domainId: string, id: unknown) => `${recordsPath(domainId)}/${encodeURIComponent(String(id))}`;

  /** The name's records of that type (the filter is the service's; the exact name and type are checked here again). */
  async function named(zone: Zone, hostname: string, type: string): Promise<Step<Row[]>> {
    const host = relativeName(hostname, zone.name ?? hostname, APEX);
    const listed = staleOn404(await call("GET", `${recordsPath(zone.id)}?${new URLSearchParams({ host, type })}`));
    if (!listed.ok) return listed;
    const records = objectsIn(listed.value.body).filter(
      (r) => r.type === type && r.id !== undefined && String(r.host ?? "").toLowerCase() === host,
    );
    return { ok: true, value: records };
  }

  /** A new record; its id is in the body, and at the end of the Location header the official client reads. */
  async function create(zone: Zone, sent: Row): Promise<Step<Row>> {
    const post = await call("POST", recordsPath(zone.id), sent);
    if (!post.ok) return post;
    const id = asObject(post.value.body).id ?? post.value.headers.get("location")?.split("/").pop();
    if (id === undefined || id === "")
      return failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
    return { ok: true, value: { ...sent, id } };
  }

  // One TXT record per value, its text as it is (Domeneshop's `data`; read quoted or bare).
  const txt = txtRecords({
    async list(zone, name) {
      const records = await named(zone, name, "TXT");
      if (!records.ok) return records;
      return { ok: true, value: records.value.map((r) => ({ id: String(r.id), value: unquotedTxt(r.data) })) };
    },
    create: (zone, name, value) =>
      create(zone, {
        host: relativeName(name, zone.name ?? name, APEX),
        type: "TXT",
        data: value,
        ttl: CHALLENGE_TTL,
      }),
    delete: (zone, record) => call("DELETE", recordPath(zone.id, record.id)),
  });

  function zoneOf(domain: Row): Zone | undefined {
    if (typeof domain.domain !== "string" || domain.id === undefined) return undefined;
    const name = domain.domain.toLowerCase();
    const note =
      isObject(domain.services) && domain.services.dns === false
        ? `Domeneshop's DNS service is not on for ${name}, so the record is not served`
        : undefined;
    return { id: String(domain.id), name, ...(note ? { note } : {}) };
  }

  return {
    service: SERVICE,
    txt,

    async verify() {
      return acceptedCounting(listedObjects(await call("GET", "/domains")), "Token accepted", "domain");
    },

    async findZone(hostname, configured) {
      if (configured !== undefined) {
        if (!/^\d+$/.test(configured))
          return failed(
            `${SERVICE}: config.zone_id ${configured} is not a Domeneshop domain id (a number); correct it or remove it`,
            { cause: "refused" },
          );
        const found = staleOn404(await call("GET", `/domains/${configured}`));
        if (!found.ok) return found;
        const zone = isObject(found.value.body) ? zoneOf(found.value.body) : undefined;
        if (zone === undefined || !zoneHolds(zone.name!, hostname))
          return failed(foreignZoneMessage(SERVICE, `${configured} (${zone?.name ?? "unnamed"})`, hostname), {
            cause: "refused",
          });
        return { ok: true, value: zone };
      }
      const listed = await call("GET", "/domains");
      if (!listed.ok) return listed;
      // Domains without Domeneshop's DNS service have no records to change.
      const zones = objectsIn(listed.value.body)
        .filter((d) => !(isObject(d.services) && d.services.dns === false))
        .map(zoneOf)
        .filter((z): z is Zone => z !== undefined);
      const name = longestZone(
        hostname,
        zones.map((z) => z.name!),
      );
      const zone = zones.find((z) => z.name === name);
      return zone === undefined
        ? failed(noZoneMessage(SERVICE, hostname, "this account with Domeneshop's DNS service"), { cause: "refused" })
        : { ok: true, value: zone };
    },

    async readRecordSet(zone, hostname, type) {
      const records = await named(zone, hostname, type);
      if (!records.ok) return records;
      return { ok: true, value: records.value.length === 0 ? null : recordSet(records.value) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const raw = asObject(current.raw);
      // The PUT replaces the record (a TTL left out would become 3600): everything read goes back.
      const sent: Row = {
        host: typeof raw.host === "string" ? raw.host : relativeName(hostname, zone.name ?? hostname, APEX),
        type,
        data: address,
        ttl: settings.ttl !== undefined ? domeneshopTtl(settings.ttl) : (current.ttl ?? NEW_RECORD_TTL),
      };
      const put = await call("PUT", recordPath(zone.id, current.id), sent);
      return put.ok ? { ok: true, value: recordSet([{ ...raw, ...sent, id: current.id }]) } : put;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const sent: Row = {
        host: relativeName(hostname, zone.name ?? hostname, APEX),
        type,
        data: address,
        ttl: domeneshopTtl(settings.ttl ?? NEW_RECORD_TTL),
      };
      const created = await create(zone, sent);
      return created.ok ? { ok: true, value: recordSet([created.value]) } : created;
    },

    // One record per address (address-records.ts). A PUT replaces a record whole, so a reused one is
    // sent its host and type with the new address and the set's TTL; a new one takes that TTL too.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const ttl = settings.ttl !== undefined ? domeneshopTtl(settings.ttl) : (current?.ttl ?? NEW_RECORD_TTL);
      const host = relativeName(hostname, zone.name ?? hostname, APEX);
      const written = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.data),
        stale: (record) => !((record) => settings.ttl === undefined || record.ttl === ttl)(record),

        create: (address) => create(zone, { host, type, data: address, ttl }),
        async edit(record, address) {
          const sent: Row = { host: typeof record.host === "string" ? record.host : host, type, data: address, ttl };
          const put = await call("PUT", recordPath(zone.id, record.id), sent);
          return put.ok ? { ok: true, value: { ...record, ...sent } } : put;
        },
        delete: (record) => call("DELETE", recordPath(zone.id, record.id)),
      });
      return written.ok ? { ok: true, value: recordSet(written.value) } : written;
    },

    storedTtl: domeneshopTtl,
  };
}

/**
 * Domeneshop's error body, `{"code", "help"}`. Refused credentials (401, 403) only come right when
 * the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const help = typeof body.help === "string" && body.help !== "" ? body.help : undefined;
  const code = typeof body.code === "string" && body.code !== "" ? body.code : undefined;
  if (help === undefined && code === undefined) return undefined;
  return {
    words: help ?? code!,
    ...(help !== undefined && code !== undefined ? { code } : {}),
    ...(status === 401 || status === 403 ? { stopRetrying: true } : {}),
  };
}

/** Everything ddnsd knows about Domeneshop's API. */
export const domeneshop = defineService({
  type: "domeneshop",
  label: "Domeneshop",
  summary: "Records of a domain at Domeneshop (domene.shop), through its API v0 with an API token and secret.",
  credentials: [
    {
      key: "token",
      url: "https://www.domeneshop.no/admin?view=api",
      label: "API token",
      help: "In Domeneshop's control panel open Account → API (domeneshop.no/admin?view=api) and create API credentials; this is the token (the username half). Domeneshop's credentials reach every domain of the account.",
      secret: true,
    },
    {
      key: "secret",
      label: "API secret",
      help: "The secret shown once with the token (the password half). It grants what your control panel login grants: keep it as you would that password.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 604800, 300, { note: "sent as the nearest multiple of 60 (the only TTLs Domeneshop takes)" }),
  canVerify: true,
  holdsTxt: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.domeneshop.no/v0",
  // No documented request limit: the updater's own pacing (one write per changed address) is all it asks.
  createClient: (credentials, _options, context) => {
    const api = createDomeneshopApi({ token: credentials.token ?? "", secret: credentials.secret ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
