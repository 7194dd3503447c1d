// The dashboard. The page polls itself (see views/pages/dashboard.tsx), so this one route serves
// both the first view and each refresh.

import { Elysia } from "elysia";
import { DashboardPage } from "../../../views/pages/dashboard";
import type { PublicIpState } from "../../ip/public-ip";
import { sourceText } from "../../ip/source";
import { type DomainReader, listDomains } from "../../modules/domains/service";
import { dashboardMetrics, ipChangesPerDay, type MetricsReader, updatesPerHour } from "../../modules/metrics/service";
import { listProviders, type ProviderReader } from "../../modules/providers/service";
import { detectWhileIdle } from "../../modules/system/address-sources";
import { type SystemSources, systemStatus } from "../../modules/system/service";
import { effectiveSource } from "../../updater/address-source";
import type { DetectParts } from "../../updater/detect";
import { type AddressSourceView, sourceAnswers } from "../address-sources";
import { type ConditionSources, type PageDeps, signedIn, updateConditions } from "../pages";
import { takeFlash } from "../session";

/** What the dashboard shows: the status, the counters, the domains and providers with their state, the addresses found. */
export type DashboardDeps = PageDeps &
  SystemSources &
  MetricsReader &
  DomainReader &
  ProviderReader &
  ConditionSources &
  AddressSourceView &
  DetectParts & {
    publicIp: PublicIpState;
    settings: { readonly updateIntervalSeconds: number; readonly pushStaleAfterSeconds: number };
  };

export function dashboardRoutes(ctx: DashboardDeps) {
  return new Elysia().use(signedIn(ctx)).get("/", ({ user, cookie }) => {
    const now = Date.now();
    // With no domain of a family, no pass asks for its address: the card asks (in the background, once an interval).
    detectWhileIdle(ctx, now);
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
      answers: sourceAnswers(ctx),
      sources: {
        system: { ipv4: sourceText(effectiveSource(ctx, 4).source), ipv6: sourceText(effectiveSource(ctx, 6).source) },
        pushStaleAfterSeconds: ctx.settings.pushStaleAfterSeconds,
        now,
        answers: ctx.publicIp.answers,
      },
    });
  });
}
