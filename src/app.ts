// createApp(ctx) → the Elysia app: error mapping and body screening first, then health, docs, the API under
// /api/v1 (login public, everything else behind the bearer guard) and the admin pages.

import { cron } from "@elysiajs/cron";
import { Elysia } from "elysia";
import type { AppContext } from "./context";
import { bearerGuard, loginRoutes, logoutRoutes } from "./http/auth";
import { docsRoutes } from "./http/docs";
import { errorHandling } from "./http/errors";
import { bodyScreening } from "./http/screen";
import { domainRoutes } from "./modules/domains";
import { metricsRoutes } from "./modules/metrics";
import { providerRoutes } from "./modules/providers";
import { healthRoutes, systemRoutes } from "./modules/system";
import { uiRoutes } from "./ui";

export interface AppOptions {
  /** Run the scheduler's one-second tick (main.ts); tests drive passes themselves. */
  schedule?: boolean;
}

export function createApp(ctx: AppContext, options: AppOptions = {}) {
  const api = new Elysia({ prefix: "/api/v1" })
    .use(loginRoutes(ctx))
    .use(logoutRoutes(ctx))
    .use(bearerGuard(ctx))
    .use(providerRoutes(ctx))
    .use(domainRoutes(ctx))
    .use(systemRoutes(ctx))
    .use(metricsRoutes(ctx));

  const app = new Elysia()
    .use(errorHandling(ctx.log, ctx.disk))
    .use(bodyScreening())
    .use(healthRoutes(ctx, { scheduled: options.schedule ?? false }))
    .use(docsRoutes())
    .use(api)
    .use(uiRoutes(ctx));

  if (options.schedule) {
    ctx.scheduler.start();
    app.use(cron({ name: "scheduler", pattern: "* * * * * *", protect: true, run: () => ctx.scheduler.tick() }));
  }
  return app;
}

export type App = ReturnType<typeof createApp>;
