// Netcup CloudDNS through netcup's REST API (docs/services/netcupcloud.md): the zone service
// primitives for the domains netcup has moved to its CloudDNS backend, which the legacy CCP DNS API
// (netcup.ts) no longer reaches (it answers 5028 "zone … could not be found" for them). Every
// request carries the account's API key (64 characters; the CCP's legacy keys have 50) as a bearer
// token; there is no session. Every answer is an envelope `{success, errors: [{code, message}],
// result, meta: {pagination: {page, perPage, totalEntries, lastPage}}}`; a refused key is
// `authenticationError` (with HTTP 400, not 401), a name not in the account `resourceDoesNotExist`.
//
// A domain is looked up by name (`GET /domain?fqdn=`, longest candidate first) and addressed by its
// numeric id; its name is saved as `config.zone_id`. The zone has no "current records" call: its
// records are those of its newest revision (`GET /domain/{id}/dns/revision`, then
// `…/revision/{revision}/record`), `{identifier, name, type, rdata, ttl}`. A change is one changeset
// committed at once (`POST /domain/{id}/changeset` with `autoCommit`): the record as read deleted and
// the record with the new address created, in one step, so nothing else of the zone is touched.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   domain + revisions + records + changeset = 4 (3 when the address is already there)
//
// Sources (netcup's OpenAPI description, api.netcup.com/v1/openapi.json, as independent clients
// read it; ddnsd could not vendor it): acme.sh dnsapi/dns_netcup.sh (PR 7214: the key's length
// picks the API, `GET /domain?fqdn=`, the `isDnsManaged` flag), libdns/netcup's REST client
// (changesets, revisions, the envelope) and aellwein/netcup-dns-api pkg/rest/v1 (error codes:
// authenticationError with HTTP 400, resourceDoesNotExist); go-acme/lego issue 3226.

