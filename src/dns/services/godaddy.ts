// GoDaddy Domains API v1 (docs/services/godaddy.md): the zone service primitives. GoDaddy serves
// DNS for the domains of the account, each named by itself in paths; a record set is addressed by
// domain, type and relative name (`@` for the apex), read as an array of `{data, name, ttl, type}`
// and written whole with a PUT of the same path, which replaces every record of that type and name.
// That is right for a set holding one address, the only kind the reconciler changes; a set with
// several is left alone before any PUT is sent. Requests carry `Authorization: sso-key KEY:SECRET`.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   GET /domains/{domain}/records/{type}/{name} + PUT of the same path = 2 (1 when the address is already there)
// Without it the account's domains are listed first (1,000 a page, `marker` = the last one seen) and
// the longest holding the hostname is used.
//
// Since 2024 GoDaddy lets only accounts with 10 or more domains, or an active Discount Domain Club
// plan, use these APIs; every other key gets 403 ACCESS_DENIED "Authenticated user is not allowed
// access", which no retry changes.
//
// Sources: developer.godaddy.com/doc/endpoint/domains (recordGet, recordReplaceTypeName,
// recordDeleteTypeName, list) and
// /getstarted (API access requirements, 60 requests a minute per endpoint); go-acme/lego
// providers/dns/godaddy/internal (client.go, types.go: `{code, message, fields}` errors);
// qdm12/ddns-updater providers/godaddy (PUT of `[{data}]`, the ACCESS_DENIED hint).

import { isObject, objectsIn } from "../../util/json";
import { type JsonAnswer, requestJson, type ServiceError, staleOn404 } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { txtSet, unquotedTxt } from "../txt";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "GoDaddy";
/** The most domains GoDaddy lists in one page. */
const DOMAINS_PER_PAGE = 1000;
/** 50,000 domains: past this the listing is taken as runaway pagination, not an account. */
const MAX_DOMAIN_PAGES = 50;
/** A new record's TTL when the domain's config names none: GoDaddy's minimum. */
const NEW_RECORD_TTL = 600;

export function createGodaddyApi(
  credentials: { key: string; secret: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const authorization = `sso-key ${credentials.key}:${credentials.secret}`;

  async function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    // A 429's body names its wait (`retryAfterSec`) where other services use a header.
    let namedWait: number | undefined;
    const answer = await requestJson(
      context,
      SERVICE,
      { method, path, headers: { Authorization: authorization }, body },
      (error, status) => {
        if (isObject(error) && typeof error.retryAfterSec === "number" && error.retryAfterSec >= 0)
          namedWait = error.retryAfterSec;
        return readError(error, status);
      },
    );
    if (
      !answer.ok &&
      answer.cause === "throttled" &&
      answer.retryAfterSeconds === undefined &&
      namedWait !== undefined
    ) {
      return { ...answer, retryAfterSeconds: namedWait };
    }
    return answer;
  }

  const setPath = (domain: string, hostname: string, type: string) =>
    `/domains/${encodeURIComponent(domain)}/records/${type}/${encodeURIComponent(relativeName(hostname, domain, "@"))}`;

  function recordSet(domain: string, hostname: string, type: string, values: string[], ttl: unknown): RecordSet {
    return {
      id: `${relativeName(hostname, domain, "@")}/${type}`,
      values,
      ...(typeof ttl === "number" ? { ttl } : {}),
    };
  }

  async function replaceSet(
    domain: string,
    hostname: string,
    type: string,
    addresses: readonly string[],
    ttl: number,
  ): Promise<Step<RecordSet>> {
    const put = await call(
      "PUT",
      setPath(domain, hostname, type),
      addresses.map((data) => ({ data, ttl })),
    );
    return put.ok ? { ok: true, value: recordSet(domain, hostname, type, [...addresses], ttl) } : put;
  }

  // One set per name and type, its data the text itself: a PUT writes it whole (TTL sent back),
  // and the set goes with a DELETE of the same path once no value is left (recordDeleteTypeName).
  const txt = txtSet({
    async read(zone, name) {
      const read = await call("GET", setPath(zone.id, name, "TXT"));
      if (!read.ok) return staleOn404(read);
      const records = objectsIn(read.value.body).filter((r) => r.type === undefined || r.type === "TXT");
      const ttl = records[0]?.ttl;
      return {
        ok: true,
        value: { values: records.map((r) => unquotedTxt(r.data)), ...(typeof ttl === "number" ? { ttl } : {}) },
      };
    },
    write: (zone, name, values, held) =>
      values.length === 0
        ? call("DELETE", setPath(zone.id, name, "TXT"))
        : call(
            "PUT",
            setPath(zone.id, name, "TXT"),
            values.map((data) => ({ data, ttl: held.ttl ?? NEW_RECORD_TTL })),
          ),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // The listing the writes start from; changes nothing. Refused for accounts GoDaddy keeps out of its API.
      const answer = await call("GET", "/domains?limit=1");
      return answer.ok ? { ok: true, detail: "Key accepted" } : failedCheck(answer);
    },

    async listZones() {
      const names: string[] = [];
      let marker: string | undefined;
      for (let page = 1; page <= MAX_DOMAIN_PAGES; page++) {
        const query = new URLSearchParams({
          limit: String(DOMAINS_PER_PAGE),
          ...(marker === undefined ? {} : { marker }),
        });
        const listed = await call("GET", `/domains?${query}`);
        if (!listed.ok) return listed;
        const found = objectsIn(listed.value.body)
          .map((d) => d.domain)
          .filter((n): n is string => typeof n === "string");
        names.push(...found);
        if (found.length < DOMAINS_PER_PAGE) break;
        marker = found.at(-1);
      }
      return { ok: true, value: zonesNamed(names) };
    },

    async readRecordSet(zone, hostname, type) {
      const read = await call("GET", setPath(zone.id, hostname, type));
      // 404 is an unknown domain (a missing record set is an empty list): one that left the account is looked up afresh.
      if (!read.ok) return staleOn404(read);
      const records = objectsIn(read.value.body).filter((r) => r.type === undefined || r.type === type);
      if (records.length === 0) return { ok: true, value: null };
      return {
        ok: true,
        value: recordSet(
          zone.id,
          hostname,
          type,
          records.map((r) => String(r.data)),
          records[0]!.ttl,
        ),
      };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      // The PUT replaces the set: its TTL is sent back, or GoDaddy would give the record its default.
      return replaceSet(zone.id, hostname, type, [address], settings.ttl ?? current.ttl ?? NEW_RECORD_TTL);
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      return replaceSet(zone.id, hostname, type, [address], settings.ttl ?? NEW_RECORD_TTL);
    },

    // The same PUT takes every address of the set at once.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      return replaceSet(zone.id, hostname, type, addresses, settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL);
    },
  };
}

