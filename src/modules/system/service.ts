// System status (docs/api.md, system and metrics) and the health probe.

import type { AppContext } from "../../context";
import { VERSION } from "../../context";
import { userCount } from "../../security/users";

const DISK_FULL_HEALTH =
  "The data disk is full: API writes are refused and update outcomes wait in memory until space is freed in DDNS_DATA_DIR";
import { iso } from "../../util/time";

export function systemStatus(ctx: AppContext) {
  const lastCheck = ctx.store.metrics.lastCheckedAt();
  return {
    initialized: userCount(ctx) > 0,
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
export function healthProblem(ctx: AppContext, scheduled: boolean): HealthProblem | null {
  let admins: number;
  try {
    admins = userCount(ctx);
  } catch {
    return { status: "unavailable", detail: "The database does not answer" };
  }
  if (ctx.disk.full) return { status: "degraded", detail: DISK_FULL_HEALTH };
  if (admins === 0) return { status: "starting", detail: "Starting: the first admin is being created" };
  if (scheduled && !ctx.scheduler.running) return { status: "starting", detail: "Starting: the scheduler is not running yet" };
  return null;
}

/** The database's size in bytes (pages in use × page size; a WAL file not yet checkpointed is extra). */
export function databaseSizeBytes(ctx: AppContext): number {
  return ctx.store.metrics.databaseSizeBytes();
}
