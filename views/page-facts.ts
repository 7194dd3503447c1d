// What a page shows that depends on how the request reached ddnsd rather than on its data: the
// sub-path it is served under (DDNS_BASE_PATH) and whether a sign-in proxy signed the visitor in
// (then there is no password to sign out of), and the language it is shown in. Held per request in an AsyncLocalStorage that the app
// opens around each request (src/http/base-path.ts), so no page has to pass them down.

import { AsyncLocalStorage } from "node:async_hooks";
import { fromAcceptLanguage, type PageLocale, pageLocaleOf } from "../src/util/locale";

export interface PageFacts {
  /** `/ddns`, or "" at the root. */
  readonly basePath: string;
  /** DDNS_AUTH_PROXY_LOGOUT_URL, or null. */
  readonly proxyLogoutUrl: string | null;
  /** Set once the session check finds the sign-in proxy's user. */
  signedInByProxy: boolean;
  /** The language the page speaks: the signed-in user's choice, else the cookie's, else the browser's. */
  locale: PageLocale;
}

/** The cookie that keeps the language chosen in this browser (for the pages shown signed out). */
export const LANGUAGE_COOKIE = "ddnsd_lang";

/** The language a request asks for before anyone is signed in: the language cookie, else `Accept-Language`. */
export function requestLocale(request: Request): PageLocale {
  const cookies = request.headers.get("cookie") ?? "";
  const chosen = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`).exec(cookies)?.[1];
  return pageLocaleOf(chosen) ?? fromAcceptLanguage(request.headers.get("accept-language"));
}

const facts = new AsyncLocalStorage<PageFacts>();

/** Runs `work` (one request's handling) with these facts. */
export function withPageFacts<T>(given: Omit<PageFacts, "signedInByProxy">, work: () => T): T {
  return facts.run({ ...given, signedInByProxy: false }, work);
}

/** This request's facts; outside a request (a unit test rendering a view), ddnsd at the root. */
export function pageFacts(): PageFacts {
  return facts.getStore() ?? { basePath: "", proxyLogoutUrl: null, signedInByProxy: false, locale: "en" };
}

/** A path of ours (`/domains`) as the browser must ask for it (`/ddns/domains`). */
export function href(path: string): string {
  return `${pageFacts().basePath}${path}`;
}

/** The attributes whose value is a URL a page makes the browser ask for. */
const URL_ATTRIBUTE =
  /(\s(?:href|src|action|formaction|hx-get|hx-post|hx-put|hx-patch|hx-delete|hx-push-url)=")\/(?!\/)/g;

/**
 * A rendered page with every path of ours in a URL attribute (`href="/domains"`, `action=`, `src=`,
 * `hx-get=` …) under the base path: the one place the pages' absolute paths are prefixed, so no view
 * has to remember to. At the root, the page as it is.
 */
export function underBasePath(html: string): string {
  const { basePath } = pageFacts();
  return basePath === "" ? html : html.replace(URL_ATTRIBUTE, `$1${basePath}/`);
}
