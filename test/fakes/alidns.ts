// A faithful stand-in for Alibaba Cloud DNS (Alidns, API 2015-01-09; docs/services/alidns.md): RPC
// calls as GET `/?Action=…` with the common parameters, each request's HMAC-SHA1 signature checked for
// real with the documented algorithm (an unknown AccessKey ID gets 404 InvalidAccessKeyId.NotFound, a
// wrong secret 400 SignatureDoesNotMatch, a reused nonce 400 SignatureNonceUsed), the four actions
// ddnsd uses with their paging (PageSize at most 100), one record per address and resolution line (a
// name holds several A/AAAA records, each its own RecordId), and these
// quirks: UpdateDomainRecord and AddDomainRecord refuse a record that already exists with that value
// (DomainRecordDuplicate), UpdateDomainRecord resets the TTL and line it is not sent to 600 and
// "default", the edition's TTL floor (QuotaExceeded.TTL: 600 on the free edition), locked records
// (DomainRecordLocked), and errors as `{RequestId, HostId, Code, Message, Recommend}`.
//
// Sources: Alibaba Cloud DNS API reference (alibabacloud.com/help/en/dns: common parameters,
// "Signature mechanism", DescribeDomains, DescribeSubDomainRecords, UpdateDomainRecord,
// AddDomainRecord, DeleteDomainRecord (by RecordId; a TXT record's Value is its text), error
// codes); jeessy2/ddns-go dns/alidns.go (the calls and the error bodies its users report:
// InvalidAccessKeyId 404, QuotaExceeded.TTL 400); go-acme/lego providers/dns/alidns.
// No machine-readable description is published in a form worth vendoring (the OpenAPI Explorer's
// metadata is per product and not versioned).
//
// Quirk switches: `minTtl` (1, a paid edition; 600 the free edition), a record added with `locked: true` or on another `line`; `keys` (delete one to
// disable it); faults `{status, code, message}` (e.g. 400 Throttling.User, 503 ServiceUnavailable),
// "malformed" (a 200 with broken JSON), "html" (a gateway's 502 page).

import { isIPv4, isIPv6 } from "node:net";
import { rpcSignature } from "../../src/dns/signing/alidns-signature";
import { type FakeServer, htmlErrorPage, json, type LoggedRequest, malformedJson, startFakeServer } from "./server";

export const ALIDNS_FAKE_ACCESS_KEY_ID = "LTAI5tFakeAccessKeyId01";
export const ALIDNS_FAKE_SECRET = "FakeAccessKeySecret0123456789ab";
/** The TTL the free edition allows at least (paid editions go down to 1). */
export const ALIDNS_FREE_EDITION_MIN_TTL = 600;
/** The TTL of a record created or updated without one. */
const ALIDNS_DEFAULT_TTL = 600;

export interface AlidnsRecord {
  RecordId: string;
  DomainName: string;
  RR: string;
  Type: string;
  Value: string;
  TTL: number;
  Line: string;
  Status: "ENABLE" | "DISABLE";
  Locked: boolean;
  Weight: number;
}

export type AlidnsFault = { status: number; code: string; message?: string } | "malformed" | "html";

export interface AlidnsFake extends FakeServer<AlidnsFault> {
  /** The lowest TTL the account's edition accepts: 1 (paid editions) until a test sets the free edition's 600. */
  minTtl: number;
  /** Whether the domain listing leaves out TotalCount, so a client cannot know the total. */
  totalLeftOut: boolean;
  /** AccessKey ID → secret; delete one to disable it mid-test. */
  keys: Map<string, string>;
  /** Domain name → its records. */
  domains: Map<string, AlidnsRecord[]>;
  addDomain(name: string): void;
  /** `rr` relative to the domain, `@` for the apex. */
  addRecord(
    domain: string,
    record: { rr: string; type: string; value: string; ttl?: number; line?: string; locked?: boolean },
  ): AlidnsRecord;
  records(domain: string, rr: string, type: string): AlidnsRecord[];
  /** Requests whose Action changes something (UpdateDomainRecord, AddDomainRecord). */
  changes(): LoggedRequest[];
  reset(): void;
}

const WRITE_ACTIONS = new Set([
  "UpdateDomainRecord",
  "AddDomainRecord",
  "DeleteDomainRecord",
  "DeleteSubDomainRecords",
  "SetDomainRecordStatus",
]);
const COMMON = [
  "AccessKeyId",
  "Signature",
  "SignatureMethod",
  "SignatureVersion",
  "SignatureNonce",
  "Timestamp",
  "Version",
];

