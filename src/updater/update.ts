// The one update path, used by the scheduler, a router's push and the forced update alike: detect
// (or take the pass's detection, ./detect.ts) → write to the provider when needed (./write.ts) → one
// history row and the domain's new state (./record.ts), kept in memory on a full disk
// (./deferral.ts). The only place that changes a DNS record.

import type { RecordTarget, WriteOutcome } from "../dns/provider";
import { sameAddress, sameAddresses } from "../dns/zones";
import { conflict, DetectionFailed, notFound, ProviderFailed, StorageFull } from "../errors";
import type { Detection } from "../ip/detect";
import { type DomainSource, parseDomainSource } from "../ip/source";
import { addressForRecord } from "../ip/suffix";
import type { DomainRow, ProviderRow } from "../store/rows";
import { formatDuration } from "../util/time";
import { detectList, domainAddressMode, sourceList, wantedAddresses, writtenAddresses } from "./address-set";
import { loadDomain, storeOutcome } from "./deferral";
import { type DetectParts, detectFrom, familyOf } from "./detect";
import type { Trigger, UpdateOutcome } from "./outcome";
import { heldBack } from "./pauses";
import type { RepairRequest, RepairResult } from "./propagation";
import { intendedPushAddress, NOT_PUSHED_YET } from "./pushed";
import { type PendingOutcome, type RecordParts, record, recordRefusal } from "./record";
import { refreshDue, refreshPeriod } from "./refresh";
import { nextScheduledRun } from "./schedule";
import { type WriteParts, writeToProvider } from "./write";

/** What an update takes: what detecting, writing and recording each take (the app's context has it all). */
export type UpdateParts = DetectParts & WriteParts & RecordParts;

/** Appended to a failure after which the service said retrying cannot help (`WriteOutcome.stopRetrying`). */
const NOT_RETRIED = "not retried until the provider or domain is edited";

export interface UpdateOptions {
  trigger: Trigger;
  /**
   * Ask the service even when the record looks current (the forced update, a push): it reads the
   * record and writes only what it does not hold.
   */
  force: boolean;
  /** The detection shared by the current pass, or a router's pushed address; detected now when absent. */
  detection?: Promise<Detection>;
  /**
   * Which source the pass's detection asked (`detectionKey`): a domain edited meanwhile to another
   * family or source is detected again. Absent for a push, whose address is the router's.
   */
  detectedFor?: string;
}

/**
 * Where a domain's address comes from: its own `address_source`, or null for the system's source of its
 * family. A list of sources is asked by `sourceList` (./address-set.ts); here it reads as no one source.
 */
export function domainSource(domain: Pick<DomainRow, "addressSource">): DomainSource | null {
  if (domain.addressSource === null) return null;
  const source = parseDomainSource(domain.addressSource, true);
  // Stored values were checked when saved; one that no longer reads is a failed detection, not a fault.
  return typeof source === "string" ? { kind: "fixed", ip: domain.addressSource } : source;
}

/**
 * What a pass shares one detection by: the family and the domain's own source (the system's when it
 * has none); for a list of sources, the list and its mode.
 */
export function detectionKey(domain: Pick<DomainRow, "addressSource" | "recordType" | "config">): string {
  const list = sourceList(domain) === null ? "" : ` ${domainAddressMode(domain)}`;
  return `${familyOf(domain.recordType)} ${domain.addressSource ?? "system"}${list}`;
}

/**
 * The address the domain's record is meant to hold, as a repair writes it back: a push-only domain's
 * the router's newest push, any other's the address ddnsd last wrote (a check found it current).
 */
export function intendedAddress(domain: DomainRow): string | null {
  return domainSource(domain)?.kind === "push" ? domain.pushedIp : domain.lastKnownIp;
}

/**
 * The address this domain's source gives now: a push-only domain's intended address (only a forced
 * update asks: the schedule never writes such a domain), a list's sources each asked, else its source asked.
 */
