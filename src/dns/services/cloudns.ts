// ClouDNS HTTP API (docs/services/cloudns.md): the zone service primitives. Every call is
// `/dns/<operation>.json` with the API user's id (`auth-id` for an API user, `sub-auth-id` for a
// sub-user limited to some zones) and its password in the query; reads are GETs, writes POSTs.
// Answers are HTTP 200 whether they succeed or not: a refusal is `{"status": "Failed",
// "statusDescription"}`. `records.json` answers the records keyed by id (`[]` when there are none):
// `{id, type, host, record, ttl}`, `host` relative to the zone (`""` for the apex), `ttl` a string.
// ClouDNS keeps only a list of TTLs; a TTL between two is rounded up to the next one.
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   records.json + mod-record.json = 2 (1 when the address is already there)
// Without it the hostname and each parent are asked for with get-zone-info.json, longest first.
//
// Sources: ClouDNS API documentation (cloudns.net/wiki: API login, get zone info, list records,
// add record, modify record, available TTLs); lego providers/dns/cloudns (internal/client.go:
// auth-id or sub-auth-id, `records.json` keyed by id or `[]`, `status`/`statusDescription`, the
// TTL list).

import { asObject, isObject } from "../../util/json";
import { failed, failedAnswer, type JsonAnswer, requestJson } from "../answers";
import type { Step, StepFailure } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { writeSetByRecords } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { failedCheck, relativeName, sameAddress } from "../zones";

const SERVICE = "ClouDNS";
/** The TTLs ClouDNS keeps. */
const CLOUDNS_TTLS = [60, 300, 900, 1800, 3600, 21600, 43200, 86400, 172800, 259200, 604800, 1209600, 2592000] as const;
/** A new record's TTL when the domain's config names none. */
const NEW_RECORD_TTL = 3600;
const CLOUDNS_ID_KINDS = ["sub-auth-id", "auth-id"] as const;

/** The TTL ClouDNS keeps for `ttl`: the next one of its list (the longest for anything above). */
export function cloudnsTtl(ttl: number): number {
  return CLOUDNS_TTLS.find((kept) => ttl <= kept) ?? CLOUDNS_TTLS[CLOUDNS_TTLS.length - 1]!;
}

export function createCloudnsApi(
  credentials: { idKind: (typeof CLOUDNS_ID_KINDS)[number]; authId: string; password: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  /** One operation; a refusal (`status` Failed) is a failure in ClouDNS's words, `refusedAuth` when it names the credentials. */
  async function call(
    method: "GET" | "POST",
    operation: string,
    params: Record<string, string>,
  ): Promise<Step<unknown> & { refusedAuth?: boolean }> {
    const query = new URLSearchParams({
      [credentials.idKind]: credentials.authId,
      "auth-password": credentials.password,
      ...params,
    });
    const answer = await requestJson(
      context,
      SERVICE,
      { method, path: `/${operation}.json?${query}`, headers: {} },
      readError,
    );
    if (!answer.ok) return answer;
    return refusal(answer.value) ?? { ok: true, value: answer.value.body };
  }

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    const first = records[0]!;
    const ttl = Number(first.ttl);
    return {
      id: String(first.id),
      values: records.map((r) => String(r.record)),
      ...(Number.isInteger(ttl) && ttl > 0 ? { ttl } : {}),
      members: records,
    };
  }

  /** The name's records of one type, as one set; null when there are none. */
  async function readRecords(zone: string, hostname: string, type: string): Promise<Step<RecordSet | null>> {
    const host = relativeName(hostname, zone);
    const listed = await call("GET", "dns/records", { "domain-name": zone, host, type });
    // A zone in the config that ClouDNS no longer knows: looked up afresh, once.
    if (!listed.ok) return listed.refusedAuth || listed.cause !== "refused" ? listed : { ...listed, staleZone: true };
    // Keyed by id; `[]` when there are none.
    const records = (isObject(listed.value) ? Object.values(listed.value) : [])
      .filter(isObject)
      .filter((r) => r.type === type && r.id !== undefined && String(r.host ?? "").toLowerCase() === host);
    return { ok: true, value: records.length === 0 ? null : recordSet(records) };
  }

  // One record per value, its record the text itself; removed by id (dns/delete-record).
  const txt = txtRecords({
    async list(zone, name) {
      const host = relativeName(name, zone.id);
      const listed = await call("GET", "dns/records", { "domain-name": zone.id, host, type: "TXT" });
      if (!listed.ok) return listed;
      const records = (isObject(listed.value) ? Object.values(listed.value) : [])
        .filter(isObject)
        .filter((r) => r.type === "TXT" && r.id !== undefined && String(r.host ?? "").toLowerCase() === host);
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.record) })) };
    },
    create: (zone, name, value) =>
      call("POST", "dns/add-record", {
        "domain-name": zone.id,
        "record-type": "TXT",
        host: relativeName(name, zone.id),
        record: value,
        ttl: String(cloudnsTtl(CHALLENGE_TTL)),
      }),
    delete: (zone, record) => call("POST", "dns/delete-record", { "domain-name": zone.id, "record-id": record.id }),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // ClouDNS's own credential check: changes nothing.
      const answer = await call("GET", "login/login", {});
      return answer.ok
        ? { ok: true, detail: `Credentials accepted for ${credentials.idKind} ${credentials.authId}` }
        : failedCheck(answer);
    },

    // The zone is the longest of the hostname and its parents that ClouDNS describes.
    async hasZone(name) {
      const info = await call("GET", "dns/get-zone-info", { "domain-name": name });
      // Refused credentials, or no usable answer: asking for the next name would fare no better.
      if (!info.ok && (info.refusedAuth || info.cause !== "refused")) return info;
      return {
        ok: true,
        value: info.ok && isObject(info.value) && String(info.value.name ?? "").toLowerCase() === name,
      };
    },

    readRecordSet: (zone, hostname, type) => readRecords(zone.id, hostname, type),

    async updateRecordSet(zone, hostname, _type, current, address, settings) {
      // The modification replaces the record: its TTL is sent back.
      const ttl = cloudnsTtl(settings.ttl ?? current.ttl ?? NEW_RECORD_TTL);
      const answer = await call("POST", "dns/mod-record", {
        "domain-name": zone.id,
        "record-id": current.id,
        host: relativeName(hostname, zone.id),
        record: address,
        ttl: String(ttl),
      });
      return answer.ok ? { ok: true, value: { id: current.id, values: [address], ttl } } : answer;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = cloudnsTtl(settings.ttl ?? NEW_RECORD_TTL);
      const answer = await call("POST", "dns/add-record", {
        "domain-name": zone.id,
        "record-type": type,
        host: relativeName(hostname, zone.id),
        record: address,
        ttl: String(ttl),
      });
      if (!answer.ok) return answer;
      const data = asObject(asObject(answer.value).data);
      if (data.id !== undefined) return { ok: true, value: { id: String(data.id), values: [address], ttl } };
      // The record was added, but the answer names no id (as in the traffic lego recorded: status and
      // statusDescription only): read it back rather than report a failure and add it again next pass.
      const written = await readRecords(zone.id, hostname, type);
      if (!written.ok) return written;
      return written.value?.values.some((value) => sameAddress(value, address))
        ? { ok: true, value: written.value }
        : failed(`${SERVICE}: the added record is not listed`, { cause: "refused" });
    },

    // One record per address: the difference is added, modified (its TTL sent back) or deleted by id.
    // One record per address: the difference is sent through the one-record requests.
    writeAddressSet(...args) {
      return writeSetByRecords(
        this,
        {
          address: (record) => String(record.record),
          ttl: (record) => Number(record.ttl),
          asSet: (record) => recordSet([record]),
          delete: (zone, record) =>
            call("POST", "dns/delete-record", { "domain-name": zone.id, "record-id": String(record.id) }),
        },
        args,
      );
    },

    storedTtl: cloudnsTtl,
  };
}

