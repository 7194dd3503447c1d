// The interactive reference at /docs and the OpenAPI 3.1 document at /docs/json. Swagger UI's
// files are embedded in the binary and served from here, so opening /docs needs no internet.
// The generated document is tidied into valid OpenAPI 3.1 before it is served (`openApi31`): the
// route schemas carry our validation messages (`error`) and TypeBox's 3.0-style `nullable`, which
// tools such as `redocly lint` refuse. A provider's credentials and options are then typed per
// service (typed-providers.ts), and every operation carries its own `operationId` (set on its route).
// Nothing of it is made at start: the document is generated on its first request and then kept only
// as gzip (brotli beside it once asked for), so an appliance nobody reads the reference of holds none
// of it, and one that served it holds ~30 KB instead of the objects behind 260 KB of JSON.

import { SwaggerUIRender } from "@elysiajs/openapi/swagger";
import { Elysia } from "elysia";
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "file" };
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "file" };
import { SERVICES } from "../dns/registry";
import { VERSION } from "../util/package";
import { compressedResponse, keptCompressed, staticFile } from "./compression";
import { withTypedProviders } from "./typed-providers";

const ASSETS = "/docs/assets";
const CACHE = { "cache-control": "public, max-age=86400" };

type Json = unknown;

function isObject(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Elysia's coercion of a path or query string: an alternative `{type: "string", format: "integer"}`. */
function isCoercionVariant(schema: Json): boolean {
  return (
    isObject(schema) && schema.type === "string" && ["integer", "number", "boolean"].includes(String(schema.format))
  );
}

/** One schema (and everything under it) as JSON Schema 2020-12 says it. */
function tidySchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(tidySchema);
  if (!isObject(node)) return node;
  const result: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) {
    // A validation message (http/errors.ts reads it from the live schema), not a JSON Schema keyword.
    if (key === "error" && typeof value === "string") continue;
    if (key === "nullable") continue;
    result[key] =
      key === "properties" && isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, tidySchema(schema)]))
        : tidySchema(value);
  }
  if (node.nullable === true) {
    if (typeof result.type === "string") result.type = [result.type, "null"];
    else if (Array.isArray(result.type) && !result.type.includes("null")) result.type = [...result.type, "null"];
  }
  if (Array.isArray(result.anyOf)) {
    const kept = result.anyOf.filter((variant) => !isCoercionVariant(variant));
    if (kept.length === 1 && isObject(kept[0])) {
      const { anyOf: _, default: __, ...rest } = result;
      return { ...rest, ...kept[0] };
    }
    result.anyOf = kept;
  }
  return result;
}

/** The document with every schema tidied and the server it is served from. */
export function openApi31(document: Record<string, Json>, basePath = ""): Record<string, Json> {
  const tidy = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(tidy);
    if (!isObject(node)) return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === "schema" || key === "schemas" ? tidyAll(key, value) : tidy(value),
      ]),
    );
  };
  const tidyAll = (key: string, value: Json): Json =>
    key === "schemas" && isObject(value)
      ? Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, tidySchema(schema)]))
      : tidySchema(value);
  return {
    ...(tidy(document) as Record<string, Json>),
    servers: [{ url: basePath || "/", description: "This ddnsd" }],
  };
}

const info = (basePath: string) => ({
  title: "ddnsd API",
  version: VERSION,
  description:
    `Keeps DNS records at ${SERVICES.map((service) => service.label).join(", ")} pointing at this network's public IP address. ` +
    "Log in with `POST /api/v1/auth/login` (or the Authorize button) and send the token as `Authorization: Bearer <token>`; " +
    "`POST /api/v1/auth/logout` revokes it. Scripts and home automation use an API token instead (`Authorization: Bearer ddnsd_…`, " +
    "made with `POST /api/v1/api-tokens`): `read` answers every GET, `update` its domains' GETs and `update_ip`, `admin` all but managing " +
    "tokens; a call outside its scope is `403`. Any request may also be refused before it reaches its route: " +
    "`400` a missing or malformed Host header, `413` a body over 64 KiB, `422` JSON nested deeper than 32 levels; " +
    "any write may answer `507` while the data disk is full (nothing is changed).\n\n" +
    `[← Back to the admin pages](${basePath}/)`,
});

