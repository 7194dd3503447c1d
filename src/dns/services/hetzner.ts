// Hetzner DNS client, through the Hetzner Cloud API (the DNS console API at dns.hetzner.com closed
// in May 2026, and migrated zones are reachable only here). A record set is addressed by zone (id or
// name), relative name (`@` for the apex) and type; every write is preceded by a read of exactly
// that set, so an external id (Hetzner's own `<name>/<type>`) is only reported, never written through.
//
// Changes are asynchronous: set_records, change_ttl and creating a set each answer 201 with an
// action, which is polled (`GET /zones/actions/{id}`) until it succeeds or fails, within a bound.
// set_records leaves the TTL alone (null means the zone's default); each record's comment is sent back.
// Several addresses for one name are one rrset, written whole by set_records (each address that
// stays keeps its comment). The ACME challenge TXT is the name's TXT rrset, written whole too (its
// values in double quotes, every other value sent back as read), and deleted once no value is left.
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   GET rrset + POST set_records + GET action (until done) = 3 (1 when the address is already there)
// Without it, `GET /zones?name=` walks up the hostname's labels until a zone answers (longest first).
// Only zones in primary mode accept edits (422 incorrect_zone_mode): that is final until the user acts.
//
// Sources: docs/services/hetzner.md; docs.hetzner.cloud (Zones, Zone RRSets, Zone Actions, Rate Limiting,
// errors); hetznercloud/hcloud-go hcloud/schema/zone_rrset.go, hcloud/error.go,
// client_handler_rate_limit.go; qdm12/ddns-updater providers/hetznercloud/{setrecord,createrrset,waitaction}.go.

import { exchangeJson } from "../../net/http";
import { asObject, isObject, objectsIn, parseJson } from "../../util/json";
import { failed, failedAnswer, type ServiceError } from "../answers";
import type { Step, StepFailure } from "../provider";
import { type RecordSet, type TxtApi, type Zone, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, quotedTxt, readByValue, txtSet, unquotedTxt } from "../txt";
import {
  acceptedWithCount,
  candidateZones,
  failedCheck,
  noZoneMessage,
  relativeName,
  sameAddress,
  sameAddresses,
  zoneHolds,
} from "../zones";

const SERVICE = "Hetzner";
/** Answers after which only the user can help: a bad or read-only token, a zone not in primary mode, a protected record set. */
const FINAL_ERROR_CODES = new Set(["unauthorized", "forbidden", "token_readonly", "incorrect_zone_mode", "protected"]);
const CREDENTIAL_CODES = new Set(["unauthorized", "forbidden", "token_readonly"]);

export interface ActionPolling {
  /** Pause between two looks at a running action. */
  intervalMs: number;
  /** Looks before giving up; the next update reads the record and finds out how it ended. */
  maxPolls: number;
}

/** Actions on records usually finish within a second; 20 looks half a second apart cover a slow day. */
const DEFAULT_POLLING: ActionPolling = { intervalMs: 500, maxPolls: 20 };

type Failure = StepFailure & { code?: string };
type Call = { ok: true; body: Record<string, unknown> } | Failure;

