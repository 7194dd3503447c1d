// DigitalOcean Domains (API v2, docs/services/digitalocean.md): the zone service primitives. A
// domain's name is its id. Records are filtered by type and fully qualified name (DigitalOcean
// filters on the FQDN but answers names relative to the domain, "@" for the apex). A change is a
// PATCH of `type` and `data` (the description marks `type` required) and a TTL the config names;
// the TTL and everything else stay.
//
// Requests per write: GET records + PATCH (2) once the domain is known (config.zone_id), plus the
// domain listing (one request per 200 domains) on the first write; 1 when the record already holds it.
// Several addresses for one name are several records (one per address): a record whose address
// stays is kept, one whose address goes is patched to a new address or deleted. The ACME challenge
// TXT is one record per value too, deleted by its id.
//
// Sources: digitalocean/openapi specification/resources/domains/*.yml,
// shared/responses/{unauthorized,too_many_requests,not_found}.yml and description.yml (rate limits,
// ratelimit-* headers); docs.digitalocean.com "API token scopes" (domain:read/create/update,
// account:read); qdm12/ddns-updater providers/digitalocean.

import { asObject, isObject } from "../../util/json";
import { failed, jsonCalls, type ServiceError } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "DigitalOcean";
/** The TTL DigitalOcean's own examples give a new record; used when the config names none. */
const DEFAULT_NEW_RECORD_TTL = 1800;
const MIN_TTL = 30;
const MAX_TTL = 86400;
const PER_PAGE = 200;

export function createDigitalOceanApi(
  credentials: { token: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  /** One call's JSON object. A "slow down" 429 names its wait in retry-after (a burst) or only in ratelimit-reset (the hourly window). */
  const send = jsonCalls(context, SERVICE, { Authorization: `Bearer ${credentials.token}` }, readError);

  async function call(method: string, path: string, body?: unknown): Promise<Step<Record<string, unknown>>> {
    const answer = await send(method, path, body);
    if (!answer.ok) return answer;
    return isObject(answer.value.body)
      ? { ok: true, value: answer.value.body }
      : failed(`${SERVICE}: the answer was not a JSON object (HTTP ${answer.value.status})`, { cause: "unreachable" });
  }

  /** Every item of a paged listing (`key` in each page), page by page until no next page is named. */
  function listAll(path: string, key: string): Promise<Step<Record<string, unknown>[]>> {
    const separator = path.includes("?") ? "&" : "?";
    return paginate(async (next) => {
      const page = Number(next ?? 1);
      const listed = await call("GET", `${path}${separator}per_page=${PER_PAGE}&page=${page}`);
      if (!listed.ok) return listed;
      const found = listed.value[key];
      const pages = asObject(asObject(listed.value.links).pages);
      const more = typeof pages.next === "string" && Array.isArray(found) && found.length > 0;
      return {
        ok: true,
        value: { items: Array.isArray(found) ? found.filter(isObject) : [], next: more ? page + 1 : undefined },
      };
    });
  }

  const recordsPath = (domain: string) => `/domains/${domain}/records`;

  /** The written record from a PATCH or POST answer as a set, or a failure saying it came back without one. */
  function written(answer: Record<string, unknown>): Step<RecordSet> {
    const held = record({ ok: true, value: answer });
    return held.ok ? { ok: true, value: recordSet([held.value]) } : held;
  }

  /** The name's records of that type (DigitalOcean filters on the FQDN; the answer names them relative to the domain). */
  async function named(domain: string, hostname: string, type: string): Promise<Step<Record<string, unknown>[]>> {
    const relative = relativeName(hostname, domain, "@");
    const listed = await listAll(
      `${recordsPath(domain)}?${new URLSearchParams({ type, name: hostname })}`,
      "domain_records",
    );
    if (!listed.ok) return listed;
    const records = listed.value.filter(
      (r) => r.type === type && (r.name === relative || r.name === hostname) && idOf(r) !== "",
    );
    return { ok: true, value: records };
  }

  /** The record a PATCH or POST answered, or a failure saying it came back without one. */
  function record(answer: Step<Record<string, unknown>>): Step<Record<string, unknown>> {
    if (!answer.ok) return answer;
    const written = answer.value.domain_record;
    if (isObject(written) && idOf(written) !== "") return { ok: true, value: written };
    return failed(`${SERVICE}: the written record came back without an id`, { cause: "refused" });
  }

  /** A DELETE answers 204 without a body. */
  const remove = (domain: string, id: string) => send("DELETE", `${recordsPath(domain)}/${id}`);

  // One record per value: adding creates one, removing deletes exactly the one holding the value.
  const txt = txtRecords({
    async list(zone, name) {
      const listed = await named(zone.id, name, "TXT");
      return listed.ok
        ? { ok: true, value: listed.value.map((r) => ({ id: idOf(r), value: unquotedTxt(r.data) })) }
        : listed;
    },
    create: (zone, name, value) =>
      call("POST", recordsPath(zone.id), {
        type: "TXT",
        name: relativeName(name, zone.id, "@"),
        data: value,
        ttl: CHALLENGE_TTL,
      }),
    delete: (zone, held) => remove(zone.id, held.id),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("GET", "/account");
      if (!answer.ok) return failedCheck(answer);
      const account = asObject(answer.value.account);
      const facts = [account.email, typeof account.status === "string" ? `status ${account.status}` : undefined].filter(
        (f): f is string => typeof f === "string",
      );
      return { ok: true, detail: `Token accepted${facts.length > 0 ? ` (account ${facts.join(", ")})` : ""}` };
    },

    async listZones() {
      const listed = await listAll("/domains", "domains");
      return listed.ok ? { ok: true, value: zonesNamed(listed.value.map((d) => d.name)) } : listed;
    },

    async readRecordSet(zone, hostname, type) {
      const records = await named(zone.id, hostname, type);
      if (!records.ok) return records;
      return { ok: true, value: records.value.length === 0 ? null : recordSet(records.value) };
    },

    async updateRecordSet(zone, _hostname, type, current, address, settings) {
      const patched = await call("PATCH", `${recordsPath(zone.id)}/${current.id}`, {
        type,
        data: address,
        ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
      });
      return patched.ok ? written(patched.value) : patched;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const created = await call("POST", recordsPath(zone.id), {
        type,
        name: relativeName(hostname, zone.id, "@"),
        data: address,
        ttl: settings.ttl ?? DEFAULT_NEW_RECORD_TTL,
      });
      return created.ok ? written(created.value) : created;
    },

    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const records = (current?.members ?? []) as Record<string, unknown>[];
      const ttl = settings.ttl ?? (typeof records[0]?.ttl === "number" ? records[0].ttl : DEFAULT_NEW_RECORD_TTL);
      const kept = await writePerAddress(records, addresses, {
        address: (r) => String(r.data),
        stale: (r) => !(settings.ttl === undefined || r.ttl === settings.ttl),
        edit: async (r, address) =>
          record(
            await call("PATCH", `${recordsPath(zone.id)}/${idOf(r)}`, {
              type,
              data: address,
              ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
            }),
          ),
        create: async (address) =>
          record(
            await call("POST", recordsPath(zone.id), {
              type,
              name: relativeName(hostname, zone.id, "@"),
              data: address,
              ttl,
            }),
          ),
        delete: (r) => remove(zone.id, idOf(r)),
      });
      return kept.ok ? { ok: true, value: recordSet(kept.value) } : kept;
    },
  };
}

