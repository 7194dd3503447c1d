// Gandi LiveDNS v5 client: checks a personal access token and points one A/AAAA record set at an
// address. LiveDNS has no record ids: a record set is addressed by domain, relative name (`@` for
// the apex) and type, so every write is preceded by a read of exactly that set, and an external id
// (saved as `<name>/<type>`) is only reported, never written through.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   GET /domains/{fqdn}/records/{name}/{type} + PUT of the same path = 2 (1 when the address is already there)
// Without it the account's domains are listed first (paginated, `total-count` header) and the
// longest one holding the hostname is used.
//
// The PUT replaces the whole record set and, when `rrset_ttl` is left out, reportedly resets the TTL
// to Gandi's default (10800), so the TTL read is always sent back. It answers 201 even for an update.
//
// Sources: PROVIDERS.md §6; api.gandi.net/docs/livedns and /docs/authentication; qdm12/ddns-updater
// providers/gandi/provider.go; libdns/gandi client.go; lego "Gandi Live DNS (v5)" (PAT vs deprecated key).

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
import { defineService, type ClientContext } from "./service";
import { longestZone, multipleValuesMessage, relativeName, sameAddress, zoneHolds } from "./zones";

const SERVICE = "Gandi";
/** TTL of a record set this client creates when the domain's config names none: Gandi's minimum. */
const NEW_RECORD_TTL = 300;
const DOMAINS_PER_PAGE = 100;
/** 5,000 domains: past this the listing is taken as runaway pagination, not an account. */
const MAX_DOMAIN_PAGES = 50;

/** `staleZone`: the configured domain is not (or no longer) in the account, so it is worth finding afresh. */
type Failure = {
  ok: false;
  message: string;
  status?: number;
  retryAfterSeconds?: number;
  stopRetrying?: boolean;
  staleZone?: boolean;
};
type Call = { ok: true; status: number; headers: Headers; body: unknown } | Failure;
type Attempt = Extract<WriteOutcome, { ok: true }> | Failure;

