// Tencent Cloud DNSPod (API 3.0, version 2021-03-23) client: checks a SecretId/SecretKey pair and
// points one A/AAAA record at an address. Every call is a POST of JSON to `/` naming its action in
// `X-TC-Action`, signed with TC3-HMAC-SHA256 (tc3.ts). A domain is addressed by its name, a record
// by its RecordId.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   DescribeRecordList + ModifyRecord = 2 (1 when the address is already there)
// Without it the account's domains are listed first (DescribeDomainList, 100 a page) and the longest
// one holding the hostname is used.
//
// Tencent answers HTTP 200 to nearly everything: a failure is `Response.Error {Code, Message}`. An
// empty record list is the error ResourceNotFound.NoDataOfRecord, read here as "no record". A name
// can hold one record per resolution line (默认 "default", 电信 telecom …): several lines are several
// addresses for ddnsd, so such a name is left alone. ModifyRecord replaces what it is not sent — the
// status becomes ENABLE, the weight is dropped, the TTL goes to 600, an empty remark deletes the
// remark — so the line (and its id), TTL, weight, status and remark read are all sent back. Refused keys (AuthFailure.*, UnauthorizedOperation) stop
// retrying; RequestLimitExceeded and FailedOperation.FrequencyLimit (no wait named) are "slow down".
//
// Sources: docs/services/tencentcloud.md; Tencent Cloud DNSPod API documentation
// (cloud.tencent.com/document/api/1427: common parameters, Signature v3, DescribeDomainList,
// DescribeRecordList, ModifyRecord, CreateRecord, error codes); jeessy2/ddns-go dns/tencent_cloud.go;
// TencentCloud/tencentcloud-sdk-go dnspod/v20210323 (models and error codes).

import { asObject, isObject, objectsIn } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, failedAnswer, type JsonAnswer, requestJson, type ServiceError } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { tc3Authorization } from "../signing/tc3";
import { txtRecords, unquotedTxt } from "../txt";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "Tencent Cloud DNSPod";
const API_VERSION = "2021-03-23";
/** The service name in the signature's scope. */
const SIGNING_SERVICE = "dnspod";
/** The resolution line of a new record: 默认, "default". */
const DEFAULT_LINE = "默认";
/** TTL of a record this client creates when the domain's config names none: DNSPod's default. */
const NEW_RECORD_TTL = 600;
const PAGE_SIZE = 100;

/** What ModifyRecord must be sent back so the record keeps it. */
interface Kept {
  name: string;
  line: string;
  lineId?: string;
  weight?: number;
  status?: string;
  /** The record's remark: ModifyRecord deletes one it is not sent. */
  remark?: string;
}

