// The one update path, used by the forced endpoint and the scheduler alike: detect (or take the
// pass's detection) → write to the provider when needed → one history row and the domain's
// `last_*` fields and `next_run_at`, in one transaction. The only place that changes a DNS record.

import type { AppContext } from "../context";
import { isDiskFull, type DomainChanges, type HistoryInsert } from "../db/disk";
import type { DomainRow, ProviderRow } from "../db/schema";
import { pausing } from "../dns/http";
import type { Addresses, DnsProvider, RecordType, WriteOutcome } from "../dns/provider";
import { conflict, DetectionFailed, DomainError, notFound, ProviderFailed, StorageFull } from "../errors";
import { detectPublicIp, type Detection, type IpFamily } from "../ip/detect";
import { interfaceAddress } from "../ip/interface";
import { addressForRecord } from "../ip/suffix";
import type { Store } from "../store";
import { effectiveSource } from "./address-source";
import type { Trigger, UpdateOutcome } from "./outcome";
import { providerClient } from "./provider-client";
import { nextScheduledRun, retryDelaySeconds, scheduleGapSeconds } from "./schedule";

/** The FAILED row's message (and a forced update's 502) when a provider's stored credentials no longer open. */
export const CREDENTIALS_UNREADABLE =
  "The provider's stored credentials cannot be decrypted (was DDNS_ENCRYPTION_KEY changed?); enter them again";

export function familyOf(recordType: RecordType): IpFamily {
  return recordType === "AAAA" ? 6 : 4;
}

/**
 * Asks the family's source (the one chosen in the pages, else DDNS_IPV4_SOURCE / DDNS_IPV6_SOURCE:
 * the echo services or an interface) once, and remembers the answer for the status endpoint and the pages.
 */
export async function detectFamily(ctx: AppContext, family: IpFamily): Promise<Detection> {
  const { source, urls } = effectiveSource(ctx, family);
  const result =
    source.kind === "interface"
      ? interfaceAddress(family, source.name, { allowPrivate: ctx.settings.allowPrivateIps })
      : await detectPublicIp(family, {
          urls,
          fetch: ctx.fetch,
          timeoutMs: ctx.settings.httpTimeoutMs,
          allowPrivate: ctx.settings.allowPrivateIps,
        });
  const now = Date.now();
  const key = family === 4 ? "ipv4" : "ipv6";
  ctx.publicIp.checkedAt = now;
  if (result.ok) {
    ctx.publicIp[key] = result.ip;
    ctx.publicIp.failures[key] = null;
  } else {
    // The pages say since when it fails, not just that the last try did.
    ctx.publicIp.failures[key] = { since: ctx.publicIp.failures[key]?.since ?? now, error: result.error };
    ctx.log.warn("public IP detection failed", { family: `IPv${family}`, reason: result.error });
  }
  ctx.events.detected(family, result);
  return result;
}

/** Appended to a failure after which the service said retrying cannot help (`WriteOutcome.stopRetrying`). */
export const NOT_RETRIED = "not retried until the provider or domain is edited";

export interface UpdateOptions {
  trigger: Trigger;
  /** Write even when the record looks current (the forced update). */
  force: boolean;
  /** The detection shared by the current pass, or a router's pushed address; detected now when absent. */
  detection?: Promise<Detection>;
}

/**
 * Runs one update of one domain; `null` when the domain or its provider no longer exists, or — for a
 * scheduled run — when either was disabled meanwhile.
 */
export function runUpdate(ctx: AppContext, domainId: number, options: UpdateOptions): Promise<UpdateOutcome | null> {
  return ctx.updater.queue.run(domainId, () => attempt(ctx, domainId, options));
}

/** The domain and its provider; the domain with any state still waiting for disk space (db/disk.ts). */
function loadDomain(ctx: AppContext, domainId: number): { domain: DomainRow; provider: ProviderRow } | null {
  const loaded = ctx.store.domains.withProvider(domainId);
  return loaded ? { domain: ctx.disk.overlay(loaded.domain), provider: loaded.provider } : null;
}

/**
 * Runs a transaction that writes a domain's new state, with any older state still waiting for disk
 * space folded in first. On a full disk the state (and the history row, if any) waits in memory
 * instead, and `onFull` gives the answer.
 */
