// The interactive reference at /docs and the OpenAPI 3.1 document at /docs/json. Swagger UI's
// files are embedded in the binary and served from here, so opening /docs needs no internet.

import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import { VERSION } from "../context";

const ASSETS = "/docs/assets";
const CACHE = { "cache-control": "public, max-age=86400" };

export function docsRoutes() {
  return new Elysia()
    .use(
      openapi({
        path: "/docs",
        specPath: "/docs/json",
        provider: "swagger-ui",
        exclude: { paths: [/^\/docs/, /^\/ui/, /^\/assets/, "/"] },
        swagger: {
          cdn: `${ASSETS}/swagger-ui-bundle.js`,
          theme: `${ASSETS}/swagger-ui.css`,
          // Swagger UI would otherwise send the document to an online validator.
          validatorUrl: "none",
          persistAuthorization: true,
        },
        documentation: {
          info: {
            title: "ddnsd API",
            version: VERSION,
            description:
              "Keeps DNS records at Cloudflare and Dynu pointing at this network's public IP address. " +
              "Log in with `POST /api/v1/auth/login` (or the Authorize button) and send the token as `Authorization: Bearer <token>`; " +
              "`POST /api/v1/auth/logout` revokes it. Any request may also be refused before it reaches its route: " +
              "`400` a missing or malformed Host header, `413` a body over 64 KiB, `422` JSON nested deeper than 32 levels; " +
              "any write may answer `507` while the data disk is full (nothing is changed).",
          },
          components: {
            securitySchemes: {
              bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
              // The same token, obtained by the Authorize dialog from a username and password.
              login: { type: "oauth2", flows: { password: { tokenUrl: "/api/v1/auth/login", scopes: {} } } },
            },
          },
          security: [{ bearer: [] }, { login: [] }],
        },
      }),
    )
    .get(`${ASSETS}/swagger-ui-bundle.js`, () => new Response(Bun.file(swaggerBundle), { headers: CACHE }), {
      detail: { hide: true },
    })
    .get(`${ASSETS}/swagger-ui.css`, () => new Response(Bun.file(swaggerCss), { headers: CACHE }), {
      detail: { hide: true },
    });
}