export function createTencentCloudApi(
  credentials: { secret_id: string; secret_key: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const host = new URL(context.baseUrl).host;

  /** One action: its `Response` object, or the failure its `Response.Error` names. */
  async function call(
    action: string,
    body: Record<string, unknown>,
  ): Promise<Step<Record<string, unknown>> & { code?: string }> {
    const timestamp = Math.floor(Date.now() / 1000);
    const authorization = tc3Authorization(
      { method: "POST", host, contentType: "application/json", query: "", payload: JSON.stringify(body) },
      { secretId: credentials.secret_id, secretKey: credentials.secret_key },
      SIGNING_SERVICE,
      timestamp,
    );
    const headers = {
      Authorization: authorization,
      "X-TC-Action": action,
      "X-TC-Version": API_VERSION,
      "X-TC-Timestamp": String(timestamp),
      "X-TC-Language": "en-US",
    };
    const answer: Step<JsonAnswer> = await requestJson(
      context,
      SERVICE,
      { method: "POST", path: "/", headers, body },
      readError,
    );
    if (!answer.ok) return answer;
    const response =
      isObject(answer.value.body) && isObject(answer.value.body.Response) ? answer.value.body.Response : undefined;
    if (response === undefined)
      return failed(`${SERVICE}: an answer without a Response (HTTP ${answer.value.status})`, { cause: "unreachable" });
    const error = readError(answer.value.body);
    if (error !== undefined)
      return { ...failedAnswer(SERVICE, answer.value.status, answer.value.headers, "", error), code: error.code };
    return { ok: true, value: response };
  }

  async function listDomains(limit: number, offset: number): Promise<Step<{ names: string[]; total: number }>> {
    const listed = await call("DescribeDomainList", { Type: "ALL", Offset: offset, Limit: limit });
    if (!listed.ok) return listed;
    const domains = objectsIn(listed.value.DomainList);
    const counts = asObject(listed.value.DomainCountInfo);
    const names = domains.map((d) => d.Name).filter((n): n is string => typeof n === "string");
    return { ok: true, value: { names, total: Number(counts.AllTotal ?? counts.DomainTotal ?? Number.NaN) } };
  }

  /** ModifyRecord replaces whatever it is not sent: the line, TTL, weight, status and remark go back as read. */
  async function modify(
    domain: string,
    type: string,
    id: string,
    kept: Kept,
    address: string,
    ttl: number,
  ): Promise<Step<string>> {
    const modified = await call("ModifyRecord", {
      Domain: domain,
      RecordId: Number(id),
      SubDomain: kept.name,
      RecordType: type,
      RecordLine: kept.line,
      ...(kept.lineId === undefined ? {} : { RecordLineId: kept.lineId }),
      Value: address,
      TTL: ttl,
      ...(kept.weight === undefined ? {} : { Weight: kept.weight }),
      ...(kept.status === undefined ? {} : { Status: kept.status }),
      ...(kept.remark === undefined ? {} : { Remark: kept.remark }),
    });
    return modified.ok ? { ok: true, value: String(modified.value.RecordId ?? id) } : modified;
  }

  async function create(domain: string, type: string, kept: Kept, address: string, ttl: number): Promise<Step<string>> {
    const created = await call("CreateRecord", {
      Domain: domain,
      SubDomain: kept.name,
      RecordType: type,
      RecordLine: kept.line,
      ...(kept.lineId === undefined ? {} : { RecordLineId: kept.lineId }),
      Value: address,
      TTL: ttl,
    });
    return created.ok ? { ok: true, value: String(created.value.RecordId ?? "") } : created;
  }

  // One record per value (on the default line), its Value the text itself; removed by id (DeleteRecord).
  const txt = txtRecords({
    async list(zone, name) {
      const relative = relativeName(name, zone.id, "@");
      const read = await call("DescribeRecordList", {
        Domain: zone.id,
        Subdomain: relative,
        RecordType: "TXT",
        Limit: PAGE_SIZE,
      });
      if (!read.ok) return read.code === "ResourceNotFound.NoDataOfRecord" ? { ok: true, value: [] } : read;
      const records = objectsIn(read.value.RecordList).filter(
        (r) => String(r.Name ?? "").toLowerCase() === relative && r.Type === "TXT" && r.RecordId !== undefined,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.RecordId), value: unquotedTxt(r.Value) })) };
    },
    create: (zone, name, value) =>
      call("CreateRecord", {
        Domain: zone.id,
        SubDomain: relativeName(name, zone.id, "@"),
        RecordType: "TXT",
        RecordLine: DEFAULT_LINE,
        Value: value,
        TTL: NEW_RECORD_TTL,
      }),
    delete: (zone, record) => call("DeleteRecord", { Domain: zone.id, RecordId: Number(record.id) }),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const listed = await listDomains(1, 0);
      if (!listed.ok) return failedCheck(listed);
      const count = listed.value.total;
      return {
        ok: true,
        detail: Number.isInteger(count) ? `Secret key accepted (${plural(count, "domain")})` : "Secret key accepted",
      };
    },

    async listZones() {
      const domains = await paginate(async (next, count) => {
        const offset = Number(next ?? 0);
        const listed = await listDomains(PAGE_SIZE, offset);
        if (!listed.ok) return listed;
        const { names, total } = listed.value;
        // A short page is the last, and so is one that reaches the total (an unknown total ends nothing).
        const last = names.length < PAGE_SIZE || count + names.length >= total;
        return { ok: true, value: { items: names, next: last ? undefined : offset + PAGE_SIZE } };
      });
      return domains.ok ? { ok: true, value: zonesNamed(domains.value) } : domains;
    },

    async readRecordSet(zone, hostname, type) {
      const name = relativeName(hostname, zone.id, "@");
      const read = await call("DescribeRecordList", {
        Domain: zone.id,
        Subdomain: name,
        RecordType: type,
        Limit: PAGE_SIZE,
      });
      // No record of that name and type is an error here, not an empty list.
      if (!read.ok) return read.code === "ResourceNotFound.NoDataOfRecord" ? { ok: true, value: null } : read;
      const records = objectsIn(read.value.RecordList).filter(
        (r) => String(r.Name ?? "").toLowerCase() === name && r.Type === type,
      );
      const [first] = records;
      if (first === undefined) return { ok: true, value: null };
      const kept = keptOf(first);
      const set: RecordSet = {
        id: String(first.RecordId ?? ""),
        // One record per resolution line: several lines are several addresses, which the reconciler leaves alone.
        values: records.map((r) => String(r.Value ?? "")),
        ...(typeof first.TTL === "number" ? { ttl: first.TTL } : {}),
        raw: kept,
        members: records,
      };
      return { ok: true, value: set };
    },

    async updateRecordSet(zone, _hostname, type, current, address, settings) {
      const ttl = settings.ttl ?? current.ttl ?? NEW_RECORD_TTL;
      const modified = await modify(zone.id, type, current.id, current.raw as Kept, address, ttl);
      if (!modified.ok) return modified;
      return { ok: true, value: { id: modified.value, values: [address], ttl, raw: current.raw } };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const kept: Kept = { name: relativeName(hostname, zone.id, "@"), line: DEFAULT_LINE };
      const created = await create(zone.id, type, kept, address, ttl);
      if (!created.ok) return created;
      return { ok: true, value: { id: created.value, values: [address], ttl, raw: kept } };
    },

    // One record per address: only the difference is sent, a record whose address goes modified to
    // hold a new one (its line, weight, status and remark sent back), a new one created on the line
    // of the name's first record, never another record of the name touched.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const first = current?.raw as Kept | undefined;
      const line: Kept = {
        name: relativeName(hostname, zone.id, "@"),
        line: first?.line ?? DEFAULT_LINE,
        ...(first?.lineId === undefined ? {} : { lineId: first.lineId }),
      };
      const ttlOf = (record: Record<string, unknown>) =>
        settings.ttl ?? (typeof record.TTL === "number" ? record.TTL : NEW_RECORD_TTL);
      const result = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.Value ?? ""),
        stale: (record) => settings.ttl !== undefined && record.TTL !== settings.ttl,
        async edit(record, address) {
          const ttl = ttlOf(record);
          const modified = await modify(zone.id, type, String(record.RecordId), keptOf(record), address, ttl);
          return modified.ok
            ? { ok: true, value: { ...record, RecordId: modified.value, Value: address, TTL: ttl } }
            : modified;
        },
        async create(address) {
          const ttl = settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL;
          const created = await create(zone.id, type, line, address, ttl);
          return created.ok
            ? {
                ok: true,
                value: { RecordId: created.value, Name: line.name, Line: line.line, Value: address, TTL: ttl },
              }
            : created;
        },
        delete: (record) => call("DeleteRecord", { Domain: zone.id, RecordId: Number(record.RecordId) }),
      });
      if (!result.ok) return result;
      const [head] = result.value;
      return {
        ok: true,
        value: {
          id: String(head?.RecordId ?? ""),
          values: result.value.map((record) => String(record.Value)),
          ...(typeof head?.TTL === "number" ? { ttl: head.TTL } : {}),
          raw: head === undefined ? line : keptOf(head),
          members: result.value,
        },
      };
    },

    describe(set) {
      const kept = set.raw as Kept | undefined;
      return [
        ...(set.ttl === undefined ? [] : [`ttl ${set.ttl}`]),
        ...(kept && kept.line !== DEFAULT_LINE ? [`line ${kept.line}`] : []),
        ...(kept?.status === "DISABLE" ? ["disabled"] : []),
      ];
    },
  };
}

