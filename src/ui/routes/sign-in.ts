// Signing in and out. No session is needed here: signing out of an expired session still clears
// the cookie.

import { Elysia } from "elysia";
import { msg } from "../../../views/i18n";
import { LoginPage } from "../../../views/pages/login";
import type { AuthDeps } from "../../http/auth";
import { proxiedUser } from "../../http/proxy-auth";
import { signAccessToken } from "../../http/tokens";
import { attemptSignIn } from "../../security/users";
import { localeOf } from "../../util/locale";
import { field } from "../forms";
import { type CookieDeps, cookieLanguage, endSession, localPath, seeOther, startSession } from "../session";

export function signInRoutes(ctx: AuthDeps & CookieDeps) {
  return new Elysia()
    .get("/login", ({ query, request }) =>
      // The sign-in proxy has signed the visitor in already: there is no password to give here.
      proxiedUser(ctx, request) !== null
        ? seeOther("/")
        : LoginPage({
            username: "",
            next: localPath(query.next),
            notice: query.expired
              ? query.unsent
                ? msg().login.expiredUnsent
                : msg().login.expired
              : query.signed_out
                ? msg().login.signedOut
                : query.password_changed
                  ? msg().login.passwordChanged
                  : null,
          }),
    )
    .post("/login", async ({ body, cookie, request, set }) => {
      const username = field(body, "username").trim();
      const next = localPath(field(body, "next"));
      const signIn = await attemptSignIn(ctx, request, username, field(body, "password"));
      if (!signIn.ok) {
        if (signIn.retryAfterSeconds === null) return LoginPage({ username, next, error: msg().login.wrongLogin });
        set.status = 429;
        set.headers["retry-after"] = String(signIn.retryAfterSeconds);
        return LoginPage({ username, next, error: msg().login.throttled(signIn.retryAfterSeconds) });
      }
      startSession(ctx, cookie, request, await signAccessToken(ctx, username));
      // A language chosen on the sign-in page is the one this user's pages speak from now on.
      const chosen = localeOf(cookieLanguage(cookie));
      if (chosen !== null) ctx.store.users.setLanguage(username, chosen);
      ctx.log.info("login", { user: username, via: "pages" });
      return seeOther(next);
    })
    .post("/logout", async ({ cookie, request }) => {
      await endSession(ctx, cookie, request);
      return seeOther("/login?signed_out=1");
    });
}