/** Swagger UI draws the page with JavaScript; without it, a note says where the same is found. */
const noScript = (basePath: string) => `<noscript>
    <p>This interactive API reference needs JavaScript. Without it: the OpenAPI document is at
    <a href="${basePath}/docs/json">${basePath}/docs/json</a> (for curl or any OpenAPI tool), and the
    <a href="${basePath}/">admin pages</a> do everything the API does, with or without JavaScript.</p>
    </noscript>`;

/**
 * The page in the browser's dark scheme: Swagger UI's own dark mode inverts the page with a filter
 * (text at 1.56:1), so its colours are set here instead, each pair at 4.5:1 or more, the admin
 * pages' dark palette.
 */
const DARK = `@media (prefers-color-scheme: dark) {
    html, body { background: #15171a; color: #e4e6ea; }
    .swagger-ui, .swagger-ui .info, .swagger-ui .info p, .swagger-ui .info li, .swagger-ui .info table,
    .swagger-ui .opblock-tag, .swagger-ui .opblock-tag small, .swagger-ui .opblock .opblock-summary-description,
    .swagger-ui .opblock .opblock-summary-path, .swagger-ui .opblock .opblock-summary-path__deprecated,
    .swagger-ui .opblock-description-wrapper p, .swagger-ui .opblock-external-docs-wrapper p,
    .swagger-ui .opblock-title_normal p, .swagger-ui .opblock .opblock-section-header h4,
    .swagger-ui .opblock .opblock-section-header > label, .swagger-ui .tab li, .swagger-ui .tab li button.tablinks,
    .swagger-ui .parameter__name, .swagger-ui .parameter__type, .swagger-ui .parameter__in,
    .swagger-ui .parameter__deprecated, .swagger-ui .parameter__extension, .swagger-ui .prop-format,
    .swagger-ui .response-col_status, .swagger-ui .response-col_links, .swagger-ui .response-col_description,
    .swagger-ui table thead tr td, .swagger-ui table thead tr th, .swagger-ui .responses-inner h4,
    .swagger-ui .responses-inner h5, .swagger-ui .model-title, .swagger-ui .model, .swagger-ui section.models h4,
    .swagger-ui .servers-title, .swagger-ui .servers > label, .swagger-ui label, .swagger-ui .markdown p,
    .swagger-ui .markdown li, .swagger-ui .renderedMarkdown p, .swagger-ui .info .title, .swagger-ui .info h1,
    .swagger-ui .info h2, .swagger-ui .info h3, .swagger-ui .info h4, .swagger-ui .info h5, .swagger-ui h1,
    .swagger-ui h2, .swagger-ui h3, .swagger-ui h4, .swagger-ui h5, .swagger-ui .btn, .swagger-ui .expand-operation svg,
    .swagger-ui .json-schema-2020-12__title, .swagger-ui .json-schema-2020-12-keyword__name,
    .swagger-ui .json-schema-2020-12-keyword__value, .swagger-ui .json-schema-2020-12-expand-deep-button,
    .swagger-ui .model-box-control, .swagger-ui .models-control, .swagger-ui .opblock-summary-control { color: #e4e6ea; fill: #e4e6ea; }
    .swagger-ui .info a, .swagger-ui .info .url, .swagger-ui a.nostyle, .swagger-ui .markdown a, .swagger-ui .renderedMarkdown a { color: #8cb8ff; }
    .swagger-ui .scheme-container, .swagger-ui .opblock .opblock-section-header, .swagger-ui section.models,
    .swagger-ui section.models .model-container, .swagger-ui .dialog-ux .modal-ux, .swagger-ui .model-box { background: #1f2226; box-shadow: none; }
    .swagger-ui .opblock, .swagger-ui .opblock.opblock-get, .swagger-ui .opblock.opblock-post, .swagger-ui .opblock.opblock-put,
    .swagger-ui .opblock.opblock-patch, .swagger-ui .opblock.opblock-delete { background: #1b1e22; }
    .swagger-ui .opblock-tag, .swagger-ui section.models, .swagger-ui .opblock .opblock-section-header { border-color: #3a3f46; }
    .swagger-ui input[type=text], .swagger-ui input[type=password], .swagger-ui input[type=search], .swagger-ui textarea,
    .swagger-ui select { background: #15171a; color: #e4e6ea; border-color: #6b7280; }
    .swagger-ui .info .title small { background: #4f5663; color: #fff; }
    .swagger-ui .btn.authorize { color: #5fd39a; border-color: #5fd39a; }
    .swagger-ui .btn.authorize svg { fill: #5fd39a; }
    .swagger-ui .highlight-code pre, .swagger-ui .microlight { background: #0d0f11 !important; color: #e4e6ea !important; }
    .swagger-ui .prop-type { color: #c8a2ff; }
    .swagger-ui .opblock-body *, .swagger-ui section.models *, .swagger-ui .dialog-ux .modal-ux * { color: #e4e6ea !important; }
    .swagger-ui .opblock-body svg, .swagger-ui section.models svg { fill: #e4e6ea; }
    .swagger-ui .json-schema-2020-12-accordion, .swagger-ui .json-schema-2020-12-expand-deep-button,
    .swagger-ui .model-box-control, .swagger-ui .models-control, .swagger-ui .opblock-summary-control,
    .swagger-ui .expand-operation, .swagger-ui .opblock-control-arrow { background: transparent; }
    .swagger-ui code, .swagger-ui .markdown code, .swagger-ui .renderedMarkdown code { background: #2a2e34; color: #f0c8ff; }
    .swagger-ui .parameter__name.required span, .swagger-ui .parameter__name.required::after { color: #ff8a8a; }
    }`;

