// The signed-in user's own password: the current one is checked first (through the sign-in
// throttle), the new one is set the way
// `ddnsd admin set-password` does it (the same function, which also revokes every token issued to
// the user before), and the session ends so the next sign-in uses the new password.

import { Elysia } from "elysia";
import type { FormErrors } from "../../../views/components";
import { msg } from "../../../views/i18n";
import { PasswordPage } from "../../../views/pages/password";
import { attemptSignIn, type SignInDeps, setPassword } from "../../security/users";
import { field } from "../forms";
import { signedIn } from "../pages";
import { endSession, type SessionDeps, seeOther } from "../session";

/** The same floor as `ddnsd admin set-password`. */
const MIN_PASSWORD_LENGTH = 8;

export function accountRoutes(ctx: SessionDeps & SignInDeps) {
  return new Elysia()
    .use(signedIn(ctx))
    .get("/account/password", ({ user }) => PasswordPage({ user, errors: { fields: {} } }))
    .post("/account/password", async ({ user, body, cookie, request, set }) => {
      const current = field(body, "current_password");
      const next = field(body, "new_password");
      const errors: FormErrors = { fields: {} };
      // Checked as a sign-in is, throttle included: a stolen session must not guess the password freely.
      const checked = await attemptSignIn(ctx, request, user, current);
      if (!checked.ok && checked.retryAfterSeconds !== null) {
        set.status = 429;
        set.headers["retry-after"] = String(checked.retryAfterSeconds);
        errors.fields.current_password = msg().login.throttled(checked.retryAfterSeconds);
      } else if (!checked.ok) errors.fields.current_password = msg().password.wrong;
      if (next.length < MIN_PASSWORD_LENGTH) errors.fields.new_password = msg().password.tooShort(MIN_PASSWORD_LENGTH);
      else if (next !== field(body, "confirm_password")) errors.fields.confirm_password = msg().password.mismatch;
      if (Object.keys(errors.fields).length > 0) return PasswordPage({ user, errors });
      await setPassword(ctx, user, next);
      ctx.log.info("password changed", { user, via: "pages" });
      await endSession(ctx, cookie, request);
      return seeOther("/login?password_changed=1");
    });
}
