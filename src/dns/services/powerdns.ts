// The PowerDNS Authoritative Server's HTTP API (docs/services/powerdns.md): `X-API-Key` on every
// request; the zone is the longest of the server's zones that holds the name; the record set is read
// from the zone, and a change is one `PATCH …/zones/{zone}` with `changetype: REPLACE` for that name
// and type alone, sending back its TTL (unless the config names one) and its comments, so nothing
// but the address changes. Sources: PowerDNS docs, http-api/zone.html ("Modifying a zone"),
// http-api/server.html, and the API's OpenAPI spec (authoritative-api-swagger.yaml).

import { exchangeJson, type JsonApi, unreadableAnswer } from "../../net/http";
import { isObject, objectsIn, parseJson } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, failedAnswer, type ServiceError } from "../answers";
import type { RecordType, Step } from "../provider";
import { type RecordSet, type TxtApi, type Zone, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, quotedTxt, unquotedTxt } from "../txt";
import { failedCheck, longestZone, noZoneMessage } from "../zones";

const SERVICE = "PowerDNS";
/** The TTL of a record set ddnsd creates when the domain's config names none. */
export const DEFAULT_TTL = 300;

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

export interface PowerDnsOptions {
  /** The webserver's base URL, without a trailing slash. */
  server: string;
  serverId: string;
  apiKey: string;
}

/**
 * The request in flight at each PowerDNS API, by URL. Its sqlite3 backend (the usual one at home)
 * answers a write that overlaps another with 500 "database is locked", so one provider's updates
 * (and those of providers that share the server) go one request at a time; there are few of them.
 */
const inFlight = new Map<string, Promise<unknown>>();

function oneAtATime<T>(server: string, work: () => Promise<T>): Promise<T> {
  const run = (inFlight.get(server) ?? Promise.resolve()).then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  inFlight.set(server, settled);
  void settled.then(() => {
    if (inFlight.get(server) === settled) inFlight.delete(server);
  });
  return run;
}

/** A name as PowerDNS writes it: absolute, with the trailing dot. */
function absolute(name: string): string {
  return `${name}.`;
}