export function createGandiClient(credentials: { token: string }, context: ClientContext): DnsProvider {
  async function call(method: string, path: string, body?: unknown): Promise<Call> {
    const answer = await exchangeJson(context, method, path, { Authorization: `Bearer ${credentials.token}` }, body);
    if (!answer.ok) return { ok: false, message: `${SERVICE}: ${answer.reason}` };
    const parsed = answer.text.trim() === "" ? null : parseJson(answer.text);
    if (answer.status >= 200 && answer.status < 300) {
      if (parsed === undefined) return { ok: false, message: `${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}` };
      return { ok: true, status: answer.status, headers: answer.headers, body: parsed };
    }
    const reason = isObject(parsed) ? errorText(parsed) : undefined;
    const failure: Failure = {
      ok: false,
      status: answer.status,
      message: reason
        ? `${SERVICE}: ${reason} (HTTP ${answer.status})`
        : `${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`,
    };
    if (answer.status === 429 || answer.headers.has("retry-after")) {
      failure.retryAfterSeconds = pauseSeconds(retryAfterSeconds(answer.headers));
      failure.message += pausing(failure.retryAfterSeconds);
    }
    // A wrong, expired or revoked token, or one without rights on this domain: only a new token helps.
    if (answer.status === 401 || answer.status === 403) failure.stopRetrying = true;
    return failure;
  }

  /** Every domain of the account (as far as the token sees), page by page. */
  async function listDomains(): Promise<{ ok: true; names: string[] } | Failure> {
    const names: string[] = [];
    for (let page = 1; page <= MAX_DOMAIN_PAGES; page++) {
      const query = new URLSearchParams({ per_page: String(DOMAINS_PER_PAGE), page: String(page) });
      const listed = await call("GET", `/domains?${query}`);
      if (!listed.ok) return listed;
      const domains = Array.isArray(listed.body) ? listed.body.filter(isObject) : [];
      names.push(...domains.map((d) => d.fqdn).filter((n): n is string => typeof n === "string"));
      const total = Number(listed.headers.get("total-count") ?? Number.NaN);
      if (domains.length < DOMAINS_PER_PAGE || names.length >= total) break;
    }
    return { ok: true, names };
  }

  async function findZone(hostname: string): Promise<{ ok: true; zone: string } | Failure> {
    const listed = await listDomains();
    if (!listed.ok) return listed;
    const zone = longestZone(hostname, listed.names);
    return zone === undefined
      ? { ok: false, message: `${SERVICE}: no domain of this account holds ${hostname}` }
      : { ok: true, zone };
  }

  async function writeInZone(zone: string, target: RecordTarget, ip: string, configured: boolean): Promise<Attempt> {
    const name = relativeName(target.hostname, zone, "@");
    const path = `/domains/${encodeURIComponent(zone)}/records/${encodeURIComponent(name)}/${target.recordType}`;
    const success = (action: "updated" | "created", ttl: unknown, unchanged = false): Attempt => ({
      ok: true,
      action,
      externalId: `${name}/${target.recordType}`,
      zoneId: zone,
      message: writtenDetails(SERVICE, `record ${name}/${target.recordType} in ${zone}`, [
        ...(typeof ttl === "number" ? [`ttl ${ttl}`] : []),
        ...(unchanged ? ["already held this address, nothing written"] : []),
      ]),
    });

    const read = await call("GET", path);
    if (read.ok) {
      const rrset = isObject(read.body) ? read.body : {};
      const values = Array.isArray(rrset.rrset_values) ? rrset.rrset_values.map(String) : [];
      if (values.length > 1) {
        return { ok: false, message: multipleValuesMessage(SERVICE, target.hostname, target.recordType, values), stopRetrying: true };
      }
      const ttl = typeof target.config.ttl === "number" ? target.config.ttl : rrset.rrset_ttl;
      if (values[0] !== undefined && sameAddress(values[0], ip) && ttl === rrset.rrset_ttl) {
        return success("updated", ttl, true);
      }
      const put = await call("PUT", path, typeof ttl === "number" ? { rrset_values: [ip], rrset_ttl: ttl } : { rrset_values: [ip] });
      return put.ok ? success("updated", ttl) : put;
    }
    if (read.status !== 404) return read;

    if (target.config.create_if_missing === false) return { ok: false, message: notCreatedMessage(SERVICE, target) };
    if (configured) {
      // A 404 is also what an unknown domain gives: make sure the configured one exists before creating in it.
      const domain = await call("GET", `/domains/${encodeURIComponent(zone)}`);
      if (!domain.ok) return domain.status === 404 ? { ...domain, staleZone: true } : domain;
    }
    const ttl = typeof target.config.ttl === "number" ? target.config.ttl : NEW_RECORD_TTL;
    const put = await call("PUT", path, { rrset_values: [ip], rrset_ttl: ttl });
    return put.ok ? success("created", ttl) : put;
  }

  return {
    async verify() {
      const answer = await call("GET", `/domains?per_page=1`);
      if (!answer.ok) return { ok: false, detail: answer.message };
      const count = Number(answer.headers.get("total-count"));
      if (!answer.headers.has("total-count") || !Number.isInteger(count)) return { ok: true, detail: "Token accepted" };
      return { ok: true, detail: `Token accepted (${count} ${count === 1 ? "domain" : "domains"})` };
    },

    async writeRecord(target, ip) {
      const configured = typeof target.config.zone_id === "string" && target.config.zone_id !== ""
        ? target.config.zone_id.toLowerCase().replace(/\.$/, "")
        : undefined;
      if (configured !== undefined) {
        if (!zoneHolds(configured, target.hostname)) {
          return {
            ok: false,
            message: `${SERVICE}: domain ${configured} (config.zone_id) does not hold ${target.hostname}; correct config.zone_id or remove it`,
          };
        }
        const attempt = await writeInZone(configured, target, ip, true);
        // A domain that left the account (or a typo): found afresh, once.
        if (attempt.ok || !attempt.staleZone) return writeOutcome(attempt);
      }
      const found = await findZone(target.hostname);
      if (!found.ok) return writeOutcome(found);
      return writeOutcome(await writeInZone(found.zone, target, ip, false));
    },
  };
}

/** Gandi's own words: `{code, message, cause}`, or the validation form `{errors: [{name, description}]}`. */
function errorText(body: Record<string, unknown>): string | undefined {
  const errors = Array.isArray(body.errors) ? body.errors.filter(isObject) : [];
  const details = errors
    .map((e) => [e.name, e.description].filter((p) => typeof p === "string" && p !== "").join(": "))
    .filter(Boolean);
  if (details.length > 0) return details.join("; ");
  for (const field of ["message", "cause"]) {
    if (typeof body[field] === "string" && body[field] !== "") return body[field];
  }
  return undefined;
}

export const gandi = defineService({
  type: "gandi",
  label: "Gandi",
  summary:
    "Gandi LiveDNS: ddnsd reads the record set and writes it back with the new address, keeping its TTL; a missing record is created.",
  credentials: [
    {
      key: "token",
      url: "https://admin.gandi.net/organizations/account/pat",
      label: "Personal access token",
      help:
        "In Gandi's admin (admin.gandi.net) open Organizations → your organization → Sharing → Personal Access Token (PAT) → Create a token; limit it to the domains ddnsd updates and give it only \"Manage domain name technical configurations\". PATs expire: set a reminder to renew it. The deprecated API key is not accepted.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: { min: 300, max: 2592000, help: "300–2592000 seconds; empty keeps the record's TTL (300 for a new record)" },
  canVerify: true,
  defaultApiUrl: "https://api.gandi.net/v5/livedns",
  // Gandi allows about 1000 requests a minute per address; ddnsd stays under it.
  rateLimits: [{ requests: 900, perSeconds: 60 }],
  createClient: (credentials, _options, context) => createGandiClient({ token: credentials.token ?? "" }, context),
});
