// Hostinger API (docs/services/hostinger.md): the zone service primitives. Hostinger's DNS API is
// zone-shaped, not record-shaped: `GET /api/dns/v1/zones/{domain}` answers the domain's record sets
// (`{name, type, ttl, records: [{content, is_disabled}]}`, `name` relative, `@` for the apex), and
// `PUT` on the same path with `overwrite: true` replaces the sets named in `zone` (same name and
// type) and creates them where there are none; every other set stays. Sets have no ids: ddnsd names
// one `name/type`. Requests carry a bearer token. A record written without `is_disabled` comes back
// enabled, so a disabled record is written back disabled: ddnsd changes its address, not its state.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   GET the zone + PUT the set = 2 (1 when the address is already there)
// Without it the hostname and each parent are asked for, longest first, until one is a zone of
// the account (404 for the others).
//
// Sources: developers.hostinger.com (the Hostinger API reference and its OpenAPI description, as
// carried by hostinger/api-cli and hostinger/api-typescript-sdk: DNS_getDNSRecordsV1,
// DNS_updateDNSRecordsV1 and its `overwrite`, domains_getDomainListV1); lego's Hostinger provider
// (providers/dns/hostinger: Bearer token, the record set shape, `overwrite`, the
// `{message, errors, correlation_id}` error body).

import { isObject, objectsIn } from "../../util/json";
import { jsonCalls, listedObjects, type ServiceError } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, readByValue, txtSet, unquotedTxt } from "../txt";
import { acceptedCounting, relativeName } from "../zones";

const SERVICE = "Hostinger";
/** A new record's TTL when the domain's config names none: the TTL Hostinger's own records carry. */
const NEW_RECORD_TTL = 14400;