/**
 * GoDaddy's error body: `{code, message, fields?: [{code, message, path}]}`. A key GoDaddy does not
 * know (401 UNABLE_TO_AUTHENTICATE) or keeps out of the API (403 ACCESS_DENIED: an account with fewer
 * than 10 domains and no Discount Domain Club plan) only comes right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const message = typeof body.message === "string" && body.message !== "" ? body.message : undefined;
  const fields = objectsIn(body.fields)
    .map((f) => [f.path, f.message].filter((p) => typeof p === "string" && p !== "").join(": "))
    .filter(Boolean);
  const words = [message, ...fields].filter((w): w is string => w !== undefined).join("; ");
  if (words === "") return undefined;
  const code = typeof body.code === "string" && body.code !== "" ? body.code : undefined;
  const accessDenied = status === 403 && code === "ACCESS_DENIED";
  return {
    words: accessDenied
      ? `${words} — GoDaddy opens its DNS API only to accounts with 10 or more domains or a Discount Domain Club plan`
      : words,
    ...(code === undefined ? {} : { code }),
    ...(status === 401 || status === 403 ? { stopRetrying: true } : {}),
  };
}

/** Everything ddnsd knows about GoDaddy (docs/services/godaddy.md). */
export const godaddy = defineService({
  type: "godaddy",
  label: "GoDaddy",
  summary:
    "Domains at GoDaddy that use its DNS, through the GoDaddy Domains API with a production API key and secret. GoDaddy opens this API only to accounts with 10 or more domains or a Discount Domain Club plan.",
  credentials: [
    {
      key: "key",
      url: "https://developer.godaddy.com/keys",
      label: "API key",
      help:
        "At developer.godaddy.com/keys choose Create New API Key with the environment Production (an OTE test key does not work on your real domains). " +
        "GoDaddy keys are not scoped: a key can do everything the account can, so make one for ddnsd alone. " +
        'GoDaddy now answers only accounts with 10 or more domains or an active Discount Domain Club plan; others get "Authenticated user is not allowed access".',
      secret: false,
    },
    {
      key: "secret",
      label: "API secret",
      help: "The secret shown once beside the production key when it is made at developer.godaddy.com/keys.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(600, 604800, 600),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.godaddy.com/v1",
  // GoDaddy allows 60 requests a minute per endpoint; ddnsd stays under it for all of them together.
  rateLimits: [{ requests: 50, perSeconds: 60 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createGodaddyApi({ key: credentials.key ?? "", secret: credentials.secret ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
