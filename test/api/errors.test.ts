// docs/api.md, conventions: every error on every path is a JSON object with a string `detail` (a 422 may add
// `errors`), never a stack trace, never HTML, never a secret; the 500's request id is in the log.

import { afterEach, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support";
import { createDomain, createProvider, expectErrorBody } from "./helpers";

let t: TestApp;
let providerId: number;
let domainId: number;
beforeAll(async () => {
  t = await makeTestApp();
  providerId = (await createProvider(t, { name: "p" })).id;
  domainId = (await createDomain(t, providerId)).id;
});

describe("malformed bodies", () => {
  const MALFORMED: { name: string; method: string; path: string; body: string; contentType?: string }[] = [
    { name: "broken JSON, create provider", method: "POST", path: "/api/v1/providers", body: '{"name": "x",' },
    { name: "broken JSON, update provider", method: "PUT", path: "/api/v1/providers/1", body: "{name: x}" },
    { name: "broken JSON, create domain", method: "POST", path: "/api/v1/domains", body: "{" },
    { name: "broken JSON, update domain", method: "PUT", path: "/api/v1/domains/1", body: "nope" },
    { name: "broken JSON, login", method: "POST", path: "/api/v1/auth/login", body: '{"username":' },
    { name: "a JSON array, create provider", method: "POST", path: "/api/v1/providers", body: "[]" },
    { name: "a JSON string, create domain", method: "POST", path: "/api/v1/domains", body: '"home.example.com"' },
    { name: "a JSON number, update domain", method: "PUT", path: "/api/v1/domains/1", body: "42" },
    { name: "JSON null, update domain", method: "PUT", path: "/api/v1/domains/1", body: "null" },
    { name: "a JSON array, update provider", method: "PUT", path: "/api/v1/providers/1", body: "[1]" },
    { name: "a JSON string, update provider", method: "PUT", path: "/api/v1/providers/1", body: '"x"' },
    { name: "JSON null, create provider", method: "POST", path: "/api/v1/providers", body: "null" },
    { name: "an empty body, create domain", method: "POST", path: "/api/v1/domains", body: "" },
    {
      name: "text/plain, create provider",
      method: "POST",
      path: "/api/v1/providers",
      body: "hello",
      contentType: "text/plain",
    },
  ];
  for (const { name, method, path, body, contentType } of MALFORMED) {
    test(`${name} → 422 {detail}`, async () => {
      const response = await t.request(method, path, {
        body,
        token: path.endsWith("login") ? null : undefined,
        headers: contentType ? { "content-type": contentType } : undefined,
      });
      expect(response.status).toBe(422);
      expect(response.headers.get("content-type")).toContain("application/json");
      expectErrorBody(response.body);
    });
  }

  test("broken JSON says so", async () => {
    const response = await t.request("POST", "/api/v1/providers", { body: "{oops" });
    expect(response.body).toEqual({ detail: "The request body is not valid JSON" });
  });
});

describe("wrong-typed fields → 422 with errors: [{field, message}]", () => {
  const WRONG: { name: string; method: string; path: () => string; body: unknown; fields: string[] }[] = [
    {
      name: "provider name a number",
      method: "POST",
      path: () => "/api/v1/providers",
      body: { name: 1, type: "dynu", credentials: { token: "k" } },
      fields: ["name"],
    },
    {
      name: "provider is_enabled a string",
      method: "PUT",
      path: () => `/api/v1/providers/${providerId}`,
      body: { is_enabled: "false" },
      fields: ["is_enabled"],
    },
    {
      name: "provider credentials a list",
      method: "PUT",
      path: () => `/api/v1/providers/${providerId}`,
      body: { credentials: ["k"] },
      fields: ["credentials"],
    },
    {
      name: "several fields at once",
      method: "POST",
      path: () => "/api/v1/providers",
      body: { name: 1, type: 2, credentials: { token: "k" }, is_enabled: "x" },
      fields: ["name", "type", "is_enabled"],
    },
    {
      name: "domain provider_id a word",
      method: "POST",
      path: () => "/api/v1/domains",
      body: { provider_id: "one", domain_name: "a.example.com" },
      fields: ["provider_id"],
    },
    {
      name: "domain name a list",
      method: "POST",
      path: () => "/api/v1/domains",
      body: { provider_id: 1, domain_name: ["a.example.com"] },
      fields: ["domain_name"],
    },
    {
      name: "nested: config.ttl a word (dotted path)",
      method: "PUT",
      path: () => `/api/v1/domains/${domainId}`,
      body: { config: { ttl: "auto" } },
      fields: ["config.ttl"],
    },
    {
      name: "nested: config.proxied a string",
      method: "PUT",
      path: () => `/api/v1/domains/${domainId}`,
      body: { config: { proxied: "yes" } },
      fields: ["config.proxied"],
    },
    {
      name: "domain is_enabled null",
      method: "PUT",
      path: () => `/api/v1/domains/${domainId}`,
      body: { is_enabled: null },
      fields: ["is_enabled"],
    },
    {
      name: "login username a number",
      method: "POST",
      path: () => "/api/v1/auth/login",
      body: { username: 7, password: "x" },
      fields: ["username"],
    },
  ];
  for (const { name, method, path, body, fields } of WRONG) {
    test(name, async () => {
      const response = await t.request(method, path(), { body, token: path().endsWith("login") ? null : undefined });
      expect(response.status).toBe(422);
      expectErrorBody(response.body);
      expect(Array.isArray(response.body.errors)).toBe(true);
      for (const error of response.body.errors) {
        expect(Object.keys(error).sort()).toEqual(["field", "message"]);
        expect(typeof error.field).toBe("string");
        expect(typeof error.message).toBe("string");
        expect(error.message.length).toBeGreaterThan(0);
      }
      expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
      // The detail names the first field at fault.
      expect(response.body.detail).toStartWith(`${response.body.errors[0].field}: `);
    });
  }

  test("a missing required field is 'is required'", async () => {
    const response = await t.request("POST", "/api/v1/domains", { body: { provider_id: providerId } });
    expect(response.body).toEqual({
      detail: "domain_name: is required",
      errors: [{ field: "domain_name", message: "is required" }],
    });
  });
});

describe("unknown paths", () => {
  const UNKNOWN: { method: string; path: string; token?: null }[] = [
    { method: "GET", path: "/api/v1/nothing-here" },
    { method: "GET", path: "/api/v1/nothing-here", token: null },
    { method: "GET", path: "/api/v2/providers" },
    { method: "GET", path: "/api/v1/providers/1/nothing" },
    { method: "POST", path: "/api/v1/domains/1/history" },
    { method: "GET", path: "/api" },
    { method: "GET", path: "/no-such-page", token: null },
    { method: "GET", path: "/favicon.txt", token: null },
    { method: "DELETE", path: "/healthz", token: null },
  ];
  for (const { method, path, token } of UNKNOWN) {
    test(`${method} ${path}${token === null ? " (no token)" : ""} → JSON 404 {"detail": "Not Found"}`, async () => {
      const response = await t.request(method, path, { token });
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toContain("application/json");
      expect(response.body).toEqual({ detail: "Not Found" });
    });
  }

  test("a method the path doesn't have → a JSON error, not HTML", async () => {
    const response = await t.request("PATCH", "/api/v1/providers");
    expect([404, 405]).toContain(response.status);
    expectErrorBody(response.body);
  });
});

describe("every non-2xx answer is JSON with a string detail", () => {
  const BAD_REQUESTS: {
    name: string;
    method: string;
    path: () => string;
    body?: unknown;
    token?: string | null;
    status: number;
  }[] = [
    { name: "no token", method: "GET", path: () => "/api/v1/domains", token: null, status: 401 },
    { name: "garbage token", method: "GET", path: () => "/api/v1/domains", token: "x.y.z", status: 401 },
    {
      name: "wrong login",
      method: "POST",
      path: () => "/api/v1/auth/login",
      body: { username: "admin", password: "no" },
      token: null,
      status: 401,
    },
    { name: "unknown provider", method: "GET", path: () => "/api/v1/providers/4242", status: 404 },
    { name: "unknown domain", method: "PUT", path: () => "/api/v1/domains/4242", body: {}, status: 404 },
    { name: "unknown domain's history", method: "GET", path: () => "/api/v1/domains/4242/history", status: 404 },
    {
      name: "domain on an unknown provider",
      method: "POST",
      path: () => "/api/v1/domains",
      body: { provider_id: 4242, domain_name: "a.example.com" },
      status: 404,
    },
    {
      name: "duplicate provider",
      method: "POST",
      path: () => "/api/v1/providers",
      body: { name: "P", type: "dynu", credentials: { token: "k" } },
      status: 409,
    },
    {
      name: "delete a provider with domains",
      method: "DELETE",
      path: () => `/api/v1/providers/${providerId}`,
      status: 409,
    },
    {
      name: "change the type of a provider with domains",
      method: "PUT",
      path: () => `/api/v1/providers/${providerId}`,
      body: { type: "dynu", credentials: { token: "k" } },
      status: 409,
    },
    {
      name: "bad hostname",
      method: "POST",
      path: () => "/api/v1/domains",
      body: { provider_id: 1, domain_name: "nodots" },
      status: 422,
    },
    {
      name: "bad cron",
      method: "PUT",
      path: () => `/api/v1/domains/${domainId}`,
      body: { cron_schedule: "every minute" },
      status: 422,
    },
    {
      name: "bad record type",
      method: "PUT",
      path: () => `/api/v1/domains/${domainId}`,
      body: { record_type: "SRV" },
      status: 422,
    },
    {
      name: "limit out of range",
      method: "GET",
      path: () => `/api/v1/domains/${domainId}/history?limit=5000`,
      status: 422,
    },
    { name: "non-integer id", method: "DELETE", path: () => "/api/v1/domains/one", status: 422 },
    {
      name: "unknown provider type",
      method: "POST",
      path: () => "/api/v1/providers",
      body: { name: "n", type: "x", credentials: {} },
      status: 422,
    },
    {
      name: "missing credential key",
      method: "POST",
      path: () => "/api/v1/providers",
      body: { name: "n", type: "dynu", credentials: {} },
      status: 422,
    },
    { name: "unknown path", method: "GET", path: () => "/api/v1/what", status: 404 },
  ];
  for (const { name, method, path, body, token, status } of BAD_REQUESTS) {
    test(`${name} → ${status}`, async () => {
      const response = await t.request(method, path(), { body, token });
      expect(response.status).toBe(status);
      expect(response.headers.get("content-type")).toContain("application/json");
      expectErrorBody(response.body);
      if (status === 401) expect(response.headers.get("www-authenticate")).toBe("Bearer");
    });
  }
});

describe("unexpected faults → 500", () => {
  const restore: (() => void)[] = [];
  afterEach(() => {
    for (const undo of restore.splice(0)) undo();
  });

  test("a throwing service: 500 with a request id, no stack or message in the body, the id in the log", async () => {
    const scheduler = t.ctx.scheduler;
    const original = Object.getOwnPropertyDescriptor(scheduler, "running");
    Object.defineProperty(scheduler, "running", {
      configurable: true,
      get() {
        throw new Error("kaboom in /work/secret/place.ts:12 with token sk-live-abc");
      },
    });
    restore.push(() => {
      if (original) Object.defineProperty(scheduler, "running", original);
      else delete (scheduler as unknown as Record<string, unknown>).running;
    });
    const before = t.logs.length;
    const response = await t.request("GET", "/api/v1/system/status");
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(Object.keys(response.body)).toEqual(["detail"]);
    const match = /^Internal server error \(request id ([\w-]+)\)$/.exec(response.body.detail);
    expect(match).not.toBeNull();
    const text = JSON.stringify(response.body);
    for (const leak of ["kaboom", "secret", "sk-live", ".ts:", "    at "]) expect(text).not.toContain(leak);
    const logged = t.logs.slice(before).filter((line) => line.includes(match![1]!));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain("ERROR");
    expect(logged[0]).toContain("kaboom");
    expect(logged[0]).toContain("/api/v1/system/status");
  });

  test("each fault gets its own request id", async () => {
    const original = t.ctx.scheduler;
    t.ctx.scheduler = null as unknown as typeof original;
    restore.push(() => {
      t.ctx.scheduler = original;
    });
    const first = await t.request("GET", "/api/v1/system/status");
    const second = await t.request("GET", "/api/v1/system/status");
    expect(first.status).toBe(500);
    expect(second.status).toBe(500);
    expect(first.body.detail).not.toBe(second.body.detail);
  });

  test("a closed database: API 500s are JSON, the health probe says 503", async () => {
    const broken = await makeTestApp();
    const token = await broken.token();
    broken.ctx.sqlite.close();
    const api = await broken.request("GET", "/api/v1/providers", { token });
    expect(api.status).toBe(500);
    expect(api.body.detail).toMatch(/^Internal server error \(request id [\w-]+\)$/);
    const id = /request id ([\w-]+)/.exec(api.body.detail)![1]!;
    expect(broken.logs.some((line) => line.includes(id))).toBe(true);
    const health = await broken.request("GET", "/healthz", { token: null });
    expect(health.status).toBe(503);
    expectErrorBody(health.body);
  });
});
