// dynv6 REST API v2 (docs/services/dynv6.md): the zone service primitives. A zone is a dynv6 hostname
// (`home.dynv6.net`) or a domain of your own; its records are listed in one answer (no pagination),
// each with a numeric id, `name` relative to the zone, `type` and `data` (the address). Records have
// no TTL of their own. The zone's apex A and AAAA are not records but the zone's own fields
// `ipv4address` and `ipv6prefix` (empty when unset), so the apex is read from the zone and written by
// a PATCH of the zone that names that one field and nothing else.
//
// Requests per write, with the zone known (config.zone_id, its numeric id) — the steady state:
//   GET /zones/{id} (its name) + GET /zones/{id}/records + PATCH /zones/{id}/records/{recordId}
//   = 3 (2 when the address is already there); the apex: GET /zones/{id} twice + PATCH /zones/{id}.
// Without it the account's zones are listed (GET /zones) instead of the first GET, and the longest
// one holding the hostname is used.
//
// `ipv6prefix` is also the prefix dynv6 puts in front of records that hold only an interface
// identifier; a value with a prefix length (`2001:db8::/64`) is such a prefix, not an address, and is
// never replaced by an address. Likewise a record whose `data` is a MAC address or an interface id
// (listed with the full address as `expandedData`) follows that prefix, and is left alone.
//
// Sources: dynv6.com/docs/apis; the OpenAPI description at dynv6.github.io/api-spec (github.com/dynv6/api-spec);
// libdns/dynv6 provider.go (zone by name, record list, update of a found record).

import { isIPv4, isIPv6 } from "node:net";
import { isObject, objectsIn } from "../../util/json";
import { failed, type JsonAnswer, jsonCalls, listedObjects, type ServiceError, staleOn404 } from "../answers";
import type { RecordType, Step } from "../provider";
import { type RecordSet, type TxtApi, type Zone, type ZoneApi, zoneClient } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService } from "../service";
import { txtRecords, unquotedTxt } from "../txt";
import { acceptedCounting, longestZone, noZoneMessage, relativeName, sameAddress, zoneHolds } from "../zones";

const SERVICE = "dynv6";
/** The zone's field that holds the apex address of each type. */
const APEX_FIELD = { A: "ipv4address", AAAA: "ipv6prefix" } as const satisfies Record<RecordType, string>;
/** The external id of an apex "record": the zone's field. */
const apexId = (type: RecordType) => `zone/${APEX_FIELD[type]}`;

