// docs/api.md, endpoints: /docs works offline (only local assets, all answering) and /docs/json is an
// OpenAPI 3.1 document with the bearer scheme and every API route with its schemas — and no pages.

import { beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { makeTestApp, type TestApp } from "../support";

/** Every route docs/api.md lists (its endpoints table), path parameters written as `{}`. */
/** `text`: the configuration file, sent or answered as text rather than JSON. */
const API_ROUTES: { method: string; path: string; body: boolean; operationId: string; text?: boolean }[] = [
  { method: "post", path: "/api/v1/auth/login", body: true, operationId: "login" },
  { method: "post", path: "/api/v1/auth/logout", body: false, operationId: "logout" },
  { method: "get", path: "/api/v1/providers", body: false, operationId: "listProviders" },
  { method: "post", path: "/api/v1/providers", body: true, operationId: "createProvider" },
  { method: "get", path: "/api/v1/providers/{}", body: false, operationId: "getProvider" },
  { method: "put", path: "/api/v1/providers/{}", body: true, operationId: "updateProvider" },
  { method: "delete", path: "/api/v1/providers/{}", body: false, operationId: "deleteProvider" },
  { method: "post", path: "/api/v1/providers/{}/verify", body: false, operationId: "verifyProvider" },
  { method: "get", path: "/api/v1/domains", body: false, operationId: "listDomains" },
  { method: "post", path: "/api/v1/domains", body: true, operationId: "createDomain" },
  { method: "get", path: "/api/v1/domains/{}", body: false, operationId: "getDomain" },
  { method: "put", path: "/api/v1/domains/{}", body: true, operationId: "updateDomain" },
  { method: "delete", path: "/api/v1/domains/{}", body: false, operationId: "deleteDomain" },
  { method: "get", path: "/api/v1/domains/{}/history", body: false, operationId: "getDomainHistory" },
  { method: "post", path: "/api/v1/domains/{}/update_ip", body: false, operationId: "updateDomainIp" },
  { method: "get", path: "/api/v1/system/status", body: false, operationId: "getSystemStatus" },
  { method: "get", path: "/api/v1/system/address-sources", body: false, operationId: "getAddressSources" },
  { method: "put", path: "/api/v1/system/address-sources", body: true, operationId: "setAddressSources" },
  { method: "get", path: "/api/v1/metrics/dashboard", body: false, operationId: "getDashboardMetrics" },
  { method: "get", path: "/api/v1/metrics/provider-stats", body: false, operationId: "getProviderStats" },
  { method: "get", path: "/api/v1/update-keys", body: false, operationId: "listUpdateKeys" },
  { method: "post", path: "/api/v1/update-keys", body: true, operationId: "createUpdateKey" },
  { method: "get", path: "/api/v1/update-keys/{}", body: false, operationId: "getUpdateKey" },
  { method: "delete", path: "/api/v1/update-keys/{}", body: false, operationId: "deleteUpdateKey" },
  { method: "get", path: "/api/v1/acme-keys", body: false, operationId: "listAcmeKeys" },
  { method: "post", path: "/api/v1/acme-keys", body: true, operationId: "createAcmeKey" },
  { method: "get", path: "/api/v1/acme-keys/{}", body: false, operationId: "getAcmeKey" },
  { method: "delete", path: "/api/v1/acme-keys/{}", body: false, operationId: "deleteAcmeKey" },
  { method: "get", path: "/api/v1/api-tokens", body: false, operationId: "listApiTokens" },
  { method: "post", path: "/api/v1/api-tokens", body: true, operationId: "createApiToken" },
  { method: "get", path: "/api/v1/api-tokens/{}", body: false, operationId: "getApiToken" },
  { method: "delete", path: "/api/v1/api-tokens/{}", body: false, operationId: "deleteApiToken" },
  { method: "get", path: "/api/v1/notifications", body: false, operationId: "listNotifications" },
  { method: "post", path: "/api/v1/notifications", body: true, operationId: "createNotification" },
  { method: "get", path: "/api/v1/notifications/{}", body: false, operationId: "getNotification" },
  { method: "put", path: "/api/v1/notifications/{}", body: true, operationId: "updateNotification" },
  { method: "delete", path: "/api/v1/notifications/{}", body: false, operationId: "deleteNotification" },
  { method: "post", path: "/api/v1/notifications/{}/test", body: false, operationId: "testNotification" },
  { method: "get", path: "/api/v1/config/export", body: false, operationId: "exportConfig", text: true },
  { method: "post", path: "/api/v1/config/import", body: true, operationId: "importConfig", text: true },
];

const shape = (path: string) => path.replace(/\{[^}]*\}/g, "{}");

let t: TestApp;
let html: string;
let spec: any;
beforeAll(async () => {
  t = await makeTestApp();
  const page = await t.request("GET", "/docs", { token: null });
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toContain("text/html");
  html = page.body;
  const document = await t.request("GET", "/docs/json", { token: null });
  expect(document.status).toBe(200);
  spec = document.body;
});

