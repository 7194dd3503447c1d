// Each request's way in: the page facts opened around it (views/page-facts.ts), and with
// DDNS_BASE_PATH (`/ddns`) the sub-path a reverse proxy passes on unchanged. Every path lives under
// it — pages, assets, /docs, /help, /api/v1, /metrics, /nic/update, /healthz — and the app routes it
// with the prefix cut off, so no route knows of it; a path outside it is 404. What goes back out
// is put under it again: redirects here, links in pages (views/page-facts.ts), cookies (ui/session.ts).

import { requestLocale, withPageFacts } from "../../views/page-facts";
import type { SignInThrottle } from "../security/throttle";
import { jsonResponse } from "./errors";

export interface BasePathDeps {
  settings: { readonly basePath: string; readonly authProxyLogoutUrl: string | null };
  signIns: Pick<SignInThrottle, "samePeer">;
}

/** The headers that carry a path of ours back to the browser (a redirect, htmx's own redirects). */
const PATH_HEADERS = ["location", "hx-redirect", "hx-location", "hx-push-url"];
/** The headers that carry the page a request was sent from (where a form goes back to). */
const PAGE_HEADERS = ["referer", "hx-current-url"];

function inside(path: string, basePath: string): boolean {
  return path === basePath || path.startsWith(`${basePath}/`);
}

/** `handle` (the app's) under the base path, each request with its page facts. */
export function servedUnder(ctx: BasePathDeps, handle: (request: Request) => Promise<Response>) {
  const { basePath, authProxyLogoutUrl } = ctx.settings;
  return (request: Request): Promise<Response> =>
    withPageFacts({ basePath, proxyLogoutUrl: authProxyLogoutUrl, locale: requestLocale(request) }, async () => {
      if (basePath === "") return handle(request);
      const url = new URL(request.url);
      if (!inside(url.pathname, basePath)) return jsonResponse(404, { detail: "Not Found" });
      url.pathname = url.pathname.slice(basePath.length) || "/";
      const inner = new Request(url, request);
      for (const name of PAGE_HEADERS) {
        const value = request.headers.get(name);
        if (value === null) continue;
        try {
          const from = new URL(value);
          if (from.host === url.host && inside(from.pathname, basePath)) {
            from.pathname = from.pathname.slice(basePath.length) || "/";
            inner.headers.set(name, from.href);
          }
        } catch {
          // not a URL: left for the route to refuse
        }
      }
      ctx.signIns.samePeer(request, inner);
      const response = await handle(inner);
      for (const name of PATH_HEADERS) {
        const value = response.headers.get(name);
        if (value?.startsWith("/") && !value.startsWith("//")) response.headers.set(name, `${basePath}${value}`);
      }
      return response;
    });
}
