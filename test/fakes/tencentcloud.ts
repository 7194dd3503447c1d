// A faithful stand-in for Tencent Cloud DNSPod API 3.0 (version 2021-03-23; docs/services/tencentcloud.md):
// POST `/` with JSON, the action in X-TC-Action, every request's TC3-HMAC-SHA256 signature checked for
// real with the documented algorithm (an unknown SecretId is AuthFailure.SecretIdNotFound, a wrong key
// AuthFailure.SignatureFailure, a timestamp more than five minutes off AuthFailure.SignatureExpire),
// every answer HTTP 200 with failures in `Response.Error {Code, Message}`, the four actions ddnsd uses
// with Offset/Limit paging, one record per resolution line (默认 "default" with LineId "0", 电信
// "10=0", 联通 "10=1"), and these quirks: an empty record list is the error
// ResourceNotFound.NoDataOfRecord; ModifyRecord resets what it is not sent (status to ENABLE, weight
// to none, TTL to 600, name to @, remark to none: "传空删除备注", an empty Remark deletes it); CreateRecord refuses a record that already exists
// (InvalidParameter.DomainRecordExist); the plan's TTL floor (LimitExceeded.RecordTtlLimit).
//
// The signature is recomputed over the body re-serialised from its parsed JSON: the client sends
// JSON.stringify output, which that reproduces byte for byte.
//
// Sources: Tencent Cloud DNSPod API documentation (cloud.tencent.com/document/api/1427: common
// parameters, Signature v3, DescribeDomainList, DescribeRecordList, ModifyRecord, CreateRecord,
// DeleteRecord (by RecordId; a TXT record's Value is its text), error codes); jeessy2/ddns-go
// dns/tencent_cloud.go (the calls, RecordLine 默认, the Response.Error shape);
// TencentCloud/tencentcloud-sdk-go dnspod/v20210323 errors.go (the codes and their meanings).
//
// Quirk switches: `minTtl` (1, a paid plan; 600 the free plan), `clockSkewSeconds` (the fake's clock
// against the client's), records added on another `line` or `status: "DISABLE"` or with a `weight`;
// faults `{code, message}` (answered with HTTP 200, as Tencent does), "malformed", "html".

import { isIPv4, isIPv6 } from "node:net";
import { canonicalRequest, scopeDate, stringToSign, tc3Signature } from "../../src/dns/signing/tc3";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

export const TENCENT_FAKE_SECRET_ID = "AKIDfakeSecretId0123456789abcdefEXAMPLE";
export const TENCENT_FAKE_SECRET_KEY = "fakeSecretKey0123456789abcdEXAMPLE";
export const TENCENT_FREE_PLAN_MIN_TTL = 600;
const TENCENT_DEFAULT_TTL = 600;
export const DEFAULT_LINE = "默认";
const LINES: Record<string, string> = { 默认: "0", 电信: "10=0", 联通: "10=1" };

export interface TencentRecord {
  RecordId: number;
  Name: string;
  Type: string;
  Value: string;
  TTL: number;
  Line: string;
  LineId: string;
  Status: "ENABLE" | "DISABLE";
  Weight: number | null;
  MX: number;
  Remark: string;
}

export type TencentFault = { code: string; message?: string } | "malformed" | "html";

export interface TencentFake extends FakeServer<TencentFault> {
  /** The lowest TTL the domain's plan accepts: 1 (a paid plan) until a test sets the free plan's 600. */
  minTtl: number;
  /** How far the fake's clock is ahead of the client's, in seconds (more than 300 and signatures expire). */
  clockSkewSeconds: number;
  /** Whether the domain listing leaves out its counts (DomainCountInfo), so a client cannot know the total. */
  countsLeftOut: boolean;
  /** SecretId → SecretKey; delete one to disable it mid-test. */
  keys: Map<string, string>;
  domains: Map<string, TencentRecord[]>;
  addDomain(name: string): void;
  /** `name` relative to the domain, `@` for the apex. */
  addRecord(
    domain: string,
    record: {
      name: string;
      type: string;
      value: string;
      ttl?: number;
      line?: string;
      status?: "ENABLE" | "DISABLE";
      weight?: number;
      remark?: string;
    },
  ): TencentRecord;
  records(domain: string, name: string, type: string): TencentRecord[];
  /** Requests whose action changes something. */
  changes(): LoggedRequest[];
  reset(): void;
}