/**
 * What Swagger UI lacks for WCAG AA and a screen reader, added once it has drawn the page (the
 * page's own script and style may be inline: /docs has a policy of its own, src/server.ts): a label
 * for the servers list, a heading between the title (h1) and the resources (h3), the parts above the
 * operations as labelled regions (every part of a page in a landmark), and darker shades
 * of its method badges, version stamps and links, whose own colours fall short of 4.5:1 on white.
 */
const ACCESSIBLE = `<style>
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .swagger-ui .info .title small { background: #4f5663; }
    .swagger-ui .info .title small.version-stamp { background: #3b6e00; }
    .swagger-ui .info a, .swagger-ui .info .url { color: #1f5fad; }
    .swagger-ui .opblock .opblock-summary-method { color: #fff; }
    .swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1f6fbf; }
    .swagger-ui .opblock.opblock-post .opblock-summary-method { background: #17744b; }
    .swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a5500; }
    .swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f6f62; }
    .swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #bf2a2a; }
    .swagger-ui .btn.authorize { color: #17744b; border-color: #17744b; }
    .swagger-ui .btn.authorize svg { fill: #17744b; }
    .swagger-ui .json-schema-2020-12-expand-deep-button { color: #4f5663; }
    ${DARK}
    </style>
    <script>
    new MutationObserver(function () {
      var select = document.querySelector(".swagger-ui .servers select:not([aria-label])");
      if (select) select.setAttribute("aria-label", "Server the requests are sent to");
      [[".swagger-ui .information-container", "About this API"], [".swagger-ui .scheme-container", "Server and authorization"]].forEach(function (part) {
        var region = document.querySelector(part[0] + ":not([role])");
        if (region) {
          region.setAttribute("role", "region");
          region.setAttribute("aria-label", part[1]);
        }
      });
      var first = document.querySelector(".swagger-ui .opblock-tag-section");
      if (first && !document.getElementById("ddnsd-operations")) {
        var heading = document.createElement("h2");
        heading.id = "ddnsd-operations";
        heading.className = "visually-hidden";
        heading.textContent = "Operations by resource";
        first.parentNode.insertBefore(heading, first);
      }
    }).observe(document.documentElement, { childList: true, subtree: true });
    </script>`;

/**
 * The Swagger page as the plugin would render it, plus the note for a browser without JavaScript
 * (the plugin serves its page as one fixed response, with no place for it) and the servers list's
 * additions above. Light or dark as the browser asks (DARK), never the plugin's inverting filter.
 */