export function detectFor(
  ctx: DetectParts,
  domain: Pick<DomainRow, "recordType" | "addressSource" | "config" | "pushedIp">,
): Promise<Detection> {
  const family = familyOf(domain.recordType);
  const list = sourceList(domain);
  if (list !== null) return detectList(family, list, domainAddressMode(domain), (one) => detectFrom(ctx, family, one));
  const source = domainSource(domain);
  if (source?.kind === "push") {
    return Promise.resolve(intendedPushAddress(domain));
  }
  return detectFrom(ctx, family, source);
}

/**
 * Runs one update of one domain; `null` when the domain or its provider no longer exists, or — for a
 * scheduled run — when either was disabled meanwhile.
 */
export function runUpdate(ctx: UpdateParts, domainId: number, options: UpdateOptions): Promise<UpdateOutcome | null> {
  return ctx.updater.queue.run(domainId, () => attempt(ctx, domainId, options));
}

/** Why the domain must not be updated now (the 409's sentence), or null when both it and its provider are enabled. */
function disabledReason(domain: DomainRow, provider: ProviderRow): string | null {
  if (!domain.isEnabled) return "The domain is disabled; enable it to update it";
  if (!provider.isEnabled) return `The provider "${provider.name}" is disabled; enable it to update this domain`;
  return null;
}

/**
 * Whether a scheduled check must write: the IP changed (for a list of sources, any address of the
 * set), the last attempt failed, or never written.
 */
function needsWrite(domain: DomainRow, ip: string, wanted?: readonly string[]): boolean {
  if (domain.lastKnownIp !== ip || domain.lastUpdateStatus !== "SUCCESS") return true;
  if (wanted === undefined) return false;
  const written = domain.addresses ?? [];
  return written.length !== wanted.length || wanted.some((address) => !written.includes(address));
}

async function attempt(ctx: UpdateParts, domainId: number, options: UpdateOptions): Promise<UpdateOutcome | null> {
  const started = performance.now();
  const before = loadDomain(ctx, domainId);
  if (!before) return null;
  let detection = await (options.detection ?? detectFor(ctx, before.domain));
  // Decided on the domain as it is once the address is known: it may have been edited (renamed,
  // reset, retyped, another source) or deleted while the source was being asked.
  const loaded = loadDomain(ctx, domainId);
  if (!loaded) return null;
  const { domain, provider } = loaded;
  const refusal = disabledReason(domain, provider);
  if (refusal !== null) {
    // Disabled while the address was being detected: a scheduled check leaves the domain as it is
    // (no row, no state change), as the scheduler would not pick it now; a forced update is refused
    // as the route refuses it up front (a 409 and its row).
    return options.force ? recordRefusal(ctx, domain, refusal) : null;
  }
  // Only a router's push (or a forced re-send of it) writes a push-only domain, never the schedule.
  if (options.trigger === "schedule" && domainSource(domain)?.kind === "push") return null;
  // Asked for another family or source than the domain has now: asked again. A push's address stands
  // unless the record's family changed.
  const askedFor = options.detectedFor ?? (options.detection === undefined ? detectionKey(before.domain) : null);
  const edited =
    askedFor !== null
      ? askedFor !== detectionKey(domain)
      : familyOf(domain.recordType) !== familyOf(before.domain.recordType);
  // A router's push names one address; a domain with a list of sources holds its sources' set, so
  // the push makes them asked now rather than its one address written over the set.
  if (edited || (options.trigger === "push" && sourceList(domain) !== null)) detection = await detectFor(ctx, domain);
  const base = {
    domainId,
    hostname: domain.domainName,
    recordType: domain.recordType,
    previousIp: domain.lastKnownIp,
  };

  if (!detection.ok) {
    const outcome = {
      ...base,
      result: "failed",
      failure: "detection",
      ip: null,
      changed: false,
      written: false,
      message: detection.error,
    } as const;
    // No request reached the service: the history row's cause is the detection (`record`).
    return record(ctx, domain, outcome, options.trigger, started, {
      ok: false,
      message: detection.error,
      cause: "unreachable",
    });
  }
  // A LAN host's AAAA record: the detected prefix followed by the domain's config.ipv6_suffix.
  const ip = addressForRecord(detection.ip, domain.config);
  // A list of sources: every address the record is to hold (`ip` first), beside what ddnsd wrote
  // before. So also for one source after a list's set: the addresses it published go, its one stays.
  const listed = sourceList(domain) !== null;
  const set =
    listed || (domain.addresses?.length ?? 0) > 1
      ? listWrite(domain, listed ? wantedAddresses(detection, domain.config) : [ip])
      : undefined;
  // A scheduled check of a current record writes nothing, unless its keep-alive period has passed
  // (./refresh.ts): then the address is sent again, a `refresh` row.
  let refreshed: number | null = null;
  if (!options.force && !needsWrite(domain, ip, set?.wanted)) {
    const period = options.trigger === "schedule" ? refreshPeriod(ctx, domain, provider) : null;
    if (period === null || !refreshDue(ctx, domain, period, Date.now())) return unchangedOutcome(ctx, domain, ip, base);
    refreshed = period;
  }

  // A push asks the service whether it holds the address (a zone service reads the record), except a
  // service that can only be asked by writing: there the last successful write of this address stands.
  const knownHeld = options.trigger === "push" && !needsWrite(domain, ip);
  const { write, pausedUntil } = await writeToProvider(ctx, provider, domain, ip, { knownHeld, addressSet: set });
  // A push of the address the record holds, and held as ddnsd knew it: the service was asked (it
  // read the record) and holds it; like a scheduled check that finds nothing to change, no row.
  if (options.trigger === "push" && write.ok && write.action === "unchanged" && !needsWrite(domain, ip))
    return unchangedOutcome(ctx, domain, ip, base);
  const outcome = writeOutcome(domain, ip, write, {
    set,
    failedSources: detection.failed,
    listed,
    ...(refreshed === null ? {} : { refreshed }),
  });
  return record(ctx, domain, outcome, refreshed === null ? options.trigger : "refresh", started, write, pausedUntil);
}

