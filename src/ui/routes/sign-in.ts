// Signing in and out. No session is needed here: signing out of an expired session still clears
// the cookie.

import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { accessClaims, AUTH_MESSAGES, checkLogin, tokenSigner } from "../../http/auth";
import { LoginPage } from "../../../views/pages/login";
import { field } from "../forms";
import { endSession, localPath, SESSION_EXPIRED, seeOther, startSession } from "../session";

export function signInRoutes(ctx: AppContext) {
  return new Elysia()
    .use(tokenSigner(ctx))
    .get("/login", ({ query }) =>
      LoginPage({
        username: "",
        next: localPath(query.next),
        notice: query.expired ? SESSION_EXPIRED : query.signed_out ? "You have signed out." : query.password_changed ? "Your password was changed. Sign in with the new one." : null,
      }),
    )
    .post("/login", async ({ body, cookie, jwt }) => {
      const username = field(body, "username").trim();
      const next = localPath(field(body, "next"));
      if (!(await checkLogin(ctx, username, field(body, "password")))) {
        return LoginPage({ username, next, error: AUTH_MESSAGES.wrongLogin });
      }
      startSession(ctx, cookie, await jwt.sign(accessClaims(ctx, username)));
      ctx.log.info("login", { user: username, via: "pages" });
      return seeOther(next);
    })
    .post("/logout", ({ cookie }) => {
      endSession(ctx, cookie);
      return seeOther("/login?signed_out=1");
    });
}
