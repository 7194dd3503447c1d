// API tokens at the edge: a `ddnsd_…` bearer checked (wrong ones throttled like wrong passwords)
// and what its scope lets through. The rules of the tokens themselves are in modules/api-tokens/.

import { type ApiTokenDeps, useApiToken } from "../modules/api-tokens/service";
import type { SignInThrottle } from "../security/throttle";
import type { ApiTokenRow } from "../store/rows";
import { throttled, unauthorized } from "./errors";
import { AUTH_MESSAGES } from "./tokens";

export { API_TOKEN_PREFIX } from "../modules/api-tokens/service";

export interface ApiTokenCheckDeps extends ApiTokenDeps {
  signIns: Pick<SignInThrottle, "attempt" | "clientAddress">;
}

/** The token's row, or the 401 (unknown, expired) or 429 (too many wrong tokens from this address). */
export async function authenticateApiToken(
  ctx: ApiTokenCheckDeps,
  request: Request,
  token: string,
): Promise<ApiTokenRow> {
  let found: ApiTokenRow | "expired" | null = null;
  // An expired token is genuine, not a guess: it does not count against the address.
  const attempt = await ctx.signIns.attempt(
    ctx.signIns.clientAddress(request),
    async () => {
      found = useApiToken(ctx, token);
      return found !== null;
    },
    "API token",
  );
  if (attempt.refused !== null) throw throttled(attempt.refused);
  const row = found as ApiTokenRow | "expired" | null;
  if (row === null) throw unauthorized(AUTH_MESSAGES.invalid);
  if (row === "expired") throw unauthorized(AUTH_MESSAGES.expired);
  return row;
}

/** A path under /api/v1 an `update` token reaches: a domain, its history, its forced update. */
const DOMAIN_PATH = /^\/domains\/([1-9][0-9]{0,15})(\/history|\/update_ip)?\/?$/;

/** Why the token may not make this call (the 403's sentence), or null when it may. `path` is under /api/v1. */
export function scopeRefusal(
  token: Pick<ApiTokenRow, "scope" | "domainIds">,
  method: string,
  path: string,
): string | null {
  if (/^\/api-tokens(\/|$)/.test(path)) return "API tokens cannot manage API tokens; sign in as an admin to do that";
  const reads = method === "GET" || method === "HEAD";
  if (token.scope === "admin") return null;
  if (token.scope === "read") return reads ? null : `A read token only reads (GET); ${method} needs an admin token`;
  if (token.domainIds === null && reads && /^\/domains\/?$/.test(path)) return null;
  const match = DOMAIN_PATH.exec(path);
  if (!match)
    return "An update token reaches only its domains: GET /domains/{id}, its history, and POST /domains/{id}/update_ip";
  const id = Number(match[1]);
  if (token.domainIds !== null && !token.domainIds.includes(id)) return `This update token does not reach domain ${id}`;
  const allowed = match[2] === "/update_ip" ? method === "POST" : reads;
  return allowed ? null : `An update token may not ${method} this path; that needs an admin token`;
}
