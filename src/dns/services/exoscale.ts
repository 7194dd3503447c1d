// Exoscale DNS through the Exoscale API v2 (docs/services/exoscale.md): the zone service primitives.
// Every call is signed (EXO2-HMAC-SHA256): an HMAC-SHA256 with the API secret over the method and
// escaped path, the body, the values of the single-valued query parameters (sorted by name), an empty
// header line and the expiry, sent as `Authorization: EXO2-HMAC-SHA256 credential=<key>,
// [signed-query-args=a;b,]expires=<unix>,signature=<base64>`. A domain has a UUID and a name; its
// records (names relative to it, `""` for the apex) are listed whole. A change (`PUT` of the record
// with the content alone, so the TTL and priority stay; `POST` for a new one) answers an operation,
// which is asked again (`GET /operation/{id}`) while it is pending.
//
// Requests per write, with the domain known (config.zone_id = its UUID):
//   GET domain + GET records + PUT = 3 (2 when the address is already there), + 1 per pending check
//
// Sources: openapi-v2.exoscale.com (API request signature; dns-domain, dns-domain-record and
// operation); the official SDKs exoscale/egoscale v3 (the signer) and exoscale/requests-exoscale-auth
// (its signature test vectors); lego providers/dns/exoscale and octodns-exoscale.

import { createHmac } from "node:crypto";
import { sentJson } from "../../net/http";
import { asObject, isObject } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, type JsonAnswer, requestJson, type ServiceError, staleOn404 } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type Zone, type ZoneApi, zoneClient } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { failedCheck, longestZone, noZoneMessage, relativeName, zoneHolds } from "../zones";

const SERVICE = "Exoscale";
/** How long a signature stays valid: the SDKs' ten minutes. */
const EXPIRES_SECONDS = 600;
/** A new record's TTL when the config names none: the portal's default. */
const NEW_RECORD_TTL = 3600;
/** How often, and how far apart, a pending operation is asked again before the write is reported unfinished. */
const OPERATION_CHECKS = 5;
const OPERATION_PAUSE_MS = 1000;

/**
 * The `Authorization` header for one request: the official SDKs' algorithm. Only query parameters
 * holding exactly one value are signed, by name in order, their values joined without separator.
 */
export function exoscaleAuthorization(
  key: string,
  secret: string,
  method: string,
  url: string,
  body: string,
  expires: number,
): string {
  const parsed = new URL(url);
  const names = [...new Set(parsed.searchParams.keys())]
    .filter((name) => parsed.searchParams.getAll(name).length === 1)
    .sort();
  const values = names.map((name) => parsed.searchParams.get(name)).join("");
  const message = [`${method} ${parsed.pathname}`, body, values, "", String(expires)].join("\n");
  const signature = createHmac("sha256", secret).update(message).digest("base64");
  return [
    `EXO2-HMAC-SHA256 credential=${key}`,
    ...(names.length > 0 ? [`signed-query-args=${names.join(";")}`] : []),
    `expires=${expires}`,
    `signature=${signature}`,
  ].join(",");
}

interface Credentials {
  api_key: string;
  api_secret: string;
}

