// Rackspace Cloud DNS, API v1.0 (docs/services/rackspace.md): the zone service primitives. A login to
// Rackspace Identity v2.0 (`POST {identity}/tokens` with the user name and API key) gives a token and
// the service catalog, whose `cloudDNS` entry names the account's DNS endpoint
// (`https://dns.api.rackspacecloud.com/v1.0/{tenant}`); the token is kept in memory only, with its
// expiry, and sent as `X-Auth-Token`. Domains (zones) and records have ids; record names are full
// names (`home.example.com`). Every write is asynchronous: it answers 202 with a job whose
// `callbackUrl` is polled (`?showDetails=true`) until the job is COMPLETED or ERROR.
//
// Requests per write, with the domain known (config.zone_id) and a live token — the steady state:
//   GET records?type=&name= + PUT the record + 1 or more polls of its job = 3 (1 when the address is already there),
//   + 1 login per client
// Without it each of the name's parents is looked for (`GET /domains?name=`), longest first.
//
// A PUT changes only what it is sent (data, and the TTL when the domain's config names one), so the
// record's TTL and comment stay. A job's callback is followed only on the DNS endpoint's own origin,
// so the token never goes anywhere else.
//
// Sources: docs.rackspace.com Cloud DNS developer guide (authenticate, domains, records, search,
// synchronous and asynchronous responses, limits, faults); go-acme/lego providers/dns/rackspace
// (identity request and service catalog, domains by name, records by type and name, its fixtures).

import { exchange } from "../../net/http";
import { asObject, isObject, objectsIn, parseJson } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, failedAnswer, type JsonAnswer, requestJson, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { type RecordSet, recordSetOf, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService } from "../service";
import { candidateZones, failedCheck, noZoneMessage, zoneHolds } from "../zones";

const SERVICE = "Rackspace Cloud DNS";
/** A new record's TTL when the domain's config names none: Rackspace's minimum and a common choice. */
const NEW_RECORD_TTL = 300;
/** A token is not used in its last five minutes, so it never runs out mid-write. */
const TOKEN_MARGIN_MS = 5 * 60 * 1000;
const DEFAULT_TOKEN_USE_MS = 23 * 60 * 60 * 1000;
const PAGE_SIZE = 100;
const MAX_PAGES = 20;
/** Jobs finish within seconds; after this many polls (about 15 s in all) the write is reported unfinished. */
const MAX_POLLS = 10;
/** The first wait before polling a job; each next one doubles, up to two seconds. */
const FIRST_POLL_MS = 250;
const LONGEST_POLL_MS = 2000;

export interface RackspaceTiming {
  now: () => number;
  /** The wait before a poll of a job. */
  sleep: (ms: number) => Promise<void>;
}

