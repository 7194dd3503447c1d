// Spaceship (docs/services/spaceship.md): the zone service primitives. A domain's records are
// listed a page at a time (`take` up to 500, `skip`; `{items, total}`), each as `{type, name, address,
// ttl, group: {type}}` with `name` relative to the domain (`@` for the apex) and no id: Spaceship
// knows a record by its type, name and data. It has no in-place change of a record's address, so
// an update is two requests: PUT the new record (same name and type, the old record's TTL unless the
// config names one) and, only when that succeeded, DELETE exactly the old record as it was read. A
// failure between the two leaves the name with both addresses, never with none; the next run then
// finds two addresses and leaves the set alone, and the history says why. A change of TTL alone is
// one PUT of the same record (Spaceship keeps one record per type, name and data) and nothing is
// deleted. Requests carry `X-API-Key` and `X-API-Secret`.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   GET the domain's records (one page of 500 for most domains) + PUT the new record + DELETE the old = 3
//   (1 when the address is already there)
// Without it the account's domains are listed first (100 a page) and the longest holding the name is used.
//
// Sources: docs.spaceship.dev (authentication, permissions, domain list, DNS records list/save/delete,
// rate limits); qdm12/ddns-updater providers/spaceship (getrecord, createrecord, deleterecord, types:
// `{detail, data: [{field, details}]}` errors, 204 on writes); jeessy2/ddns-go dns/spaceship.go (delete
// then add, `take` 500, `group`); namecheap/terraform-provider-spaceship internal/client/dns.go and
// docs/resources/dns_record.md (paging by `total`, TTL 60–3600, no in-place update, 429 Retry-After).

