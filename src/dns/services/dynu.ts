// Dynu API v2 (docs/services/dynu.md): the zone service primitives. Dynu keeps a name's address in
// one of two places. A domain's own address (the apex, or a DDNS hostname such as x.freeddns.org)
// lives on the domain object, `ipv4Address`/`ipv6Address`, and an update sends the domain back
// whole; any other name is a node record of the domain, which an update also replaces whole. Either
// way Dynu resets what a request leaves out, so the record set's `raw` is the object as read and
// every update sends back all of it but the address (and the TTL when the config names one).
//
// Requests per write with the domain id known (config.zone_id): node record — the listing, then one
// POST = 2; the domain's own address — the listing (which names the domain), the domain, one POST = 3.
// Without an id, GET /dns/getroot/{hostname} names the domain and the node first (+1), and then the
// domain's own address needs no listing.

import { exchangeJson, unreadableAnswer } from "../../net/http";
import { isObject, objectsIn, parseJson } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, failedAnswer, throttleWait } from "../answers";
import type { FailureCause, RecordType, Step, StepFailure } from "../provider";
import { type RecordSet, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService } from "../service";
import { failedCheck, relativeName, zoneHolds } from "../zones";

const SERVICE = "Dynu";
/** TTL of a record this client creates when the domain's config names none. */
const DEFAULT_NEW_RECORD_TTL = 300;
/** The domain fields Dynu would reset if a `POST /dns/{id}` left them out. */
const DOMAIN_FIELDS = [
  "ipv4Address",
  "ipv6Address",
  "ttl",
  "ipv4",
  "ipv6",
  "group",
  "ipv4WildcardAlias",
  "ipv6WildcardAlias",
  "allowZoneTransfer",
  "dnssec",
] as const;

/** A record set's `raw`: which of Dynu's two objects holds the name's address. */
type Held =
  | { kind: "domain"; domain: Record<string, unknown> }
  | { kind: "node"; node: string; record: Record<string, unknown> };

/** A call's body, or its failure with Dynu's own status code (it answers an unknown domain or hostname with 501). */
type Call = { ok: true; body: Record<string, unknown> } | { ok: false; failure: StepFailure; statusCode?: number };