const realTiming: RackspaceTiming = { now: Date.now, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

export function createRackspaceApi(
  credentials: { username: string; api_key: string },
  context: ClientContext,
  timing: RackspaceTiming = realTiming,
): ZoneApi {
  let session: { token: string; endpoint: string; until: number } | undefined;

  async function login(): Promise<Step<{ token: string; endpoint: string }>> {
    const body = {
      auth: { "RAX-KSKEY:apiKeyCredentials": { username: credentials.username, apiKey: credentials.api_key } },
    };
    const answer = await exchange(
      context.fetch,
      `${context.baseUrl}/tokens`,
      {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "User-Agent": context.userAgent },
        body: JSON.stringify(body),
      },
      context.timeoutMs,
    );
    if (!answer.ok) return failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause });
    const parsed = parseJson(answer.text);
    if (answer.status !== 200 || !isObject(parsed) || !isObject(parsed.access)) {
      const failure = failedAnswer(
        SERVICE,
        answer.status,
        answer.headers,
        answer.text,
        parsed === undefined ? undefined : readError(parsed, answer.status),
      );
      // Identity's 400/401 (an unknown user, a wrong or disabled key) and 403 need an edit of the provider.
      return answer.status === 400 || answer.status === 401 || answer.status === 403
        ? { ...failure, cause: "credentials", stopRetrying: true }
        : failure;
    }
    const token = asObject(parsed.access.token);
    const catalog = objectsIn(parsed.access.serviceCatalog);
    const dns = catalog.find((s) => s.name === "cloudDNS" || s.type === "rax:dns");
    const [endpoint] = dns ? objectsIn(dns.endpoints) : [];
    if (typeof token.id !== "string" || endpoint === undefined || typeof endpoint.publicURL !== "string") {
      return failed(
        `${SERVICE}: the login gave no token or no Cloud DNS endpoint; is Cloud DNS enabled for this account?`,
        { cause: "credentials", stopRetrying: true },
      );
    }
    const expires = Date.parse(String(token.expires ?? ""));
    session = {
      token: token.id,
      endpoint: endpoint.publicURL.replace(/\/+$/, ""),
      until: Number.isFinite(expires) ? expires - TOKEN_MARGIN_MS : timing.now() + DEFAULT_TOKEN_USE_MS,
    };
    return { ok: true, value: session };
  }

  /** A DNS call (`path` below the endpoint, or a callback URL on its origin) with the token; logs in again once on a 401. */
  async function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    for (let attempt = 0; ; attempt++) {
      const live =
        session !== undefined && session.until > timing.now() ? { ok: true as const, value: session } : await login();
      if (!live.ok) return live;
      const url = path.startsWith("/") ? live.value.endpoint + path : path;
      if (new URL(url).origin !== new URL(live.value.endpoint).origin)
        return failed(
          `${SERVICE}: a job's callback pointed away from the DNS endpoint (${new URL(url).origin}); not followed`,
          { cause: "refused" },
        );
      const answer = await requestJson(
        { ...context, baseUrl: "" },
        SERVICE,
        { method, path: url, headers: { "X-Auth-Token": live.value.token }, body },
        readError,
      );
      if (answer.ok || answer.status !== 401 || attempt > 0) return answer;
      session = undefined;
    }
  }

  /** A write's job, polled until it ends: its `response` when COMPLETED, Rackspace's words when ERROR. */
  async function finished(accepted: Step<JsonAnswer>): Promise<Step<unknown>> {
    if (!accepted.ok) return staleOn404(accepted);
    let job = asObject(accepted.value.body);
    for (let poll = 0; ; poll++) {
      if (job.status === "COMPLETED") return { ok: true, value: job.response };
      if (job.status === "ERROR") {
        const error = isObject(job.error) ? readError(job.error, Number(job.error.code) || 400) : undefined;
        const code = isObject(job.error) ? Number(job.error.code) : Number.NaN;
        return failed(
          `${SERVICE}: ${error?.words ?? "the change failed"}${Number.isFinite(code) ? ` (job ${String(job.jobId ?? "")}, code ${code})` : ""}`,
          {
            cause: code >= 400 && code < 500 ? "refused" : "unreachable",
            ...(code === 404 ? { staleZone: true } : {}),
          },
        );
      }
      if (typeof job.callbackUrl !== "string")
        return failed(`${SERVICE}: the change was accepted without a job to follow`, { cause: "unreachable" });
      if (poll >= MAX_POLLS) {
        return failed(
          `${SERVICE}: the change was accepted (job ${String(job.jobId ?? "")}) but had not finished after ${MAX_POLLS} checks; the next pass reads the record again`,
          { cause: "unreachable" },
        );
      }
      await timing.sleep(Math.min(FIRST_POLL_MS * 2 ** poll, LONGEST_POLL_MS));
      const status = await call(
        "GET",
        `${job.callbackUrl}${job.callbackUrl.includes("?") ? "&" : "?"}showDetails=true`,
      );
      if (!status.ok) return status;
      job = asObject(status.value.body);
    }
  }

  /** Every item under `field` of a listing, 100 a page until `totalEntries`. */
  async function listAll(
    path: string,
    field: string,
    query: Record<string, string>,
  ): Promise<Step<Record<string, unknown>[]>> {
    return paginate(async (next, count) => {
      const page = Number(next ?? 0);
      const listed = await call(
        "GET",
        `${path}?${new URLSearchParams({ ...query, limit: String(PAGE_SIZE), offset: String(page * PAGE_SIZE) })}`,
      );
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const found = Array.isArray(body[field]) ? (body[field] as unknown[]).filter(isObject) : [];
      const last =
        found.length < PAGE_SIZE || typeof body.totalEntries !== "number" || count + found.length >= body.totalEntries;
      return { ok: true, value: { items: found, next: last ? undefined : page + 1 } };
    }, MAX_PAGES);
  }

  const recordsPath = (domainId: string) => `/domains/${encodeURIComponent(domainId)}/records`;
  const lower = (name: unknown) =>
    String(name ?? "")
      .toLowerCase()
      .replace(/\.$/, "");

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return recordSetOf(records, "data");
  }

  return {
    service: SERVICE,

    async verify() {
      const listed = await call("GET", "/domains?limit=1");
      if (!listed.ok) return failedCheck(listed);
      const total = isObject(listed.value.body) ? listed.value.body.totalEntries : undefined;
      return {
        ok: true,
        detail: typeof total === "number" ? `API key accepted (${plural(total, "domain")})` : "API key accepted",
      };
    },

    async findZone(hostname, configured) {
      if (configured !== undefined) {
        // The configured domain is named (it must hold the hostname): records are addressed by full name.
        const found = await call(
          "GET",
          `/domains/${encodeURIComponent(configured)}?showRecords=false&showSubdomains=false`,
        );
        if (!found.ok) return staleOn404(found);
        const name = lower(isObject(found.value.body) ? found.value.body.name : "");
        if (!zoneHolds(name, hostname))
          return failed(
            `${SERVICE}: config.zone_id ${configured} (${name || "unnamed"}) does not hold ${hostname}; correct config.zone_id or remove it`,
            { cause: "refused" },
          );
        return { ok: true, value: { id: configured, name } };
      }
      for (const candidate of candidateZones(hostname)) {
        const listed = await listAll("/domains", "domains", { name: candidate });
        if (!listed.ok) return listed;
        // The name filter also answers the domain's sub-domains: only the domain of exactly this name counts.
        const domain = listed.value.find((d) => lower(d.name) === candidate && d.id !== undefined);
        if (domain) return { ok: true, value: { id: String(domain.id), name: candidate } };
      }
      return failed(noZoneMessage(SERVICE, hostname), { cause: "refused" });
    },

    async readRecordSet(zone, hostname, type) {
      const listed = await listAll(recordsPath(zone.id), "records", { type, name: hostname });
      if (!listed.ok) return staleOn404(listed);
      const records = listed.value.filter((r) => r.type === type && lower(r.name) === hostname && r.id !== undefined);
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
    },

    async updateRecordSet(zone, hostname, _type, current, address, settings) {
      const done = await finished(
        await call("PUT", `${recordsPath(zone.id)}/${encodeURIComponent(current.id)}`, {
          name: hostname,
          data: address,
          ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
        }),
      );
      if (!done.ok) return done;
      const ttl = settings.ttl ?? current.ttl;
      return { ok: true, value: { id: current.id, values: [address], ...(ttl === undefined ? {} : { ttl }) } };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const done = await finished(
        await call("POST", recordsPath(zone.id), {
          records: [{ name: hostname, type, data: address, ttl: settings.ttl ?? NEW_RECORD_TTL }],
        }),
      );
      if (!done.ok) return done;
      const [created] = isObject(done.value) ? objectsIn(done.value.records) : [];
      if (created === undefined || created.id === undefined)
        return failed(`${SERVICE}: the finished job named no created record`, { cause: "unreachable" });
      return { ok: true, value: recordSet([created]) };
    },
  };
}

