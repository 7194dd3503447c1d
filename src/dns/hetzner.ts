// Hetzner DNS client, through the Hetzner Cloud API (the DNS console API at dns.hetzner.com closed
// in May 2026, and migrated zones are reachable only here). A record set is addressed by zone (id or
// name), relative name (`@` for the apex) and type; every write is preceded by a read of exactly
// that set, so an external id (Hetzner's own `<name>/<type>`) is only reported, never written through.
//
// Changes are asynchronous: set_records, change_ttl and creating a set each answer 201 with an
// action, which is polled (`GET /zones/actions/{id}`) until it succeeds or fails, within a bound.
// set_records leaves the TTL alone (null means the zone's default); each record's comment is sent back.
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   GET rrset + POST set_records + GET action (until done) = 3 (1 when the address is already there)
// Without it, `GET /zones?name=` walks up the hostname's labels until a zone answers (longest first).
// Only zones in primary mode accept edits (422 incorrect_zone_mode): that is final until the user acts.
//
// Sources: PROVIDERS.md §9; docs.hetzner.cloud (Zones, Zone RRSets, Zone Actions, Rate Limiting,
// errors); hetznercloud/hcloud-go hcloud/schema/zone_rrset.go, hcloud/error.go,
// client_handler_rate_limit.go; qdm12/ddns-updater providers/hetznercloud/{setrecord,createrrset,waitaction}.go.

import {
  exchangeJson,
  isObject,
  notCreatedMessage,
  parseJson,
  pauseSeconds,
  pausing,
  retryAfterSeconds,
  secondsUntilReset,
  unreadableAnswer,
  writeOutcome,
  writtenDetails,
} from "./http";
import type { DnsProvider, RecordTarget, WriteOutcome } from "./provider";
import { defineService, type ClientContext } from "./service";
import { candidateZones, multipleValuesMessage, relativeName, sameAddress, zoneHolds } from "./zones";

const SERVICE = "Hetzner";
/** Answers after which only the user can help: a bad or read-only token, a zone not in primary mode. */
const FINAL_ERROR_CODES = new Set(["unauthorized", "forbidden", "token_readonly", "incorrect_zone_mode"]);

export interface ActionPolling {
  /** Pause between two looks at a running action. */
  intervalMs: number;
  /** Looks before giving up; the next update reads the record and finds out how it ended. */
  maxPolls: number;
}

/** Actions on records usually finish within a second; 20 looks half a second apart cover a slow day. */
const DEFAULT_POLLING: ActionPolling = { intervalMs: 500, maxPolls: 20 };

/** `staleZone`: the zone named in config is not in the project (any more), so it is worth finding afresh. */
type Failure = {
  ok: false;
  message: string;
  code?: string;
  retryAfterSeconds?: number;
  stopRetrying?: boolean;
  staleZone?: boolean;
};
type Call = { ok: true; body: Record<string, unknown> } | Failure;
type Attempt = Extract<WriteOutcome, { ok: true }> | Failure;
type Zone = { name: string; mode: unknown };