export function createDynuApi(credentials: { api_key: string }, context: ClientContext): ZoneApi {
  /** Domain names learnt by id, so a zone known only by its id is named without another request. */
  const domainNames = new Map<string, string>();

  async function call(method: string, path: string, body?: unknown): Promise<Call> {
    const answer = await exchangeJson(context, method, path, { "API-Key": credentials.api_key }, body);
    if (!answer.ok) return { ok: false, failure: failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause }) };
    const json = parseJson(answer.text);
    if (!isObject(json)) {
      const failure =
        answer.status >= 200 && answer.status < 300
          ? failed(`${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`, { cause: "unreachable" })
          : failedAnswer(SERVICE, answer.status, answer.headers, answer.text, undefined);
      return { ok: false, failure };
    }
    // Errors come flat ({statusCode, type, message}) or nested under `exception`, and sometimes
    // inside an HTTP 200, so the body's statusCode decides, not the HTTP status alone.
    const error = isObject(json.exception) ? json.exception : json;
    const statusCode =
      typeof error.statusCode === "number"
        ? error.statusCode
        : typeof json.statusCode === "number"
          ? json.statusCode
          : answer.status;
    if (answer.status < 400 && statusCode >= 200 && statusCode < 300 && !isObject(json.exception))
      return { ok: true, body: json };
    const type = typeof error.type === "string" ? error.type : "";
    const reason = [type, error.message].filter((p) => typeof p === "string" && p !== "").join(": ");
    const http = answer.status === statusCode ? "" : `, HTTP ${answer.status}`;
    const cause = causeOf(statusCode, type);
    const message = `${SERVICE}: ${reason || "request failed"} (status ${statusCode}${http})`;
    return {
      ok: false,
      failure: failed(message, { cause, ...(cause === "throttled" ? throttleWait(answer.headers) : {}) }),
      statusCode,
    };
  }

  /** The domain object; an id naming no domain (Dynu's 404 or 501) marks the configured zone stale. */
  async function readDomain(zoneId: string): Promise<Step<Record<string, unknown>>> {
    const domain = await call("GET", `/dns/${encodeURIComponent(zoneId)}`);
    if (!domain.ok) return stale(domain);
    const name = lower(domain.body.name);
    if (name !== "") domainNames.set(zoneId, name);
    return { ok: true, value: domain.body };
  }

  function domainSet(zoneId: string, domain: Record<string, unknown>, type: RecordType): RecordSet {
    const [address, published] = type === "A" ? [domain.ipv4Address, domain.ipv4] : [domain.ipv6Address, domain.ipv6];
    // An address that is not published (`ipv4: false`) is not what the name holds: the write switches it on.
    const values = typeof address === "string" && address !== "" && published !== false ? [address] : [];
    const held: Held = { kind: "domain", domain };
    return { id: zoneId, values, ...(typeof domain.ttl === "number" ? { ttl: domain.ttl } : {}), raw: held };
  }

  function nodeSet(node: string, records: Record<string, unknown>[], type: RecordType): RecordSet {
    const first = records[0]!;
    const field = type === "A" ? "ipv4Address" : "ipv6Address";
    const held: Held = { kind: "node", node, record: first };
    return {
      id: String(first.id),
      values: records.map((record) => String(record[field] ?? "")),
      ...(typeof first.ttl === "number" ? { ttl: first.ttl } : {}),
      raw: held,
    };
  }

  return {
    service: SERVICE,

    async verify() {
      const answer = await call("GET", "/dns");
      if (!answer.ok) return failedCheck(answer.failure);
      const count = Array.isArray(answer.body.domains) ? answer.body.domains.length : 0;
      return { ok: true, detail: `API key accepted (${plural(count, "domain")})` };
    },

    async findZone(hostname, configured) {
      if (configured !== undefined)
        return { ok: true, value: { id: configured, name: domainNames.get(configured) ?? null } };
      const root = await call("GET", `/dns/getroot/${encodeURIComponent(hostname)}`);
      if (!root.ok) {
        // Dynu answers a hostname no domain of the account holds with 501 Argument Exception.
        return root.statusCode === 501
          ? { ...root.failure, message: `${root.failure.message} — no domain of this account holds ${hostname}` }
          : root.failure;
      }
      const name = lower(root.body.domainName);
      if ((typeof root.body.id !== "number" && typeof root.body.id !== "string") || !zoneHolds(name, hostname)) {
        return failed(`${SERVICE}: getroot for ${hostname} named no domain that holds it`, { cause: "refused" });
      }
      const id = String(root.body.id);
      domainNames.set(id, name);
      return { ok: true, value: { id, name } };
    },

    async zoneName(zoneId) {
      const known = domainNames.get(zoneId);
      if (known !== undefined) return { ok: true, value: known };
      const domain = await readDomain(zoneId);
      return domain.ok ? { ok: true, value: lower(domain.value.name) } : domain;
    },

    async readRecordSet(zone, hostname, type, savedId) {
      // The domain's own address, when the zone's name is the hostname, or when the last write was
      // to the domain object itself (its id saved as the set's): one read, if the name still matches.
      if (zone.name === hostname || (zone.name === null && savedId === zone.id)) {
        const domain = await readDomain(zone.id);
        if (!domain.ok) return domain;
        if (lower(domain.value.name) === hostname) return { ok: true, value: domainSet(zone.id, domain.value, type) };
      }
      const listing = await call("GET", `/dns/${encodeURIComponent(zone.id)}/record`);
      if (!listing.ok) return stale(listing);
      const records = objectsIn(listing.body.dnsRecords);
      // Each record names its domain; a zone known only by its id is named by them (or, in an empty listing, by the domain).
      let name = zone.name ?? lower(records.find((r) => typeof r.domainName === "string")?.domainName);
      if (name === "") {
        const domain = await readDomain(zone.id);
        if (!domain.ok) return domain;
        name = lower(domain.value.name);
      }
      domainNames.set(zone.id, name);
      if (name === hostname) {
        const domain = await readDomain(zone.id);
        return domain.ok ? { ok: true, value: domainSet(zone.id, domain.value, type) } : domain;
      }
      if (!zoneHolds(name, hostname)) {
        return failed(`${SERVICE}: domain ${zone.id} is ${name}, which does not hold ${hostname}`, {
          cause: "refused",
          staleZone: true,
        });
      }
      const node = relativeName(hostname, name);
      const matching = records.filter(
        (r) =>
          r.recordType === type && lower(r.nodeName) === node && (typeof r.id === "number" || typeof r.id === "string"),
      );
      return { ok: true, value: matching.length === 0 ? null : nodeSet(node, matching, type) };
    },

    async updateRecordSet(zone, _hostname, type, current, address, settings) {
      const held = current.raw as Held;
      if (held.kind === "domain") {
        const body: Record<string, unknown> = { name: held.domain.name };
        for (const field of DOMAIN_FIELDS) {
          if (held.domain[field] !== undefined && held.domain[field] !== null) body[field] = held.domain[field];
        }
        // Only this family's address (and its "publish" switch) changes; the other family stays as it is.
        Object.assign(body, type === "A" ? { ipv4Address: address, ipv4: true } : { ipv6Address: address, ipv6: true });
        if (settings.ttl !== undefined) body.ttl = settings.ttl;
        const posted = await call("POST", `/dns/${encodeURIComponent(zone.id)}`, body);
        if (!posted.ok) return posted.failure;
        return { ok: true, value: domainSet(zone.id, { ...held.domain, ...body }, type) };
      }
      // The update replaces the whole record: an omitted ttl, state or group would be reset.
      const record = {
        nodeName: held.node,
        recordType: type,
        [type === "A" ? "ipv4Address" : "ipv6Address"]: address,
        ttl: settings.ttl ?? held.record.ttl,
        state: held.record.state ?? true,
        group: held.record.group ?? "",
      };
      const posted = await call(
        "POST",
        `/dns/${encodeURIComponent(zone.id)}/record/${encodeURIComponent(current.id)}`,
        record,
      );
      if (!posted.ok) return posted.failure;
      return { ok: true, value: nodeSet(held.node, [{ ...held.record, ...record, id: current.id }], type) };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      // The domain object always exists, so only a node record is ever created.
      const node = relativeName(hostname, zone.name ?? "");
      const record = {
        nodeName: node,
        recordType: type,
        [type === "A" ? "ipv4Address" : "ipv6Address"]: address,
        ttl: settings.ttl ?? DEFAULT_NEW_RECORD_TTL,
        state: true,
      };
      const created = await call("POST", `/dns/${encodeURIComponent(zone.id)}/record`, record);
      if (!created.ok) return created.failure;
      if (typeof created.body.id !== "number" && typeof created.body.id !== "string") {
        return failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
      }
      return { ok: true, value: nodeSet(node, [{ ...record, id: created.body.id }], type) };
    },

    describe(set) {
      const held = set.raw as Held | undefined;
      return [
        ...(held?.kind === "domain" ? ["the domain's own address"] : []),
        ...(set.ttl === undefined ? [] : [`ttl ${set.ttl}`]),
      ];
    },
  };
}

