// Name.com API v4 (docs/services/namecom.md): the zone service primitives. Name.com serves DNS only
// for domains registered with it, each named by itself in paths; records are listed a page at a time
// (`nextPage`, `lastPage`), each with a numeric id, `host` relative to the domain (`""` for the apex),
// `answer` (the address) and `ttl`. The PUT replaces a record, so the TTL read is always sent back.
// Requests carry HTTP Basic credentials: the account's username and an API token.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   GET records (one page of 1,000) + PUT the record = 2 (1 when the address is already there)
// Without it the account's domains are listed first (1,000 a page) and the longest holding the name is used.
//
// Sources: docs.name.com (API v4: authentication, domains, DNS records, errors, rate limits);
// qdm12/ddns-updater providers/namecom (getrecord.go, updaterecord.go, response.go: `{message,
// details}` errors, PUT by record id); lego "Name.com" (namedotcom, username + API token).

import { asObject, isObject } from "../../util/json";
import { type JsonAnswer, jsonCalls, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import {
  type RecordSet,
  recordSetOf,
  type TxtApi,
  writtenSet,
  type ZoneApi,
  zoneClient,
  zonesNamed,
} from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { txtRecords, unquotedTxt } from "../txt";
import { acceptedWithCount, failedCheck, relativeName } from "../zones";

const SERVICE = "Name.com";
/** The most items Name.com gives in one page. */
const PER_PAGE = 1000;
/** A new record's TTL when the domain's config names none: Name.com's minimum and default. */
const NEW_RECORD_TTL = 300;

export function createNamecomApi(
  credentials: { username: string; token: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.token}`).toString("base64")}`;

  const call = jsonCalls(context, SERVICE, { Authorization: authorization }, readError);

  /** Every item of a paged listing (`key` in each page), page by page until no next page is named. */
  function listAll(path: string, key: string): Promise<Step<Record<string, unknown>[]>> {
    return paginate(async (next) => {
      const page = Number(next ?? 1);
      const listed = await call("GET", `${path}?page=${page}&perPage=${PER_PAGE}`);
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const items = Array.isArray(body[key]) ? (body[key] as unknown[]).filter(isObject) : [];
      return {
        ok: true,
        value: {
          items,
          next:
            typeof body.nextPage === "number" && body.nextPage > page && items.length > 0 ? body.nextPage : undefined,
        },
      };
    });
  }

  const recordsPath = (domain: string) => `/domains/${encodeURIComponent(domain)}/records`;

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "answer"), members: records };
  }

  function written(answer: Step<JsonAnswer>): Step<RecordSet> {
    return answer.ok ? writtenSet(SERVICE, answer.value.body, recordSet) : answer;
  }

  /** The PUT replaces the record: its TTL is sent back, or Name.com would reset it to 300. */
  const put = (domain: string, hostname: string, type: string, id: unknown, address: string, ttl: unknown) =>
    call("PUT", `${recordsPath(domain)}/${encodeURIComponent(String(id))}`, {
      host: relativeName(hostname, domain),
      type,
      answer: address,
      ...(ttl === undefined ? {} : { ttl }),
    });

  const post = (domain: string, hostname: string, type: string, address: string, ttl: number) =>
    call("POST", recordsPath(domain), { host: relativeName(hostname, domain), type, answer: address, ttl });

  // One record per value, its answer the text itself; removed by id (DeleteRecord).
  const txt = txtRecords({
    async list(zone, name) {
      const listed = await listAll(recordsPath(zone.id), "records");
      if (!listed.ok) return staleOn404(listed);
      const relative = relativeName(name, zone.id);
      const records = listed.value.filter(
        (r) => r.type === "TXT" && typeof r.id === "number" && String(r.host ?? "").toLowerCase() === relative,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.answer) })) };
    },
    create: (zone, name, value) =>
      call("POST", recordsPath(zone.id), {
        host: relativeName(name, zone.id),
        type: "TXT",
        answer: value,
        ttl: NEW_RECORD_TTL,
      }),
    delete: (zone, record) => call("DELETE", `${recordsPath(zone.id)}/${encodeURIComponent(record.id)}`),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // The listing the writes start from; changes nothing.
      const answer = await call("GET", "/domains?perPage=1");
      if (!answer.ok) return failedCheck(answer);
      return acceptedWithCount(
        `Token accepted for ${credentials.username}`,
        asObject(answer.value.body).totalCount,
        "domain",
      );
    },

    async listZones() {
      const listed = await listAll("/domains", "domains");
      if (!listed.ok) return listed;
      return { ok: true, value: zonesNamed(listed.value.map((d) => d.domainName)) };
    },

    async readRecordSet(zone, hostname, type) {
      const listed = await listAll(recordsPath(zone.id), "records");
      // A domain in the config that left the account: looked up afresh, once.
      if (!listed.ok) return staleOn404(listed);
      const relative = relativeName(hostname, zone.id);
      const records = listed.value.filter(
        (r) => r.type === type && typeof r.id === "number" && String(r.host ?? "").toLowerCase() === relative,
      );
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      return written(await put(zone.id, hostname, type, current.id, address, settings.ttl ?? current.ttl));
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      return written(await post(zone.id, hostname, type, address, settings.ttl ?? NEW_RECORD_TTL));
    },

    // One record per address: only the difference is sent, a record whose address goes rewritten to
    // hold a new one, never another record of the name touched.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const one = (answer: Step<JsonAnswer>): Step<Record<string, unknown>> => {
        const set = written(answer);
        return set.ok ? { ok: true, value: asObject(set.value.raw) } : set;
      };
      const result = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.answer),
        stale: (record) => settings.ttl !== undefined && record.ttl !== settings.ttl,
        edit: async (record, address) =>
          one(await put(zone.id, hostname, type, record.id, address, settings.ttl ?? record.ttl)),
        create: async (address) =>
          one(await post(zone.id, hostname, type, address, settings.ttl ?? current?.ttl ?? NEW_RECORD_TTL)),
        delete: (record) => call("DELETE", `${recordsPath(zone.id)}/${encodeURIComponent(String(record.id))}`),
      });
      return result.ok ? { ok: true, value: recordSet(result.value) } : result;
    },
  };
}

