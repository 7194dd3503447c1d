// docs/api.md, API tokens: made, shown once, stored hashed, listed masked; each scope's allowed and
// refused calls; revoked and expired tokens refused from the next request; wrong tokens throttled.

import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { makeTestApp, type TestApp } from "../support";
import { createDomain, createProvider, expectErrorBody, ISO_UTC, resetData } from "./helpers";

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
beforeEach(() => {
  resetData(t);
  t.ctx.sqlite.exec("DELETE FROM api_tokens");
});

const make = (body: Record<string, unknown>) => t.request("POST", "/api/v1/api-tokens", { body });
async function token(scope: string, extra: Record<string, unknown> = {}): Promise<string> {
  const response = await make({ name: `${scope} token`, scope, ...extra });
  expect(response.status).toBe(200);
  return response.body.token;
}
const call = (method: string, path: string, bearer: string, body?: unknown) =>
  t.request(method, path, { token: bearer, body });

describe("making and listing", () => {
  test("the whole token once (ddnsd_ and 43 characters); masked in the list and alone; hashed in the database", async () => {
    const made = await make({ name: "Home Assistant", scope: "read" });
    expect(made.status).toBe(200);
    expect(Object.keys(made.body).sort()).toEqual([
      "created_at",
      "domain_ids",
      "expires_at",
      "id",
      "last_used_at",
      "name",
      "scope",
      "token",
    ]);
    expect(made.body.token).toMatch(/^ddnsd_[A-Za-z0-9_-]{43}$/);
    expect(made.body.created_at).toMatch(ISO_UTC);
    const masked = `ddnsd_••••${made.body.token.slice(-4)}`;
    expect((await t.request("GET", "/api/v1/api-tokens")).body.map((row: any) => row.token)).toEqual([masked]);
    const one = await t.request("GET", `/api/v1/api-tokens/${made.body.id}`);
    expect(one.body).toMatchObject({ token: masked, scope: "read", last_used_at: null, expires_at: null });
    const row = t.ctx.sqlite.query<Record<string, unknown>, []>("SELECT * FROM api_tokens").get()!;
    expect(JSON.stringify(row)).not.toContain(made.body.token.slice(6));
    expect(row.token_hash).toBe(createHash("sha256").update(made.body.token).digest("hex"));
    expect(t.logs.join("\n")).not.toContain(made.body.token.slice(6));
  });

  test("last_used_at is set by the token's first use", async () => {
    const made = (await make({ name: "ha", scope: "read" })).body;
    await call("GET", "/api/v1/system/status", made.token);
    const seen = (await t.request("GET", `/api/v1/api-tokens/${made.id}`)).body;
    expect(seen.last_used_at).toMatch(ISO_UTC);
  });

  test("bad input → 422 naming the field, nothing stored", async () => {
    const provider = await createProvider(t);
    const domain = await createDomain(t, provider.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "x", scope: "write" }, "scope"],
      [{ name: "", scope: "read" }, "name"],
      [{ name: "bell\u0007", scope: "read" }, "name"],
      [{ name: "x", scope: "read", domain_ids: [domain.id] }, "domain_ids"],
      [{ name: "x", scope: "update", domain_ids: [999] }, "domain_ids"],
      [{ name: "x", scope: "update", domain_ids: [] }, "domain_ids"],
      [{ name: "x", scope: "read", expires_at: "tomorrow" }, "expires_at"],
      [{ name: "x", scope: "read", expires_at: "2020-01-01T00:00:00Z" }, "expires_at"],
    ];
    for (const [body, field] of cases) {
      const response = await make(body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expectErrorBody(response.body);
      expect(response.body.errors[0].field).toBe(field);
    }
    expect((await t.request("GET", "/api/v1/api-tokens")).body).toEqual([]);
  });

  test("unknown id → 404; a non-integer id → 422", async () => {
    expect((await t.request("GET", "/api/v1/api-tokens/99")).body.detail).toBe("API token not found");
    expect((await t.request("DELETE", "/api/v1/api-tokens/99")).status).toBe(404);
    expect((await t.request("GET", "/api/v1/api-tokens/0x1")).status).toBe(422);
  });
});

