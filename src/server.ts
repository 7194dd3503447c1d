// Serving the app: Bun.serve (HTTPS when a certificate is configured), requests screened before
// routing, the headers every answer carries, a log line per request at debug level, and the
// graceful stop: no new requests, running updates finish (up to 10 s), database closed.

import type { Server } from "bun";
import type { App } from "./app";
import type { Appliance } from "./context";
import { internalError, requestPath } from "./http/errors";
import { screenRequest } from "./http/screen";

const NOTIFY_GRACE_MS = 2_000;
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The Swagger page runs one inline script (its start-up) and Swagger UI sets inline styles; it loads
 * nothing from elsewhere, and no other site may frame it.
 */
const DOCS_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** Headers on every answer (the admin pages add their own policy in src/ui). */
function addSecurityHeaders(path: string, response: Response): void {
  response.headers.set("x-content-type-options", "nosniff");
  if (path === "/docs" || path.startsWith("/docs/")) {
    response.headers.set("content-security-policy", DOCS_CSP);
    response.headers.set("x-frame-options", "DENY");
  }
}

export interface RunningServer {
  server: Server<undefined>;
  url: URL;
  stop(): Promise<void>;
}

export function startServer(ctx: Appliance, app: App): RunningServer {
  const { host, port, tlsCert, tlsKey } = ctx.settings;
  const server = Bun.serve({
    hostname: host,
    port,
    tls: tlsCert && tlsKey ? { cert: Bun.file(tlsCert), key: Bun.file(tlsKey) } : undefined,
    async fetch(request, server) {
      const started = performance.now();
      const path = requestPath(request);
      ctx.signIns.rememberPeer(request, server.requestIP(request)?.address ?? null);
      let response: Response;
      try {
        response = screenRequest(request) ?? (await app.handle(request));
      } catch (error) {
        response = internalError(ctx.log, request, error);
      }
      addSecurityHeaders(path, response);
      // At debug only: a line per request would fill a Pi's journal (and writing it cost a fifth of
      // a small API answer's time); at info the log keeps what happened — changes, failures,
      // sign-ins — not who asked.
      ctx.log.debug("request", {
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