/** A list domain's write: the addresses wanted now, and those ddnsd wrote before (null: never written). */
function listWrite(domain: DomainRow, wanted: readonly string[]): NonNullable<RecordTarget["addressSet"]> {
  return { wanted, published: domain.lastUpdateStatus === null ? null : writtenAddresses(domain) };
}

/**
 * What a call to the service came to, worded in one sentence: what the updater did, then what only
 * the provider knows (its record id, ttl …). `changed` and `previousIp` follow what the record held
 * (`held`: as the service was read, where it can be; a record changed outside ddnsd shows there),
 * else the address ddnsd last wrote. `why` follows the action of a change that needs a reason;
 * `refreshed`: the keep-alive period (seconds) after which an unchanged address was sent again.
 */
function writeOutcome(
  domain: DomainRow,
  ip: string,
  write: WriteOutcome,
  {
    held = write.ok ? write.held : undefined,
    why = "",
    refreshed,
    set,
    failedSources = [],
    listed = set !== undefined,
  }: {
    held?: readonly string[];
    why?: string;
    /** The keep-alive period (seconds) after which an unchanged address was sent again. */
    refreshed?: number;
    /** A list of sources: the addresses written (`ip` first). */
    set?: NonNullable<RecordTarget["addressSet"]>;
    /** Sources of the list that gave no address, each with why: named in the message. */
    failedSources?: readonly { source: string; error: string }[];
    /** The domain has a list of sources: its set is kept as `addresses` (one source keeps none). */
    listed?: boolean;
  } = {},
): PendingOutcome {
  // A record the service already held at this address did not change, whatever ddnsd last knew.
  const written = write.ok && write.action !== "unchanged";
  const previousIp = held === undefined ? domain.lastKnownIp : (held[0] ?? null);
  const wanted = set?.wanted ?? [ip];
  const changed =
    written &&
    (held === undefined
      ? ip !== domain.lastKnownIp || (set !== undefined && !sameAddresses(set.wanted, writtenAddresses(domain) ?? []))
      : wanted.some((address) => !held.some((value) => sameAddress(value, address))) ||
        held.length > wanted.length + (write.ok ? (write.foreign?.length ?? 0) : 0));
  const failing = failedSources
    .map((failed) => `; ${failed.source} gave no address (${failed.error}), so its address is not published`)
    .join("");
  const message = write.ok
    ? `${writtenWords(domain, wanted.join(", "), write.action, { changed, why, refreshed })}${write.message ? `; ${write.message}` : ""}${failing}`
    : `${write.stopRetrying ? `${write.message} — ${NOT_RETRIED}` : write.message}${failing}`;
  return {
    domainId: domain.id,
    hostname: domain.domainName,
    recordType: domain.recordType,
    previousIp,
    result: write.ok ? "updated" : "failed",
    failure: write.ok ? null : "provider",
    ip,
    ...(set === undefined ? {} : { removed: write.ok ? (write.removed ?? []) : [] }),
    ...(set === undefined || !listed ? {} : { addresses: [...set.wanted] }),
    changed,
    written,
    message,
  };
}

