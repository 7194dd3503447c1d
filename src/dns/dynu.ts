// Dynu API v2 client: checks an API key and points one A/AAAA record at an address — either a
// domain's own address (the apex or a DDNS hostname such as x.freeddns.org) or a record under a
// domain — sending back every field it does not mean to change, because Dynu replaces what is omitted.
//
// Requests per write, with the domain id known (config.zone_id) — the steady state:
//   node record:  GET /dns/{id}/record + POST /dns/{id}/record/{recordId}        = 2
//   apex:         GET /dns/{id}        + POST /dns/{id}                            = 2
// The apex is recognised without a lookup because its external id is the domain id itself (that is
// what this client saves for it); the domain's name from GET /dns/{id} confirms it. Otherwise the
// record listing tells where the hostname sits: each record carries `domainName`, so the hostname
// is the apex when it equals that name (one extra GET /dns/{id}, first write only) and a node when it
// ends in "." + that name. Without a domain id, GET /dns/getroot/{hostname} finds it first (+1).
//
// `externalIdTrusted` is not needed here: every write is preceded by a read that proves what it
// writes to — an apex write only after GET /dns/{id} showed that domain's name is the hostname, a
// record write only to a record of the listing whose node and type are the hostname's (the external
// id merely picks among those) — so an external id or zone id naming another domain or record of
// the account, typed in by a person or not, is never written through.

import {
  exchangeJson,
  isObject,
  notCreatedMessage,
  parseJson,
  retryAfterSeconds,
  unreadableAnswer,
  writeOutcome,
  writtenDetails,
} from "./http";
import type { DnsProvider, ProviderClientOptions, RecordTarget, WriteOutcome } from "./provider";
import { defineService } from "./service";

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

/** `staleDomain`: the domain id names no domain holding this hostname, so it is worth finding afresh. */
type Failure = {
  ok: false;
  message: string;
  statusCode?: number;
  retryAfterSeconds?: number;
  staleDomain?: boolean;
};
type Call = { ok: true; body: Record<string, unknown> } | Failure;
type Attempt = Extract<WriteOutcome, { ok: true }> | Failure;

