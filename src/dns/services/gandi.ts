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
// Sources: docs/services/gandi.md; api.gandi.net/docs/livedns and /docs/authentication; qdm12/ddns-updater
// providers/gandi/provider.go; libdns/gandi client.go; lego "Gandi Live DNS (v5)" (PAT vs deprecated key).

import { asObject, isObject, objectsIn } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, jsonCalls, type ServiceError } from "../answers";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { quotedTxt, txtSet, unquotedTxt } from "../txt";
import { failedCheck, longestZone, noZoneMessage, relativeName, zoneHolds } from "../zones";

const SERVICE = "Gandi";
/** TTL of a record set this client creates when the domain's config names none: Gandi's minimum. */
const NEW_RECORD_TTL = 300;
const DOMAINS_PER_PAGE = 100;
/** 5,000 domains: past this the listing is taken as runaway pagination, not an account. */
const MAX_DOMAIN_PAGES = 50;

export function createGandiApi(credentials: { token: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const call = jsonCalls(context, SERVICE, { Authorization: `Bearer ${credentials.token}` }, readError);

  const setPath = (zone: string, hostname: string, type: string) =>
    `/domains/${encodeURIComponent(zone)}/records/${encodeURIComponent(relativeName(hostname, zone, "@"))}/${type}`;

  function recordSet(zone: string, hostname: string, type: string, values: string[], ttl: unknown): RecordSet {
    return { id: `${relativeName(hostname, zone, "@")}/${type}`, values, ...(typeof ttl === "number" ? { ttl } : {}) };
  }

  // One set per name and type, each value a quoted string as in a zone file: a PUT writes it whole
  // (TTL sent back), and a DELETE of the same path removes it once no value is left.
  const txt = txtSet({
    async read(zone, name) {
      const read = await call("GET", setPath(zone.id, name, "TXT"));
      if (!read.ok) return read.status === 404 ? { ok: true, value: { values: [] } } : read;
      const rrset = asObject(read.value.body);
      const values = Array.isArray(rrset.rrset_values) ? rrset.rrset_values.map(unquotedTxt) : [];
      return { ok: true, value: { values, ...(typeof rrset.rrset_ttl === "number" ? { ttl: rrset.rrset_ttl } : {}) } };
    },
    write: (zone, name, values, held) =>
      values.length === 0
        ? call("DELETE", setPath(zone.id, name, "TXT"))
        : call("PUT", setPath(zone.id, name, "TXT"), {
            rrset_values: values.map(quotedTxt),
            rrset_ttl: held.ttl ?? NEW_RECORD_TTL,
          }),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("GET", `/domains?per_page=1`);
      if (!answer.ok) return failedCheck(answer);
      const count = Number(answer.value.headers.get("total-count"));
      if (!answer.value.headers.has("total-count") || !Number.isInteger(count))
        return { ok: true, detail: "Token accepted" };
      return { ok: true, detail: `Token accepted (${plural(count, "domain")})` };
    },

    async findZone(hostname, configured) {
      if (configured !== undefined) {
        const given = configured.toLowerCase().replace(/\.$/, "");
        if (!zoneHolds(given, hostname)) {
          return failed(
            `${SERVICE}: domain ${given} (config.zone_id) does not hold ${hostname}; correct config.zone_id or remove it`,
            { cause: "refused" },
          );
        }
        // Checked to be in the account only before a record set is created in it (zoneName).
        return { ok: true, value: { id: given, name: null } };
      }
      // Every domain of the account (as far as the token sees), page by page; the longest holding the name wins.
      const names: string[] = [];
      for (let page = 1; page <= MAX_DOMAIN_PAGES; page++) {
        const listed = await call(
          "GET",
          `/domains?${new URLSearchParams({ per_page: String(DOMAINS_PER_PAGE), page: String(page) })}`,
        );
        if (!listed.ok) return listed;
        const domains = objectsIn(listed.value.body);
        names.push(...domains.map((d) => d.fqdn).filter((n): n is string => typeof n === "string"));
        const total = Number(listed.value.headers.get("total-count") ?? Number.NaN);
        if (domains.length < DOMAINS_PER_PAGE || names.length >= total) break;
      }
      const zone = longestZone(hostname, names);
      return zone === undefined
        ? failed(noZoneMessage(SERVICE, hostname), { cause: "refused" })
        : { ok: true, value: { id: zone, name: zone } };
    },

    // A record set's 404 is also what an unknown domain gives: a configured domain is checked to be
    // in the account before a set is created in it; one that left it is looked up afresh.
    async zoneName(zone) {
      const domain = await call("GET", `/domains/${encodeURIComponent(zone)}`);
      if (domain.ok) return { ok: true, value: zone };
      return domain.status === 404 ? { ...domain, staleZone: true } : domain;
    },

    async readRecordSet(zone, hostname, type) {
      const read = await call("GET", setPath(zone.id, hostname, type));
      if (!read.ok) return read.status === 404 ? { ok: true, value: null } : read;
      const rrset = asObject(read.value.body);
      const values = Array.isArray(rrset.rrset_values) ? rrset.rrset_values.map(String) : [];
      return { ok: true, value: recordSet(zone.id, hostname, type, values, rrset.rrset_ttl) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      // The PUT replaces the whole set and, without `rrset_ttl`, reportedly resets the TTL to Gandi's
      // default: the TTL read is always sent back. It answers 201 even for an update.
      const ttl = settings.ttl ?? current.ttl;
      const put = await call(
        "PUT",
        setPath(zone.id, hostname, type),
        ttl === undefined ? { rrset_values: [address] } : { rrset_values: [address], rrset_ttl: ttl },
      );
      return put.ok ? { ok: true, value: recordSet(zone.id, hostname, type, [address], ttl) } : put;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const put = await call("PUT", setPath(zone.id, hostname, type), { rrset_values: [address], rrset_ttl: ttl });
      return put.ok ? { ok: true, value: recordSet(zone.id, hostname, type, [address], ttl) } : put;
    },

    // The PUT that replaces the set takes every address at once, with the TTL read sent back.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const ttl = settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL;
      const put = await call("PUT", setPath(zone.id, hostname, type), { rrset_values: [...addresses], rrset_ttl: ttl });
      return put.ok ? { ok: true, value: recordSet(zone.id, hostname, type, [...addresses], ttl) } : put;
    },
  };
}

/**
 * Gandi's own words: `{code, message, cause}`, or the validation form `{errors: [{name, description}]}`.
 * A wrong, expired or revoked token, or one without rights on this domain: only a new token helps.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const stop = status === 401 || status === 403 ? { stopRetrying: true } : {};
  const errors = objectsIn(body.errors);
  const details = errors
    .map((e) => [e.name, e.description].filter((p) => typeof p === "string" && p !== "").join(": "))
    .filter(Boolean);
  if (details.length > 0) return { words: details.join("; "), ...stop };
  for (const field of ["message", "cause"]) {
    const words = body[field];
    if (typeof words === "string" && words !== "") return { words, ...stop };
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
      help: 'In Gandi\'s admin (admin.gandi.net) open Organizations → your organization → Sharing → Personal Access Token (PAT) → Create a token; limit it to the domains ddnsd updates and give it only "Manage domain name technical configurations". PATs expire: set a reminder to renew it. The deprecated API key is not accepted.',
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(300, 2592000, 300),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.gandi.net/v5/livedns",
  // Gandi allows about 1000 requests a minute per address; ddnsd stays under it.
  rateLimits: [{ requests: 900, perSeconds: 60 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createGandiApi({ token: credentials.token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
