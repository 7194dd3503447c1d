// Linode (Akamai Cloud) API v4 DNS Manager (docs/services/linode.md): the zone service primitives.
// A domain (zone) has a numeric id; its records are listed a page at a time (`{data, page, pages}`),
// each with a numeric id, a name relative to the domain (`""` for the apex), `target` (the address)
// and `ttl_sec` (0: the domain's default). A PUT changes only the fields it is sent, so an update
// sends the address (and a TTL only when the domain's config names one) and keeps everything else.
//
// Requests per write: the domain (GET /domains/{id} once its id is saved as config.zone_id; before
// that the account's domains, 500 a page, the longest holding the name), the records (one page of
// 500), and the PUT or POST = 3 (2 when the address is already there). Secondary ("slave") domains
// are skipped: Linode does not let their records change. Several addresses for one name are several
// records (one per address): a record whose address stays is kept, one whose address goes is PUT to
// a new address or deleted. The ACME challenge TXT is one record per value too, deleted by its id.
//
// Sources: techdocs.akamai.com/linode-api (Domains, Domain Records, Pagination, Errors, Rate limits;
// Linode publishes the API as an OpenAPI description, linode/linode-api-docs openapi.yaml);
// qdm12/ddns-updater providers/linode/provider.go; libdns/linode; lego "Linode (v4)".

import { asObject, isObject, objectsIn } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, type JsonAnswer, jsonCalls, type ServiceError, staleOn404 } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import {
  type RecordSet,
  recordSetNamed,
  recordSetOf,
  type TxtApi,
  writtenSet,
  type Zone,
  type ZoneApi,
  zoneClient,
} from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords } from "../txt";
import { failedCheck, foreignZoneMessage, longestZone, noZoneMessage, relativeName, zoneHolds } from "../zones";

const SERVICE = "Linode";
/** The most items Linode gives in one page. */
const PAGE_SIZE = 500;
/** A new record's `ttl_sec` when the domain's config names none: the domain's default. */
const DOMAIN_DEFAULT_TTL = 0;
/**
 * The TTLs Linode keeps. Linode's texts disagree on any other `ttl_sec`: "rounded to the nearest" of
 * them in some, "rounded up" in others. ddnsd sends only values of this list (the nearest, the
 * larger on a tie), which Linode keeps as sent under either reading, so a record it wrote holds its
 * TTL on the next pass and is not written again.
 */
const LINODE_TTLS = [0, 30, 120, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200];

/** The `ttl_sec` Linode keeps when it is sent `ttl`. */
export function roundedTtl(ttl: number): number {
  let best = 0;
  for (const kept of LINODE_TTLS) if (Math.abs(kept - ttl) <= Math.abs(best - ttl)) best = kept;
  return best;
}

