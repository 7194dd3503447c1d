// The admin pages: data in from the services, HTML out from the views, one module per page under
// routes/. Pages are full documents (htmx's boost swaps their body); a few routes answer htmx with
// a fragment for an in-place swap and a plain form with a redirect back and a notice (pages.ts).
// Forms re-render with the user's values and the services' errors on a mistake (200, since htmx
// swaps no 4xx). An error a person would see is an HTML page, never JSON; pages are compressed.
//
// Order matters in Elysia: a hook applies to the routes registered after it. So: the static
// assets, then the page headers, the same-origin check, the error pages and compression (for
// everything below), then the pages; each page module checks the session itself (signedIn).

import { Elysia, NotFoundError } from "elysia";
import { ASSETS } from "../../views/assets";
import type { AuthDeps } from "../http/auth";
import { staticFile } from "../http/compression";
import type { NotificationDeps } from "../modules/notifications/service";
import type { SignInDeps } from "../security/users";
import { errorPage, htmlResponse, PAGE_HEADERS, plainPageIds } from "./pages";
import { type AboutDeps, aboutRoutes } from "./routes/about";
import { accountRoutes } from "./routes/account";
import { type AcmeKeyPageDeps, acmeKeyPageRoutes } from "./routes/acme-keys";
import { type ApiTokenPageDeps, apiTokenPageRoutes } from "./routes/api-tokens";
import { type DashboardDeps, dashboardRoutes } from "./routes/dashboard";
import { type DomainPageDeps, domainPageRoutes } from "./routes/domains";
import { helpPageRoutes } from "./routes/help";
import { languageRoutes } from "./routes/language";
import { notificationPageRoutes } from "./routes/notifications";
import { type ProviderPageDeps, providerPageRoutes } from "./routes/providers";
import { signInRoutes } from "./routes/sign-in";
import { type UpdateKeyPageDeps, updateKeyPageRoutes } from "./routes/update-keys";
import { assertSameOrigin, type SessionDeps } from "./session";

function assetRoutes() {
  const assets = new Elysia();
  for (const asset of Object.values(ASSETS)) {
    // The URL pages use carries a content hash, so the file may be cached for good.
    const serve = staticFile(asset.path, {
      "content-type": asset.contentType,
      "cache-control": "public, max-age=31536000, immutable",
    });
    assets.get(asset.route, ({ request }) => serve(request));
  }
  // Browsers ask for it whatever the page says.
  const favicon = staticFile(ASSETS.favicon.path, {
    "content-type": ASSETS.favicon.contentType,
    "cache-control": "public, max-age=86400",
  });
  return assets.get("/favicon.ico", ({ request }) => favicon(request));
}

/** A rendered page: the views' JSX renders to a string of HTML. */
function looksLikeHtml(value: unknown): value is string {
  return typeof value === "string" && value.trimStart().startsWith("<");
}

/** What the pages use, each page's own together, and the app's id (several apps live side by side in tests). */
export type UiDeps = { id: string } & AuthDeps &
  SessionDeps &
  SignInDeps &
  NotificationDeps &
  DashboardDeps &
  ProviderPageDeps &
  DomainPageDeps &
  UpdateKeyPageDeps &
  AcmeKeyPageDeps &
  ApiTokenPageDeps &
  AboutDeps;

export function uiRoutes(ctx: UiDeps) {
  return (
    new Elysia({ name: "admin-pages", seed: ctx.id, detail: { hide: true } })
      .use(assetRoutes())
      .onBeforeHandle(({ request, set }) => {
        Object.assign(set.headers, PAGE_HEADERS);
        if (request.method !== "GET" && request.method !== "HEAD") assertSameOrigin(request);
      })
      .onTransform(plainPageIds)
      // A page (or fragment) goes out compressed, with the headers set above (cookies included).
      .onAfterHandle(({ request, response, set }) => {
        if (looksLikeHtml(response))
          return htmlResponse(request, response, set.headers as Record<string, string | number>);
      })
      // An error answer ({detail}, from the one error mapping) becomes the error page for a person.
      .mapResponse(async ({ request, responseValue, cookie }) => {
        if (responseValue instanceof Response) return errorPage(ctx, request, cookie, responseValue);
      })
      .use(signInRoutes(ctx))
      .use(languageRoutes(ctx))
      .use(dashboardRoutes(ctx))
      .use(providerPageRoutes(ctx))
      .use(domainPageRoutes(ctx))
      .use(updateKeyPageRoutes(ctx))
      .use(acmeKeyPageRoutes(ctx))
      .use(apiTokenPageRoutes(ctx))
      .use(notificationPageRoutes(ctx))
      .use(accountRoutes(ctx))
      .use(aboutRoutes(ctx))
      .use(helpPageRoutes(ctx))
      // Any other address: the 404 the error mapping gives, shown as a page to a browser.
      .get("/*", () => {
        throw new NotFoundError();
      })
  );
}
