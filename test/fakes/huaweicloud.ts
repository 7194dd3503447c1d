// A faithful stand-in for Huawei Cloud DNS (API v2, public zones; docs/services/huaweicloud.md):
// every request's SDK-HMAC-SHA256 signature checked for real with the documented algorithm by the
// API gateway in front (an unknown AK or a wrong signature is 401 APIGW.0301), zones and record sets
// with opaque ids and absolute names (`home.example.com.`), limit/offset paging with
// `metadata.total_count`, and these quirks: the record set listing's name filter matches loosely
// unless `search_mode=equal`; writes answer 202 with the set PENDING_UPDATE / PENDING_CREATE; a PUT
// keeps the description and (when none is sent) the TTL; a set of that name and type already there
// is refused on create (DNS.0312); errors are the DNS service's `{code, message}` (DNS.0302 zone
// gone, DNS.0313 record set gone) or the gateway's `{error_code, error_msg, request_id}`.
//
// The signature is recomputed over the body re-serialised from its parsed JSON: the client sends
// JSON.stringify output, which that reproduces byte for byte.
//
// Sources: Huawei Cloud DNS API reference (support.huaweicloud.com/intl/en-us/api-dns: ListPublicZones,
// ShowPublicZone, ListRecordSetsByZone, UpdateRecordSet, CreateRecordSet, DeleteRecordSet; a TXT
// record a quoted string, as lego's huaweicloud provider sends it; error codes), API Gateway
// error codes and the AK/SK signing guide; jeessy2/ddns-go dns/huawei.go (the calls, the loose name
// match); huaweicloud/huaweicloud-sdk-go-v3 core/auth/signer.
//
// Quirk switches: `keys` (delete one to disable it); faults `{status, code, message}` for a DNS
// error (e.g. 403 DNS.0014 flow control, 403 DNS.0403 quota), `{status, gateway: code, message}` for
// a gateway error (e.g. 429 APIGW.0308), "malformed", "html".

import { isIPv4, isIPv6 } from "node:net";
import { sha256Hex } from "../../src/dns/signing/digest";
import { canonicalRequest, signature } from "../../src/dns/signing/huaweicloud-signer";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

export const HUAWEI_FAKE_AK = "HPUAFAKEACCESSKEY0123";
export const HUAWEI_FAKE_SK = "fakeSecretKey0123456789abcdefghijklmnopq";
const HUAWEI_DEFAULT_TTL = 300;

export interface HuaweiZone {
  id: string;
  name: string;
  recordsets: HuaweiRecordSet[];
}

export interface HuaweiRecordSet {
  id: string;
  name: string;
  type: string;
  ttl: number;
  records: string[];
  description: string | null;
  status: string;
}

export type HuaweiFault =
  | { status: number; code: string; message?: string }
  | { status: number; gateway: string; message?: string }
  | "malformed"
  | "html";

export interface HuaweiFake extends FakeServer<HuaweiFault> {
  /** AK → SK; delete one to disable it mid-test. */
  keys: Map<string, string>;
  zones: Map<string, HuaweiZone>;
  /** `name` without the trailing dot. */
  addZone(name: string): HuaweiZone;
  zoneNamed(name: string): HuaweiZone | undefined;
  /** `name` the full name without the trailing dot. */
  addRecordSet(
    zone: string,
    set: { name: string; type: string; records: string[]; ttl?: number; description?: string },
  ): HuaweiRecordSet;
  recordSets(zone: string, name: string, type: string): HuaweiRecordSet[];
  reset(): void;
}

const AUTHORIZATION = /^SDK-HMAC-SHA256 Access=([^,]+), SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;

