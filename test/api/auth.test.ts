// docs/api.md, authentication: logging in (JSON and OAuth2 form), the token's shape, and the bearer check on
// every /api/v1 route with its exact 401 sentences.

import { beforeAll, describe, expect, setSystemTime, spyOn, test } from "bun:test";
import { users } from "../../src/db/schema";
import { makeTestApp, SECRET_KEY, TEST_PASSWORD, type TestApp } from "../support";
import { base64url, createDomain, createProvider, decodeToken, signToken } from "./helpers";

const LOGIN = "/api/v1/auth/login";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** Every /api/v1 route other than login, with a request that would succeed (or fail for a non-auth reason). */
const PROTECTED_ROUTES: { name: string; method: string; path: string; body?: unknown }[] = [
  { name: "list providers", method: "GET", path: "/api/v1/providers" },
  {
    name: "create provider",
    method: "POST",
    path: "/api/v1/providers",
    body: { name: "x", type: "dynu", credentials: { api_key: "k" } },
  },
  { name: "get provider", method: "GET", path: "/api/v1/providers/1" },
  { name: "update provider", method: "PUT", path: "/api/v1/providers/1", body: { is_enabled: true } },
  { name: "delete provider", method: "DELETE", path: "/api/v1/providers/999" },
  { name: "verify provider", method: "POST", path: "/api/v1/providers/999/verify" },
  { name: "list domains", method: "GET", path: "/api/v1/domains" },
  {
    name: "create domain",
    method: "POST",
    path: "/api/v1/domains",
    body: { provider_id: 1, domain_name: "a.example.com" },
  },
  { name: "get domain", method: "GET", path: "/api/v1/domains/1" },
  { name: "update domain", method: "PUT", path: "/api/v1/domains/1", body: { is_enabled: true } },
  { name: "delete domain", method: "DELETE", path: "/api/v1/domains/999" },
  { name: "domain history", method: "GET", path: "/api/v1/domains/1/history" },
  { name: "force update", method: "POST", path: "/api/v1/domains/999/update_ip" },
  { name: "system status", method: "GET", path: "/api/v1/system/status" },
  { name: "address sources", method: "GET", path: "/api/v1/system/address-sources" },
  { name: "choose address sources", method: "PUT", path: "/api/v1/system/address-sources" },
  { name: "dashboard metrics", method: "GET", path: "/api/v1/metrics/dashboard" },
  { name: "provider stats", method: "GET", path: "/api/v1/metrics/provider-stats" },
];

/** Requests that would fail validation — without a token the answer must still be the 401. */
const INVALID_WITHOUT_TOKEN: { name: string; method: string; path: string; body?: unknown }[] = [
  { name: "create provider, empty body", method: "POST", path: "/api/v1/providers", body: {} },
  {
    name: "create provider, wrong types",
    method: "POST",
    path: "/api/v1/providers",
    body: { name: 5, type: [], credentials: "x" },
  },
  { name: "get provider, non-integer id", method: "GET", path: "/api/v1/providers/abc" },
  { name: "update provider, non-integer id", method: "PUT", path: "/api/v1/providers/abc", body: {} },
  { name: "delete provider, bad cascade", method: "DELETE", path: "/api/v1/providers/1?cascade=maybe" },
  { name: "create domain, empty body", method: "POST", path: "/api/v1/domains", body: {} },
  { name: "update domain, wrong types", method: "PUT", path: "/api/v1/domains/1", body: { is_enabled: "yes" } },
  { name: "history, limit out of range", method: "GET", path: "/api/v1/domains/1/history?limit=0" },
  { name: "force update, non-integer id", method: "POST", path: "/api/v1/domains/x/update_ip" },
];

async function login(t: TestApp, body: unknown, headers?: Record<string, string>) {
  return t.request("POST", LOGIN, { body, token: null, headers });
}

function expectUnauthorized(response: { status: number; body: any; headers: Headers }, detail: string) {
  expect(response.status).toBe(401);
  expect(response.body).toEqual({ detail });
  expect(response.headers.get("www-authenticate")).toBe("Bearer");
}