export function createHetznerClient(
  credentials: { token: string },
  context: ClientContext,
  polling: ActionPolling = DEFAULT_POLLING,
): DnsProvider {
  async function call(method: string, path: string, body?: unknown): Promise<Call> {
    const answer = await exchangeJson(context, method, path, { Authorization: `Bearer ${credentials.token}` }, body);
    if (!answer.ok) return { ok: false, message: `${SERVICE}: ${answer.reason}` };
    const parsed = parseJson(answer.text);
    const pause = answer.status === 429 ? rateLimitWait(answer.headers) : undefined;
    const failure: Failure = pause === undefined ? { ok: false, message: "" } : { ok: false, message: "", retryAfterSeconds: pause };
    /** The message, and how long the provider is paused for it. */
    const said = (message: string) => (pause === undefined ? message : message + pausing(pause));
    if (!isObject(parsed)) return { ...failure, message: said(`${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`) };
    if (answer.status < 300 && !isObject(parsed.error)) return { ok: true, body: parsed };

    const error = isObject(parsed.error) ? parsed.error : {};
    const code = typeof error.code === "string" ? error.code : "";
    const text = typeof error.message === "string" && error.message !== "" ? error.message : "request failed";
    failure.message = said(`${SERVICE}: ${text} (${code ? `${code}, ` : ""}HTTP ${answer.status})`);
    failure.code = code;
    if (FINAL_ERROR_CODES.has(code)) failure.stopRetrying = true;
    return failure;
  }

  /** Waits for an action to finish; its failure carries the action's own error. */
  async function settled(action: unknown): Promise<Failure | null> {
    let current = action;
    for (let look = 0; ; look++) {
      if (!isObject(current)) return { ok: false, message: `${SERVICE}: the answer named no action` };
      if (current.status === "success") return null;
      if (current.status === "error") {
        const error = isObject(current.error) ? current.error : {};
        const code = typeof error.code === "string" ? ` (${error.code})` : "";
        return { ok: false, message: `${SERVICE}: action ${String(current.id)} failed: ${String(error.message ?? "no reason given")}${code}` };
      }
      if (look >= polling.maxPolls) {
        return { ok: false, message: `${SERVICE}: action ${String(current.id)} still running after ${polling.maxPolls} checks; the next update will see how it ended` };
      }
      await Bun.sleep(polling.intervalMs);
      const polled = await call("GET", `/zones/actions/${encodeURIComponent(String(current.id))}`);
      if (!polled.ok) return polled;
      current = polled.body.action;
    }
  }

  /** A change that answers with an action, followed until the action is done. */
  async function act(path: string, body: unknown): Promise<Call> {
    const answer = await call("POST", path, body);
    if (!answer.ok) return answer;
    const failed = await settled(answer.body.action);
    return failed ?? answer;
  }

  async function lookUpZone(idOrName: string): Promise<{ ok: true; zone: Zone } | Failure> {
    const answer = await call("GET", `/zones/${encodeURIComponent(idOrName)}`);
    if (!answer.ok) return answer.code === "not_found" ? { ...answer, staleZone: true } : answer;
    const zone = isObject(answer.body.zone) ? answer.body.zone : {};
    return { ok: true, zone: { name: String(zone.name ?? "").toLowerCase(), mode: zone.mode } };
  }

  /** The longest zone of the project that is the hostname or one of its parents. */
  async function findZone(hostname: string): Promise<{ ok: true; zone: Zone } | Failure> {
    for (const candidate of candidateZones(hostname)) {
      const listed = await call("GET", `/zones?${new URLSearchParams({ name: candidate })}`);
      if (!listed.ok) return listed;
      const zones = Array.isArray(listed.body.zones) ? listed.body.zones.filter(isObject) : [];
      const zone = zones.find((z) => typeof z.name === "string" && z.name.toLowerCase() === candidate);
      if (zone) return { ok: true, zone: { name: candidate, mode: zone.mode } };
    }
    return { ok: false, message: `${SERVICE}: no zone of this project holds ${hostname}` };
  }

  function notPrimary(zone: Zone): Failure | null {
    if (zone.mode === undefined || zone.mode === "primary") return null;
    return {
      ok: false,
      message: `${SERVICE}: zone ${zone.name} is in ${String(zone.mode)} mode; only a primary zone's records can be changed`,
      stopRetrying: true,
    };
  }

  async function writeInZone(zone: string, target: RecordTarget, ip: string, configured: boolean): Promise<Attempt> {
    const name = relativeName(target.hostname, zone, "@");
    const setPath = `/zones/${encodeURIComponent(zone)}/rrsets/${encodeURIComponent(name)}/${target.recordType}`;
    const configTtl = typeof target.config.ttl === "number" ? target.config.ttl : undefined;
    const success = (action: "updated" | "created", ttl: unknown, unchanged = false): Attempt => ({
      ok: true,
      action,
      externalId: `${name}/${target.recordType}`,
      zoneId: zone,
      message: writtenDetails(SERVICE, `rrset ${name}/${target.recordType} in ${zone}`, [
        typeof ttl === "number" ? `ttl ${ttl}` : "ttl of the zone",
        ...(unchanged ? ["already held this address, nothing written"] : []),
      ]),
    });

    const read = await call("GET", setPath);
    if (read.ok) {
      const rrset = isObject(read.body.rrset) ? read.body.rrset : {};
      const records = Array.isArray(rrset.records) ? rrset.records.filter(isObject) : [];
      if (records.length > 1) {
        const values = records.map((r) => String(r.value));
        return { ok: false, message: multipleValuesMessage(SERVICE, target.hostname, target.recordType, values), stopRetrying: true };
      }
      const current = records[0];
      const addressHeld = current !== undefined && sameAddress(String(current.value), ip);
      const ttlHeld = configTtl === undefined || configTtl === rrset.ttl;
      if (addressHeld && ttlHeld) return success("updated", rrset.ttl, true);
      if (!addressHeld) {
        const record: Record<string, unknown> = { value: ip };
        if (typeof current?.comment === "string" && current.comment !== "") record.comment = current.comment;
        const set = await act(`${setPath}/actions/set_records`, { records: [record] });
        if (!set.ok) return set;
      }
      if (!ttlHeld) {
        const changed = await act(`${setPath}/actions/change_ttl`, { ttl: configTtl });
        if (!changed.ok) return changed;
      }
      return success("updated", configTtl ?? rrset.ttl);
    }
    if (read.code !== "not_found") return read;

    if (target.config.create_if_missing === false) return { ok: false, message: notCreatedMessage(SERVICE, target) };
    if (configured) {
      // not_found is also what an unknown zone gives: make sure the configured one exists (and takes edits).
      const found = await lookUpZone(zone);
      if (!found.ok) return found;
      const refused = notPrimary(found.zone);
      if (refused) return refused;
    }
    const body: Record<string, unknown> = { name, type: target.recordType, records: [{ value: ip }] };
    if (configTtl !== undefined) body.ttl = configTtl;
    const created = await act(`/zones/${encodeURIComponent(zone)}/rrsets`, body);
    return created.ok ? success("created", configTtl ?? null) : created;
  }

  async function configuredZone(zoneId: string, hostname: string): Promise<{ ok: true; zone: string } | Failure> {
    const given = zoneId.toLowerCase().replace(/\.$/, "");
    // A zone name is used as it is (every zone path takes the id or the name); an id is looked up once for its name.
    if (zoneHolds(given, hostname)) return { ok: true, zone: given };
    const found = await lookUpZone(zoneId);
    if (!found.ok) return found;
    if (!zoneHolds(found.zone.name, hostname)) {
      return {
        ok: false,
        message: `${SERVICE}: zone ${zoneId} is ${found.zone.name || "unnamed"}, which does not hold ${hostname}; correct config.zone_id or remove it`,
      };
    }
    return { ok: true, zone: found.zone.name };
  }

  return {
    async verify() {
      const answer = await call("GET", "/zones?per_page=1");
      if (!answer.ok) return { ok: false, detail: answer.message };
      const meta = isObject(answer.body.meta) && isObject(answer.body.meta.pagination) ? answer.body.meta.pagination : {};
      const count = typeof meta.total_entries === "number" ? meta.total_entries : undefined;
      return { ok: true, detail: count === undefined ? "Token accepted" : `Token accepted (${count} ${count === 1 ? "zone" : "zones"})` };
    },

    async writeRecord(target, ip) {
      if (typeof target.config.zone_id === "string" && target.config.zone_id !== "") {
        const zone = await configuredZone(target.config.zone_id, target.hostname);
        const attempt = zone.ok ? await writeInZone(zone.zone, target, ip, true) : zone;
        // A zone deleted and added again (a new id), or a typo: found afresh, once.
        if (attempt.ok || !attempt.staleZone) return writeOutcome(attempt);
      }
      const found = await findZone(target.hostname);
      if (!found.ok) return writeOutcome(found);
      return writeOutcome(notPrimary(found.zone) ?? (await writeInZone(found.zone.name, target, ip, false)));
    },
  };
}

/** Seconds until the limit refills: `RateLimit-Reset` is a Unix time; `Retry-After` is taken too. */
function rateLimitWait(headers: Headers): number {
  return pauseSeconds(retryAfterSeconds(headers) ?? secondsUntilReset(headers));
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
      help:
        "In the Hetzner Console (console.hetzner.com) open the project that holds your DNS zones → Security → API tokens → Generate API token, with Read & Write permission (a read-only token can only verify). Tokens of the old DNS console (dns.hetzner.com) no longer work.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: { min: 60, max: 2147483647, help: "60–2147483647 seconds; empty keeps the record's TTL (the zone's default for a new record)" },
  canVerify: true,
  defaultApiUrl: "https://api.hetzner.cloud/v1",
  // Hetzner Cloud allows 3600 requests an hour per project; ddnsd stays under it.
  rateLimits: [{ requests: 3000, perSeconds: 3600 }],
  createClient: (credentials, _options, context) => createHetznerClient({ token: credentials.token ?? "" }, context),
});
