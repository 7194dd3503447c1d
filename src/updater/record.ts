// History and the domain's state: what an attempt came to is written as one history row (the
// domain's rows cut to DDNS_HISTORY_RETENTION as it is written) and the domain's new state — status,
// failure count, next run by schedule or backoff — in one transaction, or kept for later on a full
// disk (./deferral.ts); then the log line and the event for notifications and counters.

import type { DomainChanges, HistoryInsert } from "../db/disk";
import type { WriteOutcome } from "../dns/provider";
import type { Logger } from "../log";
import type { DomainRow } from "../store/rows";
import { type DeferralParts, loadDomain, storeOutcome } from "./deferral";
import type { EventSink } from "./events";
import type { Trigger, UpdateOutcome } from "./outcome";
import { nextScheduledRun, retryDelaySeconds, scheduleGapSeconds } from "./schedule";

/** What recording takes: deferral's parts, the schedule's interval, the log and the event sink. */
export interface RecordParts extends DeferralParts {
  settings: { historyRetention: number; updateIntervalSeconds: number };
  log: Logger;
  events: EventSink;
}

/** An outcome before its row is stored (its duration and row id come with it). */
export type PendingOutcome = Omit<UpdateOutcome, "durationMs" | "historyId">;

/** The history row, the domain's new state and retention, all in one transaction. */
export function record(
  ctx: RecordParts,
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
    addresses: outcome.addresses === undefined ? null : [...outcome.addresses],
    // What the record held, as the service was read: another address than ddnsd last wrote, when it
    // was changed outside ddnsd.
    previousIp: outcome.previousIp,
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
            addresses: outcome.addresses === undefined ? null : [...outcome.addresses],
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
  // A scheduled check that could not detect its address is no failed update: the pass logs the
  // detection's outage once per family (scheduler.ts), not a line per waiting domain.
  const waitsForDetection = outcome.failure === "detection" && trigger === "schedule";
  const level = succeeded ? "info" : waitsForDetection ? "debug" : "warn";
  // "written" only when the service was sent a change: a record it already held was checked, no more.
  ctx.log[level](
    succeeded
      ? outcome.written
        ? "record updated"
        : "record already current; nothing written"
      : waitsForDetection
        ? "waiting for detection"
        : "update failed",
    {
      domain_id: domain.id,
      domain: domain.domainName,
      type: domain.recordType,
      ip: outcome.ip,
      trigger,
      reason: succeeded ? undefined : outcome.message,
      duration_ms: durationMs,
    },
  );
  const result = { ...outcome, durationMs, historyId };
  ctx.events.recorded({ before: domain, outcome: result, trigger });
  return result;
}

/**
 * A forced update refused because the domain or its provider is disabled: a FAILED row saying so
 * (no address, no time spent), while the domain's state (status, backoff, schedule) stays as it is.
 */
export function recordRefusal(ctx: RecordParts, domain: DomainRow, message: string): UpdateOutcome {
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
    written: false,
    message,
    durationMs: 0,
    historyId,
  };
}
