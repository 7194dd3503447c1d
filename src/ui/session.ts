// Who may use the admin pages: the session cookie (the API's own JWT, HttpOnly and
// SameSite=Strict), the way back to the sign-in page when it is missing or expired, the
// same-origin check on every state-changing request, and the one-time flash notice.

import type { Cookie } from "elysia";
import type { Flash, Tone } from "../../views/components";
import { LANGUAGE_COOKIE, pageFacts } from "../../views/page-facts";
import { HttpError, jsonResponse } from "../http/errors";
import { type ProxyAuthDeps, proxiedUser } from "../http/proxy-auth";
import {
  AUTH_MESSAGES,
  authenticateToken,
  revokeToken,
  type TokenCheck,
  type TokenDeps,
  verifyToken,
} from "../http/tokens";
import type { SignInThrottle } from "../security/throttle";
import { pageLocaleOf } from "../util/locale";

const SESSION_COOKIE = "ddnsd_session";
const FLASH_COOKIE = "ddnsd_flash";

const CROSS_SITE = "Cross-site request refused";

export type Cookies = Record<string, Cookie<unknown>>;

/** What the cookies' attributes depend on: HTTPS served here or seen by a trusted proxy, the token lifetime. */
export interface CookieDeps {
  settings: { readonly tlsCert: string | null; readonly tokenTtlSeconds: number };
  signIns: Pick<SignInThrottle, "viaTrustedProxy">;
}

/** What a session uses: the cookies, and checking and signing out its token. */
export type SessionDeps = CookieDeps & SessionCheck & Pick<TokenDeps, "store">;

/**
 * Attributes shared by both cookies: never readable by scripts, never sent cross-site. Secure when
 * ddnsd serves HTTPS itself, or when a trusted proxy (DDNS_TRUSTED_PROXIES) says the visitor's
 * connection is HTTPS; on plain HTTP a Secure cookie would vanish.
 */
function cookieAttributes(ctx: CookieDeps, maxAge: number, request?: Request) {
  return {
    httpOnly: true,
    sameSite: "strict" as const,
    secure: ctx.settings.tlsCert !== null || (request !== undefined && proxiedHttps(ctx, request)),
    // Under DDNS_BASE_PATH the cookies belong to that path alone (another app may share the host).
    path: `${pageFacts().basePath}/`,
    maxAge,
  };
}

/** A trusted proxy (DDNS_TRUSTED_PROXIES) says the visitor's connection is HTTPS. */
export function proxiedHttps(ctx: Pick<CookieDeps, "signIns">, request: Request): boolean {
  return (
    ctx.signIns.viaTrustedProxy(request) &&
    request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https"
  );
}

/**
 * How much longer the session cookie lives than its token: the token's own expiry decides, and a
 * browser that still sends the expired token lets the pages say "your session has expired" rather
 * than showing a bare sign-in page (an expired token opens nothing).
 */
const COOKIE_OUTLIVES_TOKEN_SECONDS = 7 * 24 * 3600;

export function startSession(ctx: CookieDeps, cookies: Cookies, request: Request, token: string): void {
  cookies[SESSION_COOKIE]!.set({
    value: token,
    ...cookieAttributes(ctx, ctx.settings.tokenTtlSeconds + COOKIE_OUTLIVES_TOKEN_SECONDS, request),
  });
}

/** Clears the cookie, and signs its token out when it is still valid (copied elsewhere, it stays dead). */
export async function endSession(ctx: SessionDeps, cookies: Cookies, request: Request): Promise<void> {
  const token = cookies[SESSION_COOKIE]?.value;
  if (typeof token === "string" && token !== "") {
    const verified = await verifyToken(ctx, token).catch(() => null);
    if (verified !== null) revokeToken(ctx, verified);
  }
  cookies[SESSION_COOKIE]!.set({ value: "", ...cookieAttributes(ctx, 0, request) });
}

export function isHtmx(request: Request): boolean {
  return request.headers.get("hx-request") === "true";
}

/** Whether htmx sent it for a boosted link or form: a page change, answered with the whole page. */
export function isBoosted(request: Request): boolean {
  return request.headers.get("hx-boosted") === "true";
}

/**
 * The answer to a request without a valid session: a 303 to the sign-in page (which brings the
 * visitor back afterwards), or for an htmx request an `HX-Redirect` so the whole page goes there
 * rather than a fragment being swapped for the sign-in form. Both carry the usual `{detail}` body.
 */
function signInRequired(request: Request, expired: boolean): HttpError {
  const htmx = isHtmx(request);
  // An htmx request's own URL is a fragment, and a form post's is its action: come back to the page
  // it was made from (the form, which client.js refills with what was typed).
  const from = htmx
    ? request.headers.get("hx-current-url")
    : request.method === "GET"
      ? request.url
      : request.headers.get("referer");
  const params = new URLSearchParams();
  if (expired) params.set("expired", "1");
  // A plain form sent without a session (no JavaScript to keep what was typed): the sign-in page says it was not saved.
  if (expired && !htmx && request.method !== "GET") params.set("unsent", "1");
  const next = from === null ? "/" : localPath(from);
  if (next !== "/") params.set("next", next);
  const location = `/login${params.size > 0 ? `?${params}` : ""}`;
  const detail = expired ? AUTH_MESSAGES.expired : AUTH_MESSAGES.missing;
  return htmx
    ? new HttpError(401, detail, undefined, { "HX-Redirect": location })
    : new HttpError(303, detail, undefined, { Location: location });
}

