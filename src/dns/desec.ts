// deSEC client: checks a token and points one A/AAAA RRset at an address. deSEC finds the domain
// itself (`owns_qname`); the RRset is read first, so an address already there is never rewritten,
// and a change is a PATCH of its records alone, which keeps the TTL. RRsets have no ids: the name
// and type are the identity, so there is no external id to trust or doubt.
//
// Requests per write: GET rrset + PATCH (2) once the domain is known (config.zone_id), plus the
// owns_qname lookup on the first write; 1 when the RRset already holds the address.
//
// deSEC limits RRset writes to 2/s, 15/min, 100/h and 300/day per domain and answers 429 with a
// Retry-After that may be hours away (a daily limit). The wait is capped at an hour: the provider
// pauses, the history says for how long and what deSEC asked for, and one request an hour is harmless.
//
// Sources: PROVIDERS.md §4; desec-stack docs/dns/rrsets.rst, docs/dns/domains.rst,
// docs/rate-limits.rst, docs/auth/tokens.rst; libdns/desec provider.go (Retry-After, the 3600 clamp);
// DNSControl#1204 (a cut-off for daily-limit waits).

import {
  exchangeJson,
  isObject,
  notCreatedMessage,
  parseJson,
  pauseSeconds,
  pausing,
  retryAfterSeconds,
  unreadableAnswer,
  writeOutcome,
  writtenDetails,
} from "./http";
import type { DnsProvider, RecordTarget, WriteOutcome } from "./provider";
import { type ClientContext, defineService } from "./service";
import { configuredZone, foreignZoneMessage, relativeName, zoneHolds } from "./zones";

const SERVICE = "deSEC";
/** deSEC's usual `minimum_ttl` of a domain (lower only on request); the TTL of a new RRset when nothing says otherwise. */
const DEFAULT_MINIMUM_TTL = 3600;
const MAX_TTL = 86400;

type Failure = Extract<WriteOutcome, { ok: false }> & { status?: number };
type Call = { ok: true; status: number; body: unknown } | Failure;

export function createDesecClient(credentials: { token: string }, context: ClientContext): DnsProvider {
  async function call(method: string, path: string, body?: unknown): Promise<Call> {
    const answer = await exchangeJson(context, method, path, { Authorization: `Token ${credentials.token}` }, body);
    if (!answer.ok) return { ok: false, message: `${SERVICE}: ${answer.reason}` };
    const json = answer.text === "" ? null : parseJson(answer.text);
    if (answer.status >= 200 && answer.status < 300) {
      if (json === undefined) return { ok: false, message: `${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}` };
      return { ok: true, status: answer.status, body: json };
    }
    const reason = json === undefined ? unreadableAnswer(answer.status, answer.text) : `${errorText(json)} (HTTP ${answer.status})`;
    if (answer.status === 429) {
      const asked = retryAfterSeconds(answer.headers);
      const pause = pauseSeconds(asked);
      const capped = asked !== undefined && asked > pause ? ` (deSEC asked for ${asked} s)` : "";
      return { ok: false, status: 429, message: `${SERVICE}: ${reason}${pausing(pause)}${capped}`, retryAfterSeconds: pause };
    }
    const failure: Failure = { ok: false, status: answer.status, message: `${SERVICE}: ${reason}` };
    // A token deSEC does not know (revoked, expired, mistyped) only comes right when the provider is edited.
    return answer.status === 401 ? { ...failure, stopRetrying: true } : failure;
  }

  async function findDomain(hostname: string): Promise<{ ok: true; name: string; minimumTtl?: number } | Failure> {
    const found = await call("GET", `/domains/?${new URLSearchParams({ owns_qname: hostname })}`);
    if (!found.ok) return found;
    const domain = (Array.isArray(found.body) ? found.body.filter(isObject) : []).find(
      (d) => typeof d.name === "string" && zoneHolds(d.name.toLowerCase(), hostname),
    );
    if (!domain) return { ok: false, message: `${SERVICE}: no domain of this account holds ${hostname}` };
    const minimumTtl = typeof domain.minimum_ttl === "number" ? domain.minimum_ttl : undefined;
    return { ok: true, name: String(domain.name).toLowerCase(), minimumTtl };
  }

  async function writeInDomain(domain: string, minimumTtl: number | undefined, target: RecordTarget, ip: string): Promise<WriteOutcome> {
    const subname = relativeName(target.hostname, domain);
    // The apex is "@" in a URL path ("//" would be normalised away) but "" in a body. Hostnames are
    // validated DNS names (letters, digits, "-", "_", ".", a leading "*"), so nothing needs escaping.
    const rrsetPath = `/domains/${domain}/rrsets/${subname || "@"}/${target.recordType}/`;
    const externalId = `${subname || "@"}/${target.recordType}`;
    const success = (action: "updated" | "created", rrset: unknown, facts: string[] = []): WriteOutcome => ({
      ok: true,
      action,
      externalId,
      zoneId: domain,
      message: writtenDetails(SERVICE, `RRset in ${domain}`, [...ttlFact(rrset), ...facts]),
    });

    const read = await call("GET", rrsetPath);
    if (read.ok) {
      const records = isObject(read.body) && Array.isArray(read.body.records) ? read.body.records : [];
      if (records.length === 1 && records[0] === ip) return success("updated", read.body, ["already held this address, nothing sent"]);
      // Only the records change; deSEC keeps the TTL unless the config names one.
      const patch: Record<string, unknown> = { records: [ip] };
      if (typeof target.config.ttl === "number") patch.ttl = target.config.ttl;
      const patched = await call("PATCH", rrsetPath, patch);
      return patched.ok ? success("updated", patched.body) : writeOutcome(patched);
    }
    if (read.status !== 404) return writeOutcome(read);

    if (target.config.create_if_missing === false) return { ok: false, message: notCreatedMessage(SERVICE, target) };
    const ttl = typeof target.config.ttl === "number" ? target.config.ttl : (minimumTtl ?? DEFAULT_MINIMUM_TTL);
    const created = await call("POST", `/domains/${domain}/rrsets/`, {
      subname,
      type: target.recordType,
      ttl,
      records: [ip],
    });
    return created.ok ? success("created", created.body) : writeOutcome(created);
  }

  return {
    async verify() {
      const answer = await call("GET", "/auth/account/");
      if (!answer.ok) return { ok: false, detail: answer.message };
      const email = isObject(answer.body) && typeof answer.body.email === "string" ? ` (account ${answer.body.email})` : "";
      return { ok: true, detail: `Token accepted${email}` };
    },

    async writeRecord(target, ip) {
      const configured = configuredZone(target.config.zone_id);
      if (configured !== undefined) {
        if (!zoneHolds(configured, target.hostname)) {
          return { ok: false, message: foreignZoneMessage(SERVICE, configured, target.hostname) };
        }
        return writeInDomain(configured, undefined, target, ip);
      }
      const found = await findDomain(target.hostname);
      return found.ok ? writeInDomain(found.name, found.minimumTtl, target, ip) : writeOutcome(found);
    },
  };
}

