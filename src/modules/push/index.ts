// GET /nic/update: the router push, outside /api/v1 and answered in text/plain as dyndns2 clients
// expect (docs/router-push.md). The key is the Basic auth password (any username) or `password=`.

import { Elysia, t } from "elysia";
import { type PushDeps, push } from "./service";

const text = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });

/** The password of `Authorization: Basic …`, or null. */
function basicPassword(authorization: string | null): string | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? "");
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? null : decoded.slice(colon + 1);
}

/** `a,b` and repeated parameters alike, without empty parts. */
function listParam(params: URLSearchParams, name: string): string[] {
  return params
    .getAll(name)
    .flatMap((value) => value.split(","))
    .map((part) => part.trim())
    .filter(Boolean);
}

export function pushRoutes(ctx: PushDeps) {
  return new Elysia({ tags: ["push"] }).get(
    "/nic/update",
    async ({ request }) => {
      const params = new URL(request.url).searchParams;
      const lines = await push(ctx, {
        key: basicPassword(request.headers.get("authorization")) ?? params.get("password"),
        hostnames: listParam(params, "hostname"),
        addresses: [...listParam(params, "myip"), ...listParam(params, "myipv6")],
        client: ctx.signIns.clientAddress(request),
      });
      if (lines === null) return text("badauth", 401, { "WWW-Authenticate": 'Basic realm="ddnsd", charset="UTF-8"' });
      // dyndns2's word for a client that must stop for a while.
      if ("retryAfterSeconds" in lines) return text("abuse", 429, { "Retry-After": String(lines.retryAfterSeconds) });
      return text(lines.join("\n"));
    },
    {
      response: { 200: t.String(), 401: t.String(), 429: t.String() },
      detail: {
        operationId: "pushUpdate",
        summary: "Router push (dyndns2)",
        description:
          "`hostname=<fqdn>[,<fqdn>…]&myip=<ipv4>[,<ipv6>]` (`myipv6=` too), with an update key as the Basic auth password " +
          "or `password=`. Without `myip` a push-only domain takes the push's own (public) address, else `911`. One line per hostname: `good <ip>`, `nochg <ip>`, `nohost`, `notfqdn` or `911`; a wrong key: 401 `badauth`; " +
          "after 5 wrong keys in a row from one client address (an IPv6 /64 counted as one): 429 `abuse` with `Retry-After`.",
        security: [],
      },
    },
  );
}
