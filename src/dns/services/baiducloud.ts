// Baidu AI Cloud DNS (docs/services/baiducloud.md): the zone service primitives. Requests are signed
// with BCE auth v1 (`bceAuthorization` below) over `host` and `x-bce-date` and speak JSON. A zone is
// named by itself in paths (`/v1/dns/zone/{zoneName}/record`); records have string ids, a host
// record `rr` relative to the zone (`@` for the apex), `value`, `ttl`, `line` and `description`.
// Listings page with `marker` / `isTruncated` / `nextMarker`.
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   GET record?rr= + PUT record/{id} = 2 (1 when the address is already there)
// Without it the account's zones are listed first and the longest one holding the hostname is used.
// A write answers with no body, so a created record is read back once for its id.
//
// The PUT takes rr, type and value and, where it is sent none, gives the record the plan's default
// TTL: the TTL read (or config.ttl) and the description read are sent back with the address. The
// record's line is not part of the PUT and stays.
//
// Errors are BCE's common `{requestId, code, message}`: InvalidAccessKeyId and AccessDenied (403),
// SignatureDoesNotMatch (400) and OptInRequired (403, DNS not activated) only come right when the
// provider is edited, InappropriateJSON (400, a TTL under the plan's minimum) when the domain is; a
// 429 is "slow down".
//
// Sources: Baidu AI Cloud DNS API reference (intl.cloud.baidu.com/doc/DNS: zones, resolution
// records; cloud.baidu.com/doc/Reference: the BCE authentication and common error codes);
// go-acme/lego providers/dns/baiducloud with the official baidubce/bce-sdk-go services/dns and
// auth/signer.go; jeessy2/ddns-go util/baidu_signer.go (the same signer, for Baidu's registrar API).