export function createDynuClient(credentials: { api_key: string }, options: ProviderClientOptions): DnsProvider {
  async function call(method: string, path: string, body?: unknown): Promise<Call> {
    const answer = await exchangeJson(options, method, path, { "API-Key": credentials.api_key }, body);
    if (!answer.ok) return { ok: false, message: `${SERVICE}: ${answer.reason}` };
    const json = parseJson(answer.text);
    if (!isObject(json)) {
      return failure(`${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`, answer.status, answer.headers);
    }
    // Errors come flat ({statusCode, type, message}) or nested under `exception`, and sometimes
    // inside an HTTP 200, so the body's statusCode decides, not the HTTP status alone.
    const error = isObject(json.exception) ? json.exception : json;
    const statusCode = typeof error.statusCode === "number"
      ? error.statusCode
      : typeof json.statusCode === "number" ? json.statusCode : answer.status;
    if (answer.status < 400 && statusCode >= 200 && statusCode < 300 && !isObject(json.exception)) {
      return { ok: true, body: json };
    }
    const reason = [error.type, error.message].filter((p) => typeof p === "string" && p !== "").join(": ");
    const http = answer.status === statusCode ? "" : `, HTTP ${answer.status}`;
    const message = `${SERVICE}: ${reason || "request failed"} (status ${statusCode}${http})`;
    return failure(message, statusCode, answer.headers);
  }

  async function writeApex(
    domainId: string,
    domain: Record<string, unknown>,
    target: RecordTarget,
    ip: string,
  ): Promise<Attempt> {
    const body: Record<string, unknown> = { name: domain.name };
    for (const field of DOMAIN_FIELDS) {
      if (domain[field] !== undefined && domain[field] !== null) body[field] = domain[field];
    }
    // Only this family's address (and its "publish" switch) changes; the other family stays as it is.
    if (target.recordType === "A") Object.assign(body, { ipv4Address: ip, ipv4: true });
    else Object.assign(body, { ipv6Address: ip, ipv6: true });
    if (typeof target.config.ttl === "number") body.ttl = target.config.ttl;
    const posted = await call("POST", `/dns/${domainId}`, body);
    return posted.ok ? success("updated", domainId, domainId, `domain ${domainId}`, body.ttl) : posted;
  }

  async function writeNode(
    domainId: string,
    node: string,
    records: Record<string, unknown>[],
    target: RecordTarget,
    ip: string,
  ): Promise<Attempt> {
    const addressField = target.recordType === "A" ? "ipv4Address" : "ipv6Address";
    const candidates = records.filter(
      (r) => r.recordType === target.recordType && lower(r.nodeName) === node,
    );
    const existing = candidates.find((r) => String(r.id) === target.externalId) ?? candidates[0];
    if (existing) {
      // The update replaces the whole record: omitted ttl, state or group would be reset.
      const ttl = typeof target.config.ttl === "number" ? target.config.ttl : existing.ttl;
      const posted = await call("POST", `/dns/${domainId}/record/${String(existing.id)}`, {
        nodeName: node,
        recordType: target.recordType,
        [addressField]: ip,
        ttl,
        state: existing.state ?? true,
        group: existing.group ?? "",
      });
      const recordId = String(existing.id);
      return posted.ok ? success("updated", recordId, domainId, `record ${recordId} in domain ${domainId}`, ttl) : posted;
    }
    if (target.config.create_if_missing === false) {
      return { ok: false, message: notCreatedMessage(SERVICE, target) };
    }
    const ttl = typeof target.config.ttl === "number" ? target.config.ttl : DEFAULT_NEW_RECORD_TTL;
    const created = await call("POST", `/dns/${domainId}/record`, {
      nodeName: node,
      recordType: target.recordType,
      [addressField]: ip,
      ttl,
      state: true,
    });
    if (!created.ok) return created;
    if (typeof created.body.id !== "number" && typeof created.body.id !== "string") {
      return { ok: false, message: `${SERVICE}: the created record came back without an id` };
    }
    const recordId = String(created.body.id);
    return success("created", recordId, domainId, `record ${recordId} in domain ${domainId}`, ttl);
  }

  /**
   * Writes the hostname's address inside domain `domainId`. `node` is the label under the domain
   * ("" for the domain itself), or null when only the domain id is known (from config).
   */
  async function writeInDomain(
    domainId: string,
    node: string | null,
    target: RecordTarget,
    ip: string,
  ): Promise<Attempt> {
    if (node === "" || (node === null && target.externalId === domainId)) {
      const domain = await call("GET", `/dns/${domainId}`);
      if (!domain.ok) return markStale(domain);
      if (lower(domain.body.name) === target.hostname) return writeApex(domainId, domain.body, target, ip);
      if (node === "") {
        const name = String(domain.body.name);
        return { ok: false, message: `${SERVICE}: domain ${domainId} is ${name}, not ${target.hostname}` };
      }
      // The saved external id only happened to equal the domain id: it is a record, read on.
    }
    const listing = await call("GET", `/dns/${domainId}/record`);
    if (!listing.ok) return markStale(listing);
    const records = Array.isArray(listing.body.dnsRecords) ? listing.body.dnsRecords.filter(isObject) : [];
    if (node !== null) return writeNode(domainId, node, records, target, ip);

    const domainName = lower(records.find((r) => typeof r.domainName === "string")?.domainName);
    if (domainName === target.hostname) return writeInDomain(domainId, "", target, ip);
    if (domainName !== "" && target.hostname.endsWith(`.${domainName}`)) {
      return writeNode(domainId, target.hostname.slice(0, -(domainName.length + 1)), records, target, ip);
    }
    return {
      ok: false,
      message: `${SERVICE}: domain ${domainId} does not hold ${target.hostname}`,
      staleDomain: true,
    };
  }

  async function findDomain(hostname: string): Promise<{ ok: true; domainId: string; node: string } | Failure> {
    const root = await call("GET", `/dns/getroot/${encodeURIComponent(hostname)}`);
    if (!root.ok) {
      // Dynu answers an unknown hostname with 501 Argument Exception.
      if (root.statusCode !== 501) return root;
      return { ...root, message: `${root.message} — no domain of this account holds ${hostname}` };
    }
    if (typeof root.body.id !== "number" && typeof root.body.id !== "string") {
      return { ok: false, message: `${SERVICE}: getroot for ${hostname} named no domain id` };
    }
    const node = typeof root.body.node === "string" ? root.body.node.toLowerCase() : "";
    return { ok: true, domainId: String(root.body.id), node };
  }

  return {
    async verify() {
      const answer = await call("GET", "/dns");
      if (!answer.ok) return { ok: false, detail: answer.message };
      const count = Array.isArray(answer.body.domains) ? answer.body.domains.length : 0;
      return { ok: true, detail: `API key accepted (${count} ${count === 1 ? "domain" : "domains"})` };
    },

    async writeRecord(target, ip) {
      const configured = target.config.zone_id;
      if (configured !== undefined && configured !== "") {
        const attempt = await writeInDomain(String(configured), null, target, ip);
        // A domain id that names nothing (deleted and re-added domain) is looked up afresh, once.
        if (attempt.ok || !attempt.staleDomain) return writeOutcome(attempt);
      }
      const found = await findDomain(target.hostname);
      if (!found.ok) return writeOutcome(found);
      return writeOutcome(await writeInDomain(found.domainId, found.node, target, ip));
    },
  };
}

/** `object` names what holds the address now ("domain 100001", "record 9000001 in domain 100001"). */
function success(
  action: "updated" | "created",
  externalId: string,
  zoneId: string,
  object: string,
  ttl: unknown,
): Attempt {
  const facts = typeof ttl === "number" ? [`ttl ${ttl}`] : [];
  return { ok: true, action, externalId, zoneId, message: writtenDetails(SERVICE, object, facts) };
}

function failure(message: string, statusCode: number, headers: Headers): Failure {
  const retryAfter = retryAfterSeconds(headers);
  return retryAfter === undefined
    ? { ok: false, message, statusCode }
    : { ok: false, message, statusCode, retryAfterSeconds: retryAfter };
}

function lower(value: unknown): string {
  return typeof value === "string" ? value.toLowerCase() : "";
}

/** A 404 or 501 on a domain-level read means the domain id itself is unknown. */
function markStale(failed: Failure): Failure {
  return failed.statusCode === 404 || failed.statusCode === 501 ? { ...failed, staleDomain: true } : failed;
}

/** Everything ddnsd knows about Dynu (PROVIDERS.md "Dynu"; its rate limits are not documented). */
export const dynu = defineService({
  type: "dynu",
  label: "Dynu",
  summary: "A Dynu domain (your own, or a free name such as x.freeddns.org) or a record under it, changed through Dynu's API v2.",
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
  createClient: (credentials, _options, context) => createDynuClient({ api_key: credentials.api_key ?? "" }, context),
});
