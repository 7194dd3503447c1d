// deSEC (docs/services/desec.md): the zone service primitives. deSEC finds the domain itself
// (`owns_qname`); a domain's name is its id, and an RRset has no id beyond its name and type
// (`home/A`, `@/AAAA` for the apex). A change is a PATCH of the RRset's records alone, which keeps
// its TTL unless the config names one.
//
// Requests per write: GET rrset + PATCH (2) once the domain is known (config.zone_id), plus the
// owns_qname lookup on the first write; 1 when the RRset already holds the address.
//
// deSEC limits RRset writes to 2/s, 15/min, 100/h and 300/day per domain and answers 429 with a
// Retry-After that may be hours away (a daily limit); the wait is passed on as deSEC named it, and
// the updater caps the pause at an hour.
//
// Sources: desec-stack docs/dns/rrsets.rst, docs/dns/domains.rst, docs/rate-limits.rst,
// docs/auth/tokens.rst; libdns/desec provider.go (Retry-After, the 3600 clamp); DNSControl#1204
// (a cut-off for daily-limit waits).

import { exchangeJson, unreadableAnswer } from "../../net/http";
import { asObject, isObject, objectsIn, parseJson } from "../../util/json";
import { failed, failedAnswer } from "../answers";
import type { RecordType, Step, StepFailure } from "../provider";
import { type DesiredSettings, namedZone, type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { quotedTxt, txtSet, unquotedTxt } from "../txt";
import { failedCheck, noZoneMessage, relativeName, zoneHolds } from "../zones";

const SERVICE = "deSEC";
/** deSEC's usual `minimum_ttl` of a domain (lower only on request); the TTL of a new RRset when nothing says otherwise. */
const DEFAULT_MINIMUM_TTL = 3600;
const MAX_TTL = 86400;

/** A call's JSON body (null when empty), or its failure with the HTTP status (a missing RRset is a 404). */
type Call = { ok: true; body: unknown } | { ok: false; failure: StepFailure; status?: number };

export function createDesecApi(credentials: { token: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  /** Each domain's `minimum_ttl` as `owns_qname` named it: the TTL of an RRset created there. */
  const minimumTtls = new Map<string, number>();

  async function call(method: string, path: string, body?: unknown): Promise<Call> {
    const answer = await exchangeJson(context, method, path, { Authorization: `Token ${credentials.token}` }, body);
    if (!answer.ok) return { ok: false, failure: failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause }) };
    const json = answer.text === "" ? null : parseJson(answer.text);
    if (answer.status >= 200 && answer.status < 300) {
      if (json === undefined)
        return {
          ok: false,
          failure: failed(`${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`, { cause: "unreachable" }),
        };
      return { ok: true, body: json };
    }
    // A token deSEC does not know (revoked, expired, mistyped) only comes right when the provider is edited.
    const error =
      json === undefined
        ? undefined
        : { words: errorText(json), ...(answer.status === 401 ? { stopRetrying: true } : {}) };
    return {
      ok: false,
      failure: failedAnswer(SERVICE, answer.status, answer.headers, answer.text, error),
      status: answer.status,
    };
  }

  // The apex is "@" in a URL path ("//" would be normalised away) but "" in a body. Hostnames are
  // validated DNS names (letters, digits, "-", "_", ".", a leading "*"), so nothing needs escaping.
  const rrsetId = (domain: string, hostname: string, type: RecordType) =>
    `${relativeName(hostname, domain) || "@"}/${type}`;
  const rrsetPath = (domain: string, hostname: string, type: RecordType) =>
    `/domains/${domain}/rrsets/${rrsetId(domain, hostname, type)}/`;

  function rrsetOf(id: string, rrset: unknown): RecordSet {
    const body = asObject(rrset);
    const records = Array.isArray(body.records) ? body.records.map(String) : [];
    return { id, values: records, ...(typeof body.ttl === "number" ? { ttl: body.ttl } : {}), raw: body };
  }

  const txtPath = (domain: string, name: string) =>
    `/domains/${domain}/rrsets/${relativeName(name, domain) || "@"}/TXT/`;

  // One RRset holds every value of the name: it is written whole, from what was just read (an
  // empty list deletes it), or created when there was none.
  const txt = txtSet({
    async read(zone, name) {
      const read = await call("GET", txtPath(zone.id, name));
      if (!read.ok) return read.status === 404 ? { ok: true, value: { values: [] } } : read.failure;
      return { ok: true, value: { values: rrsetOf(name, read.body).values.map(unquotedTxt) } };
    },
    async write(zone, name, values, held) {
      const records = values.map(quotedTxt);
      const written =
        held.values.length > 0
          ? await call("PATCH", txtPath(zone.id, name), { records })
          : await call("POST", `/domains/${zone.id}/rrsets/`, {
              subname: relativeName(name, zone.id),
              type: "TXT",
              ttl: minimumTtls.get(zone.id) ?? DEFAULT_MINIMUM_TTL,
              records,
            });
      return written.ok ? { ok: true as const, value: undefined } : written.failure;
    },
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("GET", "/auth/account/");
      if (!answer.ok) return failedCheck(answer.failure);
      const email =
        isObject(answer.body) && typeof answer.body.email === "string" ? ` (account ${answer.body.email})` : "";
      return { ok: true, detail: `Token accepted${email}` };
    },

    async findZone(hostname, configured) {
      const named = namedZone(SERVICE, configured, hostname);
      if (named) return named;
      const found = await call("GET", `/domains/?${new URLSearchParams({ owns_qname: hostname })}`);
      if (!found.ok) return found.failure;
      const domain = objectsIn(found.body).find(
        (d) => typeof d.name === "string" && zoneHolds(d.name.toLowerCase(), hostname),
      );
      if (!domain) return failed(noZoneMessage(SERVICE, hostname), { cause: "refused" });
      const name = String(domain.name).toLowerCase();
      if (typeof domain.minimum_ttl === "number") minimumTtls.set(name, domain.minimum_ttl);
      return { ok: true, value: { id: name, name } };
    },

    async readRecordSet(zone, hostname, type) {
      const read = await call("GET", rrsetPath(zone.id, hostname, type));
      if (read.ok) return { ok: true, value: rrsetOf(rrsetId(zone.id, hostname, type), read.body) };
      return read.status === 404 ? { ok: true, value: null } : read.failure;
    },

    updateRecordSet(zone, hostname, type, current, address, settings) {
      return writeSet(zone.id, hostname, type, current, [address], settings);
    },

    createRecordSet(zone, hostname, type, address, settings) {
      return writeSet(zone.id, hostname, type, null, [address], settings);
    },

    // An RRset holds every address at once: the same PATCH (or POST) with all of them.
    writeAddressSet(zone, hostname, type, current, addresses, settings) {
      return writeSet(zone.id, hostname, type, current, addresses, settings);
    },
  };

  /** The name's RRset made to hold `addresses`: a PATCH of the set read (keeping its TTL unless the config names one), or a POST. */
  async function writeSet(
    zoneId: string,
    hostname: string,
    type: RecordType,
    current: RecordSet | null,
    addresses: readonly string[],
    settings: DesiredSettings,
  ): Promise<Step<RecordSet>> {
    if (current !== null) {
      const patch = { records: [...addresses], ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }) };
      const patched = await call("PATCH", rrsetPath(zoneId, hostname, type), patch);
      if (!patched.ok) return patched.failure;
      return {
        ok: true,
        value: rrsetOf(current.id, isObject(patched.body) ? patched.body : { ...(current.raw as object), ...patch }),
      };
    }
    const ttl = settings.ttl ?? minimumTtls.get(zoneId) ?? DEFAULT_MINIMUM_TTL;
    const rrset = { subname: relativeName(hostname, zoneId), type, ttl, records: [...addresses] };
    const created = await call("POST", `/domains/${zoneId}/rrsets/`, rrset);
    if (!created.ok) return created.failure;
    return {
      ok: true,
      value: rrsetOf(rrsetId(zoneId, hostname, type), isObject(created.body) ? created.body : rrset),
    };
  }
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
  ttl: ttlRange(DEFAULT_MINIMUM_TTL, MAX_TTL, "the domain's minimum", {
    note: `the lower bound being the domain's minimum, normally ${DEFAULT_MINIMUM_TTL}`,
  }),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://desec.io/api/v1",
  // deSEC enforces all its windows at once (docs/services/desec.md). Each RRset write is preceded by its read,
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
  holdsTxt: true,
  createClient: (credentials, _options, context) => {
    const api = createDesecApi({ token: credentials.token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});

/** deSEC's error body in one line: `{"detail": …}`, field errors `{"ttl": ["…"]}`, or a list of either. */
function errorText(body: unknown): string {
  if (typeof body === "string") return body;
  if (Array.isArray(body))
    return body
      .map(errorText)
      .filter((t) => t !== "")
      .join("; ");
  if (!isObject(body)) return "request failed";
  if (typeof body.detail === "string") return body.detail;
  const parts = Object.entries(body).map(([field, value]) => {
    const text = Array.isArray(value) ? value.map(errorText).join(" ") : errorText(value);
    return field === "non_field_errors" ? text : `${field}: ${text}`;
  });
  return parts.join("; ") || "request failed";
}
