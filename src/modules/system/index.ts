// Routes of /api/v1/system, and the unauthenticated /healthz probe.

import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { HttpError } from "../../http/errors";
import { ErrorBody, errorResponses, Int } from "../shared";
import { databaseHealthy, systemStatus } from "./service";

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
    detail: { summary: "System status" },
  });
}

export function healthRoutes(ctx: AppContext) {
  return new Elysia({ tags: ["system"] }).get(
    "/healthz",
    () => {
      if (!databaseHealthy(ctx)) throw new HttpError(503, "The database does not answer");
      return { status: "ok" as const };
    },
    {
      response: { 200: t.Object({ status: t.Literal("ok") }), 503: ErrorBody },
      detail: { summary: "Health probe", description: "No authentication; 200 while the database answers.", security: [] },
    },
  );
}
