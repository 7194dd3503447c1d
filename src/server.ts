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

/**
 * Elysia takes the routed path from `request.url` at a fixed offset (the first "/" from the 12th
 * character on), which assumes `http://` and a host of four characters or more. With a Host of one
 * to three characters (`http://ab/nic/api/v1/auth/login`) it would route `/api/v1/auth/login`, and
 * a reverse proxy that publishes only one path could be bypassed. Such a URL gets a user name of
 * underscores (`http://_@ab/…`) just long enough: host, origin, path and query stay as they were for
 * every reader, and the path starts where Elysia looks. Other URLs are left alone.
 */
export function routableRequest(request: Request): Request {
  const url = request.url;
  const pathStart = url.indexOf("/", url.indexOf("//") + 2);
  if (pathStart === -1 || pathStart >= 11) return request;
  // At least one character: an empty user name is dropped by the URL parser.
  return new Request(url.replace("//", `//${"_".repeat(Math.max(1, 10 - pathStart))}@`), request);
}

/**
 * How long a connection may send nothing before it is closed (Bun's default, named). Also once its
 * answer is made: a kept-alive connection left open keeps the runtime's HTTP server waking the
 * process about once a second, so an idle appliance must not hold one for long.
 */
export const IDLE_SECONDS = 10;

/**
 * How long a request may wait on its answer: the idle timeout also runs while a handler waits on a
 * DNS service, so a forced update or a credential check against a slow service (each call bounded
 * by DDNS_HTTP_TIMEOUT, several in a row) lost its connection. A request being handled gets Bun's
 * longest idle timeout, and its connection gets IDLE_SECONDS back with the answer.
 */
export const REQUEST_IDLE_SECONDS = 255;

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
    idleTimeout: IDLE_SECONDS,
    async fetch(received, server) {
      const started = performance.now();
      const request = routableRequest(received);
      const path = requestPath(request);
      ctx.signIns.rememberPeer(request, server.requestIP(received)?.address ?? null);
      server.timeout(received, REQUEST_IDLE_SECONDS);
      let response: Response;
      try {
        response = screenRequest(request) ?? (await app.handle(request));
      } catch (error) {
        response = internalError(ctx.log, request, error);
      }
      server.timeout(received, IDLE_SECONDS);
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
