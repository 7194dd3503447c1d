// DigitalOcean Domains (API v2) client: checks a token and points one A/AAAA record at an address.
// The record is found by type and fully qualified name (DigitalOcean filters on the FQDN but answers
// names relative to the domain, "@" for the apex) and read before it is changed, so an address
// already there is never rewritten and an external id only picks among the records the read
// returned (`externalIdTrusted` is not needed). A change is a PATCH of `data` alone: the TTL and
// everything else stay unless the config names a TTL.
//
// Requests per write: GET records + PATCH (2) once the domain is known (config.zone_id), plus the
// domain listing (one request per 200 domains) on the first write; 1 when the record already holds it.
//
// Sources: PROVIDERS.md §5; digitalocean/openapi specification/resources/domains/*.yml,
// shared/responses/{unauthorized,too_many_requests,not_found}.yml and description.yml (rate limits,
// ratelimit-* headers); docs.digitalocean.com "API token scopes" (domain:read/create/update,
// account:read); qdm12/ddns-updater providers/digitalocean.

import {
  exchangeJson,
  isObject,
  notCreatedMessage,
  parseJson,
  pauseSeconds,
  pausing,
  retryAfterSeconds,
  secondsUntilReset,
  unreadableAnswer,
  writtenDetails,
} from "./http";
import type { DnsProvider, RecordTarget, WriteOutcome } from "./provider";
import { type ClientContext, defineService } from "./service";
import { configuredZone, foreignZoneMessage, longestZone, relativeName, zoneHolds } from "./zones";

const SERVICE = "DigitalOcean";
/** The TTL DigitalOcean's own examples give a new record; used when the config names none. */
const DEFAULT_NEW_RECORD_TTL = 1800;
const MIN_TTL = 30;
const MAX_TTL = 86400;
const PER_PAGE = 200;
/** A bound on pages read, in case a server keeps pointing at a next page. */
const MAX_PAGES = 50;

type Failure = Extract<WriteOutcome, { ok: false }>;
type Call = { ok: true; body: Record<string, unknown> } | Failure;

