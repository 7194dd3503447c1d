// What every admin page route shares, so the pages added later follow the same rules by using it:
// the signed-in user, the one way to answer an action (a fragment for htmx, a redirect back with
// a notice for a plain form), the HTML error page in place of a JSON error, and compression.
//
// A new page (a DNS service's, update keys, notifications) follows them by construction:
// - a module `routes/<page>.ts` that `.use(signedIn(ctx))`, registered in index.ts;
// - every action a real `<form method="post">` (views/components.tsx: ActionForm, EnabledSwitch),
//   answered with `answerAction` (htmx: the fragment; no JavaScript: back with a notice);
// - a delete: `hx-confirm` on the form, and a GET confirmation page (ConfirmDeletePage) that a
//   POST without `confirm=yes` and without htmx is sent to;
// - a form posting to its own page's URL, re-rendered with errors (200) or redirecting with a
//   notice (`setFlash` + `seeOther`);
// - errors thrown as the services' errors: index.ts shows them as the one error page.

import { Elysia } from "elysia";
import type { Tone, UpdateConditions } from "../../views/components";
import { underBasePath } from "../../views/page-facts";
import { ErrorPage } from "../../views/pages/error";
import { compressedResponse } from "../http/compression";
import type { DetectionFailure } from "../ip/detect";
import type { SourceAnswer } from "../ip/public-ip";
import type { DomainView } from "../modules/domains/service";
import { plainIds } from "../modules/shared";
import type { Store } from "../store";
import type { HistoryFailureCause } from "../store/rows";
import {
  type CookieDeps,
  type Cookies,
  isBoosted,
  isHtmx,
  localPath,
  requireSession,
  type SessionCheck,
  seeOther,
  setFlash,
} from "./session";

/** What every page's session and notices use (a page adds what its data needs). */
export type PageDeps = SessionCheck & CookieDeps;

const HTML_TYPE = "text/html; charset=utf-8";

/**
 * Pages hold addresses and are never cached; no other site may frame them; scripts and styles
 * come only from /assets (htmx is told not to inject its own style, see views/layout.tsx).
 */
