// The one policy of every zone service (docs/design/reconciler.md): a
// service module offers only primitives — find the zone that holds a name, read the name's record
// set of one type, update it, create it — and this module decides. It reads before it writes, so
// a record that already holds the address is never written again; it updates the one record set
// of that name and type and nothing else; it creates one only when `create_if_missing` allows; it
// keeps whatever the domain's config does not decide (TTL, proxying, comments); it never deletes a
// record; and it leaves a set with several addresses alone — unless the domain has several sources
// (`RecordTarget.addressSet`): then the set is made to hold the wanted addresses beside any it finds
// that are not ddnsd's (address-sets.ts). The words the history shows are made here too.

import { isObject } from "../util/json";
import { planSet, type SetPlan, setDetails } from "./address-sets";
import { failed } from "./answers";
import type {
  DnsProvider,
  RecordConfig,
  RecordTarget,
  RecordType,
  Step,
  TxtChange,
  VerifyOutcome,
  WriteOutcome,
} from "./provider";
import {
  candidateZones,
  configuredZone,
  foreignZoneMessage,
  longestZone,
  multipleValuesMessage,
  noZoneMessage,
  sameAddress,
  zoneHolds,
} from "./zones";

/** A zone (a domain at the service) that holds records. */
export interface Zone {
  /** The service's id of the zone, saved as the domain's `config.zone_id` (the name, where it has no other id). */
  id: string;
  /**
   * The zone's name, lowercase without a trailing dot; `null` when the id came from the domain's
   * config and the service needs a request to name it (`zoneName`).
   */
  name: string | null;
  /** What the history should say about the zone, e.g. that it is not active yet. */
  note?: string;
}

/** The addresses one name holds in one record type at the service, as one set. */
export interface RecordSet {
  /** The service's id of the record (or of the set; its name where it has no id), saved as `external_id`. */
  id: string;
  /** The addresses it holds now (an empty set is possible where the service keeps the object). */
  values: readonly string[];
  /** Its TTL in seconds, when the service says. */
  ttl?: number;
  /** The service's own object(s), for an update that must send back what it keeps. */
  raw?: unknown;
  /** Every record of the set, where the service keeps one record per address (Cloudflare): for `writeAddressSet`. */
  members?: readonly Record<string, unknown>[];
}

/** What the domain's config decides about the record; an absent field keeps what the record has. */
export interface DesiredSettings {
  ttl?: number;
  proxied?: boolean;
}