export function createDynv6Api(credentials: { token: string }, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const send = jsonCalls(context, SERVICE, { Authorization: `Bearer ${credentials.token}` }, readError);

  async function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    const answer = await send(method, path, body);
    // A refused token is refused for good, whether or not the answer says more in JSON.
    return !answer.ok && (answer.status === 401 || answer.status === 403) ? { ...answer, stopRetrying: true } : answer;
  }

  const zonePath = (zoneId: string) => `/zones/${encodeURIComponent(zoneId)}`;

  /** The zone object by id; a 404 means the configured zone is gone (looked up afresh). */
  async function readZone(zoneId: string): Promise<Step<Record<string, unknown>>> {
    const read = staleOn404(await call("GET", zonePath(zoneId)));
    if (!read.ok) return read;
    return isObject(read.value.body)
      ? { ok: true, value: read.value.body }
      : failed(`${SERVICE}: zone ${zoneId} came back empty`, { cause: "unreachable" });
  }

  /** The zone's name, lowercase, as a zone object gives it. */
  const nameIn = (zone: Record<string, unknown>) =>
    typeof zone.name === "string" ? zone.name.toLowerCase().replace(/\.$/, "") : "";

  function recordOf(record: Record<string, unknown>): RecordSet {
    return { id: String(record.id), values: [String(record.data)] };
  }

  async function writeApex(zone: Zone, type: RecordType, address: string): Promise<Step<RecordSet>> {
    // Only the one field: the other family's address and everything else of the zone stay as they are.
    const patched = staleOn404(await call("PATCH", zonePath(zone.id), { [APEX_FIELD[type]]: address }));
    return patched.ok ? { ok: true, value: { id: apexId(type), values: [address] } } : patched;
  }

  function written(answer: Step<JsonAnswer>, address: string, knownId?: string): Step<RecordSet> {
    if (!answer.ok) return answer;
    const record = answer.value.body;
    const id =
      isObject(record) && (typeof record.id === "number" || typeof record.id === "string")
        ? String(record.id)
        : knownId;
    if (id === undefined) return failed(`${SERVICE}: the written record came back without an id`, { cause: "refused" });
    return { ok: true, value: { id, values: [address] } };
  }

  const recordsPath = (zoneId: string) => `${zonePath(zoneId)}/records`;
  const recordPath = (zoneId: string, id: unknown) => `${recordsPath(zoneId)}/${encodeURIComponent(String(id))}`;

  /** The zone's records of that name and type (the listing holds every record of the zone). */
  async function named(zone: Zone, hostname: string, type: string): Promise<Step<Record<string, unknown>[]>> {
    const listed = staleOn404(await call("GET", recordsPath(zone.id)));
    if (!listed.ok) return listed;
    const relative = relativeName(hostname, zone.name ?? "");
    const records = objectsIn(listed.value.body).filter(
      (r) => r.type === type && String(r.name ?? "").toLowerCase() === relative && r.id !== undefined,
    );
    return { ok: true, value: records };
  }

  /** The record a write answered with; one without an id is refused, as `written` does. */
  function answeredRecord(answer: Step<JsonAnswer>, sent: Record<string, unknown>): Step<Record<string, unknown>> {
    const set = written(answer, String(sent.data), sent.id === undefined ? undefined : String(sent.id));
    return set.ok ? { ok: true, value: { ...sent, id: set.value.id } } : set;
  }

  // One TXT record per value (records have no TTL of their own: dynv6 decides it).
  const txt = txtRecords({
    async list(zone, name) {
      const records = await named(zone, name, "TXT");
      if (!records.ok) return records;
      return { ok: true, value: records.value.map((r) => ({ id: String(r.id), value: unquotedTxt(r.data) })) };
    },
    create: (zone, name, value) =>
      call("POST", recordsPath(zone.id), { name: relativeName(name, zone.name ?? ""), type: "TXT", data: value }),
    delete: (zone, record) => call("DELETE", recordPath(zone.id, record.id)),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("GET", "/zones");
      return acceptedCounting(listedObjects(answer), "Token accepted");
    },

    async findZone(hostname, configured) {
      if (configured !== undefined) {
        // The zone's numeric id, saved by an earlier write (read for its name, which the records'
        // relative names need); a name is looked up by name.
        if (/^\d+$/.test(configured)) {
          const read = await readZone(configured);
          if (!read.ok) return read;
          const name = nameIn(read.value);
          if (!zoneHolds(name, hostname)) {
            return failed(
              `${SERVICE}: zone ${configured} is ${name || "unnamed"}, which does not hold ${hostname}; correct config.zone_id or remove it`,
              { cause: "refused" },
            );
          }
          return { ok: true, value: { id: configured, name } };
        }
        const given = configured.toLowerCase().replace(/\.$/, "");
        if (!zoneHolds(given, hostname)) {
          return failed(
            `${SERVICE}: zone ${given} (config.zone_id) does not hold ${hostname}; correct config.zone_id or remove it`,
            { cause: "refused" },
          );
        }
        const found = await call("GET", `/zones/by-name/${encodeURIComponent(given)}`);
        if (!found.ok)
          return found.status === 404
            ? failed(`${SERVICE}: no zone ${given} (config.zone_id) in this account`, { cause: "refused" })
            : found;
        const id = isObject(found.value.body) ? found.value.body.id : undefined;
        return id === undefined
          ? failed(`${SERVICE}: zone ${given} came back without an id`, { cause: "unreachable" })
          : { ok: true, value: { id: String(id), name: given } };
      }
      const listed = await call("GET", "/zones");
      if (!listed.ok) return listed;
      const zones = objectsIn(listed.value.body);
      const names = zones.map((z) => z.name).filter((n): n is string => typeof n === "string");
      const name = longestZone(hostname, names);
      const zone = zones.find((z) => typeof z.name === "string" && z.name.toLowerCase().replace(/\.$/, "") === name);
      if (name === undefined || zone === undefined)
        return failed(noZoneMessage(SERVICE, hostname), { cause: "refused" });
      return { ok: true, value: { id: String(zone.id), name } };
    },

    async readRecordSet(zone, hostname, type) {
      const zoneName = zone.name ?? "";
      if (hostname === zoneName) {
        const read = await readZone(zone.id);
        if (!read.ok) return read;
        const value = read.value[APEX_FIELD[type]];
        if (typeof value !== "string" || value === "") return { ok: true, value: null };
        if (value.includes("/")) {
          return failed(
            `${SERVICE}: zone ${zoneName} holds the IPv6 prefix ${value}, which its other records are built on; ddnsd writes only an address there, so nothing was written — set an address at dynv6 or use another name`,
            { cause: "refused", stopRetrying: true },
          );
        }
        return { ok: true, value: { id: apexId(type), values: [value] } };
      }
      const listed = await named(zone, hostname, type);
      if (!listed.ok) return listed;
      const records = listed.value;
      if (records.length === 0) return { ok: true, value: null };
      // dynv6 builds a record whose data is a MAC address or an interface id on the zone's IPv6
      // prefix (the result is its `expandedData`): such a record follows the prefix by design, and
      // writing one fixed address over it would end that, so it is not ddnsd's to change.
      const following = records.find((r) => {
        const data = String(r.data ?? "");
        const expanded = typeof r.expandedData === "string" && r.expandedData !== "" ? r.expandedData : undefined;
        return (
          !(type === "AAAA" ? isIPv6(data) : isIPv4(data)) || (expanded !== undefined && !sameAddress(expanded, data))
        );
      });
      if (following !== undefined) {
        const expanded =
          typeof following.expandedData === "string" && following.expandedData !== ""
            ? ` (now ${following.expandedData})`
            : "";
        return failed(
          `${SERVICE}: ${hostname} ${type} holds ${String(following.data)}${expanded}, which dynv6 builds on the zone's IPv6 prefix and keeps following it; ddnsd writes only a fixed address, so nothing was written — use another name for ddnsd, or give this record an address at dynv6`,
          { cause: "refused", stopRetrying: true },
        );
      }
      return {
        ok: true,
        value: {
          ...recordOf(records[0]!),
          values: records.map((r) => String(r.expandedData ?? r.data)),
          members: records,
        },
      };
    },

    async updateRecordSet(zone, _hostname, type, current, address) {
      if (current.id === apexId(type)) return writeApex(zone, type, address);
      // A PATCH names only what changes: the record keeps its name and type.
      return written(
        staleOn404(
          await call("PATCH", `${zonePath(zone.id)}/records/${encodeURIComponent(current.id)}`, { data: address }),
        ),
        address,
        current.id,
      );
    },

    async createRecordSet(zone, hostname, type, address) {
      const zoneName = zone.name ?? "";
      if (hostname === zoneName) return writeApex(zone, type, address);
      return written(
        staleOn404(
          await call("POST", `${zonePath(zone.id)}/records`, {
            name: relativeName(hostname, zoneName),
            type,
            data: address,
          }),
        ),
        address,
      );
    },

    // One record per address (address-records.ts). The apex is the zone's own field, one address of
    // each family: a set of several cannot be kept there.
    async writeAddressSet(zone, hostname, type, current, addresses) {
      if (hostname === (zone.name ?? ""))
        return failed(
          `${SERVICE}: the zone's own name holds one ${type} address (the zone's ${APEX_FIELD[type]}), so ${hostname} cannot hold ${addresses.join(", ")}; use a name under the zone or set config.addresses to "first"`,
          { cause: "refused", stopRetrying: true },
        );
      const kept = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.data),

        create: async (address) => {
          const sent = { name: relativeName(hostname, zone.name ?? ""), type, data: address };
          return answeredRecord(staleOn404(await call("POST", recordsPath(zone.id), sent)), sent);
        },
        edit: async (record, address) =>
          answeredRecord(staleOn404(await call("PATCH", recordPath(zone.id, record.id), { data: address })), {
            ...record,
            data: address,
          }),
        delete: (record) => call("DELETE", recordPath(zone.id, record.id)),
      });
      if (!kept.ok) return kept;
      return {
        ok: true,
        value: { ...recordOf(kept.value[0]!), values: kept.value.map((r) => String(r.data)), members: kept.value },
      };
    },
  };
}