export const PAGE_HEADERS = {
  "cache-control": "no-store",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

/** The signed-in username as `user` for a module's routes; without a session, off to sign in. */
export function signedIn(ctx: SessionCheck) {
  return new Elysia().resolve({ as: "scoped" }, async ({ request, cookie }) => ({
    user: await requireSession(ctx, request, cookie),
  }));
}

/**
 * A transform hook: a page's `:id` is written in plain decimal digits, as the API's ids are
 * (`/domains/0x1/edit` is no address of domain 1). Other path parts (the catch-all's) are not ids.
 */
export function plainPageIds({ params }: { params?: Record<string, string | undefined> }): void {
  plainIds({ params: { id: params?.id } });
}

/** The signed-in user, or null: for pages that show either way (an error page, help). */
export async function currentUser(ctx: SessionCheck, request: Request, cookies: Cookies): Promise<string | null> {
  try {
    return await requireSession(ctx, request, cookies);
  } catch {
    return null;
  }
}

/** Where a plain form post goes back to: the page it was sent from, else `fallback`. */
export function backTo(request: Request, fallback: string): string {
  const referer = request.headers.get("referer");
  if (referer === null) return fallback;
  try {
    if (new URL(referer).host !== new URL(request.url).host) return fallback;
  } catch {
    return fallback;
  }
  const path = localPath(referer);
  return path === "/" && new URL(referer).pathname !== "/" ? fallback : path;
}

export interface ActionAnswer {
  /** What htmx swaps in place (a row, a result). */
  fragment: () => JSX.Element;
  /** The outcome in a sentence, shown as the notice on the page a plain form goes back to. */
  notice: string;
  tone: Tone;
  /** Where a plain form goes back to when the browser sent no same-site Referer. */
  fallback: string;
}

/**
 * The one answer to an action button (Update now, Verify, a switch): htmx gets the fragment; a
 * plain form post (no JavaScript) gets a 303 back to where it came from, with the notice.
 */
export function answerAction(
  ctx: CookieDeps,
  request: Request,
  cookies: Cookies,
  answer: ActionAnswer,
): JSX.Element | Response {
  if (isHtmx(request)) return answer.fragment();
  setFlash(ctx, cookies, answer.notice, answer.tone);
  return seeOther(backTo(request, answer.fallback));
}

/**
 * A page request a person sees (a browser navigation, a plain form post, or htmx's boosted
 * version of either; not an in-place htmx request, not the API): its errors are shown as a page,
 * never as JSON.
 */
function wantsPage(request: Request): boolean {
  const path = new URL(request.url).pathname;
  if (/^\/(api|docs|healthz|metrics|nic)(\/|$)/.test(path)) return false;
  if (isBoosted(request)) return true;
  return !isHtmx(request) && (request.headers.get("accept") ?? "").includes("text/html");
}

/**
 * Turns an error answer (already `{detail}` from the one error mapping) into the error page, for
 * a request a person sees. Redirects and htmx answers pass through unchanged.
 */
export async function errorPage(
  ctx: SessionCheck,
  request: Request,
  cookies: Cookies,
  response: Response,
): Promise<Response | undefined> {
  if (response.status < 400 || !wantsPage(request) || !(response.headers.get("content-type") ?? "").includes("json"))
    return undefined;
  let detail = "";
  try {
    detail = String(((await response.clone().json()) as { detail?: unknown }).detail ?? "");
  } catch {
    detail = "";
  }
  const user = await currentUser(ctx, request, cookies);
  const html = underBasePath(
    String(ErrorPage({ user, status: response.status, detail, path: new URL(request.url).pathname })),
  );
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("content-type", HTML_TYPE);
  for (const [name, value] of Object.entries(PAGE_HEADERS)) headers.set(name, value);
  return compressedResponse(request, html, { status: response.status, headers });
}

/** A page as a response, compressed when the browser accepts it. */
export function htmlResponse(request: Request, html: string, headers: Record<string, string | number>): Response {
  const all = new Headers();
  for (const [name, value] of Object.entries(headers)) all.set(name, String(value));
  all.set("content-type", HTML_TYPE);
  return compressedResponse(request, underBasePath(html), { headers: all });
}

/** What a domain's state on a page reads: the history's causes, the latest detections' failures. */
export interface ConditionSources {
  store: Pick<Store, "history">;
  publicIp: {
    readonly failures: { readonly ipv4: DetectionFailure | null; readonly ipv6: DetectionFailure | null };
    /** Each source's newest answer, by `<family> <source>`: a domain with a source of its own depends on that one. */
    readonly answers: ReadonlyMap<string, SourceAnswer>;
  };
}

/** The failure of the source a domain's address comes from now: its own source's, or its family's system source's. */
function sourceFailure(
  ctx: ConditionSources,
  domain: Pick<DomainView, "record_type"> & Partial<Pick<DomainView, "address_source">>,
): DetectionFailure | null {
  const source = domain.address_source ?? null;
  if (source === null) return ctx.publicIp.failures[domain.record_type === "AAAA" ? "ipv6" : "ipv4"];
  // A list fails only when every source does; one failing source is shown beside its address (AddressList).
  const failures = (typeof source === "string" ? [source] : source).map((one) => oneSourceFailure(ctx, domain, one));
  if (failures.some((failure) => failure === null)) return null;
  return failures.length === 1
    ? failures[0]!
    : {
        since: Math.max(...failures.map((failure) => failure!.since)),
        error: failures.map((failure, i) => `${(source as string[])[i]}: ${failure!.error}`).join("; "),
      };
}

/** The failure of one source a domain's address comes from. */
function oneSourceFailure(
  ctx: ConditionSources,
  domain: Pick<DomainView, "record_type">,
  source: string,
): DetectionFailure | null {
  // A pushed or fixed address is never detected.
  if (source === "push" || source.startsWith("fixed:")) return null;
  const answer = ctx.publicIp.answers.get(`${domain.record_type === "AAAA" ? 6 : 4} ${source}`);
  return answer?.error == null ? null : { since: answer.since, error: answer.error };
}

/**
 * What each domain's updates depend on, for the pages that show its state: its provider enabled
 * (among `providers`), the public address of its record's family detectable (the latest
 * detection's outcome), and its newest attempt (its history row: the cause of a failure, in the
 * service's words, with how often it repeated).
 */
export function updateConditions(
  ctx: ConditionSources,
  providers: readonly { id: number; is_enabled: boolean; type: string }[],
): (
  domain: Pick<DomainView, "id" | "provider_id" | "record_type"> & Partial<Pick<DomainView, "address_source">>,
) => UpdateConditions {
  const byId = new Map(providers.map((provider) => [provider.id, provider]));
  const newest = ctx.store.history.newest();
  return (domain) => {
    const latest = newest.get(domain.id);
    return {
      providerEnabled: byId.get(domain.provider_id)?.is_enabled ?? true,
      providerType: byId.get(domain.provider_id)?.type,
      detectionFailure: sourceFailure(ctx, domain),
      lastFailureCause: latest?.failureCause ?? null,
      latest:
        latest === undefined
          ? null
          : {
              ok: latest.status === "SUCCESS",
              cause: latest.failureCause,
              message: latest.message,
              ip: latest.ipAddress,
              previousIp: latest.previousIp,
              trigger: latest.trigger,
              at: latest.timestamp,
              durationMs: latest.durationMs,
              count: latest.repeatCount,
              firstAt: latest.firstTimestamp,
            },
    };
  };
}

/** The causes of these history rows, by id (the API's history answer does not carry them). */
export function historyCauses(
  ctx: Pick<ConditionSources, "store">,
  ids: readonly number[],
): Map<number, HistoryFailureCause | null> {
  return ctx.store.history.causes(ids);
}
