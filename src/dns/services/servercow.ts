// Servercow's DNS API v1: the zone service primitives. A domain is addressed by its name
// (`/domains/{domain}`): GET lists its records (`name` relative to the domain, `""` for the apex,
// `type`, `content` — a string, or an array for TXT/CAA/TLSA — and `ttl`), and POST of `{type, name,
// content, ttl}` creates that name and type or replaces it, answering `{"message": "ok"}`. There
// are no record ids: a record set is its name and type, and the POST names exactly that set, so
// nothing else of the domain is touched. Failures come as `{"error": "…"}` — with HTTP 200, as lego
// notes, even for refused credentials — so the body, not the status, says what happened.
//
// Requests per write, with the domain known (config.zone_id) — the steady state: the listing + the
// POST = 2 (1 when the address is already there). Without it there is no list of the account's
// domains: the hostname and each parent are tried longest first until one lists; Servercow answers
// `no such domain in user context` for the others.
//
// Sources: wiki.servercow.de/en/domains/dns_api/api-syntax (the URL, the X-Auth-Username and
// X-Auth-Password headers, GET and POST, content arrays); go-acme/lego providers/dns/servercow
// (records fixture with `""` for the apex; HTTP 200 on failure, `{"message"}`/`{"error"}`);
// qdm12/ddns-updater providers/servercow (POST body, `"message": "ok"`); acme.sh dns_servercow
// (the `no such domain in user context` answer it uses to find the domain).

import { asObject, isObject } from "../../util/json";
import { failed, type JsonAnswer, requestJson, type ServiceError } from "../answers";
import { cannotVerify } from "../one-shot";
import type { Step, StepFailure } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, cannotCheck, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtSet, unquotedTxt } from "../txt";
import { relativeName } from "../zones";

const SERVICE = "Servercow";
/** TTL of a record this client creates when the domain's config names none. */
const NEW_RECORD_TTL = 300;
/** What Servercow answers for a domain that is not in the account. */
const NO_SUCH_DOMAIN = "no such domain in user context";
/** Servercow has no request that only checks credentials: every one names a domain. */
const CANNOT_VERIFY =
  "Servercow's API cannot check credentials without a domain to look at; the first update checks them";
/**
 * Servercow publishes no wording for refused credentials (its API answers in English, its control
 * panel also in German): an error naming a login, a user, a password, access or permission is taken
 * as such, so a wrong password is not retried for ever. "Method not allowed" is no such word.
 */
const CREDENTIALS_WORDS =
  /auth|credential|password|passwort|user ?name|benutzer|login|anmeld|zugang|unauthori[sz]ed|forbidden|verboten|access|permission|berechtigung|denied|verweigert/i;

type Row = Record<string, unknown>;

/** Servercow's `{"error": "…"}` as a failure: refused credentials stop the retries. */
function serviceError(words: string, status: number): StepFailure & { noSuchDomain: boolean } {
  const credentials = status === 401 || status === 403 || CREDENTIALS_WORDS.test(words);
  return {
    ...failed(`${SERVICE}: ${words}${status === 200 ? "" : ` (HTTP ${status})`}`, {
      cause: credentials ? "credentials" : "refused",
      stopRetrying: credentials,
    }),
    noSuchDomain: words.trim().toLowerCase() === NO_SUCH_DOMAIN,
  };
}

function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.error !== "string" || body.error === "") return undefined;
  return {
    words: body.error,
    ...(status === 401 || status === 403 || CREDENTIALS_WORDS.test(body.error)
      ? { stopRetrying: true, cause: "credentials" as const }
      : {}),
  };
}

