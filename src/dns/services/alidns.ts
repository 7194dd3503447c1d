// Alibaba Cloud DNS (Alidns, API version 2015-01-09) client: checks an AccessKey pair and points one
// A/AAAA record at an address. The API is RPC style: every call is a GET of `/` whose query names the
// Action and carries the common parameters and their HMAC-SHA1 signature (alidns-signature.ts). A
// domain (the zone) is addressed by its name, a record by its RecordId.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   DescribeSubDomainRecords + UpdateDomainRecord = 2 (1 when the address is already there)
// Without it the account's domains are listed first (DescribeDomains, 100 a page) and the longest
// one holding the hostname is used.
//
// A name can hold one record per resolution line (default, telecom, unicom …): those are several
// addresses for ddnsd, so such a name is left alone unless the domain publishes a set of addresses
// (one record per address, the difference added, updated or deleted). UpdateDomainRecord replaces the record's TTL and
// line with their defaults (600, "default") when they are not sent, so both are always sent back as
// read. It refuses a write that changes nothing (DomainRecordDuplicate): the read before it makes
// sure none is sent.
//
// Errors are JSON `{RequestId, HostId, Code, Message, Recommend}` with a 4xx/5xx status: a wrong
// key or signature (InvalidAccessKeyId.NotFound 404, SignatureDoesNotMatch 400, Forbidden.RAM 403)
// stops retrying; Throttling.User (HTTP 400, no wait named) is "slow down".
//
// Sources: docs/services/alidns.md; Alibaba Cloud DNS API reference (common parameters, signature
// mechanism, DescribeDomains, DescribeSubDomainRecords, UpdateDomainRecord, AddDomainRecord, error
// codes); jeessy2/ddns-go dns/alidns.go and util/aliyun_signer.go; go-acme/lego providers/dns/alidns.

import { asObject, isObject, objectsIn } from "../../util/json";
import { plural } from "../../util/plural";
import { type JsonAnswer, requestJson, type ServiceError } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { signedQuery } from "../signing/alidns-signature";
import { txtRecords, unquotedTxt } from "../txt";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "Alibaba Cloud DNS";
const API_VERSION = "2015-01-09";
/** TTL of a record this client creates when the domain's config names none: Alibaba's default. */
const NEW_RECORD_TTL = 600;
/** The largest page DescribeDomains and DescribeSubDomainRecords give. */
const PAGE_SIZE = 100;

/** What an update must send back so the record keeps it. */
interface Kept {
  rr: string;
  line: string;
}