function operation(method: string, path: string): any {
  const entry = Object.entries<any>(spec.paths).find(([key]) => shape(key) === path);
  return entry?.[1]?.[method];
}

/** Resolves a `$ref` into components (a `oneOf` into its first variant), or returns the schema itself. */
function resolve(schema: any): any {
  if (schema?.$ref) return resolve(spec.components.schemas[schema.$ref.replace("#/components/schemas/", "")]);
  if (schema?.oneOf) return resolve(schema.oneOf[0]);
  return schema;
}

describe("/docs", () => {
  test("is an HTML page that loads nothing from another host", () => {
    expect(html).toContain("<html");
    const references = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/g)].map((m) => m[1]!);
    expect(references.length).toBeGreaterThanOrEqual(2);
    for (const reference of references) {
      expect(reference).not.toMatch(/^(https?:)?\/\//);
    }
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/);
    expect(html).not.toMatch(/<link[^>]+href=["']https?:/);
    expect(html).not.toMatch(/@import\s+url\(["']?https?:/);
  });

  test("every script and stylesheet it references answers 200 with the right type", async () => {
    const scripts = [...html.matchAll(/<script[^>]+src=["']([^"']+)["']/g)].map((m) => m[1]!);
    const styles = [...html.matchAll(/<link[^>]+href=["']([^"']+)["']/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    expect(styles.length).toBeGreaterThan(0);
    for (const [list, type] of [
      [scripts, "javascript"],
      [styles, "css"],
    ] as const) {
      for (const reference of list) {
        const url = new URL(reference, "http://localhost/docs");
        const response = await t.app.handle(new Request(url));
        expect([reference, response.status]).toEqual([reference, 200]);
        expect(response.headers.get("content-type")).toContain(type);
        expect((await response.text()).length).toBeGreaterThan(1000);
      }
    }
  });

  test("points Swagger UI at the OpenAPI document, which answers", async () => {
    const match = /"url"\s*:\s*"([^"]+)"/.exec(html);
    expect(match).not.toBeNull();
    const url = new URL(match![1]!, "http://localhost/docs");
    expect(url.pathname).toBe("/docs/json");
    expect((await t.app.handle(new Request(url))).status).toBe(200);
  });

  test("without JavaScript, says where the document and the admin pages are", () => {
    const note = /<noscript>([\s\S]*?)<\/noscript>/.exec(html)?.[1] ?? "";
    expect(note).toContain('<a href="/docs/json">/docs/json</a>');
    expect(note).toContain('<a href="/">admin pages</a>');
  });

  test("is compressed when the browser accepts it", async () => {
    const response = await t.app.handle(
      new Request("http://localhost/docs", { headers: { "accept-encoding": "gzip" } }),
    );
    expect([response.status, response.headers.get("content-encoding")]).toEqual([200, "gzip"]);
  });

  test("the Swagger bundle is the same file with brotli, gzip or no encoding, asked in any order", async () => {
    const bundle = async (encoding: string | null) => {
      const headers: Record<string, string> = encoding === null ? {} : { "accept-encoding": encoding };
      const response = await t.app.handle(
        new Request("http://localhost/docs/assets/swagger-ui-bundle.js", { headers }),
      );
      expect([response.status, response.headers.get("content-encoding")]).toEqual([200, encoding]);
      const bytes = new Uint8Array(await response.arrayBuffer());
      return encoding === "br"
        ? brotliDecompressSync(bytes)
        : encoding === "gzip"
          ? gunzipSync(bytes)
          : Buffer.from(bytes);
    };
    const plain = await bundle(null);
    expect(plain.byteLength).toBeGreaterThan(1_000_000);
    expect((await bundle("br")).equals(plain)).toBe(true);
    expect((await bundle("gzip")).equals(plain)).toBe(true);
    expect((await bundle(null)).equals(plain)).toBe(true);
  });

  test("sends nothing to the online validator", () => {
    expect(html).not.toContain("validator.swagger.io");
  });
});

describe("/docs/json", () => {
  test("is OpenAPI 3.1 with the app's title and version", async () => {
    expect(spec.openapi).toMatch(/^3\.1\.\d+$/);
    expect(typeof spec.info.title).toBe("string");
    const { default: packageJson } = await import("../../package.json");
    expect(spec.info.version).toBe(packageJson.version);
  });

  test("declares the bearer security scheme and requires it by default", () => {
    const schemes = Object.entries<any>(spec.components.securitySchemes);
    const bearer = schemes.find(([, scheme]) => scheme.type === "http" && scheme.scheme === "bearer");
    expect(bearer).toBeDefined();
    expect(spec.security).toContainEqual({ [bearer![0]]: [] });
  });

  test("login and the health probe need no token", () => {
    expect(operation("post", "/api/v1/auth/login").security).toEqual([]);
    const health = spec.paths["/healthz"]?.get;
    if (health) expect(health.security).toEqual([]);
  });

  for (const { method, path, body, text } of API_ROUTES) {
    test(`${method.toUpperCase()} ${path} is listed with its schemas`, () => {
      const op = operation(method, path);
      expect(op).toBeDefined();
      const ok = op.responses?.["200"];
      expect(ok).toBeDefined();
      const okSchema = resolve(ok.content?.[text && method === "get" ? "text/plain" : "application/json"]?.schema);
      expect(okSchema).toBeDefined();
      expect(text && method === "get" ? ["string"] : ["object", "array"]).toContain(okSchema.type);
      if (body && text) {
        expect(op.requestBody.content["text/plain"].schema.type).toBe("string");
      } else if (body) {
        const json = resolve(op.requestBody?.content?.["application/json"]?.schema);
        expect(json).toBeDefined();
        expect(json.type).toBe("object");
        expect(Object.keys(json.properties ?? {}).length).toBeGreaterThan(0);
      } else {
        expect(op.requestBody).toBeUndefined();
      }
      // Paths with an id say so.
      if (path.includes("{}")) {
        expect((op.parameters ?? []).some((p: any) => p.in === "path")).toBe(true);
      }
      // Every API route but login documents its 401.
      if (path !== "/api/v1/auth/login") expect(op.responses["401"]).toBeDefined();
    });
  }

  test("the request schemas name the contract's fields", () => {
    const fields = (method: string, path: string) =>
      Object.keys(resolve(operation(method, path).requestBody.content["application/json"].schema).properties).sort();
    expect(fields("post", "/api/v1/auth/login")).toEqual(["password", "username"]);
    expect(fields("post", "/api/v1/providers")).toEqual(["credentials", "is_enabled", "name", "options", "type"]);
    expect(fields("put", "/api/v1/providers/{}")).toEqual(["credentials", "is_enabled", "name", "options", "type"]);
    const domainFields = [
      "address_source",
      "config",
      "cron_schedule",
      "domain_name",
      "external_id",
      "is_enabled",
      "provider_id",
      "record_type",
    ];
    expect(fields("post", "/api/v1/domains")).toEqual(domainFields);
    expect(fields("put", "/api/v1/domains/{}")).toEqual(domainFields);
  });

  test("every operation has the operationId a generated client names its function after", () => {
    for (const { method, path, operationId } of API_ROUTES)
      expect([method, path, operation(method, path).operationId]).toEqual([method, path, operationId]);
    const all = Object.values<any>(spec.paths).flatMap((operations) =>
      Object.values<any>(operations).map((op) => op.operationId),
    );
    expect(all.every((id) => /^[a-z]+[A-Za-z0-9]*$/.test(id))).toBe(true);
    expect(new Set(all).size).toBe(all.length);
    expect(spec.paths["/healthz"].get.operationId).toBe("getHealth");
    expect(spec.paths["/metrics"].get.operationId).toBe("getPrometheusMetrics");
    expect(spec.paths["/nic/update"].get.operationId).toBe("pushUpdate");
  });

  test("login also accepts the OAuth2 form", () => {
    expect(Object.keys(operation("post", "/api/v1/auth/login").requestBody.content)).toContain(
      "application/x-www-form-urlencoded",
    );
  });

  test("the history limit is a documented query parameter", () => {
    const limit = operation("get", "/api/v1/domains/{}/history").parameters.find((p: any) => p.name === "limit");
    expect(limit).toMatchObject({ in: "query" });
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 1000 });
  });

  test("lists no page or asset route", () => {
    for (const path of Object.keys(spec.paths)) {
      expect(path === "/" || path === "/login" || path === "/logout").toBe(false);
      expect(path).not.toMatch(/^\/(ui|assets|docs)(\/|$)/);
    }
  });

  test("is sent compressed to a client that accepts it, the same document either way", async () => {
    const decoders = { br: brotliDecompressSync, gzip: gunzipSync };
    for (const [encoding, decode] of Object.entries(decoders)) {
      const response = await t.app.handle(
        new Request("http://localhost/docs/json", { headers: { "accept-encoding": `${encoding}, deflate` } }),
      );
      expect([response.status, response.headers.get("content-encoding"), response.headers.get("vary")]).toEqual([
        200,
        encoding,
        "Accept-Encoding",
      ]);
      const sent = new Uint8Array(await response.arrayBuffer());
      const document = decode(sent).toString();
      // About a tenth of the JSON: what a Pi on Wi-Fi sends Swagger UI instead of 260 KB.
      expect(sent.byteLength).toBeLessThan(document.length / 5);
      expect(JSON.parse(document)).toEqual(spec);
    }
  });

  test("is at one path: /docs/json/ redirects to /docs/json rather than serving another document", async () => {
    const response = await t.app.handle(new Request("http://localhost/docs/json/"));
    expect([response.status, response.headers.get("location")]).toEqual([308, "/docs/json"]);
    expect(await response.text()).toBe("");
  });

  test("lists no API route outside the contract", () => {
    const known = new Set(API_ROUTES.map(({ method, path }) => `${method} ${path}`));
    for (const [path, operations] of Object.entries<any>(spec.paths)) {
      if (!path.startsWith("/api/")) continue;
      for (const method of Object.keys(operations)) expect(known.has(`${method} ${shape(path)}`)).toBe(true);
    }
  });
});
