// The PowerDNS Authoritative Server's HTTP API (docs/services/powerdns.md): `X-API-Key` on every
// request; the zone is the longest of the server's zones that holds the name; the record set is read
// from the zone, and a change is one `PATCH …/zones/{zone}` with `changetype: REPLACE` for that name
// and type alone, sending back its TTL (unless the config names one) and its comments, so nothing
// but the address changes. Sources: PowerDNS docs, http-api/zone.html ("Modifying a zone"),
// http-api/server.html, and the API's OpenAPI spec (authoritative-api-swagger.yaml).

import { exchangeJson, isObject, type JsonApi, parseJson, unreadableAnswer } from "./http";
import type { ClientContext } from "./service";
import { longestZone } from "./zones";

const SERVICE = "PowerDNS";
/** The TTL of a record set ddnsd creates when the domain's config names none. */
export const DEFAULT_TTL = 300;

type RecordType = "A" | "AAAA";
type Cause = "unreachable" | "credentials" | "refused" | "throttled";
type Failure = { ok: false; message: string; cause: Cause; stopRetrying?: boolean; staleZone?: boolean };
type Step<T> = { ok: true; value: T } | Failure;

interface PdnsRecord {
  content: string;
  disabled?: boolean;
}
interface PdnsRrset {
  name: string;
  type: string;
  ttl?: number;
  records: PdnsRecord[];
  comments?: unknown[];
}

export interface ZoneRef {
  id: string;
  name: string | null;
}
export interface NameRecordSet {
  id: string;
  values: readonly string[];
  ttl?: number;
  raw?: unknown;
}

export interface PowerDnsOptions {
  /** The webserver's base URL, without a trailing slash. */
  server: string;
  serverId: string;
  apiKey: string;
}

/** A name as PowerDNS writes it: absolute, with the trailing dot. */
function absolute(name: string): string {
  return `${name}.`;
}