/** A zone service's primitives: requests, nothing decided. */
export interface ZoneApi {
  /** The service's name for messages, e.g. "Cloudflare". */
  readonly service: string;
  /** Checks the credentials; never changes anything. */
  verify(): Promise<VerifyOutcome>;
  /**
   * Every zone of the account (as far as the credentials see), each with its name: the reconciler
   * searches them (`searchZone`). The way of a service whose zone id is its name; one with ids of its
   * own, or a way of its own to find the zone, offers `findZone` instead.
   */
  listZones?(): Promise<Step<Zone[]>>;
  /**
   * Whether `name` is a zone of the account, for a service that cannot list its zones but answers
   * for one name: the reconciler asks for the hostname and each parent, longest first.
   */
  hasZone?(name: string): Promise<Step<boolean>>;
  /** Whose zones were searched, for the refusal when none holds the name ("this project"); "this account" unset. */
  readonly zoneOwner?: string;
  /**
   * What the refusal adds when none of the names `hasZone` was asked about is a zone: why the
   * service's answers may have hidden it (credentials that may not see it), in the service's words.
   */
  noZoneHint?(hostname: string): string;
  /**
   * The zone that holds `hostname`: the longest of the account's zones that is the name or one of
   * its parents, or the one `configured` (`config.zone_id`, set by a person or an earlier write).
   */
  findZone?(hostname: string, configured: string | undefined): Promise<Step<Zone>>;
  /** The name of a zone known only by its id (`Zone.name` null); needed before creating in it. */
  zoneName?(zoneId: string): Promise<Step<string>>;
  /**
   * The name's record set of that type, or null when the name has none. `savedId` is the set's id an
   * earlier write saved (`external_id`): a hint of where to look first, never a record to write
   * through — the set found must still be this name's.
   */
  readRecordSet(
    zone: Zone,
    hostname: string,
    type: RecordType,
    savedId: string | null,
  ): Promise<Step<RecordSet | null>>;
  /** Makes `current` hold only `address`, with `settings` applied and everything else kept. */
  updateRecordSet(
    zone: Zone,
    hostname: string,
    type: RecordType,
    current: RecordSet,
    address: string,
    settings: DesiredSettings,
  ): Promise<Step<RecordSet>>;
  createRecordSet(
    zone: Zone,
    hostname: string,
    type: RecordType,
    address: string,
    settings: DesiredSettings,
  ): Promise<Step<RecordSet>>;
  /**
   * Makes the name's set of that type hold exactly `addresses` (one or more), with `settings` applied
   * and everything else kept (TTL, proxying, comments of the records that stay); `current`: the set
   * as read, null when the name has none. The services whose description says `holdsAddressSets`.
   */
  writeAddressSet?(
    zone: Zone,
    hostname: string,
    type: RecordType,
    current: RecordSet | null,
    addresses: readonly string[],
    settings: DesiredSettings,
  ): Promise<Step<RecordSet>>;
  /** What the history adds about a written set, e.g. `["ttl auto", "proxied"]`; without it, the TTL. */
  describe?(set: RecordSet): string[];
  /**
   * The TTL the service keeps when asked for `ttl`, where it does not keep every value (Linode rounds
   * to a list): a record holding that already has the TTL the config asks for.
   */
  storedTtl?(ttl: number): number;
  /** Whether the set already has the settings the config asks for, beyond the TTL (Cloudflare's proxying). */
  settingsHold?(set: RecordSet, settings: DesiredSettings): boolean;
}

/**
 * A zone service's TXT primitives, for the ACME challenge (docs/certificates.md): each adds or removes
 * exactly one value and keeps every other value of the name, whatever the service's model (one record
 * per value, or one set written whole from `current`).
 */
export interface TxtApi {
  /** The name's TXT values, unquoted; empty when it has none. */
  read(zone: Zone, name: string): Promise<Step<string[]>>;
  /** Adds `value` beside `current` (what `read` found, without it). */
  add(zone: Zone, name: string, current: readonly string[], value: string): Promise<Step<void>>;
  /** Removes `value` (which `current` holds), keeping the rest of `current`. */
  remove(zone: Zone, name: string, current: readonly string[], value: string): Promise<Step<void>>;
}

/** The client the registry hands the updater for a zone service; `txt`: its TXT primitives, where it holds TXT. */
export function zoneClient(api: ZoneApi, txt?: TxtApi): DnsProvider {
  if (!api.findZone && !api.listZones && !api.hasZone)
    throw new Error(`${api.service}: a zone service offers listZones, hasZone or findZone`);
  return {
    verify: () => api.verify(),
    writeRecord: (target, address) => reconcile(api, target, address),
    ...(api.listZones ? { listZones: () => zoneNames(api) } : {}),
    ...(api.writeAddressSet ? { writesAddressSets: true as const } : {}),
    ...(txt ? { writeTxt: (change: TxtChange) => reconcileTxt(api, txt, change) } : {}),
  };
}

/** The account's zones by name (a zone known only by its id is left out: it names nothing to type). */
async function zoneNames(api: ZoneApi): Promise<Step<string[]>> {
  const listed = await api.listZones!();
  if (!listed.ok) return listed;
  const names = listed.value.map((zone) => zone.name).filter((name): name is string => name !== null);
  return { ok: true, value: [...new Set(names)].sort() };
}

/**
 * One challenge value added or removed, as the record policy does it: the zone found as for the
 * domain's own record, the name read first, nothing written when it already is as asked, and only
 * that one value changed.
 */