/** What a ModifyRecord of this record must send back, as read. */
function keptOf(record: Record<string, unknown>): Kept {
  return {
    name: String(record.Name),
    line: typeof record.Line === "string" ? record.Line : DEFAULT_LINE,
    ...(typeof record.LineId === "string" ? { lineId: record.LineId } : {}),
    ...(typeof record.Weight === "number" ? { weight: record.Weight } : {}),
    ...(typeof record.Status === "string" ? { status: record.Status } : {}),
    ...(typeof record.Remark === "string" && record.Remark !== "" ? { remark: record.Remark } : {}),
  };
}

/** Codes that name a domain this account does not hold: a configured one is looked up afresh. */
const UNKNOWN_DOMAIN_CODES = new Set([
  "InvalidParameterValue.DomainNotExists",
  "InvalidParameter.DomainInvalid",
  "FailedOperation.NotDomainOwner",
]);

/** Tencent's own words: `{Response: {Error: {Code, Message}}}`, with the cause and consequences the code means. */
function readError(body: unknown): ServiceError | undefined {
  const error =
    isObject(body) && isObject(body.Response) && isObject(body.Response.Error) ? body.Response.Error : undefined;
  if (error === undefined || typeof error.Code !== "string") return undefined;
  const code = error.Code;
  const words = typeof error.Message === "string" && error.Message !== "" ? error.Message : code;
  // A clock far off is refused as AuthFailure.SignatureExpire: the keys are fine, so retrying helps once the clock is.
  if (code === "AuthFailure.SignatureExpire") return { words, code, cause: "refused" };
  if (code.startsWith("AuthFailure") || code.startsWith("UnauthorizedOperation"))
    return { words, code, cause: "credentials", stopRetrying: true };
  // DNSPod says "slow down" two ways: the API gateway's RequestLimitExceeded[.*] and DNSPod's own
  // FailedOperation.FrequencyLimit ("operations too frequent"); neither names a wait.
  if (code.startsWith("RequestLimitExceeded") || code === "FailedOperation.FrequencyLimit")
    return { words, code, cause: "throttled" };
  if (code.startsWith("InternalError") || code === "FailedOperation.UnknowError")
    return { words, code, cause: "unreachable" };
  // A locked domain stays locked until someone unlocks it.
  if (code === "FailedOperation.DomainIsLocked") return { words, code, cause: "refused", stopRetrying: true };
  // A TTL the plan does not take is refused the same way on every retry: only a changed
  // config.ttl (or plan) helps.
  if (code === "LimitExceeded.RecordTtlLimit" || code === "InvalidParameter.RecordTtlInvalid")
    return { words, code, cause: "refused", stopRetrying: true };
  if (UNKNOWN_DOMAIN_CODES.has(code)) return { words, code, cause: "refused", staleZone: true };
  return { words, code, cause: "refused" };
}