export function createServercowApi(
  credentials: { username: string; password: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const headers = { "X-Auth-Username": credentials.username, "X-Auth-Password": credentials.password };

  /** One request; a 200 whose body is `{"error"}` is the failure it names. */
  async function call(
    method: string,
    domain: string,
    body?: unknown,
  ): Promise<Step<JsonAnswer> | (StepFailure & { noSuchDomain: boolean })> {
    const answer = await requestJson(
      context,
      SERVICE,
      { method, path: `/${encodeURIComponent(domain)}`, headers, body },
      readError,
    );
    if (answer.ok && isObject(answer.value.body) && typeof answer.value.body.error === "string")
      return serviceError(answer.value.body.error, answer.value.status);
    return answer;
  }

  async function listRecords(domain: string): Promise<Step<Row[]> | (StepFailure & { noSuchDomain: boolean })> {
    const listed = await call("GET", domain);
    if (!listed.ok) return listed;
    if (!Array.isArray(listed.value.body))
      return failed(`${SERVICE}: the records of ${domain} came back in an unknown shape`, { cause: "unreachable" });
    return { ok: true, value: listed.value.body.filter(isObject) };
  }

  // The listing that found the domain is also the read that follows it, within one write.
  let foundListing: { zone: string; records: Row[] } | undefined;

  const setId = (name: string, type: string) => `${name === "" ? "@" : name}/${type}`;
  const contents = (content: unknown) =>
    Array.isArray(content) ? content.map(String) : content === undefined || content === null ? [] : [String(content)];

  /** POSTs the name and type with one address; Servercow replaces whatever that set held. */
  async function put(zone: string, name: string, type: string, address: string, ttl: number): Promise<Step<RecordSet>> {
    const posted = await call("POST", zone, { type, name, content: address, ttl });
    if (!posted.ok) return posted;
    const body = asObject(posted.value.body);
    if (body.message !== "ok")
      return failed(`${SERVICE}: the write was not confirmed (${JSON.stringify(posted.value.body)})`, {
        cause: "unreachable",
      });
    return { ok: true, value: { id: setId(name, type), values: [address], ttl } };
  }

  // A name's TXT values are one set, its content an array of the texts: a POST replaces it whole
  // (the TTL read kept), and a DELETE naming the name and type removes it once no value is left.
  const txt = txtSet({
    async read(zone, name) {
      const listed = await listRecords(zone.id);
      if (!listed.ok) return listed;
      const relative = relativeName(name, zone.id);
      const rows = listed.value.filter((r) => r.type === "TXT" && String(r.name ?? "").toLowerCase() === relative);
      const ttl = rows[0]?.ttl;
      return {
        ok: true,
        value: {
          values: rows.flatMap((r) => contents(r.content)).map(unquotedTxt),
          ...(typeof ttl === "number" ? { ttl } : {}),
        },
      };
    },
    async write(zone, name, values, held) {
      const relative = relativeName(name, zone.id);
      const written =
        values.length === 0
          ? await call("DELETE", zone.id, { type: "TXT", name: relative })
          : await call("POST", zone.id, {
              type: "TXT",
              name: relative,
              content: values,
              ttl: held.ttl ?? CHALLENGE_TTL,
            });
      return written.ok ? { ok: true, value: undefined } : written;
    },
  });

  return {
    service: SERVICE,
    txt,

    // Not called by the appliance (canVerify is false); a direct call says why, without a request.
    verify: cannotVerify(CANNOT_VERIFY),

    // A domain is a name whose records list (the reconciler asks for the name and each parent,
    // longest first); Servercow answers "no such domain" for the others.
    async hasZone(name) {
      const listed = await listRecords(name);
      if (listed.ok) {
        foundListing = { zone: name, records: listed.value };
        return { ok: true, value: true };
      }
      return "noSuchDomain" in listed && listed.noSuchDomain ? { ok: true, value: false } : listed;
    },

    // Servercow gives this same answer to an API user that may not see the domain (and perhaps
    // to an unknown user): the credentials are as likely the cause as the domain. A domain added
    // to the account later makes the next try succeed, so this is not final.
    noZoneHint: () =>
      ` (Servercow answered "${NO_SUCH_DOMAIN}" for each of its parents) — check the API username and password, and that the API user may manage the domain`,

    async readRecordSet(zone, hostname, type) {
      let records: Row[];
      if (foundListing?.zone === zone.id) records = foundListing.records;
      else {
        const listed = await listRecords(zone.id);
        // A domain that left the account: look it up afresh.
        if (!listed.ok)
          return "noSuchDomain" in listed && listed.noSuchDomain ? { ...listed, staleZone: true } : listed;
        records = listed.value;
      }
      foundListing = undefined;
      const name = relativeName(hostname, zone.id);
      const matching = records.filter((r) => r.type === type && String(r.name ?? "").toLowerCase() === name);
      if (matching.length === 0) return { ok: true, value: null };
      const ttl = matching.find((r) => typeof r.ttl === "number")?.ttl as number | undefined;
      return {
        ok: true,
        value: {
          id: setId(name, type),
          values: matching.flatMap((r) => contents(r.content)),
          ...(ttl === undefined ? {} : { ttl }),
        },
      };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      // The POST replaces the set with what it is sent: the TTL read goes back with the new address.
      return put(
        zone.id,
        relativeName(hostname, zone.id),
        type,
        address,
        settings.ttl ?? current.ttl ?? NEW_RECORD_TTL,
      );
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      return put(zone.id, relativeName(hostname, zone.id), type, address, settings.ttl ?? NEW_RECORD_TTL);
    },
  };
}

/** Everything ddnsd knows about Servercow's DNS API. */
export const servercow = defineService({
  type: "servercow",
  label: "Servercow",
  summary: "Records of a domain at Servercow, through its DNS API with an API user's name and password.",
  credentials: [
    {
      key: "username",
      url: "https://cp.servercow.de/",
      label: "API username",
      help: "In Servercow's control panel (cp.servercow.de) open API → DNS API and create an API user; limit it to the domains ddnsd updates if the form offers it. Not your control panel login.",
      secret: false,
    },
    {
      key: "password",
      label: "API password",
      help: "The password of that API user.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(20, 86400, 300),
  ...cannotCheck(CANNOT_VERIFY),
  defaultApiUrl: "https://api.servercow.de/dns/v1/domains",
  // No documented request limit: the updater's own pacing (one write per changed address) is all it asks.
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createServercowApi(
      { username: credentials.username ?? "", password: credentials.password ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