export function createDigitalOceanClient(credentials: { token: string }, context: ClientContext): DnsProvider {
  async function call(method: string, path: string, body?: unknown): Promise<Call> {
    const answer = await exchangeJson(context, method, path, { Authorization: `Bearer ${credentials.token}` }, body);
    if (!answer.ok) return { ok: false, message: `${SERVICE}: ${answer.reason}` };
    const json = parseJson(answer.text);
    if (answer.status >= 200 && answer.status < 300 && isObject(json)) return { ok: true, body: json };
    const reason = !isObject(json) || answer.status < 300
      ? unreadableAnswer(answer.status, answer.text)
      : `${typeof json.message === "string" ? json.message : "request failed"} (${typeof json.id === "string" ? `${json.id}, ` : ""}HTTP ${answer.status})`;
    if (answer.status === 429) {
      // A burst 429 names its wait in retry-after; the hourly one only says when the window resets.
      const pause = pauseSeconds(retryAfterSeconds(answer.headers) ?? secondsUntilReset(answer.headers));
      return { ok: false, message: `${SERVICE}: ${reason}${pausing(pause)}`, retryAfterSeconds: pause };
    }
    const failure: Failure = { ok: false, message: `${SERVICE}: ${reason}` };
    // An unknown or revoked token only comes right when the provider is edited.
    return answer.status === 401 ? { ...failure, stopRetrying: true } : failure;
  }

  /** Every item of a paged listing (`key` in each page), page by page until no next page is named. */
  async function listAll(path: string, key: string): Promise<{ ok: true; items: Record<string, unknown>[] } | Failure> {
    const items: Record<string, unknown>[] = [];
    const separator = path.includes("?") ? "&" : "?";
    for (let page = 1; page <= MAX_PAGES; page++) {
      const listed = await call("GET", `${path}${separator}per_page=${PER_PAGE}&page=${page}`);
      if (!listed.ok) return listed;
      const found = listed.body[key];
      if (Array.isArray(found)) items.push(...found.filter(isObject));
      const pages = isObject(listed.body.links) && isObject(listed.body.links.pages) ? listed.body.links.pages : {};
      if (typeof pages.next !== "string" || !Array.isArray(found) || found.length === 0) break;
    }
    return { ok: true, items };
  }

  async function findDomain(hostname: string): Promise<{ ok: true; domain: string } | Failure> {
    const listed = await listAll("/domains", "domains");
    if (!listed.ok) return listed;
    const names = listed.items.map((d) => (typeof d.name === "string" ? d.name.toLowerCase() : ""));
    const domain = longestZone(hostname, names.filter((n) => n !== ""));
    if (domain === undefined) return { ok: false, message: `${SERVICE}: no domain of this account holds ${hostname}` };
    return { ok: true, domain };
  }

  async function writeInDomain(domain: string, target: RecordTarget, ip: string): Promise<WriteOutcome> {
    const recordsPath = `/domains/${domain}/records`;
    const relative = relativeName(target.hostname, domain) || "@";
    // The filter wants the FQDN; the answer names records relative to the domain (tolerating an FQDN too).
    const query = new URLSearchParams({ type: target.recordType, name: target.hostname });
    const listed = await listAll(`${recordsPath}?${query}`, "domain_records");
    if (!listed.ok) return listed;
    const records = listed.items.filter(
      (r) => r.type === target.recordType && (r.name === relative || r.name === target.hostname) && idOf(r) !== "",
    );
    const existing = records.find((r) => idOf(r) === target.externalId) ?? records[0];
    const success = (action: "updated" | "created", id: string, record: unknown, facts: string[] = []): WriteOutcome => ({
      ok: true,
      action,
      externalId: id,
      zoneId: domain,
      message: writtenDetails(SERVICE, `record ${id}`, [...ttlFact(record), ...facts]),
    });

    if (existing) {
      const id = idOf(existing);
      if (existing.data === ip) return success("updated", id, existing, ["already held this address, nothing sent"]);
      const patch: Record<string, unknown> = { data: ip };
      if (typeof target.config.ttl === "number") patch.ttl = target.config.ttl;
      const patched = await call("PATCH", `${recordsPath}/${id}`, patch);
      return patched.ok ? success("updated", id, patched.body.domain_record) : patched;
    }

    if (target.config.create_if_missing === false) return { ok: false, message: notCreatedMessage(SERVICE, target) };
    const created = await call("POST", recordsPath, {
      type: target.recordType,
      name: relative,
      data: ip,
      ttl: typeof target.config.ttl === "number" ? target.config.ttl : DEFAULT_NEW_RECORD_TTL,
    });
    if (!created.ok) return created;
    const record = created.body.domain_record;
    const id = isObject(record) ? idOf(record) : "";
    if (id === "") return { ok: false, message: `${SERVICE}: the created record came back without an id` };
    return success("created", id, record);
  }

  return {
    async verify() {
      const answer = await call("GET", "/account");
      if (!answer.ok) return { ok: false, detail: answer.message };
      const account = isObject(answer.body.account) ? answer.body.account : {};
      const facts = [account.email, typeof account.status === "string" ? `status ${account.status}` : undefined]
        .filter((f): f is string => typeof f === "string");
      return { ok: true, detail: `Token accepted${facts.length > 0 ? ` (account ${facts.join(", ")})` : ""}` };
    },

    async writeRecord(target, ip) {
      const configured = configuredZone(target.config.zone_id);
      if (configured !== undefined) {
        if (!zoneHolds(configured, target.hostname)) {
          return { ok: false, message: foreignZoneMessage(SERVICE, configured, target.hostname) };
        }
        return writeInDomain(configured, target, ip);
      }
      const found = await findDomain(target.hostname);
      return found.ok ? writeInDomain(found.domain, target, ip) : found;
    },
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
  ttl: {
    min: MIN_TTL,
    max: MAX_TTL,
    help: `${MIN_TTL}–${MAX_TTL} seconds; empty keeps the record's TTL (a new record gets ${DEFAULT_NEW_RECORD_TTL})`,
  },
  canVerify: true,
  defaultApiUrl: "https://api.digitalocean.com/v2",
  // One window keeps both of DigitalOcean's limits: 80 a minute and 4,800 an hour, under its 250 per
  // minute and 5,000 per hour. A burst of 200 a minute would be allowed too, but its 429s for bursts
  // are not documented beyond "per minute", so requests stay spread out.
  rateLimits: [{ requests: 4, perSeconds: 3 }],
  createClient: (credentials, _options, context) => createDigitalOceanClient({ token: credentials.token ?? "" }, context),
});

function idOf(record: Record<string, unknown>): string {
  return typeof record.id === "number" || typeof record.id === "string" ? String(record.id) : "";
}

function ttlFact(record: unknown): string[] {
  return isObject(record) && typeof record.ttl === "number" ? [`ttl ${record.ttl}`] : [];
}