function storeOutcome<T>(
  ctx: AppContext,
  domainId: number,
  work: (store: Store, waiting: DomainChanges) => T,
  onFull: () => { row: HistoryInsert | null; changes: DomainChanges; result: T },
): T {
  try {
    const result = ctx.store.transaction((store) => work(store, ctx.disk.waitingChanges(domainId)));
    ctx.disk.forgetChanges(domainId);
    ctx.disk.noteSpace();
    return result;
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    ctx.disk.noteFull("recording an update");
    const { row, changes, result } = onFull();
    ctx.disk.defer(domainId, row, changes);
    return result;
  }
}

/** Why the domain must not be updated now (the 409's sentence), or null when both it and its provider are enabled. */
function disabledReason(domain: DomainRow, provider: ProviderRow): string | null {
  if (!domain.isEnabled) return "The domain is disabled; enable it to update it";
  if (!provider.isEnabled) return `The provider "${provider.name}" is disabled; enable it to update this domain`;
  return null;
}

/** Whether a scheduled check must write: the IP changed, the last attempt failed, or never written. */
export function needsWrite(domain: DomainRow, ip: string): boolean {
  return domain.lastKnownIp !== ip || domain.lastUpdateStatus !== "SUCCESS";
}

async function attempt(ctx: AppContext, domainId: number, options: UpdateOptions): Promise<UpdateOutcome | null> {
  const started = performance.now();
  const before = loadDomain(ctx, domainId);
  if (!before) return null;
  const family = familyOf(before.domain.recordType);
  let detection = await (options.detection ?? detectFamily(ctx, family));
  // Decided on the domain as it is once the address is known: it may have been edited (renamed,
  // reset, retyped) or deleted while the echo services were being asked.
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
  if (familyOf(domain.recordType) !== family) detection = await detectFamily(ctx, familyOf(domain.recordType));
  const base = {
    domainId,
    hostname: domain.domainName,
    recordType: domain.recordType,
    previousIp: domain.lastKnownIp,
  };

  if (!detection.ok) {
    const outcome = { ...base, result: "failed", failure: "detection", ip: null, changed: false, message: detection.error } as const;
    // No request reached the service: the history row's cause is the detection (`record`).
    return record(ctx, domain, outcome, options.trigger, started, { ok: false, message: detection.error, cause: "unreachable" });
  }
  // A LAN host's AAAA record: the detected prefix followed by the domain's config.ipv6_suffix.
  const ip = addressForRecord(detection.ip, domain.config);
  if (!options.force && !needsWrite(domain, ip)) {
    const now = Date.now();
    const checked = { lastCheckedAt: now, nextRunAt: nextScheduledRun(domain.cronSchedule, now, ctx.settings.updateIntervalSeconds) };
    // Only while still enabled: the detection of another family above may have taken a while.
    storeOutcome(
      ctx,
      domainId,
      (store, waiting) => store.domains.updateIfEnabled(domainId, { ...waiting, ...checked }),
      () => ({ row: null, changes: checked, result: undefined }),
    );
    return { ...base, result: "unchanged", failure: null, ip, changed: false, message: `${domain.domainName} already points at ${ip}`, durationMs: 0, historyId: null };
  }

  const { write, pausedUntil } = await writeToProvider(ctx, provider, domain, ip);
  // A record the service already held at this address did not change, whatever ddnsd last knew.
  const changed = write.ok && write.action !== "unchanged" && ip !== domain.lastKnownIp;
  // One sentence: what the updater did, then what only the provider knows (its record id, ttl …).
  const message = write.ok
    ? `${ACTION_WORDS[write.action]} ${domain.domainName} ${domain.recordType} → ${ip}${write.action === "unchanged" ? " (already held at the service; nothing written)" : changed ? "" : " (unchanged)"}${write.message ? `; ${write.message}` : ""}`
    : write.stopRetrying
      ? `${write.message} — ${NOT_RETRIED}`
      : write.message;
  const outcome = {
    ...base,
    result: write.ok ? "updated" : "failed",
    failure: write.ok ? null : "provider",
    ip,
    changed,
    message,
  } as const;
  return record(ctx, domain, outcome, options.trigger, started, write, pausedUntil);
}

const ACTION_WORDS = { created: "Created", updated: "Updated", unchanged: "Checked" } as const;