/**
 * Where the live check saw the record hold another address than the one intended (or could not see
 * it, and DDNS_VERIFY_EVERY came round): the record is read at the service and, where it holds
 * another address there too, the intended one is written back, a `repair` row and an `ip_changed`
 * event. A service already holding the intended address was lag (`held`): nothing written, no row.
 * Nothing is asked of a domain that is disabled, failing (its retries write it anyway), paused, or
 * meant to hold another address by now.
 */
export function runRepair(ctx: UpdateParts, request: RepairRequest): Promise<RepairResult> {
  return ctx.updater.queue.run(request.domainId, () => repair(ctx, request));
}

async function repair(ctx: UpdateParts, request: RepairRequest): Promise<RepairResult> {
  const started = performance.now();
  const loaded = loadDomain(ctx, request.domainId);
  if (!loaded) return "skipped";
  const { domain, provider } = loaded;
  const ip = intendedAddress(domain);
  if (
    disabledReason(domain, provider) !== null ||
    domain.lastUpdateStatus !== "SUCCESS" ||
    ip === null ||
    !sameAddress(ip, request.address) ||
    heldBack(ctx, provider) !== null
  )
    return "skipped";
  // Without name servers' answers (DDNS_VERIFY_EVERY's read), a service that can only be asked by
  // writing is not asked: sending the address again every period is what such services call abuse.
  // A list's set is put back whole: what ddnsd wrote last, beside any address someone else added (left alone).
  const written = writtenAddresses(domain);
  const set = sourceList(domain) === null || written === null ? undefined : { wanted: written, published: written };
  const { write, pausedUntil } = await writeToProvider(ctx, provider, domain, ip, {
    knownHeld: request.seen === null,
    addressSet: set,
  });
  if (write.ok && write.action === "unchanged") return "held";
  // What the record held: as the service was read, else (it cannot be read) as the name servers answered.
  const held = (write.ok ? write.held : undefined) ?? request.seen ?? undefined;
  const why =
    held === undefined || held.length === 0
      ? " (the record was missing: deleted outside ddnsd)"
      : ` (the record held ${held.join(", ")}: changed outside ddnsd)`;
  const outcome = writeOutcome(domain, ip, write, { held, why, set });
  record(ctx, domain, outcome, "repair", started, write, pausedUntil);
  if (!write.ok) return "failed";
  return outcome.changed ? "repaired" : "held";
}

/**
 * A check that found the record current: only `last_checked_at` and the next run change, and no row
 * is written. Those two are held in memory by the store, not written (store/held-checks.ts), unless
 * an older state waits for disk space: then they are stored with it.
 */
