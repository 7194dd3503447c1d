// Huawei Cloud DNS client: checks an AK/SK pair and points one A/AAAA record set at an address in a
// public zone. Requests are signed with SDK-HMAC-SHA256 (huaweicloud-signer.ts: `X-Sdk-Date` and
// `Authorization` over `host` and `x-sdk-date`) and speak JSON. Zones and record sets have ids.
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   GET recordsets?name=&type=&search_mode=equal + PUT recordset = 2 (1 when the address is already there)
// Without it the account's public zones are listed (500 a page) and the longest one holding the
// hostname is used; a zone given by id is named (GET /v2/zones/{id}) only before a set is created.
//
// Names are absolute (`home.example.com.`) and the listing's name filter matches loosely by default,
// so the set read is only the one whose name and type are exactly these. The PUT keeps what it is
// not sent (the description, and the TTL when none is given); the TTL read is sent anyway. Writes
// answer 202 with the set PENDING_UPDATE / PENDING_CREATE: Huawei applies them within seconds.
//
// Errors come in two shapes: the DNS service's `{code, message}` (DNS.0302 zone gone → looked up
// afresh; DNS.0013 no permission; DNS.0403 no record set quota left; DNS.0014 "Request forbidden by
// flow control") and the API gateway's `{error_code, error_msg, request_id}` (APIGW.0301 refused
// AK/SK, 401; APIGW.0308 the throttling threshold, 429). Refused keys stop retrying; both
// flow-control answers are "slow down".
//
// Sources: docs/services/huaweicloud.md; Huawei Cloud DNS API reference (support.huaweicloud.com/api-dns:
// ListPublicZones, ShowPublicZone, ListRecordSetsByZone, UpdateRecordSet, CreateRecordSet, error
// codes) and API Gateway error codes; jeessy2/ddns-go dns/huawei.go; go-acme/lego providers/dns/huaweicloud.

import { sentJson } from "../../net/http";
import { asObject, isObject, objectsIn } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, type JsonAnswer, requestJson, type ServiceError, staleOn404 } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type Zone, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { signRequest } from "../signing/huaweicloud-signer";
import { CHALLENGE_TTL, quotedTxt, txtSet, unquotedTxt } from "../txt";
import { failedCheck, longestZone, noZoneMessage } from "../zones";

const SERVICE = "Huawei Cloud DNS";
/** TTL of a record set this client creates when the domain's config names none: Huawei's default. */
const NEW_RECORD_TTL = 300;
const ZONES_PER_PAGE = 500;
/** 25,000 zones: past this the listing is taken as runaway pagination, not an account. */
const MAX_ZONE_PAGES = 50;

