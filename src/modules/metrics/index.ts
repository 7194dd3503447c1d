// Routes of /api/v1/metrics.

import { Elysia, t } from "elysia";
import { PROVIDER_TYPES } from "../../dns/registry";
import { errorResponses, Int, OptionalTimestamp, type WriteCount, whileUnchanged } from "../shared";
import { dashboardMetrics, type MetricsReader, providerStats } from "./service";

const Rate = t.Nullable(t.Number({ description: "Percentage with one decimal; null when there is nothing to rate" }));

const Dashboard = t.Object({
  total_domains: Int(),
  active_domains: Int({ description: "Enabled domains of enabled providers" }),
  total_providers: Int(),
  active_providers: Int(),
  total_updates_24h: Int(),
  failed_updates_24h: Int(),
  success_rate_24h: Rate,
  unique_ips_24h: Int(),
  last_update_time: OptionalTimestamp,
  providers_stats: t.Array(t.Object({ type: t.String({ enum: [...PROVIDER_TYPES] }), count: Int(), active: Int() })),
});

const ProviderStats = t.Object({
  providers: t.Array(
    t.Object({
      provider_id: Int(),
      provider_name: t.String(),
      provider_type: t.String({ enum: [...PROVIDER_TYPES] }),
      is_enabled: t.Boolean(),
      total_domains: Int(),
      updates_24h: Int(),
      successful_updates_24h: Int(),
      failed_updates_24h: Int(),
      success_rate_24h: Rate,
      avg_duration_ms_24h: t.Nullable(t.Number()),
      last_update_time: OptionalTimestamp,
    }),
  ),
  total_providers: Int(),
});

/** The 24-hour figures move with the clock as well as with the data: served unchanged for at most a second. */
const FIGURES_FRESH_MS = 1000;

/** The figures, served again while the database is unwritten (its write count). */
export function metricsRoutes(ctx: MetricsReader & WriteCount) {
  return new Elysia({ prefix: "/metrics", tags: ["metrics"] })
    .get(
      "/dashboard",
      whileUnchanged(ctx, () => dashboardMetrics(ctx), FIGURES_FRESH_MS),
      {
        response: { 200: Dashboard, ...errorResponses(401) },
        detail: {
          operationId: "getDashboardMetrics",
          summary: "Dashboard figures",
          description: "Counts, and the last 24 hours of updates.",
        },
      },
    )
    .get(
      "/provider-stats",
      whileUnchanged(ctx, () => providerStats(ctx), FIGURES_FRESH_MS),
      {
        response: { 200: ProviderStats, ...errorResponses(401) },
        detail: {
          operationId: "getProviderStats",
          summary: "Success rates per provider",
          description: "Every provider, also those without domains.",
        },
      },
    );
}