export function createHetznerApi(
  credentials: { token: string },
  context: ClientContext,
  polling: ActionPolling = DEFAULT_POLLING,
): ZoneApi & { txt: TxtApi } {
  async function call(method: string, path: string, body?: unknown): Promise<Call> {
    const answer = await exchangeJson(context, method, path, { Authorization: `Bearer ${credentials.token}` }, body);
    if (!answer.ok) return failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause });
    const parsed = parseJson(answer.text);
    if (answer.status < 300 && isObject(parsed) && !isObject(parsed.error)) return { ok: true, body: parsed };
    const error = isObject(parsed) ? readError(parsed) : undefined;
    const failure: Failure = failedAnswer(SERVICE, answer.status, answer.headers, answer.text, error);
    return error?.code ? { ...failure, code: error.code } : failure;
  }

  /** Waits for an action to finish; its failure carries the action's own error. */
  async function settled(action: unknown): Promise<Failure | null> {
    let current = action;
    for (let look = 0; ; look++) {
      if (!isObject(current)) return failed(`${SERVICE}: the answer named no action`, { cause: "unreachable" });
      if (current.status === "success") return null;
      if (current.status === "error") {
        const error = asObject(current.error);
        const code = typeof error.code === "string" ? ` (${error.code})` : "";
        return failed(
          `${SERVICE}: action ${String(current.id)} failed: ${String(error.message ?? "no reason given")}${code}`,
          { cause: "refused" },
        );
      }
      if (look >= polling.maxPolls) {
        return failed(
          `${SERVICE}: action ${String(current.id)} still running after ${polling.maxPolls} checks; the next update will see how it ended`,
          {
            cause: "unreachable",
          },
        );
      }
      await Bun.sleep(polling.intervalMs);
      const polled = await call("GET", `/zones/actions/${encodeURIComponent(String(current.id))}`);
      if (!polled.ok) return polled;
      current = polled.body.action;
    }
  }

  /** A change that answers with an action, followed until the action is done. */
  async function act(path: string, body: unknown, method = "POST"): Promise<Failure | null> {
    const answer = await call(method, path, body);
    if (!answer.ok) return answer;
    return settled(answer.body.action);
  }

  /** A zone by id or name, checked to take edits; a zone the project does not have is a stale configuration. */
  async function lookUpZone(idOrName: string): Promise<Step<string>> {
    const answer = await call("GET", `/zones/${encodeURIComponent(idOrName)}`);
    if (!answer.ok) return answer.code === "not_found" ? { ...answer, staleZone: true } : answer;
    const zone = asObject(answer.body.zone);
    const name = String(zone.name ?? "").toLowerCase();
    return notPrimary(name, zone.mode) ?? { ok: true, value: name };
  }

  const setPath = (zone: string, hostname: string, type: string) =>
    `/zones/${encodeURIComponent(zone)}/rrsets/${encodeURIComponent(relativeName(hostname, zone, "@"))}/${type}`;

  function recordSet(
    hostname: string,
    zone: string,
    type: string,
    values: string[],
    ttl: unknown,
    comment: unknown,
    members?: Record<string, unknown>[],
  ): RecordSet {
    return {
      id: `${relativeName(hostname, zone, "@")}/${type}`,
      values,
      ...(typeof ttl === "number" ? { ttl } : {}),
      raw: {
        comment: typeof comment === "string" && comment !== "" ? comment : undefined,
        ttl: typeof ttl === "number" ? ttl : null,
      },
      ...(members ? { members } : {}),
    };
  }

  // The name's TXT rrset, written whole: the values that stay are sent back as read (comments too).
  const txt = txtSet({
    async read(zone, name) {
      const read = await call("GET", setPath(zone.id, name, "TXT"));
      if (!read.ok) return read.code === "not_found" ? { ok: true, value: { values: [] } } : read;
      const rrset = asObject(read.body.rrset);
      const records = objectsIn(rrset.records);
      return {
        ok: true,
        value: {
          values: records.map((r) => unquotedTxt(r.value)),
          ...(typeof rrset.ttl === "number" ? { ttl: rrset.ttl } : {}),
          raw: records,
        },
      };
    },
    async write(zone, name, values, held) {
      const path = setPath(zone.id, name, "TXT");
      if (values.length === 0) return (await act(path, undefined, "DELETE")) ?? { ok: true, value: undefined };
      const read = readByValue(held);
      const records = values.map((value) => read.get(value) ?? { value: quotedTxt(value) });
      const written =
        held.values.length === 0
          ? await act(`/zones/${encodeURIComponent(zone.id)}/rrsets`, {
              name: relativeName(name, zone.id, "@"),
              type: "TXT",
              records,
              ttl: CHALLENGE_TTL,
            })
          : await act(`${path}/actions/set_records`, { records });
      return written ?? { ok: true, value: undefined };
    },
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("GET", "/zones?per_page=1");
      if (!answer.ok) return failedCheck(answer);
      return acceptedWithCount("Token accepted", asObject(asObject(answer.body.meta).pagination).total_entries);
    },

    async findZone(hostname, configured): Promise<Step<Zone>> {
      if (configured !== undefined) {
        const given = configured.toLowerCase().replace(/\.$/, "");
        // A zone name is used as it is (every zone path takes the id or the name), and looked up only
        // before a record is created in it; an id is looked up at once for its name.
        if (zoneHolds(given, hostname)) return { ok: true, value: { id: given, name: null } };
        const found = await lookUpZone(configured);
        if (!found.ok) return found;
        if (!zoneHolds(found.value, hostname)) {
          return failed(
            `${SERVICE}: zone ${configured} is ${found.value || "unnamed"}, which does not hold ${hostname}; correct config.zone_id or remove it`,
            {
              cause: "refused",
            },
          );
        }
        return { ok: true, value: { id: found.value, name: found.value } };
      }
      // Longest first: a delegated sub-zone holds its names, not the parent.
      for (const candidate of candidateZones(hostname)) {
        const listed = await call("GET", `/zones?${new URLSearchParams({ name: candidate })}`);
        if (!listed.ok) return listed;
        const zones = objectsIn(listed.body.zones);
        const zone = zones.find((z) => typeof z.name === "string" && z.name.toLowerCase() === candidate);
        if (zone) return notPrimary(candidate, zone.mode) ?? { ok: true, value: { id: candidate, name: candidate } };
      }
      return failed(noZoneMessage(SERVICE, hostname, "this project"), { cause: "refused" });
    },

    // Not found is also what an unknown zone gives for a record set: make sure a configured zone
    // exists (and takes edits) before a set is created in it.
    zoneName: lookUpZone,

    async readRecordSet(zone, hostname, type) {
      const read = await call("GET", setPath(zone.id, hostname, type));
      if (!read.ok) return read.code === "not_found" ? { ok: true, value: null } : read;
      const rrset = asObject(read.body.rrset);
      const records = objectsIn(rrset.records);
      return {
        ok: true,
        value: recordSet(
          hostname,
          zone.id,
          type,
          records.map((r) => String(r.value)),
          rrset.ttl,
          records[0]?.comment,
          records,
        ),
      };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const path = setPath(zone.id, hostname, type);
      const kept = asObject(current.raw);
      const [held] = current.values;
      if (current.values.length !== 1 || held === undefined || !sameAddress(held, address)) {
        // set_records leaves the TTL alone; each record's comment is sent back.
        const record = { value: address, ...(typeof kept.comment === "string" ? { comment: kept.comment } : {}) };
        const set = await act(`${path}/actions/set_records`, { records: [record] });
        if (set) return set;
      }
      if (settings.ttl !== undefined && settings.ttl !== current.ttl) {
        const changed = await act(`${path}/actions/change_ttl`, { ttl: settings.ttl });
        if (changed) return changed;
      }
      return {
        ok: true,
        value: recordSet(hostname, zone.id, type, [address], settings.ttl ?? current.ttl, kept.comment),
      };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const body = {
        name: relativeName(hostname, zone.id, "@"),
        type,
        records: [{ value: address }],
        ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
      };
      const created = await act(`/zones/${encodeURIComponent(zone.id)}/rrsets`, body);
      return (
        created ?? { ok: true, value: recordSet(hostname, zone.id, type, [address], settings.ttl ?? null, undefined) }
      );
    },

    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      if (current === null) {
        const body = {
          name: relativeName(hostname, zone.id, "@"),
          type,
          records: addresses.map((value) => ({ value })),
          ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
        };
        const created = await act(`/zones/${encodeURIComponent(zone.id)}/rrsets`, body);
        return (
          created ?? {
            ok: true,
            value: recordSet(hostname, zone.id, type, [...addresses], settings.ttl ?? null, undefined),
          }
        );
      }
      const path = setPath(zone.id, hostname, type);
      const held = (current.members ?? []) as Record<string, unknown>[];
      // An address that stays keeps its comment; a new one has none.
      const records = addresses.map((value) => {
        const comment = held.find((r) => sameAddress(String(r.value), value))?.comment;
        return { value, ...(typeof comment === "string" && comment !== "" ? { comment } : {}) };
      });
      if (!sameAddresses(current.values, addresses)) {
        const set = await act(`${path}/actions/set_records`, { records });
        if (set) return set;
      }
      if (settings.ttl !== undefined && settings.ttl !== current.ttl) {
        const changed = await act(`${path}/actions/change_ttl`, { ttl: settings.ttl });
        if (changed) return changed;
      }
      return {
        ok: true,
        value: recordSet(
          hostname,
          zone.id,
          type,
          [...addresses],
          settings.ttl ?? current.ttl,
          records[0]?.comment,
          records,
        ),
      };
    },

    describe(set) {
      return [set.ttl === undefined ? "ttl of the zone" : `ttl ${set.ttl}`];
    },
  };
}