import { createHmac } from "node:crypto";
import { asObject, isObject } from "../../util/json";
import { failed, type JsonAnswer, requestJson, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type Zone, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { writeSetByRecords } from "../record-per-address";
import { type ClientContext, defineService } from "../service";
import { txtRecords, unquotedTxt } from "../txt";
import { acceptedCounting, relativeName, sameAddress } from "../zones";

const SERVICE = "Baidu Cloud DNS";
/** The host record Baidu uses for the zone's own name. */
const APEX = "@";
/** A new record's TTL when the domain's config names none: the free (basic) plan's default and minimum. */
const NEW_RECORD_TTL = 300;
/** The most items Baidu gives in one page. */
const MAX_KEYS = 1000;
/** How long a signature stays valid, in seconds (the SDKs' default). */
const SIGNATURE_LIFETIME = 1800;

/** RFC 3986 encoding as BCE signs it: unreserved characters kept, `/` kept only where asked. */
function bceEncode(value: string, keepSlash = false): string {
  const encoded = encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return keepSlash ? encoded.replace(/%2F/g, "/") : encoded;
}

/** The headers BCE signs by default: host, the content headers, and every `x-bce-*` but the request id. */
function signedHeaderNames(headers: Record<string, string>): string[] {
  const defaults = new Set(["host", "content-length", "content-type", "content-md5"]);
  return Object.keys(headers)
    .map((name) => name.toLowerCase())
    .filter((name) => defaults.has(name) || (name.startsWith("x-bce-") && name !== "x-bce-request-id"))
    .sort();
}

/**
 * The `Authorization` value of BCE auth v1: `bce-auth-v1/{ak}/{timestamp}/{expiration}/{signedHeaders}/{signature}`,
 * the signature being the hex HMAC-SHA256, under the hex HMAC-SHA256 of that prefix with the SK, of
 * method, encoded path, sorted query and sorted signed headers, one a line.
 */
export function bceAuthorization(
  request: { method: string; path: string; query: Record<string, string | null>; headers: Record<string, string> },
  credentials: { accessKeyId: string; secretAccessKey: string },
  timestamp: Date,
  expiresIn = SIGNATURE_LIFETIME,
): string {
  const date = timestamp.toISOString().replace(/\.\d{3}Z$/, "Z");
  const prefix = `bce-auth-v1/${credentials.accessKeyId}/${date}/${expiresIn}`;
  const signingKey = createHmac("sha256", credentials.secretAccessKey).update(prefix).digest("hex");
  const path = `/${bceEncode(request.path.replace(/^\//, ""), true)}`;
  const query = Object.entries(request.query)
    .filter(([name]) => name.toLowerCase() !== "authorization")
    .map(([name, value]) => `${bceEncode(name)}=${bceEncode(value ?? "")}`)
    .sort()
    .join("&");
  const lowered = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const names = signedHeaderNames(lowered);
  const headers = names
    .map((name) => `${bceEncode(name)}:${bceEncode(String(lowered[name] ?? "").trim())}`)
    .sort()
    .join("\n");
  const signature = createHmac("sha256", signingKey)
    .update([request.method, path, query, headers].join("\n"))
    .digest("hex");
  return `${prefix}/${names.join(";")}/${signature}`;
}

export function createBaiduCloudApi(
  credentials: { access_key_id: string; secret_access_key: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const keys = { accessKeyId: credentials.access_key_id.trim(), secretAccessKey: credentials.secret_access_key };

  function call(
    method: string,
    path: string,
    query: Record<string, string> = {},
    body?: unknown,
  ): Promise<Step<JsonAnswer>> {
    const search = new URLSearchParams(query).toString();
    const url = new URL(context.baseUrl + path);
    const now = new Date();
    const signed = { host: url.host, "x-bce-date": now.toISOString().replace(/\.\d{3}Z$/, "Z") };
    const authorization = bceAuthorization(
      { method, path: decodeURIComponent(url.pathname), query, headers: signed },
      keys,
      now,
    );
    return requestJson(
      context,
      SERVICE,
      {
        method,
        path: search === "" ? path : `${path}?${search}`,
        headers: { "x-bce-date": signed["x-bce-date"], Authorization: authorization },
        body,
      },
      readError,
    );
  }

  /** Every item of a marker-paged listing, under `field`. */
  function listAll(
    path: string,
    field: string,
    query: Record<string, string> = {},
  ): Promise<Step<Record<string, unknown>[]>> {
    return paginate(async (marker) => {
      const listed = await call("GET", path, {
        ...query,
        maxKeys: String(MAX_KEYS),
        ...(marker ? { marker: String(marker) } : {}),
      });
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const items = Array.isArray(body[field]) ? (body[field] as unknown[]).filter(isObject) : [];
      const more = body.isTruncated === true && typeof body.nextMarker === "string" && body.nextMarker !== "";
      return { ok: true, value: { items, next: more ? String(body.nextMarker) : undefined } };
    });
  }

  const recordsPath = (zone: string) => `/v1/dns/zone/${encodeURIComponent(zone)}/record`;

  /** The records of exactly this host record and type (the `rr` filter is applied again here). */
  async function records(zone: Zone, hostname: string, type: string): Promise<Step<Record<string, unknown>[]>> {
    const rr = relativeName(hostname, zone.id, APEX);
    const listed = await listAll(recordsPath(zone.id), "records", { rr });
    if (!listed.ok) return staleOn404(listed);
    return {
      ok: true,
      value: listed.value.filter(
        (r) => r.type === type && typeof r.id === "string" && String(r.rr ?? "").toLowerCase() === rr,
      ),
    };
  }

  function recordSet(found: Record<string, unknown>[]): RecordSet {
    const first = found[0]!;
    return {
      id: String(first.id),
      // Several records of one name and type (one per line, or round robin) are several addresses, left
      // alone unless the domain publishes a set of addresses.
      values: found.map((r) => String(r.value)),
      ...(typeof first.ttl === "number" ? { ttl: first.ttl } : {}),
      raw: first,
      members: found,
    };
  }

  // One record per value, its value the text itself; removed by id.
  const txt = txtRecords({
    async list(zone, name) {
      const found = await records(zone, name, "TXT");
      if (!found.ok) return found;
      return { ok: true, value: found.value.map((r) => ({ id: String(r.id), value: unquotedTxt(r.value) })) };
    },
    create: (zone, name, value) =>
      call(
        "POST",
        recordsPath(zone.id),
        {},
        { rr: relativeName(name, zone.id, APEX), type: "TXT", value, ttl: NEW_RECORD_TTL },
      ),
    delete: (zone, record) => call("DELETE", `${recordsPath(zone.id)}/${encodeURIComponent(record.id)}`, {}),
  });

  return {
    service: SERVICE,
    txt,

    // Lists zones: the same permission the writes need to find one; changes nothing.
    verify: () => acceptedCounting(listAll("/v1/dns/zone", "zones"), "Access key accepted"),

    async listZones() {
      const listed = await listAll("/v1/dns/zone", "zones");
      if (!listed.ok) return listed;
      return { ok: true, value: zonesNamed(listed.value.map((z) => z.name)) };
    },

    async readRecordSet(zone, hostname, type) {
      const found = await records(zone, hostname, type);
      if (!found.ok) return found;
      return { ok: true, value: found.value.length === 0 ? null : recordSet(found.value) };
    },

    async updateRecordSet(zone, _hostname, type, current, address, settings) {
      const record = asObject(current.raw);
      const ttl = settings.ttl ?? current.ttl;
      const put = await call(
        "PUT",
        `${recordsPath(zone.id)}/${encodeURIComponent(current.id)}`,
        {},
        {
          rr: String(record.rr ?? ""),
          type,
          value: address,
          ...(ttl === undefined ? {} : { ttl }),
          ...(typeof record.description === "string" && record.description !== ""
            ? { description: record.description }
            : {}),
        },
      );
      if (!put.ok) return staleOn404(put);
      return {
        ok: true,
        value: {
          id: current.id,
          values: [address],
          ...(ttl === undefined ? {} : { ttl }),
          raw: { ...record, value: address },
        },
      };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const post = await call(
        "POST",
        recordsPath(zone.id),
        {},
        { rr: relativeName(hostname, zone.id, APEX), type, value: address, ttl },
      );
      if (!post.ok) return staleOn404(post);
      // The answer has no body: the new record's id is read back.
      const found = await records(zone, hostname, type);
      if (!found.ok) return found;
      // Baidu may write an IPv6 address in another form than it was sent.
      const created = found.value.find((r) => sameAddress(String(r.value), address));
      if (created === undefined)
        return failed(`${SERVICE}: the created record did not show in the zone's records`, { cause: "unreachable" });
      return { ok: true, value: recordSet([created]) };
    },

    // One record per address: the difference is posted, put (its description kept) or deleted by id.
    // One record per address: the difference is sent through the one-record requests.
    writeAddressSet(...args) {
      return writeSetByRecords(
        this,
        {
          address: (record) => String(record.value),
          ttl: (record) => (typeof record.ttl === "number" ? record.ttl : undefined),
          asSet: (record) => recordSet([record]),
          delete: async (zone, record) =>
            staleOn404(await call("DELETE", `${recordsPath(zone.id)}/${encodeURIComponent(String(record.id))}`, {})),
        },
        args,
      );
    },
  };
}

/**
 * BCE's common error body: `{requestId, code, message}`. Refused keys and signatures, a user without
 * the DNS permission and an account without the DNS service only come right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || (typeof body.code !== "string" && typeof body.message !== "string")) return undefined;
  const code = typeof body.code === "string" && body.code !== "" ? body.code : undefined;
  const words = (typeof body.message === "string" && body.message) || code || "request failed";
  const named = code === undefined ? {} : { code };
  if (status === 429) return { words, ...named, cause: "throttled" };
  if (
    code === "InvalidAccessKeyId" ||
    code === "SignatureDoesNotMatch" ||
    code === "AccessDenied" ||
    code === "OptInRequired" ||
    status === 401 ||
    status === 403
  ) {
    return { words, ...named, cause: "credentials", stopRetrying: true };
  }
  // A record ddnsd built that Baidu finds inappropriate (a TTL under the plan's minimum) is refused
  // the same way every time, until the domain's config changes.
  if (code === "InappropriateJSON") return { words, ...named, cause: "refused", stopRetrying: true };
  return { words, ...named };
}

/** Everything ddnsd knows about Baidu AI Cloud DNS (docs/services/baiducloud.md). */
export const baiducloud = defineService({
  type: "baiducloud",
  label: "Baidu AI Cloud DNS",
  summary:
    "Zones hosted at Baidu AI Cloud DNS (dns.baidubce.com), through its API with an access key signed with BCE auth v1.",
  credentials: [
    {
      key: "access_key_id",
      url: "https://console.bce.baidu.com/iam/#/iam/accesslist",
      label: "Access key ID (AK)",
      help:
        "In the Baidu AI Cloud console, IAM → Users: create a sub-user for ddnsd with programmatic access, grant it the system policy for DNS " +
        "management (DNS full control) and nothing else, then create its access key under the user's access keys. The AK is not a secret.",
      secret: false,
    },
    {
      key: "secret_access_key",
      label: "Secret access key (SK)",
      help: "Shown beside the AK when the access key is created; keep it for ddnsd alone.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  // Baidu documents the TTL only as a positive whole number of seconds, with a plan minimum.
  ttl: {
    min: 1,
    max: 2147483647,
    help: "Seconds; the free plan refuses below 300. Empty keeps the record's TTL (300 for a new record).",
  },
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://dns.baidubce.com",
  // Baidu publishes no per-account figure for its DNS API: ddnsd keeps to two requests a second.
  rateLimits: [{ requests: 2, perSeconds: 1 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createBaiduCloudApi(
      { access_key_id: credentials.access_key_id ?? "", secret_access_key: credentials.secret_access_key ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