/**
 * dynv6's error body: `{"error": {"name", "message", "fields"?: [{"name", "message"}]}}`. A token that
 * is wrong, deleted or limited to another zone (401/403) only comes right when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  const stop = status === 401 || status === 403 ? { stopRetrying: true } : {};
  const error = isObject(body) && isObject(body.error) ? body.error : isObject(body) ? body : undefined;
  if (error === undefined) return undefined;
  const fields = objectsIn(error.fields);
  const details = fields
    .map((f) => [f.name, f.message].filter((p) => typeof p === "string" && p !== "").join(" "))
    .filter(Boolean);
  const message = typeof error.message === "string" && error.message !== "" ? error.message : undefined;
  const words = [message, details.length > 0 ? details.join("; ") : undefined].filter(Boolean).join(": ");
  return words === "" ? undefined : { words, ...stop };
}

export const dynv6 = defineService({
  type: "dynv6",
  label: "dynv6",
  summary:
    "Zones at dynv6 (free hostnames under dynv6.net and others, or your own domain) through its REST API: ddnsd reads the record and changes only its address; the zone's own address is its apex. A and AAAA.",
  credentials: [
    {
      key: "token",
      url: "https://dynv6.com/keys",
      label: "HTTP token",
      help: "At dynv6.com/keys under HTTP Tokens: Add HTTP Token, and limit it to the zone ddnsd updates (a token limited to one zone can change only that zone).",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  // dynv6 records have no TTL ddnsd could set: the service decides it.
  ttl: null,
  canVerify: true,
  holdsTxt: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://dynv6.com/api/v2",
  // dynv6 documents no request limit; the updater writes only when an address changed.
  createClient: (credentials, _options, context) => {
    const api = createDynv6Api({ token: credentials.token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