export function startHuaweiFake(): HuaweiFake {
  const keys = new Map([[HUAWEI_FAKE_AK, HUAWEI_FAKE_SK]]);
  const zones = new Map<string, HuaweiZone>();
  let next = 1;
  const newId = () => `ff8080827${String(next++).padStart(23, "0")}`;
  const dotted = (name: string) => (name.endsWith(".") ? name : `${name}.`).toLowerCase();

  function dnsError(status: number, code: string, message: string): Response {
    return json(status, { code, message });
  }
  function gatewayError(status: number, code: string, message: string): Response {
    return json(status, { error_msg: message, error_code: code, request_id: crypto.randomUUID().replace(/-/g, "") });
  }

  function addZone(name: string): HuaweiZone {
    const zone = { id: newId(), name: dotted(name), recordsets: [] };
    zones.set(zone.id, zone);
    return zone;
  }
  const zoneNamed = (name: string) => [...zones.values()].find((z) => z.name === dotted(name));

  function addRecordSet(
    zoneName: string,
    init: { name: string; type: string; records: string[]; ttl?: number; description?: string },
  ): HuaweiRecordSet {
    const zone = zoneNamed(zoneName);
    if (!zone) throw new Error(`fake Huawei DNS: no zone ${zoneName}`);
    const set = {
      id: newId(),
      name: dotted(init.name),
      type: init.type,
      ttl: init.ttl ?? HUAWEI_DEFAULT_TTL,
      records: init.records,
      description: init.description ?? null,
      status: "ACTIVE",
    };
    zone.recordsets.push(set);
    return set;
  }

  function zoneJson(zone: HuaweiZone) {
    return {
      id: zone.id,
      name: zone.name,
      description: null,
      email: `hostmaster.${zone.name}`,
      ttl: 300,
      serial: 1,
      masters: [],
      status: "ACTIVE",
      pool_id: "ff8080825ab738f4015ab7513298010e",
      project_id: "e55c6f3dc4e34c9f86353b664ae0e70c",
      zone_type: "public",
      created_at: "2024-01-01T00:00:00.000",
      updated_at: "2024-01-01T00:00:00.000",
      record_num: zone.recordsets.length,
      links: { self: `https://dns.myhuaweicloud.com/v2/zones/${zone.id}` },
    };
  }
  function setJson(zone: HuaweiZone, set: HuaweiRecordSet) {
    return {
      id: set.id,
      name: set.name,
      description: set.description,
      zone_id: zone.id,
      zone_name: zone.name,
      type: set.type,
      ttl: set.ttl,
      records: set.records,
      create_at: "2024-01-01T00:00:00.000",
      update_at: "2024-01-01T00:00:00.000",
      status: set.status,
      default: false,
      project_id: "e55c6f3dc4e34c9f86353b664ae0e70c",
      links: { self: `https://dns.myhuaweicloud.com/v2/zones/${zone.id}/recordsets/${set.id}` },
    };
  }

  /** The API gateway's checks: the AK and the signature, before the DNS service sees anything. */
  function authenticate(request: LoggedRequest): Response | null {
    const match = AUTHORIZATION.exec(request.headers.authorization ?? "");
    if (!match)
      return gatewayError(
        401,
        "APIGW.0301",
        "Incorrect IAM authentication information: Authorization header is missing or malformed",
      );
    const [, accessKey = "", signedHeaders = "", sent = ""] = match;
    const secretKey = keys.get(accessKey);
    if (secretKey === undefined)
      return gatewayError(401, "APIGW.0301", `Incorrect IAM authentication information: ak ${accessKey} not exist`);
    const date = request.headers["x-sdk-date"] ?? "";
    const names = signedHeaders.split(";");
    if (!names.includes("x-sdk-date"))
      return gatewayError(401, "APIGW.0301", "Incorrect IAM authentication information: x-sdk-date is not signed");
    const url = new URL(`http://${request.headers.host}${request.path}`);
    for (const [name, value] of Object.entries(request.query)) url.searchParams.append(name, value);
    const headers = Object.fromEntries(names.map((name) => [name, request.headers[name] ?? ""]));
    const payload = request.body === undefined ? "" : JSON.stringify(request.body);
    const expected = signature(
      secretKey,
      date,
      canonicalRequest(request.method, url, headers, sha256Hex(payload)).text,
    );
    return expected === sent
      ? null
      : gatewayError(401, "APIGW.0301", "Incorrect IAM authentication information: verify aksk signature fail");
  }

  function invalidSet(type: string, records: unknown, ttl: unknown): Response | null {
    if (
      !Array.isArray(records) ||
      records.length === 0 ||
      !records.every(
        (r) =>
          typeof r === "string" &&
          ((type === "A" && isIPv4(r)) || (type === "AAAA" && isIPv6(r)) || (type === "TXT" && /^".*"$/.test(r))),
      )
    ) {
      return dnsError(400, "DNS.0308", "Invalid record set value.");
    }
    if (ttl !== undefined && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 1 || ttl > 2147483647))
      return dnsError(
        400,
        "DNS.0319",
        "The TTL parameter has been out of range. The value ranges from 1 to 2147483647.",
      );
    return null;
  }

  function route(request: LoggedRequest): Response {
    const refused = authenticate(request);
    if (refused) return refused;
    const segments = request.path.split("/").filter(Boolean).map(decodeURIComponent);
    if (segments[0] !== "v2" || segments[1] !== "zones") return dnsError(404, "DNS.0002", "Invalid request.");
    const limit = Math.min(Math.max(Number(request.query.limit ?? 500) || 500, 0), 500);
    const offset = Math.max(Number(request.query.offset ?? 0) || 0, 0);

    if (segments.length === 2) {
      if (request.method !== "GET") return dnsError(400, "DNS.0002", "Invalid request.");
      const name = request.query.name?.toLowerCase().replace(/\.$/, "");
      const listed = [...zones.values()]
        .filter((z) => name === undefined || z.name.includes(name))
        .sort((a, b) => a.name.localeCompare(b.name));
      return json(200, {
        links: { self: "https://dns.myhuaweicloud.com/v2/zones" },
        zones: listed.slice(offset, offset + limit).map(zoneJson),
        metadata: { total_count: listed.length },
      });
    }

    const zone = zones.get(segments[2] ?? "");
    if (!zone) return dnsError(404, "DNS.0302", "This zone does not exist.");
    if (segments.length === 3)
      return request.method === "GET" ? json(200, zoneJson(zone)) : dnsError(400, "DNS.0002", "Invalid request.");
    if (segments[3] !== "recordsets") return dnsError(404, "DNS.0002", "Invalid request.");
    const fields =
      typeof request.body === "object" && request.body !== null && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : {};

    if (segments.length === 4 && request.method === "GET") {
      const name = request.query.name?.toLowerCase();
      const exact = request.query.search_mode === "equal";
      // The name filter matches loosely (a part of the name) unless search_mode=equal.
      const listed = zone.recordsets.filter(
        (s) =>
          (name === undefined || (exact ? s.name === dotted(name) : s.name.includes(name.replace(/\.$/, "")))) &&
          (request.query.type === undefined || s.type === request.query.type),
      );
      return json(200, {
        links: { self: `https://dns.myhuaweicloud.com/v2/zones/${zone.id}/recordsets` },
        recordsets: listed.slice(offset, offset + limit).map((s) => setJson(zone, s)),
        metadata: { total_count: listed.length },
      });
    }

    if (segments.length === 4 && request.method === "POST") {
      const type = String(fields.type ?? "");
      const name = typeof fields.name === "string" ? dotted(fields.name) : "";
      if (!name.endsWith(zone.name) || (name !== zone.name && !name.endsWith(`.${zone.name}`)))
        return dnsError(400, "DNS.0304", "Invalid record set name.");
      const invalid = invalidSet(type, fields.records, fields.ttl);
      if (invalid) return invalid;
      if (zone.recordsets.some((s) => s.name === name && s.type === type))
        return dnsError(400, "DNS.0312", "This record set already exists.");
      const set: HuaweiRecordSet = {
        id: newId(),
        name,
        type,
        ttl: typeof fields.ttl === "number" ? fields.ttl : HUAWEI_DEFAULT_TTL,
        records: [...(fields.records as string[])],
        description: typeof fields.description === "string" ? fields.description : null,
        status: "PENDING_CREATE",
      };
      zone.recordsets.push(set);
      return json(202, setJson(zone, set));
    }

    if (segments.length === 5 && request.method === "DELETE") {
      const at = zone.recordsets.findIndex((s) => s.id === segments[4]);
      if (at < 0) return dnsError(404, "DNS.0313", "This record set does not exist.");
      const [gone] = zone.recordsets.splice(at, 1);
      return json(202, setJson(zone, { ...gone!, status: "PENDING_DELETE" }));
    }
    if (segments.length === 5 && request.method === "PUT") {
      const set = zone.recordsets.find((s) => s.id === segments[4]);
      if (!set) return dnsError(404, "DNS.0313", "This record set does not exist.");
      const invalid = invalidSet(set.type, fields.records, fields.ttl);
      if (invalid) return invalid;
      // What the PUT is not sent (description, TTL) keeps its value.
      set.records = [...(fields.records as string[])];
      if (typeof fields.ttl === "number") set.ttl = fields.ttl;
      if (typeof fields.description === "string") set.description = fields.description;
      set.status = "PENDING_UPDATE";
      return json(202, setJson(zone, set));
    }
    return dnsError(400, "DNS.0002", "Invalid request.");
  }

  const server = startFakeServer<HuaweiFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      if ("gateway" in mode) {
        return gatewayError(
          mode.status,
          mode.gateway,
          mode.message ??
            (mode.gateway === "APIGW.0308"
              ? "The throttling threshold has been reached: policy user over ratelimit,limit:100,time:1 minute"
              : "Backend unavailable"),
        );
      }
      return dnsError(
        mode.status,
        mode.code,
        mode.message ?? (mode.code === "DNS.0014" ? "Request forbidden by flow control." : "Internal error."),
      );
    },
  });

  const fake: HuaweiFake = Object.assign(server, {
    keys,
    zones,
    addZone,
    zoneNamed,
    addRecordSet,
    recordSets: (zone: string, name: string, type: string) =>
      (zoneNamed(zone)?.recordsets ?? []).filter((s) => s.name === dotted(name) && s.type === type),
    reset() {
      zones.clear();
      keys.clear();
      keys.set(HUAWEI_FAKE_AK, HUAWEI_FAKE_SK);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