export const desec = defineService({
  type: "desec",
  label: "deSEC",
  summary: "Domains hosted at deSEC (desec.io), the free DNSSEC-signed DNS service, through its REST API.",
  credentials: [
    {
      key: "token",
      url: "https://desec.io/tokens",
      label: "API token",
      help: "desec.io → Token Management → + (new token). The least it needs: no “manage tokens” permission; for a token that can write only these names, add a policy that denies writes by default and allows them for each hostname's A/AAAA RRset.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: {
    min: DEFAULT_MINIMUM_TTL,
    max: MAX_TTL,
    help: `${DEFAULT_MINIMUM_TTL}–${MAX_TTL} seconds (the domain's minimum, normally ${DEFAULT_MINIMUM_TTL}); empty keeps the RRset's TTL (a new one gets the domain's minimum)`,
  },
  canVerify: true,
  defaultApiUrl: "https://desec.io/api/v1",
  // deSEC enforces all its windows at once (PROVIDERS.md §4). Each RRset write is preceded by its read,
  // so at most half of any run of requests are writes, and counting every request of the account as if
  // it were one domain's: 1 per 2.5 s keeps writes 5 s apart (12 a minute: under 2/s and 15/min per
  // domain; 24 requests a minute: under 10/s and 50/min for reads); 200 an hour is at most 100 writes
  // (100/h per domain); 600 a day is at most 300 writes (300/day per domain) and under the 2000/day
  // per user.
  rateLimits: [
    { requests: 1, perSeconds: 2.5 },
    { requests: 200, perSeconds: 3600 },
    { requests: 600, perSeconds: 86_400 },
  ],
  createClient: (credentials, _options, context) => createDesecClient({ token: credentials.token ?? "" }, context),
});

/** deSEC's error body in one line: `{"detail": …}`, field errors `{"ttl": ["…"]}`, or a list of either. */
function errorText(body: unknown): string {
  if (typeof body === "string") return body;
  if (Array.isArray(body)) return body.map(errorText).filter((t) => t !== "").join("; ");
  if (!isObject(body)) return "request failed";
  if (typeof body.detail === "string") return body.detail;
  const parts = Object.entries(body).map(([field, value]) => {
    const text = Array.isArray(value) ? value.map(errorText).join(" ") : errorText(value);
    return field === "non_field_errors" ? text : `${field}: ${text}`;
  });
  return parts.join("; ") || "request failed";
}

function ttlFact(rrset: unknown): string[] {
  return isObject(rrset) && typeof rrset.ttl === "number" ? [`ttl ${rrset.ttl}`] : [];
}

