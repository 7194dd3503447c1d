// Scaleway Domains and DNS API v2beta1 (docs/services/scaleway.md): the zone service primitives. An
// IAM secret key goes in `X-Auth-Token`. A DNS zone is named by itself (`example.com`, or a sub-zone
// such as `lab.example.com`); its records (names relative to it, `""` for the apex) are read with
// `GET …/records?name=&type=` and changed with one `PATCH …/records` of `changes`: a `set` whose
// `id_fields` name the record read (name, type and its old data), so exactly that record is
// replaced — and nothing is when someone changed it meanwhile — keeping its comment and priority; a
// missing record is made with an `add`. A dynamic record (geo IP, weighted, HTTP service, view) is
// left alone: its answers live in a config a `set` would drop. Every change forbids Scaleway to create the zone it names.
//
// Requests per write, with the zone known (config.zone_id = the zone's name):
//   GET records (one page of 100 for a name; the apex, unfiltered, may take more) + PATCH records = 2
//   (1 when the address is already there)
// Without it the account's zones are listed (`domain` empty, 100 a page) and the longest holding the name is used.
//
// Sources: www.scaleway.com/en/developers/api/domains-and-dns (List DNS zones, List records within
// a DNS zone, Update records within a DNS zone; Scaleway publishes it as OpenAPI) and the IAM API
// keys documentation; the official SDK scaleway/scaleway-sdk-go api/domain/v2beta1; lego
// providers/dns/scaleway and libdns/scaleway (set with id_fields, add).

import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, type JsonAnswer, jsonCalls, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import type { RecordType, Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, quotedTxt, txtRecords, unquotedTxt } from "../txt";
import { acceptedCounting, relativeName, sameAddress } from "../zones";

const SERVICE = "Scaleway";
/** A new record's TTL when the config names none: the console's default. */
const NEW_RECORD_TTL = 3600;
const PAGE_SIZE = 100;
/**
 * A dynamic record's answers live in its config (geo rules, weighted or health-checked addresses,
 * views), its `data` being only the fallback; a `set` that does not send the config drops it.
 */
const DYNAMIC_CONFIGS: Record<string, string> = {
  geo_ip_config: "geo IP",
  weighted_config: "weighted",
  http_service_config: "HTTP health-checked",
  view_config: "view",
};

