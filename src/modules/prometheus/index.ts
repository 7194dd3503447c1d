// GET /metrics for Prometheus. Who may read it is the HTTP edge's rule (an API token, or
// DDNS_METRICS_TOKEN when it is set), handed in by the app as `authenticate`.

import { Elysia, t } from "elysia";
import { errorResponses } from "../shared";

export interface PrometheusRouteDeps {
  /** The counters and gauges (./service.ts). */
  metrics: { render(): string };
  /** Refuses (401, 403) a request that may not read the metrics. */
  authenticate(request: Request): Promise<void>;
}

export function prometheusRoutes({ metrics, authenticate }: PrometheusRouteDeps) {
  return new Elysia({ tags: ["system"] }).get(
    "/metrics",
    async ({ request }) => {
      await authenticate(request);
      return new Response(metrics.render(), {
        headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" },
      });
    },
    {
      response: {
        200: t.String({ description: "Prometheus text exposition format 0.0.4" }),
        ...errorResponses(401, 403),
      },
      detail: {
        operationId: "getPrometheusMetrics",
        summary: "Prometheus metrics",
        description:
          "A sign-in token, a `read` or `admin` API token, or `Authorization: Bearer <DDNS_METRICS_TOKEN>` when that setting is set.",
      },
    },
  );
}
