// Routes of certificate keys (docs/certificates.md): /api/v1/acme-keys for the admin, and the two
// protocols certificate clients speak, outside /api/v1 and its bearer token, as the router push is:
// acme-dns's `POST /acme-dns/update` (https://github.com/joohoi/acme-dns, README "Update endpoint")
// and lego's httpreq `POST /acme/present`, `/acme/cleanup` (go-acme/lego providers/dns/httpreq).

import { Elysia, t } from "elysia";
import type { SignInThrottle } from "../../security/throttle";
import { AcmeKeyIdParams, bodyShape, DeletedBody, errorResponses, plainIds } from "../shared";
import { AcmeDnsUpdate, AcmeKey, AcmeKeyCreate, HttpreqBody } from "./model";
import {
  type AcmeDeps,
  acmeDnsUpdate,
  authenticate,
  checkValue,
  cleanup,
  createAcmeKey,
  deleteAcmeKey,
  domainFor,
  getAcmeKey,
  listAcmeKeys,
  present,
  type Refusal,
} from "./service";

export function acmeKeyRoutes(ctx: AcmeDeps) {
  return new Elysia({ prefix: "/acme-keys", tags: ["certificate keys"] })
    .onTransform(plainIds)
    .get("", () => listAcmeKeys(ctx), {
      response: { 200: t.Array(AcmeKey), ...errorResponses(401) },
      detail: { operationId: "listAcmeKeys", summary: "List certificate keys" },
    })
    .post("", ({ body, request }) => createAcmeKey(ctx, body, `${new URL(request.url).origin}/acme-dns`), {
      body: AcmeKeyCreate,
      transform: bodyShape({}),
      response: { 200: AcmeKey, ...errorResponses(401, 422) },
      detail: {
        operationId: "createAcmeKey",
        summary: "Create a certificate key",
        description:
          "The answer is the only place the password is ever shown, with `acme_dns_account`: what an acme-dns client stores.",
      },
    })
    .get("/:acme_key_id", ({ params }) => getAcmeKey(ctx, params.acme_key_id), {
      params: AcmeKeyIdParams,
      response: { 200: AcmeKey, ...errorResponses(401, 404, 422) },
      detail: { operationId: "getAcmeKey", summary: "Get a certificate key (without its password)" },
    })
    .delete(
      "/:acme_key_id",
      ({ params }) => {
        deleteAcmeKey(ctx, params.acme_key_id);
        return { message: "Certificate key deleted", id: params.acme_key_id };
      },
      {
        params: AcmeKeyIdParams,
        response: { 200: DeletedBody, ...errorResponses(401, 404, 422) },
        detail: { operationId: "deleteAcmeKey", summary: "Delete a certificate key" },
      },
    );
}

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });

function refusalResponse(refusal: Refusal, basic: boolean): Response {
  switch (refusal.refused) {
    case "credentials":
      return json(
        { detail: "Incorrect certificate key" },
        401,
        basic ? { "WWW-Authenticate": 'Basic realm="ddnsd", charset="UTF-8"' } : {},
      );
    case "throttled":
      return json({ detail: `Too many wrong certificate keys; try again in ${refusal.retryAfterSeconds} s` }, 429, {
        "Retry-After": String(refusal.retryAfterSeconds),
      });
    case "name":
      return json({ detail: refusal.detail }, 403);
  }
}

/** The username and password of `Authorization: Basic …`, or nulls. */
function basicCredentials(authorization: string | null): { username: string | null; password: string | null } {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? "");
  const decoded = match ? Buffer.from(match[1]!, "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  return colon < 0
    ? { username: null, password: null }
    : { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export interface AcmeProtocolDeps extends AcmeDeps {
  signIns: AcmeDeps["signIns"] & Pick<SignInThrottle, "clientAddress">;
}

export function acmeProtocolRoutes(ctx: AcmeProtocolDeps) {
  const httpreq =
    (action: "present" | "cleanup") =>
    async ({ body, request }: { body: { fqdn: string; value: string }; request: Request }) => {
      const value = checkValue("value", body.value);
      const { username, password } = basicCredentials(request.headers.get("authorization"));
      const key = await authenticate(ctx, username, password, ctx.signIns.clientAddress(request));
      if ("refused" in key) return refusalResponse(key, true);
      const domain = domainFor(ctx, key, body.fqdn);
      if ("refused" in domain) return refusalResponse(domain, true);
      await (action === "present" ? present : cleanup)(ctx, { key, protocol: "httpreq" }, domain, value);
      return json({ fqdn: body.fqdn, value });
    };
  const described = (summary: string, description: string) => ({
    body: HttpreqBody,
    detail: { operationId: `httpreq${summary.split(" ")[0]}`, summary, description, security: [] },
  });
  return new Elysia({ tags: ["certificate keys"] })
    .post(
      "/acme-dns/update",
      async ({ body, request }) => {
        const txt = checkValue("txt", body.txt);
        const key = await authenticate(
          ctx,
          request.headers.get("x-api-user"),
          request.headers.get("x-api-key"),
          ctx.signIns.clientAddress(request),
        );
        if ("refused" in key) return refusalResponse(key, false);
        const domain = domainFor(ctx, key, body.subdomain);
        if ("refused" in domain) return refusalResponse(domain, false);
        await acmeDnsUpdate(ctx, { key, protocol: "acme-dns" }, domain, txt);
        return json({ txt });
      },
      {
        body: AcmeDnsUpdate,
        detail: {
          operationId: "acmeDnsUpdate",
          summary: "acme-dns update",
          description:
            "acme-dns's update: `X-Api-User`/`X-Api-Key` a certificate key's username and password, `subdomain` the name " +
            "(as `acme_dns_account` says), `txt` the challenge value. The latest two values per name are kept. " +
            "Answered once the zone's name servers serve the value (at most 60 s).",
          security: [],
        },
      },
    )
    .post(
      "/acme/present",
      httpreq("present"),
      described(
        "Present (lego httpreq)",
        "lego's httpreq: `fqdn` `_acme-challenge.<name>.`, `value` the challenge value, HTTP Basic a certificate key's username and password. Answered once served (at most 60 s).",
      ),
    )
    .post(
      "/acme/cleanup",
      httpreq("cleanup"),
      described("Cleanup (lego httpreq)", "Removes exactly that value; the name's other TXT values stay."),
    );
}