/** Whether ClouDNS's words are about the credentials (its answer to a wrong id or password, or to a plan without the API). */
const AUTH_WORDS = /auth|password|api access|not allowed/i;

/** A `{"status": "Failed"}` answer as a failure: the credentials' fault (not retried) or a refusal. */
function refusal(answer: JsonAnswer): (StepFailure & { refusedAuth?: boolean }) | undefined {
  const body = answer.body;
  if (!isObject(body) || body.status !== "Failed") return undefined;
  const words =
    typeof body.statusDescription === "string" && body.statusDescription !== "" ? body.statusDescription : "Failed";
  const auth = AUTH_WORDS.test(words);
  const failure = failedAnswer(SERVICE, answer.status, answer.headers, "", {
    words,
    cause: auth ? "credentials" : "refused",
    ...(auth ? { stopRetrying: true } : {}),
  });
  return auth ? { ...failure, refusedAuth: true } : failure;
}

/** The same body on an HTTP error (a gateway's, a 429). */
function readError(body: unknown) {
  return isObject(body) && typeof body.statusDescription === "string" && body.statusDescription !== ""
    ? { words: body.statusDescription }
    : undefined;
}

/** Everything ddnsd knows about ClouDNS (docs/services/cloudns.md). */
export const cloudns = defineService({
  type: "cloudns",
  label: "ClouDNS",
  summary:
    "DNS zones at ClouDNS, through its HTTP API with an API user (auth-id) or API sub-user (sub-auth-id) and its password.",
  credentials: [
    {
      key: "auth_id",
      label: "Auth ID",
      help:
        "At cloudns.net: API & Resellers → API users. Best: add a sub-user there, limited to the zones ddnsd updates, and use its sub-auth-id " +
        "(set “ID kind” to sub-auth-id); an API user's auth-id can change every zone. ClouDNS opens the API to paid plans only.",
      url: "https://www.cloudns.net/api-settings/",
      secret: false,
      validate: (value) => (/^\d+$/.test(value.trim()) ? undefined : "must be the numeric id ClouDNS shows"),
    },
    {
      key: "auth_password",
      label: "Password",
      help: "The password set for that API user or sub-user (not the account's login password).",
      url: "https://www.cloudns.net/api-settings/",
      secret: true,
    },
  ],
  options: [
    {
      key: "id_kind",
      label: "ID kind",
      help: "sub-auth-id for an API sub-user (limited to some zones; best), auth-id for an API user (every zone).",
      kind: "choice",
      choices: CLOUDNS_ID_KINDS,
      default: "sub-auth-id",
    },
  ],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 2592000, undefined, {
    note: "rounded up to a TTL ClouDNS keeps (60, 300, 900, 1800, 3600, 21600, …)",
  }),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://api.cloudns.net",
  // ClouDNS's documentation names no request limit ddnsd could find; ddnsd keeps to two requests a second.
  rateLimits: [{ requests: 2, perSeconds: 1 }],
  holdsTxt: true,
  createClient(credentials, options, context) {
    const api = createCloudnsApi(
      {
        idKind: options.id_kind === "auth-id" ? "auth-id" : "sub-auth-id",
        authId: (credentials.auth_id ?? "").trim(),
        password: credentials.auth_password ?? "",
      },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
