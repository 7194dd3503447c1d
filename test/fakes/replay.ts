// A server on 127.0.0.1 that plays answers other projects recorded from the real services
// (test/recorded/, listed with their sources in test/recorded/index.json). Each service is served
// under its own path (`/<type>`, its `DDNS_<TYPE>_API_URL`); a test arranges, for the case in hand,
// which answer each request gets: a route matches the method and the path (with its query) below
// that prefix, and answers a recorded file, or a short answer of the test's own (`body`) where a
// request needs one that no project recorded. A request no route matches is logged as unmatched and
// answered 599, so a case cannot pass on an answer nobody arranged.

import { readFileSync } from "node:fs";
import { join } from "node:path";

export const RECORDED_DIR = join(import.meta.dir, "..", "recorded");

export interface ReplayRoute {
  method: string;
  /** Matched against the path and query below the service's prefix, e.g. `/zones?name=example.com`. */
  path: string | RegExp;
  status?: number;
  /** A recorded answer, relative to test/recorded/ (`easydns/list-zone.json`). */
  file?: string;
  /** An answer of the test's own, where no recorded one exists for this request. */
  body?: string;
  headers?: Record<string, string>;
  /** Answer this many matching requests (every one when absent), then let later routes match. */
  times?: number;
}

export interface ReplayRequest {
  method: string;
  /** Path and query below the prefix. */
  target: string;
  body: string;
  route?: ReplayRoute;
}

export interface ReplayServer {
  url: string;
  /** The routes of the case in hand, per service prefix. */
  arrange(service: string, routes: readonly ReplayRoute[]): void;
  requests: ReplayRequest[];
  unmatched(): ReplayRequest[];
  /** Every recorded file a route answered with, since the server started. */
  served: Set<string>;
  stop(): Promise<void>;
}

const TYPES: Record<string, string> = {
  json: "application/json",
  xml: "text/xml; charset=utf-8",
  txt: "text/plain; charset=utf-8",
};

export function recordedAnswer(file: string): string {
  return readFileSync(join(RECORDED_DIR, file), "utf8");
}

export function startReplayServer(): ReplayServer {
  let service = "";
  let routes: { route: ReplayRoute; left: number }[] = [];
  const requests: ReplayRequest[] = [];
  const served = new Set<string>();

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(raw) {
      const url = new URL(raw.url);
      const prefix = `/${service}`;
      const target = url.pathname.startsWith(prefix)
        ? url.pathname.slice(prefix.length) + url.search
        : url.pathname + url.search;
      const request: ReplayRequest = { method: raw.method, target, body: await raw.text() };
      requests.push(request);
      const found = routes.find(
        ({ route, left }) =>
          left > 0 &&
          route.method === raw.method &&
          (typeof route.path === "string" ? target === route.path : route.path.test(target)),
      );
      if (!found) return new Response("no recorded answer arranged for this request", { status: 599 });
      found.left--;
      request.route = found.route;
      const { file, body, status = 200, headers = {} } = found.route;
      if (file !== undefined) served.add(file);
      const text = file !== undefined ? recordedAnswer(file) : (body ?? "");
      const type = TYPES[(file ?? "").split(".").pop() ?? ""] ?? "application/json";
      return new Response(status === 204 ? null : text, { status, headers: { "Content-Type": type, ...headers } });
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    arrange(type, list) {
      service = type;
      routes = list.map((route) => ({ route, left: route.times ?? Number.POSITIVE_INFINITY }));
      requests.length = 0;
    },
    requests,
    unmatched: () => requests.filter((r) => r.route === undefined),
    served,
    stop: async () => {
      await server.stop(true);
    },
  };
}