/** A zone that is not primary takes no edits: final until the user acts. */
function notPrimary(name: string, mode: unknown): StepFailure | null {
  if (mode === undefined || mode === "primary") return null;
  return failed(`${SERVICE}: zone ${name} is in ${String(mode)} mode; only a primary zone's records can be changed`, {
    cause: "refused",
    stopRetrying: true,
  });
}

/** Hetzner's error object: its message and code, and which codes no retry can fix. */
function readError(body: Record<string, unknown>): (ServiceError & { code?: string }) | undefined {
  if (!isObject(body.error)) return undefined;
  const code = typeof body.error.code === "string" ? body.error.code : "";
  const words =
    typeof body.error.message === "string" && body.error.message !== "" ? body.error.message : "request failed";
  return {
    words,
    ...(code ? { code } : {}),
    ...(CREDENTIAL_CODES.has(code) ? { cause: "credentials" as const } : {}),
    ...(FINAL_ERROR_CODES.has(code) ? { stopRetrying: true } : {}),
  };
}

export const hetzner = defineService({
  type: "hetzner",
  label: "Hetzner",
  summary:
    "Hetzner DNS through the Hetzner Cloud API (zones in the Cloud Console): ddnsd changes the address of the record set, keeping its TTL and comment; a missing record is created.",
  credentials: [
    {
      key: "token",
      url: "https://console.hetzner.com/projects",
      label: "Cloud API token",
      help: "In the Hetzner Console (console.hetzner.com) open the project that holds your DNS zones → Security → API tokens → Generate API token, with Read & Write permission (a read-only token can only verify). Tokens of the old DNS console (dns.hetzner.com) no longer work.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 2147483647, "the zone's default"),
  canVerify: true,
  defaultApiUrl: "https://api.hetzner.cloud/v1",
  holdsTxt: true,
  holdsAddressSets: true,
  // Hetzner Cloud allows 3600 requests an hour per project; ddnsd stays under it.
  rateLimits: [{ requests: 3000, perSeconds: 3600 }],
  createClient: (credentials, _options, context) => {
    const api = createHetznerApi({ token: credentials.token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