async function reconcileTxt(api: ZoneApi, txt: TxtApi, change: TxtChange): Promise<WriteOutcome> {
  const configured =
    typeof change.config.zone_id === "string" && change.config.zone_id.trim() !== ""
      ? change.config.zone_id.trim()
      : undefined;
  const found = await searchZone(api, change.hostname, configured);
  if (!found.ok) return outcome(found);
  const zone = found.value;
  const read = await txt.read(zone, change.name);
  if (!read.ok) return outcome(read);
  const held = read.value.includes(change.value);
  const done = (action: "updated" | "unchanged"): WriteOutcome => ({
    ok: true,
    action,
    externalId: change.name,
    zoneId: zone.id,
    message: `${api.service} zone ${zone.name ?? zone.id}`,
  });
  if (held === (change.action === "add")) return done("unchanged");
  const others = read.value.filter((value) => value !== change.value);
  const written =
    change.action === "add"
      ? await txt.add(zone, change.name, others, change.value)
      : await txt.remove(zone, change.name, read.value, change.value);
  return written.ok ? done("updated") : outcome(written);
}

/** The settings a domain's config decides; the rest of the record is the service's to keep. */
export function desiredSettings(config: RecordConfig): DesiredSettings {
  return {
    ...(typeof config.ttl === "number" ? { ttl: config.ttl } : {}),
    ...(typeof config.proxied === "boolean" ? { proxied: config.proxied } : {}),
  };
}

async function reconcile(api: ZoneApi, target: RecordTarget, address: string): Promise<WriteOutcome> {
  const configured =
    typeof target.config.zone_id === "string" && target.config.zone_id.trim() !== ""
      ? target.config.zone_id.trim()
      : undefined;
  const attempt = await writeInZone(api, target, address, configured);
  if (attempt.ok || !attempt.staleZone || configured === undefined) return outcome(attempt);
  // The zone id from the config names nothing any more (the zone was deleted and added again):
  // look the zone up afresh, once.
  const found = await searchZone(api, target.hostname, undefined);
  if (!found.ok) return outcome(found);
  if (found.value.id === configured) return outcome(attempt);
  return outcome(await writeInZone(api, target, address, undefined, found.value));
}

async function writeInZone(
  api: ZoneApi,
  target: RecordTarget,
  address: string,
  configured: string | undefined,
  known?: Zone,
): Promise<Step<Extract<WriteOutcome, { ok: true }>>> {
  const { hostname, recordType } = target;
  let zone: Zone;
  if (known) zone = known;
  else {
    const found = await searchZone(api, hostname, configured);
    if (!found.ok) return found;
    zone = found.value;
  }
  const settings = desiredSettings(target.config);
  const success = (
    action: "updated" | "created" | "unchanged",
    set: RecordSet,
    held: readonly string[],
    plan?: SetPlan,
  ) => ({
    ok: true as const,
    value: {
      ok: true as const,
      action,
      held,
      ...(plan === undefined ? {} : { foreign: plan.foreign, removed: plan.removed }),
      externalId: set.id,
      zoneId: zone.id,
      message: writtenDetails(api.service, `record ${set.id}`, [
        ...(api.describe ?? ttlDetail)(set),
        ...(plan === undefined ? [] : setDetails(plan)),
        ...(zone.note ? [zone.note] : []),
      ]),
    },
  });

  const read = await api.readRecordSet(zone, hostname, recordType, target.externalId);
  if (!read.ok) return read;
  const current = read.value;
  const plan =
    target.addressSet && planSet(current?.values ?? [], target.addressSet.wanted, target.addressSet.published);
  // Several addresses wanted or held, or one someone else put there: the set is written whole.
  if (plan && (plan.next.length > 1 || (current?.values.length ?? 0) > 1)) {
    if (current !== null && plan.holds && settingsKept(api, current, settings))
      return success("unchanged", current, current.values, plan);
    if (!api.writeAddressSet)
      return failed(
        current !== null && current.values.length > 1
          ? multipleValuesMessage(api.service, hostname, recordType, current.values)
          : `${api.service}: ddnsd writes one address per name there, so ${hostname} ${recordType} cannot hold ${plan.next.join(", ")}; set config.addresses to "first"`,
        { cause: "refused" },
      );
    if (current === null) {
      const creatable = await creatableZone(api, target, zone);
      if (!creatable.ok) return creatable;
      zone = creatable.value;
    }
    const written = await api.writeAddressSet(zone, hostname, recordType, current, plan.next, settings);
    return written.ok
      ? success(current === null ? "created" : "updated", written.value, current?.values ?? [], plan)
      : written;
  }
  if (current !== null) {
    if (current.values.length > 1)
      return failed(multipleValuesMessage(api.service, hostname, recordType, current.values), { cause: "refused" });
    if (holds(api, current, address, settings)) return success("unchanged", current, current.values);
    const updated = await api.updateRecordSet(zone, hostname, recordType, current, address, settings);
    return updated.ok ? success("updated", updated.value, current.values) : updated;
  }

  const creatable = await creatableZone(api, target, zone);
  if (!creatable.ok) return creatable;
  zone = creatable.value;
  const created = await api.createRecordSet(zone, hostname, recordType, address, settings);
  return created.ok ? success("created", created.value, []) : created;
}