const WRITE_ACTIONS = new Set([
  "ModifyRecord",
  "CreateRecord",
  "DeleteRecord",
  "ModifyRecordStatus",
  "ModifyDynamicDNS",
]);
const AUTHORIZATION =
  /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/;

export function startTencentFake(): TencentFake {
  const keys = new Map([[TENCENT_FAKE_SECRET_ID, TENCENT_FAKE_SECRET_KEY]]);
  const domains = new Map<string, TencentRecord[]>();
  let nextId = 1500000001;

  const requestId = () => crypto.randomUUID();
  function answer(fields: Record<string, unknown>): Response {
    return json(200, { Response: { ...fields, RequestId: requestId() } });
  }
  function error(code: string, message: string): Response {
    return answer({ Error: { Code: code, Message: message } });
  }

  function addRecord(
    domain: string,
    init: {
      name: string;
      type: string;
      value: string;
      ttl?: number;
      line?: string;
      status?: "ENABLE" | "DISABLE";
      weight?: number;
      remark?: string;
    },
  ): TencentRecord {
    const records = domains.get(domain);
    if (!records) throw new Error(`fake DNSPod: no domain ${domain}`);
    const line = init.line ?? DEFAULT_LINE;
    const record: TencentRecord = {
      RecordId: nextId++,
      Name: init.name,
      Type: init.type,
      Value: init.value,
      TTL: init.ttl ?? TENCENT_DEFAULT_TTL,
      Line: line,
      LineId: LINES[line] ?? "0",
      Status: init.status ?? "ENABLE",
      Weight: init.weight ?? null,
      MX: 0,
      Remark: init.remark ?? "",
    };
    records.push(record);
    return record;
  }

  /** The signature, the key and the clock, as Tencent checks them before anything else. */
  function authenticate(request: LoggedRequest): Response | null {
    const match = AUTHORIZATION.exec(request.headers.authorization ?? "");
    if (!match)
      return error(
        "AuthFailure.InvalidAuthorization",
        "Credential is invalid. Please check your Authorization header.",
      );
    const [, secretId = "", date = "", service = "", signedHeaders = "", signature = ""] = match;
    const secretKey = keys.get(secretId);
    if (secretKey === undefined)
      return error(
        "AuthFailure.SecretIdNotFound",
        "The SecretId is not found, please ensure that your SecretId is correct.",
      );
    const timestamp = Number(request.headers["x-tc-timestamp"]);
    if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 + fake.clockSkewSeconds - timestamp) > 300) {
      return error(
        "AuthFailure.SignatureExpire",
        `Signature expired. Timestamp date is ${request.headers["x-tc-timestamp"]}, server date is ${Math.floor(Date.now() / 1000 + fake.clockSkewSeconds)}.`,
      );
    }
    const payload = request.body === undefined ? "" : JSON.stringify(request.body);
    const canonical = canonicalRequest({
      method: request.method,
      host: request.headers.host ?? "",
      contentType: request.headers["content-type"] ?? "",
      query: "",
      payload,
    });
    const valid =
      service === "dnspod" &&
      signedHeaders === "content-type;host" &&
      date === scopeDate(timestamp) &&
      tc3Signature(secretKey, date, service, stringToSign(canonical, timestamp, service)) === signature;
    return valid
      ? null
      : error(
          "AuthFailure.SignatureFailure",
          "The provided credentials could not be validated. Please check your signature is correct.",
        );
  }

  function invalidRecord(type: string, value: unknown, ttl: unknown): Response | null {
    if (typeof value !== "string" || (type === "A" && !isIPv4(value)) || (type === "AAAA" && !isIPv6(value))) {
      return error("InvalidParameter.RecordValueInvalid", "The record value is incorrect.");
    }
    if (ttl !== undefined && (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < fake.minTtl || ttl > 604800)) {
      return error("LimitExceeded.RecordTtlLimit", "The TTL value of the record exceeds the limit.");
    }
    return null;
  }

  /** The line a write names: RecordLineId wins over RecordLine, as documented. */
  function lineOf(fields: Record<string, unknown>): { line: string; lineId: string } | undefined {
    if (typeof fields.RecordLineId === "string") {
      const line = Object.entries(LINES).find(([, id]) => id === fields.RecordLineId)?.[0];
      return line === undefined ? undefined : { line, lineId: fields.RecordLineId };
    }
    const line = typeof fields.RecordLine === "string" ? fields.RecordLine : "";
    return LINES[line] === undefined ? undefined : { line, lineId: LINES[line] ?? "0" };
  }

  function route(request: LoggedRequest): Response {
    if (request.method !== "POST" || request.path !== "/")
      return error("UnsupportedOperation", "The request method or path is not supported.");
    const refused = authenticate(request);
    if (refused) return refused;
    const action = request.headers["x-tc-action"] ?? "";
    if (request.headers["x-tc-version"] !== "2021-03-23")
      return error("InvalidParameter", `The value of parameter \`X-TC-Version\` is invalid.`);
    const fields =
      typeof request.body === "object" && request.body !== null && !Array.isArray(request.body)
        ? (request.body as Record<string, unknown>)
        : {};
    const missing = (names: string[]) => names.find((n) => fields[n] === undefined);
    const offset = Math.max(Number(fields.Offset ?? 0) || 0, 0);
    const limit = Math.min(Math.max(Number(fields.Limit ?? 0) || 0, 0), 3000);

    switch (action) {
      case "DescribeDomainList": {
        const names = [...domains.keys()].sort();
        const shown = names.slice(offset, offset + (limit || 20));
        return answer({
          DomainCountInfo: fake.countsLeftOut
            ? undefined
            : {
                DomainTotal: names.length,
                AllTotal: names.length,
                MineTotal: names.length,
                ShareTotal: 0,
                VipTotal: 0,
                PauseTotal: 0,
                ErrorTotal: 0,
                LockTotal: 0,
                SpamTotal: 0,
                VipExpire: 0,
                ShareOutTotal: 0,
                GroupTotal: 0,
              },
          DomainList: shown.map((name) => ({
            DomainId: 1000 + names.indexOf(name),
            Name: name,
            Status: "ENABLE",
            TTL: 600,
            CNAMESpeedup: "DISABLE",
            DNSStatus: "",
            Grade: "DP_FREE",
            GroupId: 1,
            SearchEnginePush: "NO",
            Remark: "",
            Punycode: name,
            EffectiveDNS: ["f1g1ns1.dnspod.net", "f1g1ns2.dnspod.net"],
            GradeLevel: 2,
            GradeTitle: "免费版",
            IsVip: "NO",
            RecordCount: domains.get(name)?.length ?? 0,
            CreatedOn: "2024-01-01 00:00:00",
            UpdatedOn: "2024-01-01 00:00:00",
            Owner: "owner@example.com",
          })),
        });
      }
      case "DescribeRecordList": {
        const absent = missing(["Domain"]);
        if (absent) return error("MissingParameter", `The request is missing a required parameter \`${absent}\`.`);
        const records = domains.get(String(fields.Domain).toLowerCase());
        if (!records)
          return error(
            "InvalidParameterValue.DomainNotExists",
            "The current domain is incorrect. Return to the previous step and try again.",
          );
        const matching = records.filter(
          (r) =>
            (fields.Subdomain === undefined || r.Name === String(fields.Subdomain).toLowerCase()) &&
            (fields.RecordType === undefined || r.Type === String(fields.RecordType).toUpperCase()) &&
            (fields.RecordLine === undefined || r.Line === fields.RecordLine),
        );
        if (matching.length === 0) return error("ResourceNotFound.NoDataOfRecord", "No records.");
        const shown = matching.slice(offset, offset + (limit || 100));
        return answer({
          RecordCountInfo: { SubdomainCount: matching.length, ListCount: shown.length, TotalCount: matching.length },
          RecordList: shown.map((r) => ({
            ...r,
            UpdatedOn: "2024-01-01 00:00:00",
            MonitorStatus: "",
            DefaultNS: false,
          })),
        });
      }
      case "ModifyRecord": {
        const absent = missing(["Domain", "RecordType", "RecordLine", "Value", "RecordId"]);
        if (absent) return error("MissingParameter", `The request is missing a required parameter \`${absent}\`.`);
        const records = domains.get(String(fields.Domain).toLowerCase());
        if (!records)
          return error(
            "InvalidParameterValue.DomainNotExists",
            "The current domain is incorrect. Return to the previous step and try again.",
          );
        const record = records.find((r) => r.RecordId === fields.RecordId);
        if (!record) return error("InvalidParameter.RecordIdInvalid", "The record number is incorrect.");
        const type = String(fields.RecordType).toUpperCase();
        const invalid = invalidRecord(type, fields.Value, fields.TTL);
        if (invalid) return invalid;
        const line = lineOf(fields);
        if (!line) return error("InvalidParameter.RecordLineInvalid", "The record split zone is incorrect.");
        // What it is not sent goes back to its default, as a new record would have it.
        Object.assign(record, {
          Name: typeof fields.SubDomain === "string" ? fields.SubDomain.toLowerCase() : "@",
          Type: type,
          Value: fields.Value,
          TTL: typeof fields.TTL === "number" ? fields.TTL : TENCENT_DEFAULT_TTL,
          Line: line.line,
          LineId: line.lineId,
          Weight: typeof fields.Weight === "number" ? fields.Weight : null,
          Status: fields.Status === "DISABLE" ? "DISABLE" : "ENABLE",
          Remark: typeof fields.Remark === "string" ? fields.Remark : "",
        });
        return answer({ RecordId: record.RecordId });
      }
      case "DeleteRecord": {
        const absent = missing(["Domain", "RecordId"]);
        if (absent) return error("MissingParameter", `The request is missing a required parameter \`${absent}\`.`);
        const records = domains.get(String(fields.Domain).toLowerCase());
        const at = records?.findIndex((r) => r.RecordId === fields.RecordId) ?? -1;
        if (!records || at < 0) return error("InvalidParameter.RecordIdInvalid", "The record number is incorrect.");
        records.splice(at, 1);
        return answer({});
      }
      case "CreateRecord": {
        const absent = missing(["Domain", "RecordType", "RecordLine", "Value"]);
        if (absent) return error("MissingParameter", `The request is missing a required parameter \`${absent}\`.`);
        const domain = String(fields.Domain).toLowerCase();
        const records = domains.get(domain);
        if (!records)
          return error(
            "InvalidParameterValue.DomainNotExists",
            "The current domain is incorrect. Return to the previous step and try again.",
          );
        const type = String(fields.RecordType).toUpperCase();
        const invalid = invalidRecord(type, fields.Value, fields.TTL);
        if (invalid) return invalid;
        const line = lineOf(fields);
        if (!line) return error("InvalidParameter.RecordLineInvalid", "The record split zone is incorrect.");
        const name = typeof fields.SubDomain === "string" ? fields.SubDomain.toLowerCase() : "@";
        if (
          records.some((r) => r.Name === name && r.Type === type && r.Line === line.line && r.Value === fields.Value)
        ) {
          return error(
            "InvalidParameter.DomainRecordExist",
            "The record already exists and does not need to be added again.",
          );
        }
        const record = addRecord(domain, {
          name,
          type,
          value: String(fields.Value),
          ttl: typeof fields.TTL === "number" ? fields.TTL : undefined,
          line: line.line,
        });
        return answer({ RecordId: record.RecordId });
      }
      default:
        return error("InvalidAction", `The requested action \`${action}\` does not exist.`);
    }
  }

  const server = startFakeServer<TencentFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      const message =
        mode.message ??
        (mode.code === "RequestLimitExceeded"
          ? "Your current request times equals to `21` in a second, which exceeds the frequency limit `20` for a second. Please reduce the frequency of calls."
          : "An internal error has occurred. Retry your request, but if the problem persists, contact us.");
      return error(mode.code, message);
    },
  });

  const fake: TencentFake = Object.assign(server, {
    minTtl: 1,
    clockSkewSeconds: 0,
    countsLeftOut: false,
    keys,
    domains,
    addDomain: (name: string) => void domains.set(name, []),
    addRecord,
    records: (domain: string, name: string, type: string) =>
      (domains.get(domain) ?? []).filter((r) => r.Name === name && r.Type === type),
    changes: () => server.requests.filter((r) => WRITE_ACTIONS.has(r.headers["x-tc-action"] ?? "")),
    reset() {
      domains.clear();
      keys.clear();
      keys.set(TENCENT_FAKE_SECRET_ID, TENCENT_FAKE_SECRET_KEY);
      fake.minTtl = 1;
      fake.clockSkewSeconds = 0;
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