import { asObject, isObject, objectsIn } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, jsonCalls, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { type RecordSet, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { failedCheck, relativeName, sameAddress } from "../zones";

const SERVICE = "Spaceship";
/** The most records Spaceship gives in one page of a domain's records. */
const RECORDS_PER_PAGE = 500;
/** The most domains Spaceship gives in one page of the domain list. */
const DOMAINS_PER_PAGE = 100;
/** 50,000 items: past this the listing is taken as runaway pagination, not an account. */
const MAX_PAGES = 100;
/** A new record's TTL when the domain's config names none (Spaceship's own default). */
const NEW_RECORD_TTL = 3600;
/** The group of the records a person made; other groups belong to Spaceship's features (URL redirect, mail forwarding). */
const CUSTOM_GROUP = "custom";

/** A record as Spaceship knows it: by its type, name and address. */
interface SpaceshipRecord {
  type: string;
  name: string;
  address: string;
  ttl?: number;
  group?: string;
}

export function createSpaceshipApi(
  credentials: { api_key: string; api_secret: string },
  context: ClientContext,
): ZoneApi {
  const call = jsonCalls(
    context,
    SERVICE,
    { "X-API-Key": credentials.api_key, "X-API-Secret": credentials.api_secret },
    readError,
  );

  /** Every item of a listing paged with `take`/`skip`, until `total` items are read or a page comes back empty. */
  async function listAll(path: string, perPage: number): Promise<Step<Record<string, unknown>[]>> {
    return paginate(async (_, count) => {
      const listed = await call(
        "GET",
        `${path}?${new URLSearchParams({ take: String(perPage), skip: String(count) })}`,
      );
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const found = objectsIn(body.items);
      const last = found.length === 0 || typeof body.total !== "number" || count + found.length >= body.total;
      return { ok: true, value: { items: found, next: last ? undefined : count + found.length } };
    }, MAX_PAGES);
  }

  const recordsPath = (domain: string) => `/v1/dns/records/${encodeURIComponent(domain)}`;

  /** The record as a DELETE names it: exactly the type, name and address that were read. */
  const identity = (record: SpaceshipRecord) => ({ type: record.type, name: record.name, address: record.address });

  function recordSet(name: string, type: string, records: SpaceshipRecord[]): RecordSet {
    const ttl = records[0]?.ttl;
    return {
      id: `${name}/${type}`,
      values: records.map((r) => r.address),
      ...(ttl === undefined ? {} : { ttl }),
      raw: records,
    };
  }

  return {
    service: SERVICE,

    async verify() {
      // The listing the writes start from; changes nothing.
      const answer = await call("GET", `/v1/domains?${new URLSearchParams({ take: "1", skip: "0" })}`);
      if (!answer.ok) return failedCheck(answer);
      const total = isObject(answer.value.body) ? answer.value.body.total : undefined;
      return {
        ok: true,
        detail: typeof total === "number" ? `API key accepted (${plural(total, "domain")})` : "API key accepted",
      };
    },

    async listZones() {
      const listed = await listAll("/v1/domains", DOMAINS_PER_PAGE);
      if (!listed.ok) return listed;
      return { ok: true, value: zonesNamed(listed.value.map((d) => d.name)) };
    },

    async readRecordSet(zone, hostname, type) {
      const listed = await listAll(recordsPath(zone.id), RECORDS_PER_PAGE);
      // A domain in the config that left the account: looked up afresh, once.
      if (!listed.ok) return staleOn404(listed);
      const name = relativeName(hostname, zone.id, "@");
      const records: SpaceshipRecord[] = listed.value
        .filter((r) => r.type === type && typeof r.address === "string" && String(r.name ?? "").toLowerCase() === name)
        .map((r) => ({
          type,
          name: String(r.name),
          address: String(r.address),
          ...(typeof r.ttl === "number" ? { ttl: r.ttl } : {}),
          ...(isObject(r.group) && typeof r.group.type === "string" ? { group: r.group.type } : {}),
        }));
      return { ok: true, value: records.length === 0 ? null : recordSet(name, type, records) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const old = (current.raw as SpaceshipRecord[] | undefined)?.[0];
      if (!old) return failed(`${SERVICE}: the record to replace was not read`, { cause: "refused" });
      if (old.group !== undefined && old.group !== CUSTOM_GROUP) {
        return failed(
          `${SERVICE}: ${hostname} ${type} belongs to Spaceship's ${old.group} feature, so ddnsd leaves it alone; change it at Spaceship or use another name`,
          {
            cause: "refused",
            stopRetrying: true,
          },
        );
      }
      const ttl = settings.ttl ?? old.ttl ?? NEW_RECORD_TTL;
      const added = await call("PUT", recordsPath(zone.id), {
        force: false,
        items: [{ type, name: old.name, address, ttl }],
      });
      if (!added.ok) return added;
      // Only the TTL changed: Spaceship changed that record in place, and there is nothing to delete.
      if (sameAddress(old.address, address)) return { ok: true, value: recordSet(old.name, type, [{ ...old, ttl }]) };
      const deleted = await call("DELETE", recordsPath(zone.id), [identity(old)]);
      if (!deleted.ok) {
        return {
          ...deleted,
          message: `${SERVICE}: added ${address} to ${hostname} ${type} but could not delete the old record ${old.address}, so the name holds both addresses and ddnsd leaves it alone until one is removed at Spaceship: ${deleted.message.slice(SERVICE.length + 2)}`,
        };
      }
      return { ok: true, value: recordSet(old.name, type, [{ type, name: old.name, address, ttl }]) };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const name = relativeName(hostname, zone.id, "@");
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const created = await call("PUT", recordsPath(zone.id), { force: false, items: [{ type, name, address, ttl }] });
      if (!created.ok) return created;
      return { ok: true, value: recordSet(name, type, [{ type, name, address, ttl }]) };
    },
  };
}

/**
 * Spaceship's error body: `{detail, data?: [{field, details}]}`. Refused credentials (401), or a key
 * without the permission the request needs (403), only come right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.detail !== "string") return undefined;
  const fields = Array.isArray(body.data)
    ? body.data
        .filter(isObject)
        .map((d) =>
          [typeof d.field === "string" && d.field !== "" ? `${d.field}: ` : "", String(d.details ?? "")].join(""),
        )
    : [];
  const words = [body.detail, ...fields].filter((w) => w !== "").join("; ") || "request failed";
  return { words, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about Spaceship (docs/services/spaceship.md). */
export const spaceship = defineService({
  type: "spaceship",
  label: "Spaceship",
  summary: "Domains registered at Spaceship that use its DNS, through the Spaceship API with an API key and secret.",
  credentials: [
    {
      key: "api_key",
      url: "https://www.spaceship.com/application/api-manager/",
      label: "API key",
      help:
        "In Spaceship's API Manager: New API key, with only the permissions dnsrecords:read, dnsrecords:write and domains:read " +
        "(domains:read lists your domains, to find the one that holds a name and to check the key).",
      secret: true,
    },
    {
      key: "api_secret",
      label: "API secret",
      help: "Shown once beside the API key when it is made in the API Manager.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 3600, 3600),
  canVerify: true,
  defaultApiUrl: "https://spaceship.dev/api",
  // Spaceship allows 300 requests per user (and per domain for DNS records) in 300 seconds; ddnsd stays at 250.
  rateLimits: [{ requests: 250, perSeconds: 300 }],
  createClient: (credentials, _options, context) =>
    zoneClient(
      createSpaceshipApi({ api_key: credentials.api_key ?? "", api_secret: credentials.api_secret ?? "" }, context),
    ),
});