export function createHuaweiCloudApi(
  credentials: { access_key_id: string; secret_access_key: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    const url = new URL(context.baseUrl + path);
    const signed = signRequest(
      { method, url, headers: { host: url.host }, body: sentJson(body) },
      { accessKey: credentials.access_key_id, secretKey: credentials.secret_access_key },
    );
    return requestJson(context, SERVICE, { method, path, headers: signed, body }, readError);
  }

  const absolute = (name: string) => `${name}.`;
  const bare = (name: unknown) =>
    String(name ?? "")
      .toLowerCase()
      .replace(/\.$/, "");

  const recordsets = (zone: Zone) => `/v2/zones/${encodeURIComponent(zone.id)}/recordsets`;

  // A record set holds every value of the name, each a quoted string: a PUT writes it whole (its
  // TTL kept), a POST creates it, and a DELETE removes it once no value is left.
  const txt = txtSet({
    async read(zone, name) {
      const query = new URLSearchParams({ name: absolute(name), type: "TXT", search_mode: "equal", limit: "100" });
      const read = await call("GET", `${recordsets(zone)}?${query}`);
      if (!read.ok) return staleOn404(read);
      const set = objectsIn(asObject(read.value.body).recordsets).find(
        (s) => bare(s.name) === name && s.type === "TXT",
      );
      if (set === undefined) return { ok: true, value: { values: [] } };
      const values = (Array.isArray(set.records) ? set.records : []).map(unquotedTxt);
      return {
        ok: true,
        value: { values, ...(typeof set.ttl === "number" ? { ttl: set.ttl } : {}), raw: String(set.id) },
      };
    },
    write(zone, name, values, held) {
      const records = values.map(quotedTxt);
      const ttl = held.ttl ?? CHALLENGE_TTL;
      if (typeof held.raw !== "string")
        return call("POST", recordsets(zone), { name: absolute(name), type: "TXT", records, ttl });
      const path = `${recordsets(zone)}/${encodeURIComponent(held.raw)}`;
      return values.length === 0
        ? call("DELETE", path)
        : call("PUT", path, { name: absolute(name), type: "TXT", records, ttl });
    },
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const listed = await call("GET", "/v2/zones?type=public&limit=1");
      if (!listed.ok) return failedCheck(listed);
      const body = asObject(listed.value.body);
      const count = Number(isObject(body.metadata) ? body.metadata.total_count : Number.NaN);
      return {
        ok: true,
        detail: Number.isInteger(count)
          ? `Access key accepted (${plural(count, "public zone")})`
          : "Access key accepted",
      };
    },

    async findZone(hostname, configured) {
      // A configured zone is used by its id; whether it holds the name is asked only before a set
      // is created in it (zoneName), and a zone that is gone shows when its sets are read.
      if (configured !== undefined) return { ok: true, value: { id: configured, name: null } };
      const zones = new Map<string, string>();
      for (let page = 0; page < MAX_ZONE_PAGES; page++) {
        const listed = await call(
          "GET",
          `/v2/zones?${new URLSearchParams({ type: "public", limit: String(ZONES_PER_PAGE), offset: String(page * ZONES_PER_PAGE) })}`,
        );
        if (!listed.ok) return listed;
        const body = asObject(listed.value.body);
        const found = objectsIn(body.zones);
        for (const zone of found) if (typeof zone.id === "string") zones.set(bare(zone.name), zone.id);
        const total = Number(isObject(body.metadata) ? body.metadata.total_count : Number.NaN);
        if (found.length < ZONES_PER_PAGE || zones.size >= total) break;
      }
      const name = longestZone(hostname, zones.keys());
      const id = name === undefined ? undefined : zones.get(name);
      return name === undefined || id === undefined
        ? failed(noZoneMessage(SERVICE, hostname), { cause: "refused" })
        : { ok: true, value: { id, name } };
    },

    async zoneName(zoneId) {
      const zone = await call("GET", `/v2/zones/${encodeURIComponent(zoneId)}`);
      if (!zone.ok) return staleOn404(zone);
      return { ok: true, value: bare(isObject(zone.value.body) ? zone.value.body.name : "") };
    },

    async readRecordSet(zone, hostname, type) {
      const query = new URLSearchParams({ name: absolute(hostname), type, search_mode: "equal", limit: "100" });
      const read = await call("GET", `/v2/zones/${encodeURIComponent(zone.id)}/recordsets?${query}`);
      if (!read.ok) return staleOn404(read);
      const body = asObject(read.value.body);
      // The name filter may match loosely: only sets of exactly this name and type count.
      const sets = objectsIn(body.recordsets).filter((s) => bare(s.name) === hostname && s.type === type);
      const [first] = sets;
      if (first === undefined) return { ok: true, value: null };
      const set: RecordSet = {
        id: String(first.id ?? ""),
        // Several sets of one name and type (resolution lines, weights) are several addresses, left alone.
        values: sets.flatMap((s) => (Array.isArray(s.records) ? s.records.map(String) : [])),
        ...(typeof first.ttl === "number" ? { ttl: first.ttl } : {}),
        members: sets,
      };
      return { ok: true, value: set };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const ttl = settings.ttl ?? current.ttl;
      const body = { name: absolute(hostname), type, records: [address], ...(ttl === undefined ? {} : { ttl }) };
      const put = await call(
        "PUT",
        `/v2/zones/${encodeURIComponent(zone.id)}/recordsets/${encodeURIComponent(current.id)}`,
        body,
      );
      if (!put.ok) return staleOn404(put);
      const written = asObject(put.value.body);
      const kept = typeof written.ttl === "number" ? written.ttl : ttl;
      return {
        ok: true,
        value: { id: current.id, values: [address], ...(kept === undefined ? {} : { ttl: kept }), raw: written.status },
      };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const post = await call("POST", `/v2/zones/${encodeURIComponent(zone.id)}/recordsets`, {
        name: absolute(hostname),
        type,
        records: [address],
        ttl,
      });
      if (!post.ok) return staleOn404(post);
      const written = asObject(post.value.body);
      return { ok: true, value: { id: String(written.id ?? ""), values: [address], ttl, raw: written.status } };
    },

    // A set's records are written whole in one PUT (a POST when there is none). A name whose addresses
    // sit in several sets (resolution lines, weights) is left alone: which line would get which address
    // is not ddnsd's to choose.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      if ((current?.members?.length ?? 0) > 1)
        return failed(
          `${SERVICE}: ${hostname} ${type} is split over ${current!.members!.length} record sets (resolution lines or weights), so ddnsd does not write a set of addresses there; set config.addresses to "first" or keep one record set`,
          { cause: "refused" },
        );
      const ttl = settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL;
      const body = { name: absolute(hostname), type, records: [...addresses], ttl };
      const path = `/v2/zones/${encodeURIComponent(zone.id)}/recordsets`;
      const sent =
        current === null
          ? await call("POST", path, body)
          : await call("PUT", `${path}/${encodeURIComponent(current.id)}`, body);
      if (!sent.ok) return staleOn404(sent);
      const written = asObject(sent.value.body);
      const id = current?.id ?? String(written.id ?? "");
      return { ok: true, value: { id, values: [...addresses], ttl, raw: written.status } };
    },

    describe(set) {
      const status = typeof set.raw === "string" ? set.raw.toLowerCase().replace(/_/g, " ") : undefined;
      return [...(set.ttl === undefined ? [] : [`ttl ${set.ttl}`]), ...(status ? [status] : [])];
    },
  };
}

