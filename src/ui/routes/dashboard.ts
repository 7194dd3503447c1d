// The dashboard. The page polls itself (see views/pages/dashboard.tsx), so this one route serves
// both the first view and each refresh.

import { Elysia } from "elysia";
import type { Appliance } from "../../context";
import { listDomains } from "../../modules/domains/service";
import { dashboardMetrics, ipChangesPerDay, updatesPerHour } from "../../modules/metrics/service";
import { listProviders } from "../../modules/providers/service";
import { systemStatus } from "../../modules/system/service";
import { DashboardPage } from "../../../views/pages/dashboard";
import { signedIn, updateConditions } from "../pages";
import { takeFlash } from "../session";

export function dashboardRoutes(ctx: Appliance) {
  return new Elysia().use(signedIn(ctx)).get("/", ({ user, cookie }) => {
    const now = Date.now();
    const status = systemStatus(ctx);
    return DashboardPage({
      user,
      flash: takeFlash(ctx, cookie),
      now,
      publicIp: ctx.publicIp,
      metrics: dashboardMetrics(ctx, now),
      scheduler: status.scheduler,
      lastCheckAt: status.last_check_at,
      hourly: updatesPerHour(ctx, now),
      daily: ipChangesPerDay(ctx, now),
      domains: listDomains(ctx),
      conditions: updateConditions(ctx, listProviders(ctx)),
      intervalSeconds: ctx.settings.updateIntervalSeconds,
    });
  });
}