/**
 * Calls the provider, within one of its concurrency slots, unless a "slow down" has paused it. Writes to one
 * hostname at one provider run one at a time: a Dynu apex keeps its IPv4 and IPv6 addresses on one
 * object that each write sends back whole, so its A and AAAA updates side by side would undo each other.
 */
function writeToProvider(
  ctx: AppContext,
  provider: ProviderRow,
  domain: DomainRow,
  ip: string,
): Promise<{ write: WriteOutcome; pausedUntil: number | null }> {
  return ctx.updater.queue.run(`${provider.id} ${domain.domainName}`, () =>
    ctx.updater.slots.run(provider.id, async () => {
      // Read now, not when the update began: a 429 that an update queued ahead of this one got counts.
      const paused = providerPausedUntil(ctx, provider.id);
      if (paused !== null && paused > Date.now()) {
        const message = `${provider.name} asked to wait until ${new Date(paused).toISOString()} (rate limited); not called`;
        return { write: { ok: false, message, cause: "throttled" }, pausedUntil: paused };
      }
      let client: DnsProvider;
      try {
        client = providerClient(ctx, provider);
      } catch (error) {
        // A type this build has no service for: the reason, as a failed attempt like any other.
        if (error instanceof DomainError) return { write: { ok: false, message: error.message, cause: "refused" }, pausedUntil: null };
        // The credentials no longer open (another DDNS_ENCRYPTION_KEY, a damaged row): a failed
        // attempt like any other, with its row and backoff, not a fault that repeats every second.
        ctx.log.error("provider credentials cannot be decrypted", {
          provider_id: provider.id,
          error: error instanceof Error ? error.message : String(error),
        });
        return { write: { ok: false, message: CREDENTIALS_UNREADABLE, cause: "credentials" }, pausedUntil: null };
      }
      const write = await client.writeRecord(
        {
          hostname: domain.domainName,
          recordType: domain.recordType,
          externalId: domain.externalId,
          config: domain.config,
          siblings: siblingAddresses(ctx, domain),
        },
        ip,
      );
      if (write.ok || write.cause !== "throttled") {
        ctx.updater.throttles.settle(provider.id);
        return { write, pausedUntil: null };
      }
      // Paused meanwhile by another write's "slow down" (answered while this one was in flight, or
      // held back before it was sent): the same "slow down", which neither doubles the pause nor ends it.
      const now = Date.now();
      const pausedMeanwhile = providerPausedUntil(ctx, provider.id);
      if (pausedMeanwhile !== null && pausedMeanwhile > now) {
        return { write: { ...write, message: write.message + pausing(Math.ceil((pausedMeanwhile - now) / 1000)) }, pausedUntil: pausedMeanwhile };
      }
      const pause = ctx.updater.throttles.pauseSeconds(provider.id, write.retryAfterSeconds);
      // Stored before the slot is released, so the updates waiting for it see the pause.
      return { write: { ...write, message: write.message + pausing(pause) }, pausedUntil: pauseProvider(ctx, provider.id, now + pause * 1000) };
    }),
  );
}

/**
 * What the same hostname's other-family domain at the same provider holds now: its last written
 * address, else (never written yet) the address detected for it. A one-shot service that treats a
 * hostname as one thing is sent both, so that writing the A record does not delete the AAAA.
 */
function siblingAddresses(ctx: AppContext, domain: DomainRow): Addresses {
  const siblings: Addresses = {};
  for (const row of ctx.store.domains.siblings(domain.providerId, domain.domainName, domain.recordType)) {
    const family = row.recordType === "AAAA" ? "ipv6" : "ipv4";
    const detected = row.isEnabled ? ctx.publicIp[family] : null;
    const address = row.lastKnownIp ?? (detected === null ? null : addressForRecord(detected, row.config));
    if (address !== null) siblings[family] = address;
  }
  return siblings;
}

function providerPausedUntil(ctx: AppContext, providerId: number): number | null {
  return ctx.store.providers.pausedUntil(providerId);
}

/**
 * Pauses the provider until `until` (ms), never shortening a longer pause; returns the pause in force.
 * On a full disk the pause still holds for this domain's next run (its waiting state), just not stored.
 */
function pauseProvider(ctx: AppContext, providerId: number, until: number): number {
  try {
    return ctx.store.providers.pause(providerId, until) ?? until;
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    ctx.disk.noteFull("pausing a provider");
    return until;
  }
}

