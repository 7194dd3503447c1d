// The interactive reference at /docs and the OpenAPI 3.1 document at /docs/json. Swagger UI's
// files are embedded in the binary and served from here, so opening /docs needs no internet.

import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import { VERSION } from "../context";
import { staticFile } from "./compression";

const ASSETS = "/docs/assets";
const CACHE = { "cache-control": "public, max-age=86400" };

export function docsRoutes() {
  const bundle = staticFile(swaggerBundle, { ...CACHE, "content-type": "text/javascript; charset=utf-8" });
  const css = staticFile(swaggerCss, { ...CACHE, "content-type": "text/css; charset=utf-8" });
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
              "Log in with `POST /api/v1/auth/login` (or the Authorize button) and send the token as `Authorization: Bearer <token>`.\n\n" +
              "[← Back to the admin pages](/)",
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
    // Compressed when the browser accepts it: the bundle is 1.4 MB, ~0.4 MB as brotli.
    .get(`${ASSETS}/swagger-ui-bundle.js`, ({ request }) => bundle(request), { detail: { hide: true } })
    .get(`${ASSETS}/swagger-ui.css`, ({ request }) => css(request), { detail: { hide: true } });
}