export function createScalewayApi(
  credentials: { secret_key: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const call = jsonCalls(context, SERVICE, { "X-Auth-Token": credentials.secret_key }, readError);

  const recordsPath = (zone: string) => `/dns-zones/${encodeURIComponent(zone)}/records`;

  /** Every item (`key`) of a listing paged by number, until a page comes back empty or `total_count` items are in. */
  function listAll(path: string, query: Record<string, string>, key: string): Promise<Step<Record<string, unknown>[]>> {
    return paginate(async (next, count) => {
      const page = Number(next ?? 1);
      const listed = await call(
        "GET",
        `${path}?${new URLSearchParams({ ...query, page: String(page), page_size: String(PAGE_SIZE) })}`,
      );
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const found = objectsIn(body[key]);
      const last =
        found.length === 0 || typeof body.total_count !== "number" || count + found.length >= body.total_count;
      return { ok: true, value: { items: found, next: last ? undefined : page + 1 } };
    });
  }

  async function listZones(): Promise<Step<string[]>> {
    const zones = await listAll("/dns-zones", { domain: "" }, "dns_zones");
    if (!zones.ok) return zones;
    // A zone is its domain, or a sub-zone of it: `subdomain` + `domain`.
    const names = zones.value.flatMap((zone) =>
      typeof zone.domain !== "string"
        ? []
        : [
            typeof zone.subdomain === "string" && zone.subdomain !== ""
              ? `${zone.subdomain}.${zone.domain}`
              : zone.domain,
          ],
    );
    return { ok: true, value: names };
  }

  function recordSet(records: Record<string, unknown>[]): RecordSet | null {
    if (records.length === 0) return null;
    const [first] = records as [Record<string, unknown>];
    return {
      id: String(first.id ?? ""),
      values: records.map((r) => String(r.data)),
      ...(typeof first.ttl === "number" ? { ttl: first.ttl } : {}),
      raw: first,
      members: records,
    };
  }

  /** The record the PATCH answered with, or the one it was sent. */
  function written(answer: Step<JsonAnswer>, sent: Record<string, unknown>): Step<RecordSet> {
    if (!answer.ok) return answer;
    const body = asObject(answer.value.body);
    const records = Array.isArray(body.records)
      ? body.records
          .filter(isObject)
          .filter((r) => r.name === sent.name && r.type === sent.type && r.data === sent.data)
      : [];
    return { ok: true, value: recordSet(records.length > 0 ? records.slice(0, 1) : [sent])! };
  }

  /** One change of the zone's records, never creating a zone. */
  const change = (zone: string, one: Record<string, unknown>) =>
    call("PATCH", recordsPath(zone), { changes: [one], return_all_records: false, disallow_new_zone_creation: true });

  // One record per value, its data the text in quotes: an `add` makes one, a `delete` by id removes it.
  const txt = txtRecords({
    async list(zone, name) {
      const relative = relativeName(name, zone.name!);
      const listed = staleOn404(await listAll(recordsPath(zone.id), { name: relative, type: "TXT" }, "records"));
      if (!listed.ok) return listed;
      const records = listed.value.filter((r) => r.name === relative && r.type === "TXT" && typeof r.id === "string");
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.data) })) };
    },
    create: (zone, name, value) =>
      change(zone.id, {
        add: {
          records: [{ name: relativeName(name, zone.name!), type: "TXT", data: quotedTxt(value), ttl: CHALLENGE_TTL }],
        },
      }),
    delete: (zone, record) => change(zone.id, { delete: { id: record.id } }),
  });

  return {
    service: SERVICE,
    txt,

    verify: () => acceptedCounting(listZones(), "Secret key accepted", "DNS zone"),

    zoneOwner: "this key's projects",

    async listZones() {
      const listed = await listZones();
      if (!listed.ok) return listed;
      return { ok: true, value: zonesNamed(listed.value) };
    },

    async readRecordSet(zone, hostname, type) {
      const name = relativeName(hostname, zone.name!);
      // The name filter is not relied on to be exact (an empty one, the apex's, filters nothing, so
      // the apex's record may be pages away): every page is read and each record is checked.
      const listed = staleOn404(await listAll(recordsPath(zone.id), { name, type }, "records"));
      if (!listed.ok) return listed;
      const records = listed.value.filter((r) => r.name === name && r.type === type);
      const dynamic = records.flatMap((r) => Object.keys(DYNAMIC_CONFIGS).filter((config) => isObject(r[config])));
      if (dynamic.length > 0) {
        const kind = DYNAMIC_CONFIGS[dynamic[0]!];
        return failed(
          `${SERVICE}: ${hostname} ${type} is a ${kind} record whose addresses live in its ${kind} configuration; ddnsd changes only a plain record, so nothing was written`,
          { cause: "refused" },
        );
      }
      return { ok: true, value: recordSet(records) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const read = asObject(current.raw);
      const name = relativeName(hostname, zone.name!);
      const record = recordFields(name, type, address, settings.ttl ?? current.ttl ?? NEW_RECORD_TTL, read);
      const change = { set: { id_fields: { name, type, data: current.values[0] }, records: [record] } };
      return written(
        staleOn404(
          await call("PATCH", recordsPath(zone.id), {
            changes: [change],
            return_all_records: false,
            disallow_new_zone_creation: true,
          }),
        ),
        record,
      );
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const record = recordFields(
        relativeName(hostname, zone.name!),
        type,
        address,
        settings.ttl ?? NEW_RECORD_TTL,
        {},
      );
      return written(
        staleOn404(
          await call("PATCH", recordsPath(zone.id), {
            changes: [{ add: { records: [record] } }],
            return_all_records: false,
            disallow_new_zone_creation: true,
          }),
        ),
        record,
      );
    },

    // One record per address, and one PATCH takes every change of the set together: a record whose
    // address goes is `set` to a new address (its comment and priority kept) or deleted by id, a new
    // address left over is added; a record that stays is sent only for a TTL the config changes.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const name = relativeName(hostname, zone.name!);
      const records = current?.members ?? [];
      const spare = records.filter((r) => !addresses.some((address) => sameAddress(String(r.data), address)));
      const ttlOf = (r: Record<string, unknown>) =>
        settings.ttl ?? (typeof r.ttl === "number" ? r.ttl : (current?.ttl ?? NEW_RECORD_TTL));
      const changes: Record<string, unknown>[] = [];
      const result: Record<string, unknown>[] = [];
      const set = (held: Record<string, unknown>, address: string) => {
        const record = recordFields(name, type, address, ttlOf(held), held);
        changes.push({ set: { id_fields: { name, type, data: held.data }, records: [record] } });
        result.push({ ...held, ...record });
      };
      for (const address of addresses) {
        const holding = records.find((r) => sameAddress(String(r.data), address));
        if (holding !== undefined) {
          if (settings.ttl !== undefined && holding.ttl !== settings.ttl) set(holding, address);
          else result.push(holding);
          continue;
        }
        const reused = spare.shift();
        if (reused !== undefined) set(reused, address);
        else {
          const record = recordFields(name, type, address, settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL, {});
          changes.push({ add: { records: [record] } });
          result.push(record);
        }
      }
      for (const record of spare) changes.push({ delete: { id: record.id } });
      const patched = staleOn404(
        await call("PATCH", recordsPath(zone.id), {
          changes,
          return_all_records: false,
          disallow_new_zone_creation: true,
        }),
      );
      return patched.ok ? { ok: true, value: recordSet(result)! } : patched;
    },
  };
}