function createPowerDnsApi(options: PowerDnsOptions, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const api: JsonApi = {
    fetch: context.fetch,
    baseUrl: `${options.server}/api/v1/servers/${encodeURIComponent(options.serverId)}`,
    timeoutMs: context.timeoutMs,
    userAgent: context.userAgent,
  };

  async function call(method: string, path: string, body?: unknown): Promise<Step<unknown>> {
    const answer = await oneAtATime(options.server, () =>
      exchangeJson(api, method, path, { "X-API-Key": options.apiKey }, body),
    );
    if (!answer.ok) return failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause });
    const json = answer.text.trim() === "" ? null : parseJson(answer.text);
    if (answer.status >= 200 && answer.status < 300) {
      return json === undefined
        ? failed(`${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`, { cause: "unreachable" })
        : { ok: true, value: json };
    }
    // PowerDNS answers a refused key with a plain-text "Unauthorized", other errors with JSON.
    return failedAnswer(
      SERVICE,
      answer.status,
      answer.headers,
      answer.text,
      readError(json ?? answer.text.trim(), answer.status),
    );
  }

  function zonePath(zone: Zone): string {
    return `/zones/${encodeURIComponent(zone.id)}`;
  }

  function rrsetOf(value: unknown, hostname: string, type: RecordType | "TXT"): PdnsRrset | undefined {
    const rrsets = isObject(value) ? objectsIn(value.rrsets) : [];
    const found = rrsets.find(
      (set) => typeof set.name === "string" && set.name.toLowerCase() === absolute(hostname) && set.type === type,
    );
    return found as PdnsRrset | undefined;
  }

  function recordSet(hostname: string, rrset: PdnsRrset): RecordSet {
    return {
      id: hostname,
      values: rrset.records.map((record) => record.content),
      ...(typeof rrset.ttl === "number" ? { ttl: rrset.ttl } : {}),
      raw: rrset,
    };
  }

  async function replace(
    zone: Zone,
    hostname: string,
    type: RecordType,
    addresses: readonly string[],
    ttl: number,
    comments: unknown[] | undefined,
  ): Promise<Step<RecordSet>> {
    const rrset: PdnsRrset & { changetype: string } = {
      name: absolute(hostname),
      type,
      ttl,
      changetype: "REPLACE",
      records: addresses.map((content) => ({ content, disabled: false })),
      // Sent back as they were: a REPLACE that names no comments leaves them as they are only on some versions.
      ...(comments === undefined ? {} : { comments }),
    };
    const patched = await call("PATCH", zonePath(zone), { rrsets: [rrset] });
    if (!patched.ok) return patched;
    return { ok: true, value: recordSet(hostname, rrset) };
  }

  /** The name's set of that type as the server holds it (undefined: none), asked for alone. */
  async function readRrset(
    zone: Zone,
    hostname: string,
    type: RecordType | "TXT",
  ): Promise<Step<PdnsRrset | undefined>> {
    // Newer servers return only this set when asked so; older ones ignore the filter and send the zone.
    const query = new URLSearchParams({ rrset_name: absolute(hostname), rrset_type: type });
    const read = await call("GET", `${zonePath(zone)}?${query}`);
    if (!read.ok) return read;
    const rrset = rrsetOf(read.value, hostname, type);
    return { ok: true, value: rrset === undefined || rrset.records.length === 0 ? undefined : rrset };
  }

  /**
   * The name's TXT set `held` (as read, each record sent back as it was) with `value` added or
   * dropped, its TTL and comments kept; deleted when nothing is left, so no empty set stays behind.
   */
  async function writeTxt(zone: Zone, name: string, held: PdnsRrset | undefined, value: string, add: boolean) {
    const records = (held?.records ?? []).filter((record) => unquotedTxt(record.content) !== value);
    if (add) records.push({ content: quotedTxt(value), disabled: false });
    const rrset =
      records.length === 0
        ? { name: absolute(name), type: "TXT", changetype: "DELETE" }
        : {
            name: absolute(name),
            type: "TXT",
            ttl: held?.ttl ?? CHALLENGE_TTL,
            changetype: "REPLACE",
            records,
            ...(held?.comments === undefined ? {} : { comments: held.comments }),
          };
    const patched = await call("PATCH", zonePath(zone), { rrsets: [rrset] });
    return patched.ok ? { ok: true as const, value: undefined } : patched;
  }

  // One RRset holds every value of the name, and a REPLACE writes it whole: it is read afresh and
  // sent back record for record (however each was spelt), with only the one value added or dropped.
  const txt: TxtApi = {
    async read(zone, name) {
      const read = await readRrset(zone, name, "TXT");
      if (!read.ok) return read;
      return { ok: true, value: (read.value?.records ?? []).map((record) => unquotedTxt(record.content)) };
    },
    async add(zone, name, _current, value) {
      const read = await readRrset(zone, name, "TXT");
      return read.ok ? writeTxt(zone, name, read.value, value, true) : read;
    },
    async remove(zone, name, _current, value) {
      const read = await readRrset(zone, name, "TXT");
      return read.ok ? writeTxt(zone, name, read.value, value, false) : read;
    },
  };

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("GET", "");
      if (!answer.ok) return failedCheck(answer);
      const version =
        isObject(answer.value) && typeof answer.value.version === "string" ? ` ${answer.value.version}` : "";
      return { ok: true, detail: `The API key is accepted by PowerDNS${version} (server ${options.serverId})` };
    },

    async findZone(hostname, configured) {
      if (configured !== undefined) {
        const name = configured.toLowerCase().replace(/\.$/, "");
        return { ok: true, value: { id: absolute(name), name } };
      }
      const listed = await call("GET", "/zones");
      if (!listed.ok) return listed;
      const zones = objectsIn(listed.value);
      const ids = new Map<string, string>();
      for (const zone of zones) {
        if (typeof zone.name === "string")
          ids.set(zone.name.toLowerCase().replace(/\.$/, ""), typeof zone.id === "string" ? zone.id : zone.name);
      }
      const name = longestZone(hostname, ids.keys());
      if (name === undefined)
        return { ok: false, message: noZoneMessage(SERVICE, hostname, `server ${options.serverId}`), cause: "refused" };
      return { ok: true, value: { id: ids.get(name) ?? absolute(name), name } };
    },

    async readRecordSet(zone, hostname, type) {
      const read = await readRrset(zone, hostname, type);
      if (!read.ok) return read;
      return { ok: true, value: read.value === undefined ? null : recordSet(hostname, read.value) };
    },

    updateRecordSet(zone, hostname, type, current, address, settings) {
      const raw = current.raw as PdnsRrset | undefined;
      return replace(zone, hostname, type, [address], settings.ttl ?? current.ttl ?? DEFAULT_TTL, raw?.comments);
    },

    createRecordSet(zone, hostname, type, address, settings) {
      return replace(zone, hostname, type, [address], settings.ttl ?? DEFAULT_TTL, undefined);
    },

    // One REPLACE of the RRset: every address at once, its comments sent back as they were.
    writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const raw = current?.raw as PdnsRrset | undefined;
      return replace(zone, hostname, type, addresses, settings.ttl ?? current?.ttl ?? DEFAULT_TTL, raw?.comments);
    },

    describe(set) {
      const comments = (set.raw as PdnsRrset | undefined)?.comments?.length ?? 0;
      return [
        ...(set.ttl === undefined ? [] : [`ttl ${set.ttl}`]),
        ...(comments > 0 ? [`${plural(comments, "comment")} kept`] : []),
      ];
    },
  };
}