function unchangedOutcome(
  ctx: UpdateParts,
  domain: DomainRow,
  ip: string,
  base: Pick<UpdateOutcome, "domainId" | "hostname" | "recordType" | "previousIp">,
): UpdateOutcome {
  const now = Date.now();
  const checked = {
    lastCheckedAt: now,
    nextRunAt: nextScheduledRun(domain.cronSchedule, now, ctx.settings.updateIntervalSeconds),
  };
  // Only while still enabled: the detection of another family may have taken a while.
  if (Object.keys(ctx.disk.waitingChanges(domain.id)).length === 0) ctx.store.domains.holdChecked(domain.id, checked);
  else
    storeOutcome(
      ctx,
      domain.id,
      (store, waiting) => store.domains.updateIfEnabled(domain.id, { ...waiting, ...checked }),
      () => ({ row: null, changes: checked, result: undefined }),
    );
  return {
    ...base,
    result: "unchanged",
    failure: null,
    ip,
    ...(domain.addresses === null ? {} : { addresses: domain.addresses }),
    changed: false,
    written: false,
    message: `${domain.domainName} already points at ${(domain.addresses ?? [ip]).join(", ")}`,
    durationMs: 0,
    historyId: null,
  };
}

const ACTION_WORDS = { created: "Created", updated: "Updated", unchanged: "Checked" } as const;

/**
 * A successful call's sentence: what the updater did, then why (`why` for a change that needs a
 * reason). A keep-alive resend (`refreshed`: its period) that changed nothing says so, and after how long.
 */
function writtenWords(
  domain: DomainRow,
  addresses: string,
  action: keyof typeof ACTION_WORDS,
  { changed, why, refreshed }: { changed: boolean; why: string; refreshed: number | undefined },
): string {
  const what = `${domain.domainName} ${domain.recordType} → ${addresses}`;
  if (refreshed !== undefined && !changed)
    return `Refreshed ${what} (sent again unchanged, last written over ${formatDuration(refreshed)} ago: refresh_every keeps the host alive at the service)`;
  return `${ACTION_WORDS[action]} ${what}${action === "unchanged" ? " (already held at the service; nothing written)" : changed ? why : " (unchanged)"}`;
}

/** A forced update that wrote (or found the record current) and stored its history row. */
export type ForcedUpdate = UpdateOutcome & { historyId: number };

/**
 * Writes now, whatever the schedule (the API's `POST /domains/{id}/update_ip`, the pages' "Update
 * now"): what it came to, or the refusal as a domain error — not found, disabled (409, its row
 * written), the detection or the provider failed, or the outcome waits for disk space.
 */
export async function runForcedUpdate(ctx: UpdateParts, domainId: number): Promise<ForcedUpdate> {
  const loaded = loadDomain(ctx, domainId);
  if (!loaded) throw notFound("Domain not found");
  const refusal = disabledReason(loaded.domain, loaded.provider);
  if (refusal !== null) throw conflict(recordRefusal(ctx, loaded.domain, refusal).message);
  // A push-only domain re-sends the router's newest address; before any push there is nothing to send.
  if (domainSource(loaded.domain)?.kind === "push" && loaded.domain.pushedIp === null) throw conflict(NOT_PUSHED_YET);
  const outcome = await runUpdate(ctx, domainId, { trigger: "manual", force: true });
  if (!outcome) throw notFound("Domain not found");
  // The provider was called; only its outcome could not be stored (it will be, once space is back).
  if (outcome.historyId === null)
    throw new StorageFull(
      `The data disk is full: ${outcome.message}; the outcome is kept in memory and stored once space is freed in DDNS_DATA_DIR`,
    );
  // Disabled while the address was being detected: refused the same way, its row already written.
  if (outcome.failure === "disabled") throw conflict(outcome.message);
  if (outcome.failure === "detection") throw new DetectionFailed(outcome.message);
  if (outcome.failure === "provider") throw new ProviderFailed(outcome.message);
  return { ...outcome, historyId: outcome.historyId };
}