export function startAlidnsFake(): AlidnsFake {
  const keys = new Map([[ALIDNS_FAKE_ACCESS_KEY_ID, ALIDNS_FAKE_SECRET]]);
  const domains = new Map<string, AlidnsRecord[]>();
  const nonces = new Set<string>();
  let nextId = 100000000001;

  function error(status: number, code: string, message: string): Response {
    return json(status, {
      RequestId: crypto.randomUUID().toUpperCase(),
      HostId: "alidns.aliyuncs.com",
      Code: code,
      Message: message,
      Recommend: `https://api.aliyun.com/troubleshoot?q=${code}&product=Alidns`,
    });
  }

  function addRecord(
    domain: string,
    init: { rr: string; type: string; value: string; ttl?: number; line?: string; locked?: boolean },
  ): AlidnsRecord {
    const records = domains.get(domain);
    if (!records) throw new Error(`fake Alidns: no domain ${domain}`);
    const record: AlidnsRecord = {
      RecordId: String(nextId++),
      DomainName: domain,
      RR: init.rr,
      Type: init.type,
      Value: init.value,
      TTL: init.ttl ?? ALIDNS_DEFAULT_TTL,
      Line: init.line ?? "default",
      Status: "ENABLE",
      Locked: init.locked ?? false,
      Weight: 1,
    };
    records.push(record);
    return record;
  }

  function page<T>(items: T[], query: Record<string, string>): { items: T[]; number: number; size: number } {
    const size = Math.min(Math.max(Number(query.PageSize) || 20, 1), 100);
    const number = Math.max(Number(query.PageNumber) || 1, 1);
    return { items: items.slice((number - 1) * size, number * size), number, size };
  }

  /** A value the record type takes, a TTL within the edition's range: else Alibaba's refusal. */
  function invalidRecord(type: string, value: string, ttl: string | undefined): Response | null {
    if ((type === "A" && !isIPv4(value)) || (type === "AAAA" && !isIPv6(value))) {
      return error(400, "InvalidRR.Format", `The record value ${value} is invalid for type ${type}.`);
    }
    if (ttl !== undefined && (!/^\d+$/.test(ttl) || Number(ttl) < fake.minTtl || Number(ttl) > 86400)) {
      return error(
        400,
        "QuotaExceeded.TTL",
        `The specified TTL is invalid. A valid TTL must be in the range of ${fake.minTtl} to 86400.`,
      );
    }
    return null;
  }

  function route(request: LoggedRequest): Response {
    if (request.method !== "GET" && request.method !== "POST")
      return error(405, "UnsupportedHTTPMethod", "This http method is not supported.");
    const query = request.query;
    const missing = COMMON.find((name) => query[name] === undefined);
    if (missing) return error(400, `Missing${missing}`, `${missing} is mandatory for this action.`);
    const secret = keys.get(query.AccessKeyId ?? "");
    if (secret === undefined) return error(404, "InvalidAccessKeyId.NotFound", "Specified access key is not found.");
    const { Signature: sent, ...signed } = query;
    if (query.SignatureMethod !== "HMAC-SHA1" || rpcSignature(request.method, signed, secret) !== sent) {
      return error(
        400,
        "SignatureDoesNotMatch",
        `Specified signature is not matched with our calculation. server string to sign is:${request.method}&%2F&...`,
      );
    }
    if (nonces.has(query.SignatureNonce ?? ""))
      return error(400, "SignatureNonceUsed", "Specified signature nonce was used already.");
    nonces.add(query.SignatureNonce ?? "");
    if (query.Version !== "2015-01-09")
      return error(400, "InvalidVersion", "Specified parameter Version is not valid.");

    switch (query.Action) {
      case "DescribeDomains": {
        const names = [...domains.keys()].sort();
        const shown = page(names, query);
        return json(200, {
          RequestId: crypto.randomUUID().toUpperCase(),
          TotalCount: fake.totalLeftOut ? undefined : names.length,
          PageNumber: shown.number,
          PageSize: shown.size,
          Domains: {
            Domain: shown.items.map((name, i) => ({
              DomainId: `00000000-0000-0000-0000-${String(i).padStart(12, "0")}`,
              DomainName: name,
              PunyCode: name,
              AliDomain: false,
              RecordCount: domains.get(name)?.length ?? 0,
              VersionCode: "mianfei",
            })),
          },
        });
      }
      case "DescribeSubDomainRecords": {
        const subDomain = (query.SubDomain ?? "").toLowerCase();
        if (subDomain === "") return error(400, "MissingSubDomain", "SubDomain is mandatory for this action.");
        // Without DomainName the last two labels are the domain (as documented).
        const domain = (query.DomainName ?? subDomain.split(".").slice(-2).join(".")).toLowerCase();
        const records = domains.get(domain);
        if (!records)
          return error(
            400,
            "InvalidDomainName.NoExist",
            "The specified domain name does not exist. Refresh the page and try again.",
          );
        if (subDomain !== domain && !subDomain.endsWith(`.${domain}`))
          return error(400, "InvalidSubDomain.Format", "The subdomain does not belong to the domain.");
        const rr = subDomain === domain ? "@" : subDomain.slice(0, -(domain.length + 1));
        const matching = records.filter(
          (r) =>
            r.RR === rr &&
            (query.Type === undefined || r.Type === query.Type.toUpperCase()) &&
            (query.Line === undefined || r.Line === query.Line),
        );
        const shown = page(matching, query);
        return json(200, {
          RequestId: crypto.randomUUID().toUpperCase(),
          TotalCount: matching.length,
          PageNumber: shown.number,
          PageSize: shown.size,
          DomainRecords: { Record: shown.items.map((r) => ({ ...r })) },
        });
      }
      case "UpdateDomainRecord": {
        for (const name of ["RecordId", "RR", "Type", "Value"]) {
          if (query[name] === undefined) return error(400, `Missing${name}`, `${name} is mandatory for this action.`);
        }
        const record = [...domains.values()].flat().find((r) => r.RecordId === query.RecordId);
        if (!record) return error(400, "DomainRecordNotBelongToUser", "The DNS record does not belong to you.");
        const type = (query.Type ?? "").toUpperCase();
        const invalid = invalidRecord(type, query.Value ?? "", query.TTL);
        if (invalid) return invalid;
        if (record.Locked) return error(400, "DomainRecordLocked", "The DNS record is locked.");
        const line = query.Line ?? "default";
        const records = domains.get(record.DomainName) ?? [];
        if (records.some((r) => r.RR === query.RR && r.Type === type && r.Value === query.Value && r.Line === line)) {
          return error(400, "DomainRecordDuplicate", "The DNS record already exists.");
        }
        // Fields it is not sent go back to their defaults, as a new record would have them.
        Object.assign(record, {
          RR: query.RR,
          Type: type,
          Value: query.Value,
          TTL: Number(query.TTL ?? ALIDNS_DEFAULT_TTL),
          Line: line,
        });
        return json(200, { RequestId: crypto.randomUUID().toUpperCase(), RecordId: record.RecordId });
      }
      case "AddDomainRecord": {
        for (const name of ["DomainName", "RR", "Type", "Value"]) {
          if (query[name] === undefined) return error(400, `Missing${name}`, `${name} is mandatory for this action.`);
        }
        const domain = (query.DomainName ?? "").toLowerCase();
        const records = domains.get(domain);
        if (!records)
          return error(
            400,
            "InvalidDomainName.NoExist",
            "The specified domain name does not exist. Refresh the page and try again.",
          );
        const type = (query.Type ?? "").toUpperCase();
        const invalid = invalidRecord(type, query.Value ?? "", query.TTL);
        if (invalid) return invalid;
        const line = query.Line ?? "default";
        if (records.some((r) => r.RR === query.RR && r.Type === type && r.Value === query.Value && r.Line === line)) {
          return error(400, "DomainRecordDuplicate", "The DNS record already exists.");
        }
        const record = addRecord(domain, {
          rr: query.RR ?? "",
          type,
          value: query.Value ?? "",
          ttl: Number(query.TTL ?? ALIDNS_DEFAULT_TTL),
          line,
        });
        return json(200, { RequestId: crypto.randomUUID().toUpperCase(), RecordId: record.RecordId });
      }
      case "DeleteDomainRecord": {
        for (const records of domains.values()) {
          const at = records.findIndex((r) => r.RecordId === query.RecordId);
          if (at < 0) continue;
          records.splice(at, 1);
          return json(200, { RequestId: crypto.randomUUID().toUpperCase(), RecordId: query.RecordId });
        }
        return error(400, "DomainRecordNotBelongToUser", "The DNS record does not belong to you.");
      }
      default:
        return error(400, "InvalidAction.NotFound", "Specified api is not found, please check your url and method.");
    }
  }

  const server = startFakeServer<AlidnsFault>({
    prefix: "",
    route,
    renderFault(mode) {
      if (mode === "malformed") return malformedJson();
      if (mode === "html") return htmlErrorPage();
      return error(
        mode.status,
        mode.code,
        mode.message ??
          (mode.code === "Throttling.User"
            ? "Request was denied due to user flow control."
            : "The request processing has failed due to some unknown error."),
      );
    },
  });

  const fake: AlidnsFake = Object.assign(server, {
    minTtl: 1,
    totalLeftOut: false,
    keys,
    domains,
    addDomain: (name: string) => void domains.set(name, []),
    addRecord,
    records: (domain: string, rr: string, type: string) =>
      (domains.get(domain) ?? []).filter((r) => r.RR === rr && r.Type === type),
    changes: () => server.requests.filter((r) => WRITE_ACTIONS.has(r.query.Action ?? "")),
    reset() {
      domains.clear();
      nonces.clear();
      fake.minTtl = 1;
      keys.clear();
      keys.set(ALIDNS_FAKE_ACCESS_KEY_ID, ALIDNS_FAKE_SECRET);
      server.clearFaults();
      server.clearRequests();
    },
  });
  return fake;
}
