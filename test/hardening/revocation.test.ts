// Tokens can be revoked (docs/api.md, limits): POST /api/v1/auth/logout signs its token out, signing out of
// the admin pages does the same to the session's token, and setting a password revokes every token
// issued to the user before it; signed-out entries are pruned once their tokens have expired.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { setPassword } from "../../src/security/users";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.ctx.sqlite.close());

async function freshToken(password = TEST_PASSWORD): Promise<string> {
  const response = await t.request("POST", "/api/v1/auth/login", {
    token: null,
    body: { username: "admin", password },
  });
  expect(response.status).toBe(200);
  return response.body.access_token;
}

test("logout → 200 Signed out; that token is refused from then on, others still work", async () => {
  const token = await freshToken();
  const other = await freshToken();
  expect((await t.request("GET", "/api/v1/providers", { token })).status).toBe(200);
  const out = await t.request("POST", "/api/v1/auth/logout", { token });
  expect(out.status).toBe(200);
  expect(out.body).toEqual({ message: "Signed out" });
  const after = await t.request("GET", "/api/v1/providers", { token });
  expect(after.status).toBe(401);
  expect(after.body).toEqual({ detail: "Could not validate credentials" });
  expect((await t.request("POST", "/api/v1/auth/logout", { token })).status).toBe(401);
  expect((await t.request("GET", "/api/v1/providers", { token: other })).status).toBe(200);
});

test("logout needs a valid token", async () => {
  expect((await t.request("POST", "/api/v1/auth/logout", { token: null })).status).toBe(401);
  expect((await t.request("POST", "/api/v1/auth/logout", { token: "garbage" })).status).toBe(401);
});

test("signing out of the admin pages kills the session's token, wherever it was copied", async () => {
  const form = `username=admin&password=${encodeURIComponent(TEST_PASSWORD)}`;
  const signedIn = await t.request("POST", "/login", {
    token: null,
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" },
    body: form,
  });
  expect(signedIn.status).toBe(303);
  const session = /ddnsd_session=([^;]+)/.exec(signedIn.headers.get("set-cookie") ?? "")![1]!;
  expect((await t.request("GET", "/api/v1/providers", { token: session })).status).toBe(200);
  const out = await t.request("POST", "/logout", {
    token: null,
    headers: { cookie: `ddnsd_session=${session}`, origin: "http://localhost" },
  });
  expect(out.status).toBe(303);
  expect((await t.request("GET", "/api/v1/providers", { token: session })).status).toBe(401);
  const page = await t.request("GET", "/", { token: null, headers: { cookie: `ddnsd_session=${session}` } });
  expect(page.status).toBe(303);
});

test("setting the password revokes every earlier token; a login right after works", async () => {
  const before = await freshToken();
  await setPassword(t.ctx, "admin", "a brand new password");
  const refused = await t.request("GET", "/api/v1/providers", { token: before });
  expect(refused.status).toBe(401);
  expect(refused.body).toEqual({ detail: "Could not validate credentials" });
  const after = await freshToken("a brand new password");
  expect((await t.request("GET", "/api/v1/providers", { token: after })).status).toBe(200);
  await setPassword(t.ctx, "admin", TEST_PASSWORD);
});

test("signed-out tokens are kept until they expire, then pruned", async () => {
  const token = await freshToken();
  await t.request("POST", "/api/v1/auth/logout", { token });
  const rows = () => t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM revoked_tokens").get()!.n;
  expect(rows()).toBeGreaterThan(0);
  t.ctx.sqlite.exec(`UPDATE revoked_tokens SET expires_at = ${Date.now() - 1000}`);
  const next = await freshToken();
  await t.request("POST", "/api/v1/auth/logout", { token: next });
  expect(rows()).toBe(1);
});
