// createApp(ctx) → the Elysia app: error mapping first, then health, docs, the router push
// (/nic/update), Prometheus (/metrics), the API under /api/v1 (login public, everything else
// behind the bearer guard) and the admin pages.

import { cron } from "@elysiajs/cron";
import { Elysia } from "elysia";
import type { AppContext } from "./context";
import { bearerGuard, loginRoutes } from "./http/auth";
import { docsRoutes } from "./http/docs";
import { errorHandling } from "./http/errors";
import { domainRoutes } from "./modules/domains";
import { metricsRoutes } from "./modules/metrics";
import { notificationRoutes } from "./modules/notifications";
import { prometheusRoutes } from "./modules/prometheus";
import { providerRoutes } from "./modules/providers";
import { pushRoutes } from "./modules/push";
import { updateKeyRoutes } from "./modules/update-keys";
import { healthRoutes, systemRoutes } from "./modules/system";
import { uiRoutes } from "./ui";

export interface AppOptions {
  /** Run the scheduler's one-second tick (main.ts); tests drive passes themselves. */
  schedule?: boolean;
}

export function createApp(ctx: AppContext, options: AppOptions = {}) {
  const api = new Elysia({ prefix: "/api/v1" })
    .use(loginRoutes(ctx))
    .use(bearerGuard(ctx))
    .use(providerRoutes(ctx))
    .use(domainRoutes(ctx))
    .use(systemRoutes(ctx))
    .use(metricsRoutes(ctx))
    .use(updateKeyRoutes(ctx))
    .use(notificationRoutes(ctx));

  const app = new Elysia()
    .use(errorHandling(ctx.log))
    .use(healthRoutes(ctx))
    .use(docsRoutes())
    .use(pushRoutes(ctx))
    .use(prometheusRoutes(ctx))
    .use(api)
    .use(uiRoutes(ctx));

  if (options.schedule) {
    ctx.scheduler.start();
    app.use(cron({ name: "scheduler", pattern: "* * * * * *", protect: true, run: () => ctx.scheduler.tick() }));
  }
  return app;
}

export type App = ReturnType<typeof createApp>;