export function createAlidnsApi(
  credentials: { access_key_id: string; access_key_secret: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  function call(parameters: Record<string, string>): Promise<Step<JsonAnswer>> {
    const query = signedQuery(
      parameters,
      { accessKeyId: credentials.access_key_id, accessKeySecret: credentials.access_key_secret },
      API_VERSION,
    );
    return requestJson(context, SERVICE, { method: "GET", path: `/?${query}`, headers: {} }, readError);
  }

  async function listDomains(pageSize: number, page: number): Promise<Step<{ names: string[]; total: number }>> {
    const listed = await call({ Action: "DescribeDomains", PageSize: String(pageSize), PageNumber: String(page) });
    if (!listed.ok) return listed;
    const body = asObject(listed.value.body);
    const domains = isObject(body.Domains) ? objectsIn(body.Domains.Domain) : [];
    const names = domains.map((d) => d.DomainName).filter((n): n is string => typeof n === "string");
    return { ok: true, value: { names, total: Number(body.TotalCount ?? Number.NaN) } };
  }

  /**
   * Writes one record: `which` names the action and the record (its id, and the line it keeps) or
   * the domain it is added to; the host record, type, address and TTL go with it. The answer's
   * RecordId names the set written (`id` where it names none).
   */
  async function writeRecord(
    which: Record<string, string>,
    type: string,
    address: string,
    ttl: number,
    kept: Kept,
    id = "",
  ): Promise<Step<RecordSet>> {
    const written = await call({ ...which, RR: kept.rr, Type: type, Value: address, TTL: String(ttl) });
    if (!written.ok) return written;
    const body = asObject(written.value.body);
    return { ok: true, value: { id: String(body.RecordId ?? id), values: [address], ttl, raw: kept } };
  }

  // One record per value, its Value the text itself; removed by id (DeleteDomainRecord).
  const txt = txtRecords({
    async list(zone, name) {
      const read = await call({
        Action: "DescribeSubDomainRecords",
        DomainName: zone.id,
        SubDomain: name,
        Type: "TXT",
        PageSize: String(PAGE_SIZE),
      });
      if (!read.ok) return read;
      const rr = relativeName(name, zone.id, "@");
      const records = objectsIn(asObject(asObject(read.value.body).DomainRecords).Record).filter(
        (r) => String(r.RR ?? "").toLowerCase() === rr && r.Type === "TXT" && r.RecordId !== undefined,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.RecordId), value: unquotedTxt(r.Value) })) };
    },
    create: (zone, name, value) =>
      call({
        Action: "AddDomainRecord",
        DomainName: zone.id,
        RR: relativeName(name, zone.id, "@"),
        Type: "TXT",
        Value: value,
        TTL: String(NEW_RECORD_TTL),
      }),
    delete: (_zone, record) => call({ Action: "DeleteDomainRecord", RecordId: record.id }),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const listed = await listDomains(1, 1);
      if (!listed.ok) return failedCheck(listed);
      const count = listed.value.total;
      return {
        ok: true,
        detail: Number.isInteger(count) ? `AccessKey accepted (${plural(count, "domain")})` : "AccessKey accepted",
      };
    },

    async listZones() {
      const domains = await paginate(async (next, count) => {
        const page = Number(next ?? 1);
        const listed = await listDomains(PAGE_SIZE, page);
        if (!listed.ok) return listed;
        const { names, total } = listed.value;
        // A short page is the last, and so is one that reaches the total (an unknown total ends nothing).
        const last = names.length < PAGE_SIZE || count + names.length >= total;
        return { ok: true, value: { items: names, next: last ? undefined : page + 1 } };
      });
      return domains.ok ? { ok: true, value: zonesNamed(domains.value) } : domains;
    },

    async readRecordSet(zone, hostname, type) {
      // With DomainName given, SubDomain is split at it: the domain itself reads its `@` records.
      const read = await call({
        Action: "DescribeSubDomainRecords",
        DomainName: zone.id,
        SubDomain: hostname,
        Type: type,
        PageSize: String(PAGE_SIZE),
      });
      if (!read.ok) return read;
      const body = asObject(read.value.body);
      const rr = relativeName(hostname, zone.id, "@");
      const records = (
        isObject(body.DomainRecords) && Array.isArray(body.DomainRecords.Record)
          ? body.DomainRecords.Record.filter(isObject)
          : []
      ).filter((r) => String(r.RR ?? "").toLowerCase() === rr && r.Type === type);
      const [first] = records;
      if (first === undefined) return { ok: true, value: null };
      const ttl = typeof first.TTL === "number" ? first.TTL : undefined;
      const kept: Kept = { rr: String(first.RR), line: typeof first.Line === "string" ? first.Line : "default" };
      // One record per resolution line: several lines are several addresses, which the reconciler leaves alone.
      const values = records.map((r) => String(r.Value ?? ""));
      return {
        ok: true,
        value: {
          id: String(first.RecordId ?? ""),
          values,
          ...(ttl === undefined ? {} : { ttl }),
          raw: kept,
          members: records,
        },
      };
    },

    async updateRecordSet(_zone, _hostname, type, current, address, settings) {
      const kept = current.raw as Kept;
      // Left out, the TTL and the line would be reset to 600 and "default": both are sent back as read.
      const ttl = settings.ttl ?? current.ttl ?? NEW_RECORD_TTL;
      const which = { Action: "UpdateDomainRecord", RecordId: current.id, Line: kept.line };
      return writeRecord(which, type, address, ttl, kept, current.id);
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const kept: Kept = { rr: relativeName(hostname, zone.id, "@"), line: "default" };
      const which = { Action: "AddDomainRecord", DomainName: zone.id };
      return writeRecord(which, type, address, settings.ttl ?? NEW_RECORD_TTL, kept);
    },

    // One record per address: the difference is added, updated (its line kept) or deleted by id.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const ttl = settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL;
      const kept: Kept = (current?.raw as Kept | undefined) ?? {
        rr: relativeName(hostname, zone.id, "@"),
        line: "default",
      };
      let setId = current?.id;
      const done = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.Value),
        stale: (record) =>
          settings.ttl !== undefined && (typeof record.TTL === "number" ? record.TTL : undefined) !== settings.ttl,
        edit: (record, address) =>
          writeRecord(
            { Action: "UpdateDomainRecord", RecordId: String(record.RecordId), Line: String(record.Line ?? "default") },
            type,
            address,
            ttl,
            kept,
          ),
        create: async (address) => {
          const created = await writeRecord(
            { Action: "AddDomainRecord", DomainName: zone.id },
            type,
            address,
            ttl,
            kept,
          );
          if (created.ok) setId ??= created.value.id;
          return created;
        },
        delete: (record) => call({ Action: "DeleteDomainRecord", RecordId: String(record.RecordId) }),
      });
      if (!done.ok) return done;
      return { ok: true, value: { id: setId ?? "", values: [...addresses], ttl, raw: kept } };
    },

    describe(set) {
      const kept = set.raw as Kept | undefined;
      return [
        ...(set.ttl === undefined ? [] : [`ttl ${set.ttl}`]),
        ...(kept && kept.line !== "default" ? [`line ${kept.line}`] : []),
      ];
    },
  };
}