/**
 * Rackspace's faults: `{"message", "code", "details"}`, `{"validationErrors": {"messages": [...]}}`,
 * or one of those wrapped under the fault's name (`{"unauthorized": {...}}`, `{"overLimit": {...}}`).
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const keys = Object.keys(body);
  const fault = keys.length === 1 && isObject(body[keys[0]!]) ? (body[keys[0]!] as Record<string, unknown>) : body;
  const validation =
    isObject(fault.validationErrors) && Array.isArray(fault.validationErrors.messages)
      ? fault.validationErrors.messages.map(String)
      : [];
  const details =
    typeof fault.details === "string" && fault.details !== "" && !/^See errors list/.test(fault.details)
      ? fault.details
      : undefined;
  const words = [
    ...validation,
    ...(typeof fault.message === "string" ? [fault.message] : []),
    ...(details ? [details] : []),
  ].join("; ");
  if (words === "") return undefined;
  // Rackspace's rate limiter answers 413 overLimit: "slow down", not a refusal.
  if (status === 413 || keys[0] === "overLimit") return { words, cause: "throttled" };
  return { words, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about Rackspace Cloud DNS (docs/services/rackspace.md). */
export const rackspace = defineService({
  type: "rackspace",
  label: "Rackspace Cloud DNS",
  summary:
    "Domains in Rackspace Cloud DNS, through its API v1.0 with a user's name and API key (the DNS endpoint comes from the login's service catalog).",
  credentials: [
    {
      key: "username",
      url: "https://login.rackspace.com",
      label: "User name",
      help:
        "In the Cloud Control Panel, Account → User Management → Create User: a user for ddnsd alone with product access to DNS only " +
        '(role "DNS: Admin"; no access to servers, files or billing). Its user name goes here.',
      secret: false,
    },
    {
      key: "api_key",
      label: "API key",
      help: "That user's Account Settings → API Key → Show. Regenerating it there revokes the old one.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: { min: 300, max: 2147483647, help: "300 seconds or more; empty keeps the record's TTL (300 for a new record)." },
  canVerify: true,
  // The login; the DNS endpoint comes from its service catalog.
  defaultApiUrl: "https://identity.api.rackspacecloud.com/v2.0",
  // Rackspace allows, per account and minute, 75 POSTs, 150 PUTs and 300 GETs of domains (status checks 15 a
  // second): ddnsd keeps all its requests under the strictest, at one a second.
  rateLimits: [{ requests: 60, perSeconds: 60 }],
  createClient: (credentials, _options, context) =>
    zoneClient(
      createRackspaceApi(
        { username: (credentials.username ?? "").trim(), api_key: credentials.api_key ?? "" },
        context,
      ),
    ),
});