export function createLinodeApi(credentials: { token: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const call = jsonCalls(context, SERVICE, { Authorization: `Bearer ${credentials.token}` }, readError);

  /** Every item of a paged listing, page by page until the last page Linode names. */
  function listAll(path: string): Promise<Step<Record<string, unknown>[]>> {
    return paginate(async (next) => {
      const page = Number(next ?? 1);
      const listed = await call("GET", `${path}?page=${page}&page_size=${PAGE_SIZE}`);
      if (!listed.ok) return listed;
      const body = asObject(listed.value.body);
      const data = objectsIn(body.data);
      const more = typeof body.pages === "number" && page < body.pages && data.length > 0;
      return { ok: true, value: { items: data, next: more ? page + 1 : undefined } };
    });
  }

  const recordsPath = (domainId: string) => `/domains/${encodeURIComponent(domainId)}/records`;

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "target", { ttl: "ttl_sec" }), members: records };
  }

  /** The record a PUT or POST answered, or a failure saying it came back without an id. */
  function writtenRecord(answer: Step<JsonAnswer>): Step<Record<string, unknown>> {
    if (!answer.ok) return answer;
    const record = answer.value.body;
    if (isObject(record) && record.id !== undefined && record.id !== null) return { ok: true, value: record };
    return failed(`${SERVICE}: the written record came back without an id`, { cause: "refused" });
  }

  const recordPath = (domainId: string, id: unknown) => `${recordsPath(domainId)}/${encodeURIComponent(String(id))}`;

  // One record per value: adding creates one, removing deletes exactly the one holding the value.
  const txt = txtRecords({
    async list(zone, name) {
      const listed = staleOn404(await listAll(recordsPath(zone.id)));
      if (!listed.ok) return listed;
      const relative = relativeName(name, zone.name ?? name);
      const records = listed.value.filter(
        (r) => r.type === "TXT" && r.id !== undefined && String(r.name ?? "").toLowerCase() === relative,
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: String(r.target ?? "") })) };
    },
    create: (zone, name, value) =>
      call("POST", recordsPath(zone.id), {
        type: "TXT",
        name: relativeName(name, zone.name ?? name),
        target: value,
        ttl_sec: roundedTtl(CHALLENGE_TTL),
      }),
    delete: (zone, record) => call("DELETE", recordPath(zone.id, record.id)),
  });

  /** A written record as Linode answered it, or a failure saying what was missing. */
  function written(answer: Step<JsonAnswer>): Step<RecordSet> {
    return answer.ok ? writtenSet(SERVICE, answer.value.body, recordSet) : answer;
  }

  function zoneOf(domain: Record<string, unknown>, name: string): Zone {
    const note =
      domain.status === "disabled"
        ? `domain ${name} is disabled at Linode, so the record is not served until it is enabled`
        : undefined;
    return { id: String(domain.id), name, ...(note ? { note } : {}) };
  }

  return {
    service: SERVICE,
    txt,

    async verify() {
      // Needs the same `domains` scope the writes need; changes nothing.
      const answer = await call("GET", "/domains?page=1&page_size=25");
      if (!answer.ok) return failedCheck(answer);
      const results = isObject(answer.value.body) ? answer.value.body.results : undefined;
      if (typeof results !== "number") return { ok: true, detail: "Token accepted" };
      return { ok: true, detail: `Token accepted (${plural(results, "domain")})` };
    },

    async findZone(hostname, configured) {
      if (configured !== undefined) {
        // The id a first write saved (or a person typed): one request names it, and it must hold the name.
        if (!/^\d+$/.test(configured))
          return failed(
            `${SERVICE}: config.zone_id ${configured} is not a Linode domain id (a number); correct it or remove it`,
            { cause: "refused" },
          );
        const found = await call("GET", `/domains/${configured}`);
        if (!found.ok) return staleOn404(found);
        const domain = asObject(found.value.body);
        const name = typeof domain.domain === "string" ? domain.domain.toLowerCase() : "";
        if (!zoneHolds(name, hostname))
          return failed(foreignZoneMessage(SERVICE, `${configured} (${name || "unnamed"})`, hostname), {
            cause: "refused",
          });
        return { ok: true, value: zoneOf(domain, name) };
      }
      const listed = await listAll("/domains");
      if (!listed.ok) return listed;
      // Secondary domains are copies of another server's zone: Linode does not let their records change.
      const primaries = listed.value.filter(
        (d) => d.type !== "slave" && typeof d.domain === "string" && typeof d.id === "number",
      );
      const name = longestZone(
        hostname,
        primaries.map((d) => d.domain as string),
      );
      const domain = primaries.find((d) => (d.domain as string).toLowerCase() === name);
      if (name === undefined || domain === undefined)
        return failed(noZoneMessage(SERVICE, hostname), { cause: "refused" });
      return { ok: true, value: zoneOf(domain, name) };
    },

    async readRecordSet(zone, hostname, type) {
      const listed = staleOn404(await listAll(recordsPath(zone.id)));
      if (!listed.ok) return listed;
      return {
        ok: true,
        value: recordSetNamed(listed.value, relativeName(hostname, zone.name ?? hostname), type, recordSet),
      };
    },

    async updateRecordSet(zone, _hostname, _type, current, address, settings) {
      const put = await call("PUT", `${recordsPath(zone.id)}/${encodeURIComponent(current.id)}`, {
        target: address,
        ...(settings.ttl === undefined ? {} : { ttl_sec: roundedTtl(settings.ttl) }),
      });
      return written(put);
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const post = await call("POST", recordsPath(zone.id), {
        type,
        name: relativeName(hostname, zone.name ?? hostname),
        target: address,
        ttl_sec: settings.ttl === undefined ? DOMAIN_DEFAULT_TTL : roundedTtl(settings.ttl),
      });
      return written(post);
    },

    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const records = (current?.members ?? []) as Record<string, unknown>[];
      const ttl = settings.ttl === undefined ? undefined : roundedTtl(settings.ttl);
      const first = records[0]?.ttl_sec;
      const kept = await writePerAddress(records, addresses, {
        address: (r) => String(r.target),
        stale: (r) => !(ttl === undefined || r.ttl_sec === ttl),
        edit: async (r, address) =>
          writtenRecord(
            await call("PUT", recordPath(zone.id, r.id), {
              target: address,
              ...(ttl === undefined ? {} : { ttl_sec: ttl }),
            }),
          ),
        create: async (address) =>
          writtenRecord(
            await call("POST", recordsPath(zone.id), {
              type,
              name: relativeName(hostname, zone.name ?? hostname),
              target: address,
              ttl_sec: ttl ?? (typeof first === "number" ? first : DOMAIN_DEFAULT_TTL),
            }),
          ),
        delete: (r) => call("DELETE", recordPath(zone.id, r.id)),
      });
      return kept.ok ? { ok: true, value: recordSet(kept.value) } : kept;
    },

    storedTtl: roundedTtl,

    describe(set) {
      if (set.ttl === undefined) return [];
      return [set.ttl === 0 ? "ttl: the domain's default" : `ttl ${set.ttl}`];
    },
  };
}