/** A record as a change sends it: the new data and TTL, and the comment and priority the read one had. */
function recordFields(
  name: string,
  type: RecordType,
  data: string,
  ttl: number,
  read: Record<string, unknown>,
): Record<string, unknown> {
  return {
    name,
    type,
    data,
    ttl,
    ...(typeof read.priority === "number" ? { priority: read.priority } : {}),
    ...(typeof read.comment === "string" && read.comment !== "" ? { comment: read.comment } : {}),
  };
}

/**
 * Scaleway's error body: `{message, type, …}`, with `details` naming the arguments a 400 refused.
 * A refused or under-privileged key (401/403) only comes right when the key or its policy changes.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.message !== "string" || body.message === "") return undefined;
  const details = objectsIn(body.details)
    .map((d) =>
      [d.argument_name, d.help_message ?? d.reason].filter((p) => typeof p === "string" && p !== "").join(": "),
    )
    .filter(Boolean);
  const words = details.length > 0 ? `${body.message}: ${details.join("; ")}` : body.message;
  return {
    words,
    ...(typeof body.type === "string" ? { code: body.type } : {}),
    ...(status === 401 || status === 403 ? { stopRetrying: true } : {}),
  };
}

/** Everything ddnsd knows about Scaleway Domains and DNS (docs/services/scaleway.md). */
export const scaleway = defineService({
  type: "scaleway",
  label: "Scaleway",
  summary: "DNS zones at Scaleway Domains and DNS, with an IAM API key's secret key.",
  credentials: [
    {
      key: "secret_key",
      label: "Secret key",
      help: "Scaleway console → IAM → Applications → Create application (e.g. ddnsd) with a policy granting only DomainsDNSFullAccess on the project that holds the zone; then its API keys → Generate an API key. Paste the secret key (a UUID, shown once).",
      url: "https://console.scaleway.com/iam/applications",
      secret: true,
      validate: (value) =>
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value.trim())
          ? undefined
          : "must be the secret key: a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx), not the access key SCW…",
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 2592000, 3600),
  canVerify: true,
  defaultApiUrl: "https://api.scaleway.com/domain/v2beta1",
  // Scaleway publishes no request rate for the Domains and DNS API; ddnsd keeps to a modest pace.
  rateLimits: [{ requests: 5, perSeconds: 1 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, _options, context) {
    const api = createScalewayApi({ secret_key: (credentials.secret_key ?? "").trim() }, context);
    return zoneClient(api, api.txt);
  },
});