describe("login", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });

  test("JSON login returns a bearer token and its lifetime", async () => {
    const response = await login(t, { username: "admin", password: TEST_PASSWORD });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(Object.keys(response.body).sort()).toEqual(["access_token", "expires_in", "token_type"]);
    expect(response.body.token_type).toBe("bearer");
    expect(response.body.expires_in).toBe(7 * 24 * 3600);
    expect(response.body.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const status = await t.request("GET", "/api/v1/system/status", { token: response.body.access_token });
    expect(status.status).toBe(200);
  });

  test("form login (OAuth2 password flow) returns a token that works", async () => {
    const body = new URLSearchParams({ username: "admin", password: TEST_PASSWORD, grant_type: "password" }).toString();
    const response = await login(t, body, FORM);
    expect(response.status).toBe(200);
    expect(response.body.token_type).toBe("bearer");
    expect(typeof response.body.expires_in).toBe("number");
    const status = await t.request("GET", "/api/v1/system/status", { token: response.body.access_token });
    expect(status.status).toBe(200);
  });

  test("the token is HS256 with sub, iat, exp and jti, living DDNS_TOKEN_TTL", async () => {
    const custom = await makeTestApp({ DDNS_TOKEN_TTL: "12h" });
    const response = await login(custom, { username: "admin", password: TEST_PASSWORD });
    expect(response.body.expires_in).toBe(12 * 3600);
    const { header, claims } = decodeToken(response.body.access_token);
    expect(header.alg).toBe("HS256");
    expect(claims.sub).toBe("admin");
    expect(typeof claims.jti).toBe("string");
    expect((claims.jti as string).length).toBeGreaterThan(0);
    expect(Number.isInteger(claims.iat)).toBe(true);
    expect(Number.isInteger(claims.exp)).toBe(true);
    expect(claims.exp as number).toBe((claims.iat as number) + 12 * 3600);
    expect(Math.abs((claims.iat as number) - Date.now() / 1000)).toBeLessThan(5);
    custom.ctx.sqlite.close();
  });

  test("each login gets its own jti", async () => {
    const first = await login(t, { username: "admin", password: TEST_PASSWORD });
    const second = await login(t, { username: "admin", password: TEST_PASSWORD });
    expect(decodeToken(first.body.access_token).claims.jti).not.toBe(decodeToken(second.body.access_token).claims.jti);
  });

  const WRONG_LOGINS: { name: string; body: { username: string; password: string }; form?: boolean }[] = [
    { name: "wrong password", body: { username: "admin", password: "not the password" } },
    { name: "unknown user", body: { username: "mallory", password: TEST_PASSWORD } },
    { name: "username in another case", body: { username: "ADMIN", password: TEST_PASSWORD } },
    { name: "wrong password, form", body: { username: "admin", password: "nope" }, form: true },
    { name: "unknown user, form", body: { username: "nobody", password: "nope" }, form: true },
  ];
  for (const { name, body, form } of WRONG_LOGINS) {
    test(`${name} → 401 "Incorrect username or password"`, async () => {
      const response = form ? await login(t, new URLSearchParams(body).toString(), FORM) : await login(t, body);
      expectUnauthorized(response, "Incorrect username or password");
    });
  }

  test("an unknown user costs a password verification too, like a wrong password", async () => {
    // Checked by counting argon2 verifications rather than by the clock, which a loaded machine blurs.
    const verify = spyOn(Bun.password, "verify");
    try {
      await login(t, { username: "admin", password: "wrong password" });
      expect(verify).toHaveBeenCalledTimes(1);
      await login(t, { username: "nobody-here", password: "wrong password" });
      expect(verify).toHaveBeenCalledTimes(2);
    } finally {
      verify.mockRestore();
    }
  });

  const MISSING_FIELDS: { name: string; body: unknown; form?: boolean; field: string }[] = [
    { name: "no password", body: { username: "admin" }, field: "password" },
    { name: "no username", body: { password: TEST_PASSWORD }, field: "username" },
    { name: "empty username", body: { username: "", password: TEST_PASSWORD }, field: "username" },
    { name: "empty password", body: { username: "admin", password: "" }, field: "password" },
    { name: "password not a string", body: { username: "admin", password: 12345678 }, field: "password" },
    { name: "form without password", body: "username=admin", form: true, field: "password" },
  ];
  for (const { name, body, form, field } of MISSING_FIELDS) {
    test(`${name} → 422 naming ${field}`, async () => {
      const response = form ? await login(t, body, FORM) : await login(t, body);
      expect(response.status).toBe(422);
      expect(typeof response.body.detail).toBe("string");
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    });
  }

  test("a missing field is reported as required, in the same words as everywhere else", async () => {
    const response = await login(t, { username: "admin" });
    expect(response.body.errors).toEqual([{ field: "password", message: "is required" }]);
    expect(response.body.detail).toBe("password: is required");
  });

  test("a wrongly typed password → 422 that does not repeat what was sent", async () => {
    const response = await login(t, { username: "admin", password: 98765432 });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ field: "password", message: "must be a non-empty string" }]);
    expect(JSON.stringify(response.body)).not.toContain("98765432");
  });

  test("no body at all → 422", async () => {
    const response = await t.request("POST", LOGIN, { token: null });
    expect(response.status).toBe(422);
    expect(typeof response.body.detail).toBe("string");
  });

  test("login needs no token, and ignores a bad one", async () => {
    const response = await t.request("POST", LOGIN, {
      body: { username: "admin", password: TEST_PASSWORD },
      token: "garbage",
    });
    expect(response.status).toBe(200);
  });
});

