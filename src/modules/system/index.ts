// Routes of /api/v1/system, and the unauthenticated /healthz probe.

import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { errorResponses, Int } from "../shared";
import { healthProblem, systemStatus } from "./service";

const SystemStatus = t.Object({
  initialized: t.Boolean({ description: "The database is migrated and an admin exists" }),
  version: t.String(),
  uptime_seconds: Int(),
  database: t.Literal("sqlite"),
  scheduler: t.Union([t.Literal("running"), t.Literal("stopped")]),
  last_check_at: t.Nullable(t.String({ format: "date-time" })),
  public_ip: t.Object({ ipv4: t.Nullable(t.String()), ipv6: t.Nullable(t.String()) }),
});

export function systemRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/system", tags: ["system"] }).get("/status", () => systemStatus(ctx), {
    response: { 200: SystemStatus, ...errorResponses(401) },
    detail: { operationId: "getSystemStatus", summary: "System status" },
  });
}

const Unhealthy = t.Object(
  { status: t.Union([t.Literal("starting"), t.Literal("degraded"), t.Literal("unavailable")]), detail: t.String() },
  { description: "Not ready yet, or the data disk is full, or the database does not answer" },
);

/**
 * `/healthz`: 200 only once the appliance is ready (an admin exists, so a login works; the scheduler
 * runs when this app schedules), else 503 saying why.
 */
export function healthRoutes(ctx: AppContext, options: { scheduled: boolean }) {
  return new Elysia({ tags: ["system"] }).get(
    "/healthz",
    ({ set }) => {
      const problem = healthProblem(ctx, options.scheduled);
      if (problem === null) return { status: "ok" as const };
      set.status = 503;
      return problem;
    },
    {
      response: { 200: t.Object({ status: t.Literal("ok") }), 503: Unhealthy },
      detail: {
        operationId: "getHealth",
        summary: "Health probe",
        description:
          "No authentication; 200 once ready (database migrated, an admin exists, the scheduler runs) and while the database can be written.",
        security: [],
      },
    },
  );
}