function recordSet(records: Record<string, unknown>[]): RecordSet {
  const first = records[0]!;
  return {
    id: idOf(first),
    values: records.map((record) => String(record.data)),
    ...(typeof first.ttl === "number" ? { ttl: first.ttl } : {}),
    raw: first,
    members: records,
  };
}

/** DigitalOcean's `{"id": "not_found", "message": …}`; an unknown or revoked token only comes right when the provider is edited. */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  return {
    words: typeof body.message === "string" ? body.message : "request failed",
    ...(typeof body.id === "string" ? { code: body.id } : {}),
    ...(status === 401 ? { stopRetrying: true } : {}),
  };
}

export const digitalocean = defineService({
  type: "digitalocean",
  label: "DigitalOcean",
  summary: "Domains whose DNS is hosted at DigitalOcean (Networking → Domains), through its API v2.",
  credentials: [
    {
      key: "token",
      url: "https://cloud.digitalocean.com/account/api/tokens",
      label: "Personal access token",
      help: "cloud.digitalocean.com → API → Tokens → Generate New Token with Custom Scopes: domain (read, create, update), plus account (read) for Verify. No other scope is needed.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(MIN_TTL, MAX_TTL, DEFAULT_NEW_RECORD_TTL),
  canVerify: true,
  defaultApiUrl: "https://api.digitalocean.com/v2",
  holdsTxt: true,
  holdsAddressSets: true,
  // One window keeps both of DigitalOcean's limits: 80 a minute and 4,800 an hour, under its 250 per
  // minute and 5,000 per hour. A burst of 200 a minute would be allowed too, but its 429s for bursts
  // are not documented beyond "per minute", so requests stay spread out.
  rateLimits: [{ requests: 4, perSeconds: 3 }],
  createClient: (credentials, _options, context) => {
    const api = createDigitalOceanApi({ token: credentials.token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});

function idOf(record: Record<string, unknown>): string {
  return typeof record.id === "number" || typeof record.id === "string" ? String(record.id) : "";
}
