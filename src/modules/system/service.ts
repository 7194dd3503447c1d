// System status (docs/api.md, system and metrics) and the health probe.

import type { Store } from "../../store";
import { VERSION } from "../../util/package";
import { iso } from "../../util/time";

const DISK_FULL_HEALTH =
  "The data disk is full: API writes are refused and update outcomes wait in memory until space is freed in DDNS_DATA_DIR";

/** What the status and the health probe read (the app's context has all of it). */
export interface SystemSources {
  store: Pick<Store, "metrics" | "users">;
  /** When the app started, ms since the epoch. */
  startedAt: number;
  /** The newest public addresses the updater detected. */
  publicIp: { readonly ipv4: string | null; readonly ipv6: string | null };
  scheduler: { readonly running: boolean };
  disk: { readonly full: boolean };
}

export function systemStatus(ctx: SystemSources) {
  const lastCheck = ctx.store.metrics.lastCheckedAt();
  return {
    initialized: ctx.store.users.count() > 0,
    version: VERSION,
    uptime_seconds: Math.floor((Date.now() - ctx.startedAt) / 1000),
    database: "sqlite" as const,
    scheduler: ctx.scheduler.running ? ("running" as const) : ("stopped" as const),
    last_check_at: iso(lastCheck),
    public_ip: { ipv4: ctx.publicIp.ipv4, ipv6: ctx.publicIp.ipv6 },
  };
}

type HealthProblem = { status: "starting" | "degraded" | "unavailable"; detail: string };

/** Why the appliance is not healthy, or null when it is ready and its database answers. */
export function healthProblem(ctx: SystemSources, scheduled: boolean): HealthProblem | null {
  let admins: number;
  try {
    admins = ctx.store.users.count();
  } catch {
    return { status: "unavailable", detail: "The database does not answer" };
  }
  if (ctx.disk.full) return { status: "degraded", detail: DISK_FULL_HEALTH };
  if (admins === 0) return { status: "starting", detail: "Starting: the first admin is being created" };
  if (scheduled && !ctx.scheduler.running)
    return { status: "starting", detail: "Starting: the scheduler is not running yet" };
  return null;
}

/** The database's size in bytes (pages in use × page size; a WAL file not yet checkpointed is extra). */
export function databaseSizeBytes(ctx: Pick<SystemSources, "store">): number {
  return ctx.store.metrics.databaseSizeBytes();
}