/** What telling the signed-in user uses: the session's token, or the sign-in proxy's header; and the user's language. */
export type SessionCheck = TokenCheck & ProxyAuthDeps & Pick<TokenDeps, "store">;

/** The signed-in user's pages speak the language they chose (kept on their row), when they chose one. */
function speakUsersLanguage(ctx: Pick<TokenDeps, "store">, username: string): string {
  const chosen = pageLocaleOf(ctx.store.users.language(username));
  if (chosen !== null) pageFacts().locale = chosen;
  return username;
}

/**
 * The signed-in username — the sign-in proxy's user when a trusted proxy names one, else the
 * session cookie's — or the HttpError that sends the visitor to sign in.
 */
export async function requireSession(ctx: SessionCheck, request: Request, cookies: Cookies): Promise<string> {
  const proxied = proxiedUser(ctx, request);
  if (proxied !== null) {
    pageFacts().signedInByProxy = true;
    return speakUsersLanguage(ctx, proxied);
  }
  const token = cookies[SESSION_COOKIE]?.value;
  if (typeof token !== "string" || token === "") throw signInRequired(request, false);
  try {
    return speakUsersLanguage(ctx, await authenticateToken(ctx, token));
  } catch (error) {
    const expired = error instanceof HttpError && error.detail === AUTH_MESSAGES.expired;
    throw signInRequired(request, expired);
  }
}

/**
 * The path and query of a URL, as somewhere of ours to return to: only path and query are ever
 * kept (so `https://elsewhere/x` becomes `/x`), never `//host…`, never the sign-in page itself.
 */
export function localPath(target: unknown): string {
  if (typeof target !== "string") return "/";
  let url: URL;
  try {
    url = new URL(target, "http://ddnsd.invalid");
  } catch {
    return "/";
  }
  const path = `${url.pathname}${url.search}`;
  return path.startsWith("//") || path.startsWith("/login") ? "/" : path;
}

/**
 * Refuses a state-changing request made from another site: its `Origin` (or, when a browser
 * leaves that out, its `Referer`) must name this very host. The SameSite=Strict cookie already
 * keeps the session out of such requests; this also covers the sign-in form and old browsers.
 */
export function assertSameOrigin(request: Request): void {
  const source = request.headers.get("origin") ?? request.headers.get("referer");
  let sameHost = false;
  try {
    sameHost = source !== null && source !== "null" && new URL(source).host === new URL(request.url).host;
  } catch {
    sameHost = false;
  }
  if (!sameHost) throw new HttpError(403, CROSS_SITE);
}

/** A 303 to a page of ours, with the `{detail}` body every non-2xx answer has. */
export function seeOther(location: string): Response {
  return jsonResponse(303, { detail: `See ${location}` }, { Location: location });
}

const FLASH_TONES: readonly Tone[] = ["ok", "fail", "idle", "info", "warn"];

/** Leaves a notice for the next page shown (after a redirect). */
export function setFlash(ctx: CookieDeps, cookies: Cookies, text: string, tone: Tone = "ok"): void {
  cookies[FLASH_COOKIE]!.set({ value: `${tone}:${text}`, ...cookieAttributes(ctx, 60) });
}

/** A year: how long a browser keeps the language chosen in it. */
const LANGUAGE_COOKIE_SECONDS = 365 * 86_400;

/** Keeps the language chosen in this browser, for the pages shown before anyone signs in. */
export function setLanguageCookie(ctx: CookieDeps, cookies: Cookies, request: Request, locale: string): void {
  cookies[LANGUAGE_COOKIE]!.set({ value: locale, ...cookieAttributes(ctx, LANGUAGE_COOKIE_SECONDS, request) });
}

/** The language chosen in this browser (the cookie), or null. */
export function cookieLanguage(cookies: Cookies): string | null {
  const value = cookies[LANGUAGE_COOKIE]?.value;
  return typeof value === "string" && value !== "" ? value : null;
}

/** The pending notice, if any, removed so it shows once. */
export function takeFlash(ctx: CookieDeps, cookies: Cookies): Flash | null {
  const value = cookies[FLASH_COOKIE]?.value;
  if (typeof value !== "string" || value === "") return null;
  cookies[FLASH_COOKIE]!.set({ value: "", ...cookieAttributes(ctx, 0) });
  const colon = value.indexOf(":");
  const tone = FLASH_TONES.find((t) => t === value.slice(0, colon));
  return tone === undefined ? { tone: "ok", text: value } : { tone, text: value.slice(colon + 1) };
}