/**
 * Linode's error body: `{"errors": [{"reason", "field"?}]}`. A refused token (401) or one without
 * the `domains` scope (403) only comes right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || !Array.isArray(body.errors)) return undefined;
  const reasons = body.errors
    .filter(isObject)
    .map((e) => [e.field, e.reason].filter((p) => typeof p === "string" && p !== "").join(": "))
    .filter(Boolean);
  if (reasons.length === 0) return undefined;
  return { words: reasons.join("; "), ...(status === 401 || status === 403 ? { stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about Linode's DNS Manager (docs/services/linode.md). */
export const linode = defineService({
  type: "linode",
  label: "Linode (Akamai)",
  summary: "Domains in Linode's (Akamai Cloud's) DNS Manager, through the Linode API v4 with a personal access token.",
  credentials: [
    {
      key: "token",
      label: "Personal access token",
      help:
        "In Akamai Cloud Manager (cloud.linode.com): your profile → API Tokens → Create A Personal Access Token. " +
        "Set Domains to Read/Write and every other scope to No Access; choose an expiry you will remember to renew (or Never).",
      url: "https://cloud.linode.com/profile/tokens",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(30, 2419200, "the domain's default", {
    automatic: { value: 0, meaning: "the domain's default" },
    note: `which Linode rounds to the nearest of ${LINODE_TTLS.slice(1).join(", ")}`,
  }),
  canVerify: true,
  defaultApiUrl: "https://api.linode.com/v4",
  holdsTxt: true,
  holdsAddressSets: true,
  // Linode allows 200 a minute for listings (the paginated GETs) and more for the rest, per user:
  // ddnsd stays under the stricter one for all of its requests.
  rateLimits: [{ requests: 180, perSeconds: 60 }],
  createClient: (credentials, _options, context) => {
    const api = createLinodeApi({ token: credentials.token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