/**
 * The zone a missing record may be created in: refused when `create_if_missing` is false, and a
 * zone named only by an id from the config is checked to hold the hostname first — a service would
 * put the record under that zone's name, a name nobody asked for. (A zone found by name, or
 * configured by name, was checked by `findZone` already.)
 */
async function creatableZone(api: ZoneApi, target: RecordTarget, zone: Zone): Promise<Step<Zone>> {
  if (target.config.create_if_missing === false)
    return failed(notCreatedMessage(api.service, target), { cause: "refused" });
  if (zone.name !== null || !api.zoneName) return { ok: true, value: zone };
  const named = await api.zoneName(zone.id);
  if (!named.ok) return named;
  if (!zoneHolds(named.value, target.hostname)) {
    return failed(
      `${api.service}: zone ${zone.id} is ${named.value || "unnamed"}, which does not hold ${target.hostname}; correct config.zone_id or remove it`,
      { cause: "refused" },
    );
  }
  return { ok: true, value: { ...zone, name: named.value } };
}

/**
 * The zone that holds the hostname: the service's own `findZone`, or the search over `listZones` or
 * `hasZone`: the zone the config names (checked to hold the name), else the longest zone of the
 * account that is the name or one of its parents, else a refusal.
 */
async function searchZone(api: ZoneApi, hostname: string, configured: string | undefined): Promise<Step<Zone>> {
  if (api.findZone) return api.findZone(hostname, configured);
  const named = namedZone(api.service, configured, hostname);
  if (named) return named;
  if (!api.listZones) {
    for (const candidate of candidateZones(hostname)) {
      const held = await api.hasZone!(candidate);
      if (!held.ok) return held;
      if (held.value) return { ok: true, value: { id: candidate, name: candidate } };
    }
    return failed(`${noZoneMessage(api.service, hostname, api.zoneOwner)}${api.noZoneHint?.(hostname) ?? ""}`, {
      cause: "refused",
    });
  }
  const listed = await api.listZones();
  if (!listed.ok) return listed;
  const byName = new Map(
    listed.value.flatMap((zone) =>
      zone.name === null ? [] : [[zone.name.toLowerCase().replace(/\.$/, ""), zone] as const],
    ),
  );
  const name = longestZone(hostname, byName.keys());
  const zone = name === undefined ? undefined : byName.get(name);
  return zone === undefined
    ? failed(noZoneMessage(api.service, hostname, api.zoneOwner), { cause: "refused" })
    : { ok: true, value: { ...zone, name: name! } };
}

/** Whether the set already is what the write would make it: the one address, and the settings asked for. */
function holds(api: ZoneApi, set: RecordSet, address: string, settings: DesiredSettings): boolean {
  const [value] = set.values;
  if (set.values.length !== 1 || value === undefined || !sameAddress(value, address)) return false;
  return settingsKept(api, set, settings);
}

/** Whether the set already has the settings the config asks for (its TTL, as the service keeps it, and the rest). */
function settingsKept(api: ZoneApi, set: RecordSet, settings: DesiredSettings): boolean {
  const ttl = settings.ttl === undefined ? undefined : (api.storedTtl?.(settings.ttl) ?? settings.ttl);
  if (ttl !== undefined && set.ttl !== undefined && set.ttl !== ttl) return false;
  return api.settingsHold?.(set, settings) ?? true;
}