/** Huawei's own words: the DNS service's `{code, message}` or the API gateway's `{error_code, error_msg}`. */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const code =
    typeof body.code === "string" ? body.code : typeof body.error_code === "string" ? body.error_code : undefined;
  const message =
    typeof body.message === "string" ? body.message : typeof body.error_msg === "string" ? body.error_msg : undefined;
  if (code === undefined && message === undefined) return undefined;
  const words = message || code || "request failed";
  const named = code === undefined ? {} : { code };
  // "Request forbidden by flow control" is a 403 that only means "slow down".
  if (code === "DNS.0014" || code === "APIGW.0308" || status === 429) return { words, ...named, cause: "throttled" };
  // A 403 for a full quota (DNS.0403 record sets, DNS.0404 zones) is no credentials problem, but as final.
  if (code?.startsWith("DNS.040")) return { words, ...named, cause: "refused", stopRetrying: true };
  // The gateway refuses an X-Sdk-Date more than 15 minutes off its clock with the same 401 APIGW.0301
  // as a wrong key. When its words name the date or an expiry, the keys are fine and the clock is
  // not: retried, since fixing the clock fixes it without editing the provider.
  if (status === 401 && CLOCK_WORDS.test(words)) {
    return {
      words: `${words} — check this machine's clock (Huawei takes a request signed at most 15 minutes off)`,
      ...named,
      cause: "refused",
    };
  }
  if (status === 401 || status === 403) return { words, ...named, cause: "credentials", stopRetrying: true };
  return { words, ...named };
}

/** Words of a 401 that name the request's date or its expiry rather than the key. */
const CLOCK_WORDS = /expire|\bdate\b|time ?stamp|clock|skew|server time/i;

export const huaweicloud = defineService({
  type: "huaweicloud",
  label: "Huawei Cloud DNS",
  summary:
    "Huawei Cloud DNS public zones: ddnsd updates the address of the record set, keeping its TTL and description; a missing record set is created.",
  credentials: [
    {
      key: "access_key_id",
      url: "https://console.huaweicloud.com/iam/#/mine/accessKey",
      label: "Access key ID (AK)",
      help: 'In the IAM console create a user with programmatic access only, add it to a group granted "DNS FullAccess" (or a custom policy allowing dns:zone:list, dns:zone:get, dns:recordset:list, dns:recordset:update and dns:recordset:create), then under My Credentials → Access Keys create its access key. The AK is not a secret.',
      secret: false,
    },
    {
      key: "secret_access_key",
      label: "Secret access key (SK)",
      help: "In the credentials.csv downloaded when the access key is created; it is shown only then.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 2147483647, 300),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://dns.myhuaweicloud.com",
  // Huawei's API gateway throttles per account (APIGW.0308); ddnsd stays well under it.
  rateLimits: [{ requests: 5, perSeconds: 1 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createHuaweiCloudApi(
      { access_key_id: credentials.access_key_id ?? "", secret_access_key: credentials.secret_access_key ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