export function createPowerDnsApi(options: PowerDnsOptions, context: ClientContext) {
  const api: JsonApi = { fetch: context.fetch, baseUrl: `${options.server}/api/v1/servers/${encodeURIComponent(options.serverId)}`, timeoutMs: context.timeoutMs, userAgent: context.userAgent };

  async function call(method: string, path: string, body?: unknown): Promise<Step<unknown>> {
    const answer = await exchangeJson(api, method, path, { "X-API-Key": options.apiKey }, body);
    if (!answer.ok) return { ok: false, message: `${SERVICE}: ${answer.reason}`, cause: "unreachable" };
    const json = answer.text.trim() === "" ? null : parseJson(answer.text);
    if (answer.status >= 200 && answer.status < 300) {
      if (json === undefined) return { ok: false, message: `${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`, cause: "unreachable" };
      return { ok: true, value: json };
    }
    const words = isObject(json) && typeof json.error === "string" ? `${json.error} (HTTP ${answer.status})` : unreadableAnswer(answer.status, answer.text);
    if (answer.status === 401 || answer.status === 403) {
      return { ok: false, message: `${SERVICE}: the API key was refused: ${words}; check api-key in the server's configuration`, cause: "credentials", stopRetrying: true };
    }
    if (answer.status === 404) return { ok: false, message: `${SERVICE}: ${words}`, cause: "refused", staleZone: true };
    if (answer.status === 429) return { ok: false, message: `${SERVICE}: ${words}`, cause: "throttled" };
    return { ok: false, message: `${SERVICE}: ${words}`, cause: answer.status >= 500 ? "unreachable" : "refused" };
  }

  function zonePath(zone: ZoneRef): string {
    return `/zones/${encodeURIComponent(zone.id)}`;
  }

  function rrsetOf(value: unknown, hostname: string, type: RecordType): PdnsRrset | undefined {
    const rrsets = isObject(value) && Array.isArray(value.rrsets) ? value.rrsets.filter(isObject) : [];
    const found = rrsets.find((set) => typeof set.name === "string" && set.name.toLowerCase() === absolute(hostname) && set.type === type);
    return found as PdnsRrset | undefined;
  }

  function recordSet(hostname: string, rrset: PdnsRrset): NameRecordSet {
    return { id: hostname, values: rrset.records.map((record) => record.content), ...(typeof rrset.ttl === "number" ? { ttl: rrset.ttl } : {}), raw: rrset };
  }

  async function replace(zone: ZoneRef, hostname: string, type: RecordType, address: string, ttl: number, comments: unknown[] | undefined): Promise<Step<NameRecordSet>> {
    const rrset: PdnsRrset & { changetype: string } = {
      name: absolute(hostname),
      type,
      ttl,
      changetype: "REPLACE",
      records: [{ content: address, disabled: false }],
      // Sent back as they were: a REPLACE that names no comments leaves them as they are only on some versions.
      ...(comments === undefined ? {} : { comments }),
    };
    const patched = await call("PATCH", zonePath(zone), { rrsets: [rrset] });
    if (!patched.ok) return patched;
    return { ok: true, value: recordSet(hostname, rrset) };
  }

  return {
    service: SERVICE,

    async verify(): Promise<{ ok: boolean; detail: string }> {
      const answer = await call("GET", "");
      if (!answer.ok) return { ok: false, detail: answer.message };
      const version = isObject(answer.value) && typeof answer.value.version === "string" ? ` ${answer.value.version}` : "";
      return { ok: true, detail: `The API key is accepted by PowerDNS${version} (server ${options.serverId})` };
    },

    async findZone(hostname: string, configured: string | undefined): Promise<Step<ZoneRef>> {
      if (configured !== undefined) {
        const name = configured.toLowerCase().replace(/\.$/, "");
        return { ok: true, value: { id: absolute(name), name } };
      }
      const listed = await call("GET", "/zones");
      if (!listed.ok) return listed;
      const zones = Array.isArray(listed.value) ? listed.value.filter(isObject) : [];
      const ids = new Map<string, string>();
      for (const zone of zones) {
        if (typeof zone.name === "string") ids.set(zone.name.toLowerCase().replace(/\.$/, ""), typeof zone.id === "string" ? zone.id : zone.name);
      }
      const name = longestZone(hostname, ids.keys());
      if (name === undefined) return { ok: false, message: `${SERVICE}: server ${options.serverId} has no zone that holds ${hostname}`, cause: "refused" };
      return { ok: true, value: { id: ids.get(name) ?? absolute(name), name } };
    },

    async readRecordSet(zone: ZoneRef, hostname: string, type: RecordType): Promise<Step<NameRecordSet | null>> {
      // Newer servers return only this set when asked so; older ones ignore the filter and send the zone.
      const query = new URLSearchParams({ rrset_name: absolute(hostname), rrset_type: type });
      const read = await call("GET", `${zonePath(zone)}?${query}`);
      if (!read.ok) return read;
      const rrset = rrsetOf(read.value, hostname, type);
      return { ok: true, value: rrset === undefined || rrset.records.length === 0 ? null : recordSet(hostname, rrset) };
    },

    updateRecordSet(zone: ZoneRef, hostname: string, type: RecordType, current: NameRecordSet, address: string, settings: { ttl?: number }): Promise<Step<NameRecordSet>> {
      const raw = current.raw as PdnsRrset | undefined;
      return replace(zone, hostname, type, address, settings.ttl ?? current.ttl ?? DEFAULT_TTL, raw?.comments);
    },

    createRecordSet(zone: ZoneRef, hostname: string, type: RecordType, address: string, settings: { ttl?: number }): Promise<Step<NameRecordSet>> {
      return replace(zone, hostname, type, address, settings.ttl ?? DEFAULT_TTL, undefined);
    },

    describe(set: NameRecordSet): string[] {
      const comments = (set.raw as PdnsRrset | undefined)?.comments?.length ?? 0;
      return [...(set.ttl === undefined ? [] : [`ttl ${set.ttl}`]), ...(comments > 0 ? [`${comments} comment${comments === 1 ? "" : "s"} kept`] : [])];
    },
  };
}
