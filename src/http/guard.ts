// Who a request is, for the API and /metrics: a sign-in token (a JWT from the login), an API token
// (`ddnsd_…`, held to its scope), or the user a trusted sign-in proxy names — with the API's exact
// 401 sentences for everything else.

import { timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import type { ApiTokenRow } from "../store/rows";
import { API_TOKEN_PREFIX, type ApiTokenCheckDeps, authenticateApiToken, scopeRefusal } from "./api-tokens";
import { forbidden, unauthorized } from "./errors";
import { type ProxyAuthDeps, proxiedUser } from "./proxy-auth";
import { AUTH_MESSAGES, type TokenCheck, type TokenDeps, type VerifiedToken, verifyToken } from "./tokens";

/** What telling who a request is uses (the app's context has all of it). */
export type GuardDeps = TokenCheck & Pick<TokenDeps, "id"> & ApiTokenCheckDeps & ProxyAuthDeps;

export type Caller =
  /** Signed in with a password: the token can be signed out. */
  | { kind: "session"; username: string; token: VerifiedToken }
  /** Named by the sign-in proxy: signing out is the proxy's. */
  | { kind: "proxy"; username: string }
  | { kind: "api-token"; apiToken: ApiTokenRow };

function bearerToken(authorization: string | null): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) throw unauthorized(AUTH_MESSAGES.missing);
  return match[1]!;
}

/** The caller a request's Authorization header, else a trusted proxy's header, makes it; else the 401. */
async function identify(ctx: GuardDeps, request: Request): Promise<Caller> {
  const authorization = request.headers.get("authorization");
  if (authorization === null) {
    const username = proxiedUser(ctx, request);
    if (username !== null) return { kind: "proxy", username };
  }
  const token = bearerToken(authorization);
  if (token.startsWith(API_TOKEN_PREFIX))
    return { kind: "api-token", apiToken: await authenticateApiToken(ctx, request, token) };
  const verified = await verifyToken(ctx, token);
  return { kind: "session", username: verified.username, token: verified };
}

/**
 * Derives `caller` for every route registered after it, or answers 401 (403 for an API token whose
 * scope does not reach the call) — before the request is validated (a resolve would run after), so a
 * request without valid credentials gets the 401 even when its path, query or body is invalid too.
 */
export function bearerGuard(ctx: GuardDeps) {
  return new Elysia({ name: "bearer-guard", seed: ctx.id }).derive({ as: "scoped" }, async ({ request, path }) => {
    const caller = await identify(ctx, request);
    if (caller.kind === "api-token") {
      const refusal = scopeRefusal(caller.apiToken, request.method, path.replace(/^\/api\/v1(?=\/|$)/, ""));
      if (refusal !== null) throw forbidden(refusal);
    }
    return { caller };
  });
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The check of `GET /metrics`: DDNS_METRICS_TOKEN when it is set (a scrape job's
 * `authorization: {credentials: ...}`, so the scraper needs no admin password), a sign-in token, a
 * `read` or `admin` API token, or the proxy's user; else the 401. The setting is read at each request.
 */
export function metricsAuthentication(ctx: GuardDeps & { settings: { readonly metricsToken: string | null } }) {
  return async (request: Request): Promise<void> => {
    const authorization = request.headers.get("authorization");
    const given = authorization === null ? null : bearerToken(authorization);
    if (given !== null && ctx.settings.metricsToken !== null && sameSecret(given, ctx.settings.metricsToken)) return;
    const caller = await identify(ctx, request);
    if (caller.kind === "api-token" && caller.apiToken.scope === "update")
      throw forbidden("An update token does not read /metrics; use a read token");
  };
}