import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, type JsonAnswer, requestJson, type ServiceError } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { namedZone, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { candidateZones, noZoneMessage, relativeName, sameAddress } from "../zones";

const SERVICE = "Netcup CloudDNS";
/** A new record's TTL when the domain's config names none. */
const NEW_RECORD_TTL = 300;
const PER_PAGE = 100;
/** A bound on the pages of one listing, so a service that miscounts cannot keep ddnsd asking. */
const MAX_PAGES = 20;
const NOT_FOUND = "resourceDoesNotExist";
const REFUSED_KEY = "authenticationError";
/** The length of a CloudDNS API key; the legacy CCP keys are 50 characters. */
export const NETCUP_CLOUD_KEY_LENGTH = 64;

type Row = Record<string, unknown>;

export function createNetcupCloudApi(
  credentials: { api_key: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const headers = { Authorization: `Bearer ${credentials.api_key}` };

  /** One request: the answer's envelope; one saying `success: false` (whatever the status) is a failure in netcup's words. */
  async function call(method: string, path: string, body?: unknown): Promise<Step<Row>> {
    const answer: Step<JsonAnswer> = await requestJson(context, SERVICE, { method, path, headers, body }, readError);
    if (!answer.ok) return answer;
    const envelope = asObject(answer.value.body);
    if (envelope.success !== false) return { ok: true, value: envelope };
    const error = readError(envelope, answer.value.status);
    return failed(`${SERVICE}: ${error?.words ?? "success: false"} (HTTP ${answer.value.status})`, {
      cause: error?.cause ?? "refused",
      stopRetrying: error?.stopRetrying,
      staleZone: error?.staleZone,
    });
  }

  /** Every row of a paged listing. */
  function listAll(path: string): Promise<Step<Row[]>> {
    return paginate(async (next) => {
      const page = Number(next ?? 1);
      const answer = await call("GET", `${path}?page=${page}&perPage=${PER_PAGE}`);
      if (!answer.ok) return answer;
      const result = objectsIn(answer.value.result);
      const lastPage = Number(asObject(asObject(answer.value.meta).pagination).lastPage);
      const last = result.length === 0 || !Number.isFinite(lastPage) || page >= lastPage;
      return { ok: true, value: { items: result, next: last ? undefined : page + 1 } };
    }, MAX_PAGES);
  }

  /** The account's domain of that exact name, or null when it is not in the account. */
  async function domainNamed(fqdn: string): Promise<Step<Row | null>> {
    const answer = await call("GET", `/domain?fqdn=${encodeURIComponent(fqdn)}`);
    // Not in the account: `resourceDoesNotExist` (marked staleZone by readError, whatever the status), or a bare 404.
    if (!answer.ok) return answer.staleZone || answer.status === 404 ? { ok: true, value: null } : answer;
    const domains = objectsIn(answer.value.result);
    return {
      ok: true,
      value:
        domains.find(
          (d) =>
            String(d.fqdn ?? "")
              .toLowerCase()
              .replace(/\.$/, "") === fqdn,
        ) ?? null,
    };
  }

  /** Zone ids this client has looked up: a read and the write after it ask once. */
  const zoneIds = new Map<string, string>();

  /** The numeric id of a zone known by name (the saved zone is its name), asked once per client. */
  async function zoneId(zone: string): Promise<Step<string>> {
    const known = zoneIds.get(zone);
    if (known !== undefined) return { ok: true, value: known };
    const found = await domainNamed(zone);
    if (!found.ok) return found;
    if (found.value === null)
      return failed(`${SERVICE}: ${zone} is not a domain of this account`, { cause: "refused", staleZone: true });
    if (found.value.isDnsManaged === false) return notManaged(zone);
    zoneIds.set(zone, String(found.value.id));
    return { ok: true, value: String(found.value.id) };
  }

  /** The records of the zone's newest revision: what it serves. */
  async function currentRecords(id: string): Promise<Step<Row[]>> {
    const revisions = await listAll(`/domain/${encodeURIComponent(id)}/dns/revision`);
    if (!revisions.ok) return revisions;
    const newest = newestRevision(revisions.value);
    if (newest === undefined) return { ok: true, value: [] };
    return listAll(
      `/domain/${encodeURIComponent(id)}/dns/revision/${encodeURIComponent(String(newest.identifier))}/record`,
    );
  }

  /** The record's name as this zone writes it: the relative name, `@` for the apex. */
  const nameIn = (hostname: string, zone: string) => relativeName(hostname, zone, "@");

  /** Whether a listed record is `hostname`'s, whichever way the listing names it (relative or full). */
  function named(record: Row, hostname: string, zone: string): boolean {
    const name = String(record.name ?? "")
      .toLowerCase()
      .replace(/\.$/, "");
    const relative = nameIn(hostname, zone);
    if (name === relative || name === hostname) return true;
    return hostname === zone && (name === "" || name === "@");
  }

  async function changeset(zone: string, change: { create: Row[]; delete?: Row[] }): Promise<Step<null>> {
    const id = await zoneId(zone);
    if (!id.ok) return id;
    const answer = await call("POST", `/domain/${encodeURIComponent(id.value)}/changeset`, {
      autoCommit: true,
      strict: true,
      ...change,
    });
    return answer.ok ? { ok: true, value: null } : answer;
  }

  // One record per value, its rdata the text itself: a changeset creates one, or deletes it as it
  // was read (name, type, rdata and TTL: there is no id to delete by, and `strict` needs an exact match).
  const txt = txtRecords({
    async list(zone, name) {
      const id = await zoneId(zone.id);
      if (!id.ok) return id;
      const records = await currentRecords(id.value);
      if (!records.ok) return records;
      const found = records.value.filter((r) => String(r.type).toUpperCase() === "TXT" && named(r, name, zone.id));
      return {
        ok: true,
        value: found.map((r) => ({
          id: JSON.stringify({ name: r.name, type: r.type, rdata: r.rdata, ttl: Number(r.ttl) }),
          value: unquotedTxt(r.rdata),
        })),
      };
    },
    create: (zone, name, value) =>
      changeset(zone.id, { create: [{ name: nameIn(name, zone.id), type: "TXT", rdata: value, ttl: CHALLENGE_TTL }] }),
    delete: (zone, record) => changeset(zone.id, { create: [], delete: [JSON.parse(record.id)] }),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // A lookup of a name no account holds: a working key is told "not found", a refused one
      // "authenticationError". Nothing is read or changed.
      const answer = await domainNamed("ddnsd-key-check.invalid");
      return answer.ok ? { ok: true, detail: "API key accepted" } : { ok: false, detail: answer.message };
    },

    async findZone(hostname, configured) {
      const named = namedZone(SERVICE, configured, hostname);
      if (named) return named;
      for (const candidate of candidateZones(hostname)) {
        const found = await domainNamed(candidate);
        if (!found.ok) return found;
        if (found.value === null) continue;
        if (found.value.isDnsManaged === false) return notManaged(candidate);
        zoneIds.set(candidate, String(found.value.id));
        return { ok: true, value: { id: candidate, name: candidate } };
      }
      return failed(noZoneMessage(SERVICE, hostname), { cause: "refused" });
    },

    async readRecordSet(zone, hostname, type) {
      const id = await zoneId(zone.id);
      if (!id.ok) return id;
      const records = await currentRecords(id.value);
      if (!records.ok) return records;
      const found = records.value.filter((r) => String(r.type).toUpperCase() === type && named(r, hostname, zone.id));
      if (found.length === 0) return { ok: true, value: null };
      const first = found[0]!;
      const ttl = Number(first.ttl);
      return {
        ok: true,
        value: {
          id: String(first.identifier ?? `${nameIn(hostname, zone.id)}/${type}`),
          values: found.map((r) => String(r.rdata)),
          ...(Number.isInteger(ttl) ? { ttl } : {}),
          raw: first,
          members: found,
        },
      };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const record = asObject(current.raw);
      const ttl = settings.ttl ?? current.ttl ?? NEW_RECORD_TTL;
      const name = typeof record.name === "string" ? record.name : nameIn(hostname, zone.id);
      // The record as read goes, the one with the new address comes, in one committed changeset.
      const old = { name, type, rdata: String(record.rdata ?? current.values[0] ?? ""), ttl: current.ttl ?? ttl };
      const done = await changeset(zone.id, { delete: [old], create: [{ name, type, rdata: address, ttl }] });
      return done.ok ? { ok: true, value: { id: current.id, values: [address], ttl } } : done;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const name = nameIn(hostname, zone.id);
      const done = await changeset(zone.id, { create: [{ name, type, rdata: address, ttl }] });
      return done.ok ? { ok: true, value: { id: `${name}/${type}`, values: [address], ttl } } : done;
    },

    // One committed changeset writes the set's difference at once: each record whose address goes
    // deleted as read, each new address created with the set's TTL (a record that stays is sent only
    // for a TTL the config changes, deleted and created anew).
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const name = nameIn(hostname, zone.id);
      const ttl = settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL;
      const records = (current?.members ?? []).map((r) => ({
        name: typeof r.name === "string" ? r.name : name,
        type,
        rdata: String(r.rdata ?? ""),
        ttl: Number.isInteger(Number(r.ttl)) ? Number(r.ttl) : ttl,
      }));
      const gone = records.filter(
        (r) =>
          !addresses.some((address) => sameAddress(r.rdata, address)) ||
          (settings.ttl !== undefined && r.ttl !== settings.ttl),
      );
      const kept = records.filter((r) => !gone.includes(r));
      const create = addresses
        .filter((address) => !kept.some((r) => sameAddress(r.rdata, address)))
        .map((rdata) => ({ name, type, rdata, ttl }));
      const done = await changeset(zone.id, { create, ...(gone.length > 0 ? { delete: gone } : {}) });
      const id = current?.id ?? `${name}/${type}`;
      return done.ok ? { ok: true, value: { id, values: [...addresses], ttl } } : done;
    },
  };
}

/**
 * The revision the zone serves: the newest by `createdAt` that is not a draft. netcup documents
 * `state` only as a string; a draft (someone staging changes by hand) is not what is served, so
 * the safer reading skips any revision whose state says draft or open.
 */
function newestRevision(revisions: Row[]): Row | undefined {
  const served = revisions.filter((r) => !/draft|open|pending|uncommitted/i.test(String(r.state ?? "")));
  const time = (r: Row) => Date.parse(String(r.createdAt ?? "")) || 0;
  return served.reduce<Row | undefined>(
    (newest, r) => (newest === undefined || time(r) >= time(newest) ? r : newest),
    undefined,
  );
}

function notManaged(zone: string): Step<never> {
  return failed(
    `${SERVICE}: ${zone} is not on CloudDNS (isDnsManaged false); its records are reached through the legacy CCP API: use the Netcup type with a legacy API key`,
    { cause: "refused", stopRetrying: true },
  );
}

function codeOf(body: Row): string | undefined {
  const [first] = objectsIn(body.errors);
  return typeof first?.code === "string" ? first.code : undefined;
}

/**
 * netcup's words: `{errors: [{code, message}]}`. A refused key (`authenticationError`, answered
 * with HTTP 400) or a 401/403 only comes right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const errors = objectsIn(body.errors);
  const words = errors
    .map((e) => [e.code, e.message].filter((w) => typeof w === "string" && w !== "").join(": "))
    .filter((w) => w !== "")
    .join("; ");
  if (words === "") return undefined;
  const code = codeOf(body);
  if (code === REFUSED_KEY || status === 401 || status === 403)
    return { words, cause: "credentials", stopRetrying: true };
  if (status === 429) return { words, cause: "throttled" };
  // Not in the account: the caller decides what that means (another candidate, or a zone to look up afresh).
  return { words, ...(code === NOT_FOUND ? { cause: "refused" as const, staleZone: true } : {}) };
}

/** Everything ddnsd knows about Netcup CloudDNS (docs/services/netcupcloud.md). */
export const netcupcloud = defineService({
  type: "netcupcloud",
  label: "Netcup CloudDNS",
  summary:
    "Domains on Netcup's CloudDNS (the DNS backend new Netcup domains are on), through netcup's REST API with one API key; for domains still on the legacy DNS, use the Netcup type.",
  credentials: [
    {
      key: "api_key",
      label: "API key",
      help:
        'In the customer control panel: Master Data → API, the "API Keys" section (not "Legacy API Keys"): create a key (64 characters). ' +
        "Netcup API keys are not scoped: one can change every domain of the account, so make one for ddnsd alone and delete it when you stop using ddnsd.",
      url: "https://www.customercontrolpanel.de/daten_aendern.php?sprung=api",
      secret: true,
      validate: (value) =>
        value.trim().length === NETCUP_CLOUD_KEY_LENGTH
          ? undefined
          : `must be a CloudDNS API key (${NETCUP_CLOUD_KEY_LENGTH} characters); a legacy key (50) goes with the Netcup type`,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, 300),
  canVerify: true,
  defaultApiUrl: "https://api.netcup.com/v1",
  // netcup documents no request limit; ddnsd keeps to a gentle pace of its own.
  rateLimits: [{ requests: 2, perSeconds: 1 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, _options, context) {
    const api = createNetcupCloudApi({ api_key: (credentials.api_key ?? "").trim() }, context);
    return zoneClient(api, api.txt);
  },
});