export function createHostingerApi(
  credentials: { api_token: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const authorization = `Bearer ${credentials.api_token}`;

  const call = jsonCalls(context, SERVICE, { Authorization: authorization }, readError);

  const zonePath = (domain: string) => `/api/dns/v1/zones/${encodeURIComponent(domain)}`;

  async function readZone(domain: string): Promise<Step<Record<string, unknown>[]> & { status?: number }> {
    const answer = await call("GET", zonePath(domain));
    if (!answer.ok) return answer;
    return { ok: true, value: objectsIn(answer.value.body) };
  }

  /** Makes the set `name type` hold only `records` with `ttl`: Hostinger replaces that set and nothing else. */
  function replaceSet(domain: string, name: string, type: string, records: Record<string, unknown>[], ttl: number) {
    return call("PUT", zonePath(domain), { overwrite: true, zone: [{ name, type, ttl, records }] });
  }

  /** Makes the set `name type` hold only `addresses`, each disabled where `disabled` says. */
  async function putSet(
    domain: string,
    name: string,
    type: string,
    addresses: readonly string[],
    ttl: number,
    disabled: (address: string) => boolean = () => false,
  ): Promise<Step<RecordSet>> {
    const records = addresses.map((content) => ({ content, ...(disabled(content) ? { is_disabled: true } : {}) }));
    const answer = await replaceSet(domain, name, type, records, ttl);
    if (!answer.ok) return answer;
    return { ok: true, value: { id: `${name}/${type}`, values: [...addresses], ttl, raw: records } };
  }

  /** Whether the set as read holds `address` disabled: ddnsd changes addresses, not their state. */
  function disabledIn(current: RecordSet | null): (address: string) => boolean {
    const records = Array.isArray(current?.raw) ? current.raw.filter(isObject) : [];
    return (address) => records.some((r) => r.content === address && r.is_disabled === true);
  }

  // The name's TXT values are one set: read, then replaced whole (each kept value sent back as read,
  // its state with it), or deleted by name and type once none is left.
  const txt = txtSet({
    async read(zone, name) {
      const read = await readZone(zone.id);
      if (!read.ok) return read;
      const relative = relativeName(name, zone.id, "@");
      const set = read.value.find((s) => s.type === "TXT" && String(s.name ?? "").toLowerCase() === relative);
      const records = objectsIn(set?.records);
      return {
        ok: true,
        value: {
          values: records.map((r) => unquotedTxt(r.content)),
          ...(typeof set?.ttl === "number" ? { ttl: set.ttl } : {}),
          raw: records,
        },
      };
    },
    write(zone, name, values, held) {
      const relative = relativeName(name, zone.id, "@");
      if (values.length === 0) return call("DELETE", zonePath(zone.id), { filters: [{ name: relative, type: "TXT" }] });
      const read = readByValue(held);
      const records = values.map((value) => read.get(value) ?? { content: value });
      return replaceSet(zone.id, relative, "TXT", records, held.ttl ?? CHALLENGE_TTL);
    },
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // The account's domains: read-only, and answered only to a working token.
      return acceptedCounting(
        listedObjects(await call("GET", "/api/domains/v1/portfolio")),
        "Token accepted",
        "domain",
      );
    },

    async hasZone(name) {
      const read = await readZone(name);
      return read.ok || read.status === 404 ? { ok: true, value: read.ok } : read;
    },

    async readRecordSet(zone, hostname, type) {
      const read = await readZone(zone.id);
      // A zone in the config that left the account: looked up afresh, once.
      if (!read.ok) return read.status === 404 ? { ...read, staleZone: true } : read;
      const name = relativeName(hostname, zone.id, "@");
      const set = read.value.find((s) => s.type === type && String(s.name ?? "").toLowerCase() === name);
      if (set === undefined) return { ok: true, value: null };
      const records = objectsIn(set.records);
      return {
        ok: true,
        value: {
          id: `${name}/${type}`,
          values: records.map((r) => String(r.content)),
          ...(typeof set.ttl === "number" ? { ttl: set.ttl } : {}),
          raw: records,
        },
      };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      // The set is replaced whole: its TTL is sent back unless the config names one.
      const disabled = Array.isArray(current.raw) && current.raw.some((r) => isObject(r) && r.is_disabled === true);
      return putSet(
        zone.id,
        relativeName(hostname, zone.id, "@"),
        type,
        [address],
        settings.ttl ?? current.ttl ?? NEW_RECORD_TTL,
        () => disabled,
      );
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      return putSet(zone.id, relativeName(hostname, zone.id, "@"), type, [address], settings.ttl ?? NEW_RECORD_TTL);
    },

    // The set is replaced whole in one PUT: its TTL sent back unless the config names one, and an
    // address that stays keeps its disabled state.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      return putSet(
        zone.id,
        relativeName(hostname, zone.id, "@"),
        type,
        addresses,
        settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL,
        disabledIn(current),
      );
    },
  };
}

/**
 * Hostinger's error body: `{"message", "errors"?: {field: [words]}, "correlation_id"}`. A refused
 * token (401) only comes right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.message !== "string" || body.message === "") return undefined;
  const details = isObject(body.errors)
    ? Object.values(body.errors)
        .flatMap((v) => (Array.isArray(v) ? v : [v]))
        .filter((v): v is string => typeof v === "string")
    : [];
  const words = [body.message, ...details.filter((d) => d !== body.message)].join(": ");
  return { words, ...(status === 401 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about Hostinger (docs/services/hostinger.md). */
export const hostinger = defineService({
  type: "hostinger",
  label: "Hostinger",
  summary: "Domains whose DNS zone is at Hostinger, through the Hostinger API with an API token.",
  credentials: [
    {
      key: "api_token",
      label: "API token",
      help:
        "In hPanel: Account → API, New token. Hostinger tokens are not scoped: a token can do everything the account can, " +
        "so make one for ddnsd alone (with an expiry if you like) and revoke it when you stop using ddnsd.",
      url: "https://hpanel.hostinger.com/profile/api",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, 14400),
  canVerify: true,
  holdsTxt: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://developers.hostinger.com",
  // Hostinger publishes no general limit for its API; ddnsd keeps to one request a second.
  rateLimits: [{ requests: 1, perSeconds: 1 }],
  createClient: (credentials, _options, context) => {
    const api = createHostingerApi({ api_token: credentials.api_token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