/**
 * Writes the outcomes kept in memory while the disk was full, once it takes them (each domain's rows
 * and state in one transaction); while nothing waits but the disk was full, a small write tells
 * whether space is back. Called by every scheduler tick.
 */
export function storeWaitingOutcomes(ctx: AppContext): void {
  if (!ctx.disk.full && !ctx.disk.waiting) return;
  try {
    const stored = ctx.disk.storeWaiting((domainId, rows, changes) =>
      ctx.store.transaction((store) => {
        if (!store.domains.find(domainId)) return;
        for (const row of rows) store.history.append(row, ctx.settings.historyRetention);
        if (Object.keys(changes).length > 0) store.domains.update(domainId, changes);
      }),
    );
    if (stored === 0) ctx.store.space.probe();
    ctx.disk.noteSpace(stored);
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    ctx.disk.noteFull("storing the outcomes kept in memory");
  }
}

type PendingOutcome = Omit<UpdateOutcome, "durationMs" | "historyId">;

/** The history row, the domain's new state and retention, all in one transaction. */
function record(
  ctx: AppContext,
  domain: DomainRow,
  outcome: PendingOutcome,
  trigger: Trigger,
  started: number,
  write: WriteOutcome,
  /** The provider's pause (a 429), which the domain's next run waits for. */
  pausedUntil: number | null = null,
): UpdateOutcome | null {
  const durationMs = Math.round(performance.now() - started);
  const now = Date.now();
  const interval = ctx.settings.updateIntervalSeconds;
  const succeeded = write.ok;
  const failureCount = succeeded ? 0 : domain.failureCount + 1;
  let nextRunAt = succeeded
    ? nextScheduledRun(domain.cronSchedule, now, interval)
    : now + retryDelaySeconds(failureCount, scheduleGapSeconds(domain.cronSchedule, now, interval)) * 1000;
  if (pausedUntil !== null) nextRunAt = Math.max(nextRunAt, pausedUntil);
  // No next run at all: the scheduler never picks the domain until an edit of it or of its provider
  // schedules it again (domains and providers services).
  const stopped = !write.ok && write.stopRetrying === true;

  const row: HistoryInsert = {
    domainId: domain.id,
    ipAddress: outcome.ip,
    previousIp: domain.lastKnownIp,
    status: succeeded ? "SUCCESS" : "FAILED",
    failureCause: write.ok ? null : outcome.failure === "detection" ? "detection" : write.cause,
    message: outcome.message,
    trigger,
    durationMs,
    timestamp: now,
  };
  /** The domain's new state, given the domain as it is now (null when it is another record now). */
  const stateAfter = (current: DomainRow): DomainChanges | null => {
    // Another record now (new provider, name, type, or an external_id the user set): the edit reset its
    // state so that it is written (and its id checked) at once, and this outcome, about the record as
    // it was, must neither mark the new one current nor make its id trusted.
    const sameRecord =
      current.providerId === domain.providerId &&
      current.domainName === domain.domainName &&
      current.recordType === domain.recordType &&
      current.externalId === domain.externalId;
    if (!sameRecord) return null;
    // The zone id found by the write is saved only when config.zone_id is still what this attempt
    // started with: one the user set or removed meanwhile is theirs to keep. The rest of the config
    // is taken as it is now, so any other change made meanwhile stays too. A service without zones
    // (DuckDNS, dyndns2, custom) finds none: nothing to save.
    const zoneIdFound = write.ok && write.zoneId !== "" && current.config.zone_id === domain.config.zone_id;
    return {
      // A detection failure is no attempt at the record: its status stays, so that when the echo
      // services answer again only records whose address really changed are written.
      lastUpdateStatus: succeeded ? "SUCCESS" : outcome.failure === "detection" ? current.lastUpdateStatus : "FAILED",
      lastCheckedAt: now,
      failureCount,
      nextRunAt: current.isEnabled && !stopped ? nextRunAt : null,
      ...(write.ok
        ? {
            lastKnownIp: outcome.ip,
            externalId: write.externalId,
            ...(zoneIdFound ? { config: { ...current.config, zone_id: write.zoneId } } : {}),
            ...(outcome.changed || current.lastChangedAt === null ? { lastChangedAt: now } : {}),
          }
        : {}),
    };
  };

  const historyId = storeOutcome(
    ctx,
    domain.id,
    (store, waiting) => {
      // The domain as it is now: it may have been edited while the provider was being called.
      const stored = store.domains.find(domain.id);
      if (!stored) return null; // deleted meanwhile: nothing left to record
      const id = store.history.append(row, ctx.settings.historyRetention);
      const changes = stateAfter({ ...stored, ...waiting });
      if (changes !== null) store.domains.update(domain.id, { ...waiting, ...changes });
      return id;
    },
    () => {
      const current = loadDomain(ctx, domain.id)?.domain;
      return { row, changes: (current && stateAfter(current)) ?? {}, result: null };
    },
  );
  if (historyId === null && !ctx.disk.full) return null;
  const level = succeeded ? "info" : "warn";
  ctx.log[level](succeeded ? "record updated" : "update failed", {
    domain_id: domain.id,
    domain: domain.domainName,
    type: domain.recordType,
    ip: outcome.ip,
    trigger,
    reason: succeeded ? undefined : outcome.message,
    duration_ms: durationMs,
  });
  const result = { ...outcome, durationMs, historyId };
  ctx.events.recorded({ before: domain, outcome: result, trigger });
  return result;
}