/**
 * Name.com's error body: `{"message", "details"?}`. Wrong credentials (401 `Unauthenticated`, 403
 * `Permission Denied`) only come right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.message !== "string" || body.message === "") return undefined;
  const words =
    typeof body.details === "string" && body.details !== "" ? `${body.message}: ${body.details}` : body.message;
  return { words, ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about Name.com (docs/services/namecom.md). */
export const namecom = defineService({
  type: "namecom",
  label: "Name.com",
  summary:
    "Domains registered at Name.com that use its DNS, through the Name.com API v4 with the account's username and an API token.",
  credentials: [
    {
      key: "username",
      label: "Username",
      help: "Your Name.com account username (not the e-mail address), as shown at name.com/account/settings/api.",
      secret: false,
    },
    {
      key: "token",
      label: "API token",
      help:
        "At name.com/account/settings/api: Create New Token (a production token, not the sandbox one). Name.com tokens are not scoped: " +
        "a token can do everything the account can, so make one for ddnsd alone and delete it when you stop using ddnsd.",
      url: "https://www.name.com/account/settings/api",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(300, 86400, 300),
  canVerify: true,
  defaultApiUrl: "https://api.name.com/v4",
  // Name.com allows 20 requests a second and 3,000 an hour per account; ddnsd stays under both.
  rateLimits: [
    { requests: 10, perSeconds: 1 },
    { requests: 2700, perSeconds: 3600 },
  ],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, _options, context) {
    const api = createNamecomApi({ username: credentials.username ?? "", token: credentials.token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
