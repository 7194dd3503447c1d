// Signing in and out. No session is needed here: signing out of an expired session still clears
// the cookie.

import { Elysia } from "elysia";
import { LoginPage } from "../../../views/pages/login";
import type { AuthDeps } from "../../http/auth";
import { proxiedUser } from "../../http/proxy-auth";
import { AUTH_MESSAGES, signAccessToken } from "../../http/tokens";
import { throttledMessage } from "../../security/throttle";
import { attemptSignIn } from "../../security/users";
import { field } from "../forms";
import { type CookieDeps, endSession, localPath, SESSION_EXPIRED, seeOther, startSession } from "../session";

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
                ? `${SESSION_EXPIRED} The form you sent was not saved: after signing in, enter it again.`
                : SESSION_EXPIRED
              : query.signed_out
                ? "You have signed out."
                : query.password_changed
                  ? "Your password was changed. Sign in with the new one."
                  : null,
          }),
    )
    .post("/login", async ({ body, cookie, request, set }) => {
      const username = field(body, "username").trim();
      const next = localPath(field(body, "next"));
      const signIn = await attemptSignIn(ctx, request, username, field(body, "password"));
      if (!signIn.ok) {
        if (signIn.retryAfterSeconds === null) return LoginPage({ username, next, error: AUTH_MESSAGES.wrongLogin });
        set.status = 429;
        set.headers["retry-after"] = String(signIn.retryAfterSeconds);
        return LoginPage({ username, next, error: throttledMessage(signIn.retryAfterSeconds) });
      }
      startSession(ctx, cookie, request, await signAccessToken(ctx, username));
      ctx.log.info("login", { user: username, via: "pages" });
      return seeOther(next);
    })
    .post("/logout", async ({ cookie, request }) => {
      await endSession(ctx, cookie, request);
      return seeOther("/login?signed_out=1");
    });
}