/** The step's result as the updater takes it, without the marks a service or the reconciler kept for itself. */
function outcome(step: Step<Extract<WriteOutcome, { ok: true }>>): WriteOutcome {
  if (step.ok) return step.value;
  const { message, cause, retryAfterSeconds, stopRetrying } = step;
  return failed(message, { cause, retryAfterSeconds, stopRetrying });
}

/** What the history says of a written record set, unless the service says more: its TTL. */
function ttlDetail(set: RecordSet): string[] {
  return set.ttl === undefined ? [] : [`ttl ${set.ttl}`];
}

/**
 * A record set from a service's records of one name and type, each an object holding its id, its
 * address in `field` and its TTL: the first record's id and TTL, every record's address, and the
 * first record whole as `raw` (for an update that must send back what the service keeps).
 */
export function recordSetOf(
  records: readonly Record<string, unknown>[],
  field: string,
  keys: { id?: string; ttl?: string } = {},
): RecordSet {
  const first = records[0]!;
  const ttl = first[keys.ttl ?? "ttl"];
  return {
    id: String(first[keys.id ?? "id"]),
    values: records.map((record) => String(record[field])),
    ...(typeof ttl === "number" ? { ttl } : {}),
    raw: first,
  };
}

/**
 * The record set of one name and type in a listing of records that name themselves relative to
 * their zone (`relative`: "" for the apex), each with an id; null when there is none. The filter is
 * applied here even where the service was asked to filter: the apex's empty name must not match
 * every record.
 */
export function recordSetNamed(
  records: readonly Record<string, unknown>[],
  relative: string,
  type: RecordType,
  toSet: (records: Record<string, unknown>[]) => RecordSet,
): RecordSet | null {
  const named = records.filter(
    (r) => r.type === type && r.id !== undefined && r.id !== null && String(r.name ?? "").toLowerCase() === relative,
  );
  return named.length === 0 ? null : toSet(named);
}

/**
 * The record a write answered with, as a record set: `record` is what the service's answer holds.
 * One without an id is no answer to rely on: the service took the write but says nothing of what it
 * keeps, so the write is refused rather than guessed at.
 */
export function writtenSet(
  service: string,
  record: unknown,
  toSet: (records: Record<string, unknown>[]) => RecordSet,
): Step<RecordSet> {
  if (!isObject(record) || record.id === undefined || record.id === null)
    return failed(`${service}: the written record came back without an id`, { cause: "refused" });
  return { ok: true, value: toSet([record]) };
}

/** Zones whose id is their name, as `listZones` answers them: lowercase, without a trailing dot. */
export function zonesNamed(names: Iterable<unknown>): Zone[] {
  return [...names]
    .filter((name): name is string => typeof name === "string" && name !== "")
    .map((name) => {
      const zone = name.toLowerCase().replace(/\.$/, "");
      return { id: zone, name: zone };
    });
}

/**
 * The zone a domain's config names, for the services whose zone id is its name: checked to hold the
 * hostname (refused when it does not); undefined when the config names none and the zone is to be
 * looked up. Were that zone gone from the account, the next call says so and it is looked up afresh.
 */
export function namedZone(service: string, zoneId: unknown, hostname: string): Step<Zone> | undefined {
  const named = configuredZone(zoneId);
  if (named === undefined) return undefined;
  if (!zoneHolds(named, hostname)) return failed(foreignZoneMessage(service, named, hostname), { cause: "refused" });
  return { ok: true, value: { id: named, name: named } };
}

/**
 * A successful outcome's message: which object at the service holds the address now and what it
 * kept, e.g. "Cloudflare record 3f9a…, ttl auto, proxied". The updater puts it after its own
 * "Updated home.example.com A → 203.0.113.7", so it never repeats the name, type, address or action.
 */
function writtenDetails(service: string, object: string, facts: string[]): string {
  return [`${service} ${object}`, ...facts].join(", ");
}

/** Why a missing record was left missing. */
function notCreatedMessage(service: string, target: RecordTarget): string {
  return `${service}: record ${target.hostname} ${target.recordType} does not exist and create_if_missing is false`;
}
