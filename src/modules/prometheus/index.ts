// GET /metrics for Prometheus: an API bearer token, or DDNS_METRICS_TOKEN when it is set (a scrape
// job's `authorization: {credentials: ...}`), so the scraper needs no admin password.

import { timingSafeEqual } from "node:crypto";
import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { authenticateToken, bearerToken } from "../../http/auth";
import { errorResponses } from "../shared";

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function prometheusRoutes(ctx: AppContext) {
  return new Elysia({ tags: ["system"] }).get(
    "/metrics",
    async ({ headers }) => {
      const token = bearerToken(headers.authorization);
      if (ctx.settings.metricsToken === null || !sameSecret(token, ctx.settings.metricsToken)) await authenticateToken(ctx, token);
      return new Response(ctx.metrics.render(), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" } });
    },
    {
      response: { 200: t.String({ description: "Prometheus text exposition format 0.0.4" }), ...errorResponses(401) },
      detail: {
        operationId: "getPrometheusMetrics",
        summary: "Prometheus metrics",
        description: "An API bearer token, or `Authorization: Bearer <DDNS_METRICS_TOKEN>` when that setting is set.",
      },
    },
  );
}
