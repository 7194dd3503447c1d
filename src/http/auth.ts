// The login and logout routes (JSON or OAuth2 form). Tokens and their revocation live in
// ./tokens.ts, users, passwords and the sign-in throttle in ../security/.

import { Elysia, t } from "elysia";
import { errorResponses, Int } from "../modules/shared";
import { attemptSignIn, type SignInDeps } from "../security/users";
import { forbidden, throttled, unauthorized } from "./errors";
import { bearerGuard, type GuardDeps } from "./guard";
import { AUTH_MESSAGES, revokeToken, signAccessToken, type TokenDeps } from "./tokens";

/** What signing in and out uses (the app's context has all of it). */
export type AuthDeps = TokenDeps & SignInDeps & GuardDeps;

// Own error texts, so a 422 never repeats what was sent (it may be a password).
const LoginBody = t.Object({
  username: t.String({ minLength: 1, description: "Account name", error: "must be a non-empty string" }),
  password: t.String({ minLength: 1, description: "Account password", error: "must be a non-empty string" }),
});

const TokenResponse = t.Object({
  access_token: t.String(),
  token_type: t.Literal("bearer"),
  expires_in: Int({ description: "Seconds until the token expires" }),
});

export function loginRoutes(ctx: AuthDeps) {
  return new Elysia({ tags: ["auth"] }).post(
    "/auth/login",
    async ({ body, request }) => {
      const signIn = await attemptSignIn(ctx, request, body.username, body.password);
      if (!signIn.ok) {
        throw signIn.retryAfterSeconds === null
          ? unauthorized(AUTH_MESSAGES.wrongLogin)
          : throttled(signIn.retryAfterSeconds);
      }
      ctx.log.info("login", { user: body.username });
      return {
        access_token: await signAccessToken(ctx, body.username),
        token_type: "bearer" as const,
        expires_in: ctx.settings.tokenTtlSeconds,
      };
    },
    {
      body: LoginBody,
      response: { 200: TokenResponse, ...errorResponses(401, 422, 429) },
      detail: {
        operationId: "login",
        summary: "Log in",
        description:
          "Exchanges a username and password (JSON, or an OAuth2 password-flow form) for a bearer token. " +
          "After 5 failed sign-ins in a row for one username from one address, that username is refused there " +
          "with 429 and `Retry-After` for 1 s, doubling with each further failure up to 15 minutes; a success " +
          "clears that username's count only. 20 failures from one address (an IPv6 /64) within 15 minutes, " +
          "whatever the usernames, refuse the address for every username until the oldest is 15 minutes old.",
        security: [],
      },
    },
  );
}

/** `POST /auth/logout`: registered after the bearer guard, so it knows the token it signs out. */
export function logoutRoutes(ctx: AuthDeps) {
  return new Elysia({ tags: ["auth"] }).use(bearerGuard(ctx)).post(
    "/auth/logout",
    ({ caller }) => {
      // An API token is revoked by deleting it, a proxy's sign-in at the proxy: neither is a session here.
      if (caller.kind !== "session")
        throw forbidden(
          caller.kind === "api-token"
            ? "An API token is revoked with DELETE /api/v1/api-tokens/{id}, by an admin"
            : "You are signed in by the reverse proxy; sign out there",
        );
      revokeToken(ctx, caller.token);
      ctx.log.info("logout", { user: caller.username });
      return { message: "Signed out" };
    },
    {
      response: { 200: t.Object({ message: t.String() }), ...errorResponses(401, 403) },
      detail: {
        operationId: "logout",
        summary: "Sign out",
        description: "The token used for this request is refused from now on.",
      },
    },
  );
}
