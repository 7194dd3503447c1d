// DigitalOcean Domains (API v2, docs/services/digitalocean.md): the zone service primitives. A
// domain's name is its id. Records are filtered by type and fully qualified name (DigitalOcean
// filters on the FQDN but answers names relative to the domain, "@" for the apex). A change is a
// PATCH of `type` and `data` (the description marks `type` required) and a TTL the config names;
// the TTL and everything else stay.
//
// Requests per write: GET records + PATCH (2) once the domain is known (config.zone_id), plus the
// domain listing (one request per 200 domains) on the first write; 1 when the record already holds it.
//
// Sources: digitalocean/openapi specification/resources/domains/*.yml,
// shared/responses/{unauthorized,too_many_requests,not_found}.yml and description.yml (rate limits,
// ratelimit-* headers); docs.digitalocean.com "API token scopes" (domain:read/create/update,
// account:read); qdm12/ddns-updater providers/digitalocean.

import { asObject, isObject } from "../../util/json";
import { failed, jsonCalls, type ServiceError } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { type RecordSet, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "DigitalOcean";
/** The TTL DigitalOcean's own examples give a new record; used when the config names none. */
const DEFAULT_NEW_RECORD_TTL = 1800;
const MIN_TTL = 30;
const MAX_TTL = 86400;
const PER_PAGE = 200;

export function createDigitalOceanApi(credentials: { token: string }, context: ClientContext): ZoneApi {
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

  /** The written record from a PATCH or POST answer, or a failure saying it came back without one. */
  function written(answer: Record<string, unknown>): Step<RecordSet> {
    const record = answer.domain_record;
    if (isObject(record) && idOf(record) !== "") return { ok: true, value: recordSet([record]) };
    return failed(`${SERVICE}: the written record came back without an id`, { cause: "refused" });
  }

  return {
    service: SERVICE,

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
      // The filter wants the FQDN; the answer names records relative to the domain (tolerating an FQDN too).
      const relative = relativeName(hostname, zone.id, "@");
      const listed = await listAll(
        `${recordsPath(zone.id)}?${new URLSearchParams({ type, name: hostname })}`,
        "domain_records",
      );
      if (!listed.ok) return listed;
      const records = listed.value.filter(
        (r) => r.type === type && (r.name === relative || r.name === hostname) && idOf(r) !== "",
      );
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
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
  };
}

function recordSet(records: Record<string, unknown>[]): RecordSet {
  const first = records[0]!;
  return {
    id: idOf(first),
    values: records.map((record) => String(record.data)),
    ...(typeof first.ttl === "number" ? { ttl: first.ttl } : {}),
    raw: first,
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
  // One window keeps both of DigitalOcean's limits: 80 a minute and 4,800 an hour, under its 250 per
  // minute and 5,000 per hour. A burst of 200 a minute would be allowed too, but its 429s for bursts
  // are not documented beyond "per minute", so requests stay spread out.
  rateLimits: [{ requests: 4, perSeconds: 3 }],
  createClient: (credentials, _options, context) =>
    zoneClient(createDigitalOceanApi({ token: credentials.token ?? "" }, context)),
});

function idOf(record: Record<string, unknown>): string {
  return typeof record.id === "number" || typeof record.id === "string" ? String(record.id) : "";
}
