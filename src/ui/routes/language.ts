// Choosing the pages' language: the buttons on every page (views/layout.tsx, LanguageSwitch) post
// here. The choice is kept in a cookie (the pages before signing in speak it) and, for a signed-in
// user, on their row, so it follows them to another browser; then back to the page it was made on.

import { Elysia } from "elysia";
import { Invalid } from "../../errors";
import { localeOf } from "../../util/locale";
import { field } from "../forms";
import { backTo, currentUser } from "../pages";
import { type CookieDeps, type SessionCheck, seeOther, setLanguageCookie } from "../session";

/** The sign-in page (with its query) when the choice was made there, which `backTo` never returns to. */
function signInPageSentFrom(request: Request): string | null {
  try {
    const from = new URL(request.headers.get("referer") ?? "");
    return from.host === new URL(request.url).host && from.pathname === "/login"
      ? `${from.pathname}${from.search}`
      : null;
  } catch {
    return null;
  }
}

export function languageRoutes(ctx: SessionCheck & CookieDeps) {
  return new Elysia().post("/language", async ({ body, cookie, request }) => {
    const locale = localeOf(field(body, "language"));
    if (locale === null) throw new Invalid("language", "must be one of en, de, zh-CN");
    setLanguageCookie(ctx, cookie, request, locale);
    const user = await currentUser(ctx, request, cookie);
    if (user !== null) ctx.store.users.setLanguage(user, locale);
    return seeOther(signInPageSentFrom(request) ?? backTo(request, "/"));
  });
}