export function createExoscaleApi(
  credentials: Credentials,
  context: ClientContext,
  timing: { now?: () => number; pauseMs?: number } = {},
): ZoneApi & { txt: TxtApi } {
  const now = timing.now ?? Date.now;
  const pauseMs = timing.pauseMs ?? OPERATION_PAUSE_MS;

  function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    const expires = Math.floor(now() / 1000) + EXPIRES_SECONDS;
    const authorization = exoscaleAuthorization(
      credentials.api_key,
      credentials.api_secret,
      method,
      context.baseUrl + path,
      sentJson(body),
      expires,
    );
    return requestJson(context, SERVICE, { method, path, headers: { Authorization: authorization }, body }, readError);
  }

  const recordsPath = (domainId: string) => `/dns-domain/${encodeURIComponent(domainId)}/record`;

  /** The written record once its operation succeeded: asked again while pending, a few times. */
  async function settled(answer: Step<JsonAnswer>, record: RecordSet): Promise<Step<RecordSet>> {
    if (!answer.ok) return answer;
    let operation = asObject(answer.value.body);
    for (let check = 0; operation.state === "pending" && check < OPERATION_CHECKS; check++) {
      await Bun.sleep(pauseMs);
      const asked = await call("GET", `/operation/${encodeURIComponent(String(operation.id))}`);
      if (!asked.ok) return asked;
      operation = asObject(asked.value.body);
    }
    if (operation.state === "success") {
      const reference =
        isObject(operation.reference) && typeof operation.reference.id === "string"
          ? operation.reference.id
          : record.id;
      return { ok: true, value: { ...record, id: reference } };
    }
    if (operation.state === "pending")
      return failed(
        `${SERVICE}: operation ${String(operation.id)} still pending after ${OPERATION_CHECKS} checks; the next attempt reads the record again`,
        { cause: "unreachable" },
      );
    const words = [operation.reason, operation.message]
      .filter((part) => typeof part === "string" && part !== "")
      .join(": ");
    return failed(`${SERVICE}: operation ${String(operation.state ?? "unknown")}${words === "" ? "" : ` (${words})`}`, {
      cause: "refused",
    });
  }

  function recordSet(records: Record<string, unknown>[]): RecordSet | null {
    if (records.length === 0) return null;
    const [first] = records as [Record<string, unknown>];
    return {
      id: String(first.id),
      values: records.map((r) => String(r.content)),
      ...(typeof first.ttl === "number" ? { ttl: first.ttl } : {}),
      members: records,
    };
  }

  const recordPath = (domainId: string, id: unknown) => `${recordsPath(domainId)}/${encodeURIComponent(String(id))}`;

  /** The domain's records of that name and type (the listing holds every record of the domain). */
  async function named(zone: Zone, hostname: string, type: string): Promise<Step<Record<string, unknown>[]>> {
    const listed = staleOn404(await call("GET", recordsPath(zone.id)));
    if (!listed.ok) return listed;
    const body = asObject(listed.value.body);
    const name = relativeName(hostname, zone.name!);
    const records = (
      Array.isArray(body["dns-domain-records"]) ? body["dns-domain-records"].filter(isObject) : []
    ).filter((r) => String(r.name ?? "").toLowerCase() === name && r.type === type);
    return { ok: true, value: records };
  }

  /** One record written, once its operation succeeded, with the id the operation names. */
  async function settledRecord(answer: Step<JsonAnswer>, record: Record<string, unknown>) {
    const done = await settled(answer, { id: String(record.id ?? ""), values: [String(record.content)] });
    return done.ok ? { ok: true as const, value: { ...record, id: done.value.id } } : done;
  }

  const remove = async (zone: Zone, id: unknown) =>
    settled(staleOn404(await call("DELETE", recordPath(zone.id, id))), { id: String(id), values: [] });

  // One TXT record per value, its text as it is (read quoted or bare).
  const txt = txtRecords({
    async list(zone, name) {
      const records = await named(zone, name, "TXT");
      if (!records.ok) return records;
      return { ok: true, value: records.value.map((r) => ({ id: String(r.id), value: unquotedTxt(r.content) })) };
    },
    async create(zone, name, value) {
      const sent = { name: relativeName(name, zone.name!), type: "TXT", content: value, ttl: CHALLENGE_TTL };
      return settled(staleOn404(await call("POST", recordsPath(zone.id), sent)), { id: "", values: [value] });
    },
    delete: (zone, record) => remove(zone, record.id),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const listed = await call("GET", "/dns-domain");
      if (!listed.ok) return failedCheck(listed);
      const body = asObject(listed.value.body);
      const count = Array.isArray(body["dns-domains"]) ? body["dns-domains"].length : 0;
      return { ok: true, detail: `API key accepted (${plural(count, "domain")})` };
    },

    async findZone(hostname, configured) {
      if (configured !== undefined) {
        // Record names are relative to the domain: its name is needed before anything is read.
        const domain = staleOn404(await call("GET", `/dns-domain/${encodeURIComponent(configured)}`));
        if (!domain.ok) return domain;
        const body = asObject(domain.value.body);
        const name =
          typeof body["unicode-name"] === "string" ? body["unicode-name"].toLowerCase().replace(/\.$/, "") : "";
        if (name === "" || !zoneHolds(name, hostname))
          return failed(
            `${SERVICE}: config.zone_id ${configured} is domain ${name || "unnamed"}, which does not hold ${hostname}; correct config.zone_id or remove it`,
            { cause: "refused" },
          );
        return { ok: true, value: { id: configured, name } };
      }
      const listed = await call("GET", "/dns-domain");
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const domains = (Array.isArray(body["dns-domains"]) ? body["dns-domains"].filter(isObject) : []).filter(
        (d) => typeof d.id === "string" && typeof d["unicode-name"] === "string",
      );
      const zone = longestZone(
        hostname,
        domains.map((d) => String(d["unicode-name"])),
      );
      const domain = domains.find((d) => String(d["unicode-name"]).toLowerCase().replace(/\.$/, "") === zone);
      return domain === undefined || zone === undefined
        ? failed(noZoneMessage(SERVICE, hostname), { cause: "refused" })
        : { ok: true, value: { id: String(domain.id), name: zone } };
    },

    async readRecordSet(zone, hostname, type) {
      const records = await named(zone, hostname, type);
      return records.ok ? { ok: true, value: recordSet(records.value) } : records;
    },

    async updateRecordSet(zone, _hostname, _type, current, address, settings) {
      // Only the content (and a configured TTL): the record's other fields stay as they are.
      const change = { content: address, ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }) };
      const put = staleOn404(await call("PUT", recordPath(zone.id, current.id), change));
      return settled(put, {
        id: current.id,
        values: [address],
        ...((settings.ttl ?? current.ttl) === undefined ? {} : { ttl: settings.ttl ?? current.ttl }),
      });
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const post = staleOn404(
        await call("POST", recordsPath(zone.id), {
          name: relativeName(hostname, zone.name!),
          type,
          content: address,
          ttl,
        }),
      );
      return settled(post, { id: "", values: [address], ttl });
    },

    // One record per address (address-records.ts), each change an operation waited for.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const ttl = settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL;
      const written = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.content),
        stale: (record) => !((record) => settings.ttl === undefined || record.ttl === settings.ttl)(record),

        async create(address) {
          const sent = { name: relativeName(hostname, zone.name!), type, content: address, ttl };
          return settledRecord(staleOn404(await call("POST", recordsPath(zone.id), sent)), sent);
        },
        async edit(record, address) {
          const change = { content: address, ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }) };
          const put = staleOn404(await call("PUT", recordPath(zone.id, record.id), change));
          return settledRecord(put, { ...record, ...change });
        },
        delete: (record) => remove(zone, record.id),
      });
      return written.ok ? { ok: true, value: recordSet(written.value)! } : written;
    },
  };
}