/**
 * A forced update refused because the domain or its provider is disabled: a FAILED row saying so
 * (no address, no time spent), while the domain's state (status, backoff, schedule) stays as it is.
 */
function recordRefusal(ctx: AppContext, domain: DomainRow, message: string): UpdateOutcome {
  const historyId = ctx.store.history.append(
    {
      domainId: domain.id,
      ipAddress: null,
      previousIp: domain.lastKnownIp,
      status: "FAILED",
      failureCause: "disabled",
      message,
      trigger: "manual",
      durationMs: 0,
      timestamp: Date.now(),
    },
    ctx.settings.historyRetention,
  );
  ctx.log.info("forced update refused", { domain_id: domain.id, domain: domain.domainName, reason: message });
  return {
    domainId: domain.id,
    hostname: domain.domainName,
    recordType: domain.recordType,
    result: "failed",
    failure: "disabled",
    ip: null,
    previousIp: domain.lastKnownIp,
    changed: false,
    message,
    durationMs: 0,
    historyId,
  };
}

/** A forced update that wrote (or found the record current) and stored its history row. */
export type ForcedUpdate = UpdateOutcome & { historyId: number };

/**
 * Writes now, whatever the schedule (the API's `POST /domains/{id}/update_ip`, the pages' "Update
 * now"): what it came to, or the refusal as a domain error — not found, disabled (409, its row
 * written), the detection or the provider failed, or the outcome waits for disk space.
 */
export async function runForcedUpdate(ctx: AppContext, domainId: number): Promise<ForcedUpdate> {
  const loaded = loadDomain(ctx, domainId);
  if (!loaded) throw notFound("Domain not found");
  const refusal = disabledReason(loaded.domain, loaded.provider);
  if (refusal !== null) throw conflict(recordRefusal(ctx, loaded.domain, refusal).message);
  const outcome = await runUpdate(ctx, domainId, { trigger: "manual", force: true });
  if (!outcome) throw notFound("Domain not found");
  // The provider was called; only its outcome could not be stored (it will be, once space is back).
  if (outcome.historyId === null) throw new StorageFull(`The data disk is full: ${outcome.message}; the outcome is kept in memory and stored once space is freed in DDNS_DATA_DIR`);
  // Disabled while the address was being detected: refused the same way, its row already written.
  if (outcome.failure === "disabled") throw conflict(outcome.message);
  if (outcome.failure === "detection") throw new DetectionFailed(outcome.message);
  if (outcome.failure === "provider") throw new ProviderFailed(outcome.message);
  return { ...outcome, historyId: outcome.historyId };
}

/**
 * The forced update answered in the API's shape, for the admin page that still imports it from here
 * (src/ui/routes/domains.ts); the API itself answers through the domains service's `forceUpdate`,
 * which gives the same body. Goes once the page imports that one.
 */
export async function forceUpdate(ctx: AppContext, domainId: number) {
  const outcome = await runForcedUpdate(ctx, domainId);
  return {
    domain_id: domainId,
    success: true,
    ip_address: outcome.ip,
    previous_ip: outcome.previousIp,
    changed: outcome.changed,
    message: outcome.message,
    duration_ms: outcome.durationMs,
    history_id: outcome.historyId,
  };
}