describe("scopes", () => {
  test("read: every GET, no write", async () => {
    const provider = await createProvider(t);
    const domain = await createDomain(t, provider.id);
    const read = await token("read");
    for (const path of [
      "/api/v1/domains",
      `/api/v1/domains/${domain.id}`,
      `/api/v1/domains/${domain.id}/history`,
      "/api/v1/providers",
      "/api/v1/system/status",
      "/api/v1/metrics/dashboard",
      "/api/v1/update-keys",
    ])
      expect((await call("GET", path, read)).status, path).toBe(200);
    const refused = await call("POST", `/api/v1/domains/${domain.id}/update_ip`, read);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("read token only reads");
    expect((await call("DELETE", `/api/v1/domains/${domain.id}`, read)).status).toBe(403);
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).status).toBe(200);
  });

  test("update: its domains' GETs and update_ip only", async () => {
    const provider = await createProvider(t);
    const [mine, other] = [await createDomain(t, provider.id), await createDomain(t, provider.id)];
    const update = await token("update", { domain_ids: [mine.id] });
    expect((await call("GET", `/api/v1/domains/${mine.id}`, update)).body.domain_name).toBe(mine.domain_name);
    expect((await call("GET", `/api/v1/domains/${mine.id}/history`, update)).status).toBe(200);
    // The forced update itself runs (the provider is unreachable here): no 401/403.
    expect([200, 502, 503]).toContain((await call("POST", `/api/v1/domains/${mine.id}/update_ip`, update)).status);
    for (const [method, path] of [
      ["GET", `/api/v1/domains/${other.id}`],
      ["POST", `/api/v1/domains/${other.id}/update_ip`],
      ["GET", "/api/v1/domains"],
      ["GET", "/api/v1/providers"],
      ["PUT", `/api/v1/domains/${mine.id}`],
      ["DELETE", `/api/v1/domains/${mine.id}`],
      ["GET", "/api/v1/system/status"],
    ] as const) {
      const response = await call(method, path, update, method === "PUT" ? {} : undefined);
      expect(response.status, `${method} ${path}`).toBe(403);
      expectErrorBody(response.body);
    }
    expect((await t.request("GET", `/api/v1/domains/${mine.id}`)).status).toBe(200);
  });

  test("update with all domains may list them", async () => {
    const update = await token("update");
    expect((await call("GET", "/api/v1/domains", update)).status).toBe(200);
  });

  test("admin: writes like a signed-in admin, but manages no token and signs nothing out", async () => {
    const admin = await token("admin");
    const made = await t.request("POST", "/api/v1/providers", {
      token: admin,
      body: { name: "by-token", type: "cloudflare", credentials: { api_token: "cf-token-secret-0123456789abcdef" } },
    });
    expect(made.status).toBe(200);
    expect((await call("DELETE", `/api/v1/providers/${made.body.id}`, admin)).status).toBe(200);
    expect((await call("GET", "/api/v1/api-tokens", admin)).status).toBe(403);
    const minted = await t.request("POST", "/api/v1/api-tokens", { token: admin, body: { name: "x", scope: "admin" } });
    expect(minted.status).toBe(403);
    expect(minted.body.detail).toContain("cannot manage API tokens");
    expect((await call("POST", "/api/v1/auth/logout", admin)).status).toBe(403);
    expect((await t.request("GET", "/api/v1/api-tokens")).body).toHaveLength(1);
  });

  test("/metrics: read and admin tokens; an update token refused", async () => {
    expect((await call("GET", "/metrics", await token("read"))).status).toBe(200);
    expect((await call("GET", "/metrics", await token("admin"))).status).toBe(200);
    expect((await call("GET", "/metrics", await token("update"))).status).toBe(403);
  });
});

describe("refusals", () => {
  test("a revoked token is refused on its very next request", async () => {
    const made = (await make({ name: "ha", scope: "read" })).body;
    expect((await call("GET", "/api/v1/domains", made.token)).status).toBe(200);
    const revoked = await t.request("DELETE", `/api/v1/api-tokens/${made.id}`);
    expect(revoked.body).toEqual({ message: "API token revoked", id: made.id });
    const after = await call("GET", "/api/v1/domains", made.token);
    expect(after.status).toBe(401);
    expect(after.body.detail).toBe("Could not validate credentials");
    expect(after.headers.get("www-authenticate")).toBe("Bearer");
  });

  test("an expired token → 401 Token has expired", async () => {
    const made = (await make({ name: "short", scope: "read", expires_at: new Date(Date.now() + 60_000).toISOString() }))
      .body;
    expect(made.expires_at).toMatch(ISO_UTC);
    t.ctx.sqlite.exec(`UPDATE api_tokens SET expires_at = ${Date.now() - 1} WHERE id = ${made.id}`);
    const response = await call("GET", "/api/v1/domains", made.token);
    expect(response.status).toBe(401);
    expect(response.body.detail).toBe("Token has expired");
  });

  test("wrong tokens from one address: refused with 429 after 5, the right one too, checking nothing", async () => {
    const right = await token("read");
    const peer = "198.51.100.77";
    const wrong = () => t.request("GET", "/api/v1/domains", { token: `ddnsd_${"x".repeat(43)}`, peer });
    for (let i = 0; i < 5; i++) expect((await wrong()).status).toBe(401);
    const refused = await wrong();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await t.request("GET", "/api/v1/domains", { token: right, peer })).status).toBe(429);
    // Another address is not held back.
    expect((await t.request("GET", "/api/v1/domains", { token: right, peer: "198.51.100.78" })).status).toBe(200);
  });
});
