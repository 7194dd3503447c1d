// Dashboard and per-provider figures (docs/api.md, system and metrics), from the store's aggregates
// over the history table.

import type { Store } from "../../store";
import { iso } from "../../util/time";

/** The figures read the store's aggregates only. */
export type MetricsReader = { store: Pick<Store, "metrics"> };

const DAY_MS = 24 * 60 * 60 * 1000;

/** A percentage with one decimal, or null when there is nothing to rate. */
function percentage(part: number, whole: number): number | null {
  return whole === 0 ? null : Math.round((part * 1000) / whole) / 10;
}

export interface DashboardMetrics {
  total_domains: number;
  active_domains: number;
  total_providers: number;
  active_providers: number;
  total_updates_24h: number;
  failed_updates_24h: number;
  success_rate_24h: number | null;
  unique_ips_24h: number;
  last_update_time: string | null;
  providers_stats: { type: string; count: number; active: number }[];
}

export function dashboardMetrics(ctx: MetricsReader, now = Date.now()): DashboardMetrics {
  const domainCounts = ctx.store.metrics.domainCounts();
  const byType = ctx.store.metrics.providersByType();
  const updates = ctx.store.metrics.updatesSince(now - DAY_MS);
  const failed = updates.failed;
  return {
    total_domains: domainCounts.total,
    active_domains: domainCounts.active,
    total_providers: byType.reduce((sum, row) => sum + row.count, 0),
    active_providers: byType.reduce((sum, row) => sum + row.active, 0),
    total_updates_24h: updates.total,
    failed_updates_24h: failed,
    success_rate_24h: percentage(updates.total - failed, updates.total),
    unique_ips_24h: updates.ips,
    last_update_time: iso(ctx.store.metrics.lastUpdateAt()),
    providers_stats: byType.map((row) => ({ type: row.type, count: row.count, active: row.active })),
  };
}

export interface ProviderStats {
  provider_id: number;
  provider_name: string;
  provider_type: string;
  is_enabled: boolean;
  total_domains: number;
  updates_24h: number;
  successful_updates_24h: number;
  failed_updates_24h: number;
  success_rate_24h: number | null;
  avg_duration_ms_24h: number | null;
  last_update_time: string | null;
}

export function providerStats(ctx: MetricsReader): { providers: ProviderStats[]; total_providers: number } {
  const rows = ctx.store.metrics.providerStats(Date.now() - DAY_MS);
  const stats = rows.map((row) => {
    const updates = row.updates ?? 0;
    const successful = row.successful ?? 0;
    return {
      provider_id: row.id,
      provider_name: row.name,
      provider_type: row.type,
      is_enabled: row.is_enabled === 1,
      total_domains: row.total_domains,
      updates_24h: updates,
      successful_updates_24h: successful,
      failed_updates_24h: updates - successful,
      success_rate_24h: percentage(successful, updates),
      avg_duration_ms_24h: row.avg_ms === null ? null : Math.round(row.avg_ms * 10) / 10,
      last_update_time: iso(row.last_at),
    };
  });
  return { providers: stats, total_providers: stats.length };
}

const HOUR_MS = 60 * 60 * 1000;

/** One hour of the dashboard chart: successful and failed updates that started in it. */
export interface HourlyUpdates {
  /** Start of the hour (local time), ms since the epoch. */
  start: number;
  success: number;
  failed: number;
}

/**
 * Updates per hour over the last 24 hours: 24 buckets aligned to the local clock hour, the last
 * one being the current (partial) hour. Hours without updates are present with zero counts.
 */
export function updatesPerHour(ctx: MetricsReader, now = Date.now()): HourlyUpdates[] {
  const hourStart = new Date(now);
  hourStart.setMinutes(0, 0, 0);
  const first = hourStart.getTime() - 23 * HOUR_MS;
  // One count per hour (see the store: faster than one GROUP BY over the day).
  return Array.from({ length: 24 }, (_, i) => {
    const start = first + i * HOUR_MS;
    const { success, failed } = ctx.store.metrics.outcomesBetween(start, start + HOUR_MS);
    return { start, success, failed };
  });
}

/** One day of the IP-change chart. */
export interface DailyIpChanges {
  /** Local midnight starting the day, ms since the epoch. */
  start: number;
  /** Successful writes that pointed a record at a different address than before. */
  changes: number;
}

/**
 * IP changes per day over the last 7 days (today included), local days. Buckets are 24 h wide
 * from local midnight six days ago, so on a daylight-saving switch a change within an hour of
 * midnight may count toward the neighbouring day — good enough for a chart.
 */
export function ipChangesPerDay(ctx: MetricsReader, now = Date.now()): DailyIpChanges[] {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  midnight.setDate(midnight.getDate() - 6);
  const first = midnight.getTime();
  // One count per 24 h bucket, as in updatesPerHour.
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(first);
    day.setDate(day.getDate() + i);
    return {
      start: day.getTime(),
      changes: ctx.store.metrics.ipChangesBetween(first + i * DAY_MS, first + (i + 1) * DAY_MS),
    };
  });
}