export const powerdns = defineService({
  type: "powerdns",
  label: "PowerDNS",
  summary: "Zones on your own PowerDNS Authoritative Server, changed through its built-in HTTP API with an API key.",
  credentials: [
    {
      key: "api_key",
      label: "API key",
      help: "The server's api-key setting (pdns.conf), sent as X-API-Key. The API also needs api=yes and the webserver reachable from ddnsd (webserver-address, webserver-allow-from).",
      secret: true,
    },
  ],
  options: [
    {
      key: "server",
      label: "API URL",
      help: "The PowerDNS webserver's base URL, e.g. http://10.0.0.2:8081 (webserver-address and webserver-port in pdns.conf).",
      kind: "url",
      required: true,
    },
    {
      key: "server_id",
      label: "Server id",
      help: "The server's id in the API; localhost unless you run several behind one API.",
      kind: "text",
      default: "localhost",
      validate: (text) => (/^[A-Za-z0-9._-]+$/.test(text) ? undefined : "must be a server id such as localhost"),
    },
  ],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(1, 2_147_483_647, DEFAULT_TTL),
  canVerify: true,
  holdsTxt: true,
  holdsAddressSets: true,
  // The API's host also answers DNS, on port 53 unless the server says otherwise (local-port).
  nameServer: (options) => {
    try {
      return new URL(String(options.server)).hostname.replace(/^\[(.*)\]$/, "$1");
    } catch {
      return null;
    }
  },
  createClient(credentials, options, context) {
    const api = createPowerDnsApi(
      // The base URL as people copy it: with or without a trailing slash or the API's own path.
      {
        server: String(options.server ?? "").replace(/(\/api(\/v1)?)?\/*$/, ""),
        serverId: String(options.server_id ?? "localhost"),
        apiKey: credentials.api_key ?? "",
      },
      context,
    );
    return zoneClient(api, api.txt);
  },
});

/**
 * PowerDNS's error body, `{"error": "…"}`: a refused key (401, or 403 from webserver-allow-from)
 * stays refused until the provider is edited; a 404 names a zone that is gone (looked up afresh).
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  const words =
    isObject(body) && typeof body.error === "string" ? body.error : typeof body === "string" ? body : undefined;
  if (status === 401 || status === 403) {
    return {
      words: `the API key was refused: ${words ?? "Unauthorized"}; check api-key (and webserver-allow-from) in the server's configuration`,
      cause: "credentials",
      stopRetrying: true,
    };
  }
  if (words === undefined) return undefined;
  return status === 404 ? { words, staleZone: true } : { words };
}