function swaggerPage(basePath: string): string {
  const html = SwaggerUIRender(info(basePath), {
    url: `${basePath}/docs/json`,
    dom_id: "#swagger-ui",
    autoDarkMode: false,
    cdn: `${basePath}${ASSETS}/swagger-ui-bundle.js`,
    theme: `${basePath}${ASSETS}/swagger-ui.css`,
    // Swagger UI would otherwise send the document to an online validator.
    validatorUrl: "none",
    persistAuthorization: true,
  });
  return html
    .replace("<head>", `<head>\n    <meta name="color-scheme" content="light dark" />`)
    .replace("<body>", `<body>\n    ${noScript(basePath)}`)
    .replace("</body>", `    ${ACCESSIBLE}\n</body>`);
}

/** The document's version of OpenAPI, and what it leaves out: the pages, their assets, itself. */
const OPENAPI_VERSION = "3.1.2";
const EXCLUDED = { paths: [/^\/docs/, /^\/ui/, /^\/assets/, "/"] };

const documentation = (basePath: string) => ({
  info: info(basePath),
  components: {
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: "A sign-in token (JWT) or an API token (`ddnsd_…`)" },
      // The same token, obtained by the Authorize dialog from a username and password.
      login: { type: "oauth2", flows: { password: { tokenUrl: `${basePath}/api/v1/auth/login`, scopes: {} } } },
    },
  },
  security: [{ bearer: [] }, { login: [] }],
});

/**
 * The document of every route the app has, made from their schemas. The generator (the OpenAPI
 * plugin's, with what it pulls in) is loaded only here, on the first request for the document.
 */
async function generateDocument(app: Elysia, basePath: string): Promise<Record<string, Json>> {
  const { toOpenAPISchema } = await import("@elysiajs/openapi");
  const { paths, components } = toOpenAPISchema(app, EXCLUDED, undefined, undefined, OPENAPI_VERSION);
  const base = documentation(basePath);
  const document = {
    ...base,
    openapi: OPENAPI_VERSION,
    paths,
    components: { ...base.components, schemas: components.schemas },
  };
  return withTypedProviders(openApi31(document, basePath), SERVICES) as Record<string, Json>;
}

/** The Swagger page and the document; under DDNS_BASE_PATH their own links and `servers` name it. */
export function docsRoutes(basePath = "") {
  const bundle = staticFile(swaggerBundle, { ...CACHE, "content-type": "text/javascript; charset=utf-8" });
  const css = staticFile(swaggerCss, { ...CACHE, "content-type": "text/css; charset=utf-8" });
  let page: string | undefined;
  // Made on the first request (the routes are all in place by then) and kept only compressed: the
  // 260 KB of JSON are about 30 KB as gzip, and the objects they came from are let go.
  let document: Promise<(request: Request) => Response> | undefined;
  const routes = new Elysia();
  return (
    routes
      .get(
        "/docs",
        ({ request }) =>
          compressedResponse(request, (page ??= swaggerPage(basePath)), {
            headers: { "content-type": "text/html; charset=utf-8" },
          }),
        { detail: { hide: true } },
      )
      .get(
        "/docs/json",
        async ({ request, path }) => {
          // One document at one path: the router would also hand `/docs/json/` to this route.
          if (path !== "/docs/json") return new Response(null, { status: 308, headers: { location: "/docs/json" } });
          document ??= generateDocument(routes, basePath).then(
            (json) =>
              keptCompressed(new TextEncoder().encode(JSON.stringify(json)), { "content-type": "application/json" }),
            (error: unknown) => {
              document = undefined; // the next request tries again
              throw error;
            },
          );
          return (await document)(request);
        },
        { detail: { hide: true } },
      )
      // Compressed when the browser accepts it: the bundle is 1.7 MB, ~0.4 MB as brotli.
      .get(`${ASSETS}/swagger-ui-bundle.js`, ({ request }) => bundle(request), { detail: { hide: true } })
      .get(`${ASSETS}/swagger-ui.css`, ({ request }) => css(request), { detail: { hide: true } })
  );
}
