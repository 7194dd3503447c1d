// Serving the app: Bun.serve (HTTPS when a certificate is configured), one log line per request,
// and the graceful stop: no new requests, running updates finish (up to 10 s), database closed.

import type { Server } from "bun";
import type { App } from "./app";
import type { AppContext } from "./context";
import { internalError } from "./http/errors";

const NOTIFY_GRACE_MS = 2_000;
export const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningServer {
  server: Server<undefined>;
  url: URL;
  stop(): Promise<void>;
}

export function startServer(ctx: AppContext, app: App): RunningServer {
  const { host, port, tlsCert, tlsKey } = ctx.settings;
  const server = Bun.serve({
    hostname: host,
    port,
    tls: tlsCert && tlsKey ? { cert: Bun.file(tlsCert), key: Bun.file(tlsKey) } : undefined,
    async fetch(request) {
      const started = performance.now();
      const response = await app.handle(request);
      const path = new URL(request.url).pathname;
      // Health probes and static assets would drown the log; they're logged at debug level.
      const quiet = path === "/healthz" || path.startsWith("/assets/") || path.startsWith("/docs/assets/");
      ctx.log[quiet ? "debug" : "info"]("request", {
        method: request.method,
        path,
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
      });
      return response;
    },
    // Only reached if the app itself throws outside its own error mapping.
    error(error) {
      return internalError(ctx.log, null, error);
    },
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const cronJob = (app.store as { cron?: Record<string, { stop(): void }> }).cron?.scheduler;
      cronJob?.stop();
      const requestsDone = server.stop();
      const updatesDone = await ctx.scheduler.stop(SHUTDOWN_GRACE_MS);
      if (!updatesDone) ctx.log.warn("updates still running after the grace period; stopping anyway");
      await Promise.race([requestsDone, Bun.sleep(SHUTDOWN_GRACE_MS)]);
      // The last updates' notifications get a moment to go out (not their 1 s / 5 s / 25 s retries).
      await Promise.race([ctx.notifier.idle(), Bun.sleep(NOTIFY_GRACE_MS)]);
      ctx.sqlite.close();
      ctx.log.info("stopped");
    })());
  return { server, url: server.url, stop };
}