/**
 * What Dynu's status code means. Dynu answers refusals with 5xx codes of its own (501 Argument,
 * 502 Parse, 505 Validation Exception), so only 500 and a 503 that is not its quota answer mean the
 * service could not serve; "Quota Exception" (503, or 429) is its "slow down".
 */
function causeOf(statusCode: number, type: string): FailureCause {
  if (statusCode === 429 || type === "Quota Exception") return "throttled";
  if (statusCode === 401 || statusCode === 403) return "credentials";
  if (statusCode === 500 || statusCode === 503) return "unreachable";
  return "refused";
}

/** A failed domain-level read; Dynu's 404 or 501 there means the domain id itself is unknown. */
function stale(call: Call & { ok: false }): StepFailure {
  return call.statusCode === 404 || call.statusCode === 501 ? { ...call.failure, staleZone: true } : call.failure;
}

function lower(value: unknown): string {
  return typeof value === "string" ? value.toLowerCase().replace(/\.$/, "") : "";
}

/** Everything ddnsd knows about Dynu (docs/services/dynu.md; its rate limits are not documented). */
export const dynu = defineService({
  type: "dynu",
  label: "Dynu",
  summary:
    "A Dynu domain (your own, or a free name such as x.freeddns.org) or a record under it, changed through Dynu's API v2.",
  credentials: [
    {
      key: "api_key",
      url: "https://www.dynu.com/en-US/ControlPanel/APICredentials",
      label: "API key",
      help: "In the Dynu control panel: Control Panel → API Credentials, then the API Key (the eye icon shows it). Dynu has no narrower key: this one opens the whole account, so keep it to ddnsd.",
      aliases: ["token"],
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: {
    min: 30,
    max: 86400,
    help: "Seconds (30–86400). Empty keeps the record's TTL (Dynu's default for a new record).",
  },
  canVerify: true,
  defaultApiUrl: "https://api.dynu.com/v2",
  createClient: (credentials, _options, context) =>
    zoneClient(createDynuApi({ api_key: credentials.api_key ?? "" }, context)),
});