describe("the bearer check", () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await makeTestApp();
    token = await t.token();
    const provider = await createProvider(t);
    await createDomain(t, provider.id);
  });

  const HEADERS: { name: string; authorization: string | null }[] = [
    { name: "no header", authorization: null },
    { name: "empty header", authorization: "" },
    { name: "Basic scheme", authorization: "Basic YWRtaW46cGFzc3dvcmQ=" },
    { name: "Token scheme", authorization: "Token abc.def.ghi" },
    { name: "Bearer without a token", authorization: "Bearer" },
    { name: "Bearer and spaces only", authorization: "Bearer    " },
    { name: "a bare token, no scheme", authorization: "eyJhbGciOiJIUzI1NiJ9.e30.abc" },
  ];
  for (const { name, authorization } of HEADERS) {
    test(`${name} → 401 "Not authenticated"`, async () => {
      const headers: Record<string, string> = authorization === null ? {} : { authorization };
      const response = await t.request("GET", "/api/v1/providers", { token: null, headers });
      expectUnauthorized(response, "Not authenticated");
    });
  }

  test("the scheme name is case-insensitive (RFC 7235)", async () => {
    const response = await t.request("GET", "/api/v1/providers", {
      token: null,
      headers: { authorization: `bearer ${token}` },
    });
    expect(response.status).toBe(200);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const BAD_TOKENS: { name: string; make: () => Promise<string> | string }[] = [
    { name: "malformed (not a JWT)", make: () => "not-a-jwt" },
    { name: "malformed (two parts)", make: () => "abc.def" },
    { name: "malformed (garbage base64)", make: () => "!!!.@@@.###" },
    {
      name: "bad signature",
      make: async () => {
        const valid = await t.token();
        const [header, claims, signature] = valid.split(".");
        const flipped = signature!.slice(0, 10) + (signature![10] === "A" ? "B" : "A") + signature!.slice(11);
        return `${header}.${claims}.${flipped}`;
      },
    },
    {
      name: "claims altered after signing",
      make: async () => {
        const [header, , signature] = (await t.token()).split(".");
        return `${header}.${base64url({ sub: "admin", iat: now(), exp: now() + 999_999, jti: "x" })}.${signature}`;
      },
    },
    {
      name: "alg none",
      make: () =>
        `${base64url({ alg: "none", typ: "JWT" })}.${base64url({ sub: "admin", iat: now(), exp: now() + 3600, jti: "x" })}.`,
    },
    {
      name: "alg none with a signature part",
      make: () =>
        `${base64url({ alg: "none" })}.${base64url({ sub: "admin", iat: now(), exp: now() + 3600, jti: "x" })}.c2ln`,
    },
    {
      name: "signed with another key",
      make: () =>
        signToken("another-secret-key-0123456789abcdef0123", { sub: "admin", iat: now(), exp: now() + 3600, jti: "x" }),
    },
    {
      name: "token for an unknown user",
      make: () => signToken(SECRET_KEY, { sub: "mallory", iat: now(), exp: now() + 3600, jti: "x" }),
    },
    {
      name: "token without a subject",
      make: () => signToken(SECRET_KEY, { iat: now(), exp: now() + 3600, jti: "x" }),
    },
    {
      name: "token whose subject is not a string",
      make: () => signToken(SECRET_KEY, { sub: 1, iat: now(), exp: now() + 3600, jti: "x" }),
    },
    {
      name: "HS512 with the right key (only HS256 is accepted)",
      make: () => signToken(SECRET_KEY, { sub: "admin", iat: now(), exp: now() + 3600, jti: "x" }, { alg: "HS512" }),
    },
    {
      name: "token without an expiry (it would never expire)",
      make: () => signToken(SECRET_KEY, { sub: "admin", iat: now(), jti: "x" }),
    },
    {
      name: "token without iat or jti",
      make: () => signToken(SECRET_KEY, { sub: "admin", exp: now() + 3600 }),
    },
    {
      name: "expired AND signed with another key (the signature is judged first)",
      make: () =>
        signToken("another-secret-key-0123456789abcdef0123", {
          sub: "admin",
          iat: now() - 7200,
          exp: now() - 3600,
          jti: "x",
        }),
    },
  ];
  for (const { name, make } of BAD_TOKENS) {
    test(`${name} → 401 "Could not validate credentials"`, async () => {
      const response = await t.request("GET", "/api/v1/providers", { token: await make() });
      expectUnauthorized(response, "Could not validate credentials");
    });
  }

  test('a genuine token past its exp → 401 "Token has expired"', async () => {
    const expired = await signToken(SECRET_KEY, { sub: "admin", iat: now() - 7200, exp: now() - 60, jti: "x" });
    expectUnauthorized(await t.request("GET", "/api/v1/providers", { token: expired }), "Token has expired");
  });

  test('a token from a 1-second TTL app expires → 401 "Token has expired"', async () => {
    const short = await makeTestApp({ DDNS_TOKEN_TTL: "1s" });
    const issued = await short.token();
    // Claims are whole seconds, so a 1 s token may already be stale on its first use: only its
    // lifetime is checked here, then its refusal once it is surely past.
    const { claims } = decodeToken(issued);
    expect((claims.exp as number) - (claims.iat as number)).toBe(1);
    // The expiry is read from the wall clock: moved on past it, not waited for.
    setSystemTime(new Date(Date.now() + 2100));
    try {
      expectUnauthorized(await short.request("GET", "/api/v1/providers", { token: issued }), "Token has expired");
    } finally {
      setSystemTime();
    }
    short.ctx.sqlite.close();
  });

  test("a token whose user was removed stops working", async () => {
    const other = await makeTestApp();
    const issued = await other.token();
    other.ctx.db.delete(users).run();
    expectUnauthorized(
      await other.request("GET", "/api/v1/providers", { token: issued }),
      "Could not validate credentials",
    );
    other.ctx.sqlite.close();
  });

  for (const route of PROTECTED_ROUTES) {
    test(`${route.method} ${route.path} (${route.name}) requires the token`, async () => {
      const anonymous = await t.request(route.method, route.path, { token: null, body: route.body });
      expectUnauthorized(anonymous, "Not authenticated");
      const invalid = await t.request(route.method, route.path, { token: "not-a-jwt", body: route.body });
      expectUnauthorized(invalid, "Could not validate credentials");
      const authorised = await t.request(route.method, route.path, { token, body: route.body });
      expect(authorised.status).not.toBe(401);
    });
  }

  for (const route of INVALID_WITHOUT_TOKEN) {
    test(`${route.name} without a token → 401, not a validation error`, async () => {
      const anonymous = await t.request(route.method, route.path, { token: null, body: route.body });
      expectUnauthorized(anonymous, "Not authenticated");
      const authorised = await t.request(route.method, route.path, { token, body: route.body });
      expect(authorised.status).toBe(422);
    });
  }

  test("the health probe and the docs need no token", async () => {
    expect((await t.request("GET", "/healthz", { token: null })).status).toBe(200);
    expect((await t.request("GET", "/docs/json", { token: null })).status).toBe(200);
  });
});
