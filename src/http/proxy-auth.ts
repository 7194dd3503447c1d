// Sign-in by a reverse proxy (Authelia, Authentik, oauth2-proxy behind Caddy's forward_auth or
// nginx's auth_request): with DDNS_AUTH_PROXY_HEADER set, a request whose socket address is one of
// DDNS_TRUSTED_PROXIES and that carries the header is the named user's, for the API and the pages
// alike. From any other address the header is ignored (anyone can send a header); a name that is no
// ddnsd user is refused, and no account is ever made for it.

import type { SignInThrottle } from "../security/throttle";
import type { Store } from "../store";
import { unauthorized } from "./errors";

export interface ProxyAuthDeps {
  settings: { readonly authProxyHeader: string | null };
  signIns: Pick<SignInThrottle, "viaTrustedProxy">;
  store: Pick<Store, "users">;
}

/** The user a trusted proxy signed the request in as; null when it names none (or may not). Unknown → 401. */
export function proxiedUser(ctx: ProxyAuthDeps, request: Request): string | null {
  const header = ctx.settings.authProxyHeader;
  if (header === null || !ctx.signIns.viaTrustedProxy(request)) return null;
  const name = request.headers.get(header)?.trim();
  if (!name) return null;
  if (ctx.store.users.find(name) === undefined)
    throw unauthorized(`The sign-in proxy named "${name.slice(0, 64)}" in ${header}, which is no ddnsd user`);
  return name;
}