/** Codes after which only another AccessKey (or more RAM permissions) helps. */
function refusesCredentials(code: string): boolean {
  return (
    code.startsWith("InvalidAccessKey") ||
    code === "SignatureDoesNotMatch" ||
    code === "IncompleteSignature" ||
    code.startsWith("Forbidden") ||
    code === "NoPermission"
  );
}

/** Codes that name a domain this account does not hold: a configured one is looked up afresh. */
const UNKNOWN_DOMAIN_CODES = new Set(["InvalidDomainName.NoExist", "IncorrectDomainUser", "DomainNotFound"]);

/** Alibaba's own words: `{Code, Message}`, with the cause and consequences the code means. */
function readError(body: unknown): ServiceError | undefined {
  if (!isObject(body) || typeof body.Code !== "string") return undefined;
  const code = body.Code;
  const words = typeof body.Message === "string" && body.Message !== "" ? body.Message : code;
  if (refusesCredentials(code)) return { words, code, cause: "credentials", stopRetrying: true };
  if (code.startsWith("Throttling")) return { words, code, cause: "throttled" };
  // A locked record stays locked until someone unlocks it in the console.
  if (code === "DomainRecordLocked") return { words, code, cause: "refused", stopRetrying: true };
  // A TTL the account's edition does not take is refused the same way on every retry: only a
  // changed config.ttl (or edition) helps.
  if (code === "QuotaExceeded.TTL" || code.startsWith("DomainRecordTTL"))
    return { words, code, cause: "refused", stopRetrying: true };
  if (UNKNOWN_DOMAIN_CODES.has(code)) return { words, code, cause: "refused", staleZone: true };
  return { words, code };
}

export const alidns = defineService({
  type: "alidns",
  label: "Alibaba Cloud DNS",
  summary:
    "Alibaba Cloud DNS (Alidns): ddnsd updates the address of the record, keeping its TTL and resolution line; a missing record is created.",
  credentials: [
    {
      key: "access_key_id",
      url: "https://ram.console.aliyun.com/users",
      label: "AccessKey ID",
      help: 'In the RAM console create a user with "Using permanent AccessKey to access" (OpenAPI access only), give it a custom policy allowing alidns:DescribeDomains, alidns:DescribeSubDomainRecords, alidns:UpdateDomainRecord and alidns:AddDomainRecord (or the system policy AliyunDNSFullAccess), and create its AccessKey. Do not use the account\'s own AccessKey. The AccessKey ID is not a secret.',
      secret: false,
    },
    {
      key: "access_key_secret",
      label: "AccessKey secret",
      help: "Shown once, beside the AccessKey ID, when the AccessKey is created.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 86400, 600, { note: "the free edition accepts 600 and above" }),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://alidns.aliyuncs.com",
  // Alibaba's API quotas are per account and action (UpdateDomainRecord and AddDomainRecord 60 a
  // second, DescribeSubDomainRecords 300), and since 2025 it also throttles adaptively
  // (Throttling.User): ddnsd stays far below both.
  rateLimits: [{ requests: 5, perSeconds: 1 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createAlidnsApi(
      { access_key_id: credentials.access_key_id ?? "", access_key_secret: credentials.access_key_secret ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