export const tencentcloud = defineService({
  type: "tencentcloud",
  label: "Tencent Cloud DNSPod",
  summary:
    "Tencent Cloud DNSPod (API 3.0): ddnsd updates the address of the record, keeping its TTL, resolution line, weight and status; a missing record is created.",
  credentials: [
    {
      key: "secret_id",
      url: "https://console.cloud.tencent.com/cam",
      label: "SecretId",
      help: "In the CAM console create a sub-user with programmatic access only, grant it a custom policy allowing dnspod:DescribeDomainList, dnspod:DescribeRecordList, dnspod:ModifyRecord and dnspod:CreateRecord (or the preset QcloudDNSPodFullAccess), and copy its SecretId and SecretKey. Do not use the root account's API key. The SecretId (AKID…) is not a secret.",
      secret: false,
    },
    {
      key: "secret_key",
      label: "SecretKey",
      help: "Shown beside the SecretId when the sub-user's API key is created.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 604800, 600, { note: "the free plan accepts 600 and above" }),
  canVerify: true,
  defaultApiUrl: "https://dnspod.tencentcloudapi.com",
  // DNSPod allows 20 requests a second per API by default; ddnsd stays well under it.
  rateLimits: [{ requests: 10, perSeconds: 1 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, _options, context) {
    const api = createTencentCloudApi(
      { secret_id: credentials.secret_id ?? "", secret_key: credentials.secret_key ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