/**
 * Exoscale's error body: `{"message": "..."}`. A refused signature or key, or a key whose role does
 * not allow DNS, only comes right when the key or its role changes — unless the words say it expired.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.message !== "string" || body.message === "") return undefined;
  // A signature refused as expired is this machine's clock (more than the signature's ten minutes
  // behind): it comes right by itself, so retries go on.
  if ((status === 401 || status === 403) && /expire|clock|skew/i.test(body.message))
    return { words: `${body.message} (check this machine's clock)`, cause: "refused" };
  return { words: body.message, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about Exoscale DNS (docs/services/exoscale.md). */
export const exoscale = defineService({
  type: "exoscale",
  label: "Exoscale",
  summary: "Domains hosted at Exoscale DNS, through the signed Exoscale API v2 with an API key and secret.",
  credentials: [
    {
      key: "api_key",
      label: "API key",
      help: 'Exoscale portal → IAM → Roles → Add: a role whose policy allows only the "dns" service; then IAM → Keys → Add with that role. The key starts with EXO.',
      url: "https://portal.exoscale.com/iam/api-keys",
      secret: false,
      validate: (value) =>
        /^EXO[0-9a-z]{8,}$/i.test(value.trim()) ? undefined : "must be an Exoscale API key: it starts with EXO",
    },
    {
      key: "api_secret",
      label: "API secret",
      help: "The secret shown once when the key is made.",
      url: "https://portal.exoscale.com/iam/api-keys",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 2592000, 3600),
  canVerify: true,
  holdsTxt: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api-ch-gva-2.exoscale.com/v2",
  // Exoscale publishes no request rate for its API; ddnsd keeps to a modest pace.
  rateLimits: [{ requests: 5, perSeconds: 1 }],
  createClient: (credentials, _options, context) => {
    const api = createExoscaleApi(
      { api_key: (credentials.api_key ?? "").trim(), api_secret: credentials.api_secret ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
