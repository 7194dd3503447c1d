// The admin pages for automation access: the API tokens page (made and shown once, listed masked,
// revoked), sign-in by a trusted reverse proxy's header (pages and API; ignored from anyone else;
// an unknown name refused; no password sign-out), and every page served under DDNS_BASE_PATH — a
// crawl that fails on any link, form action, hx-* URL or asset outside it.

import { beforeAll, describe, expect, test } from "bun:test";
import { createDomain, createProvider } from "../api/helpers";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { attributeValues, ORIGIN, page, signIn } from "./helpers";

const BROWSER = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

describe("the API tokens page", () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await makeTestApp();
    cookie = await signIn(t);
  });

  test("made: the whole token once; masked in the list after; revoked through the confirmation", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    const made = await page(t, "/api-tokens", {
      cookie,
      headers: BROWSER,
      form: { name: "Home Assistant", scope: "update", domains: "chosen", domain_ids: String(domain.id) },
    });
    expect(made.status).toBe(200);
    const [token] = attributeValues(made.text, "#new-token", "value");
    expect(token).toMatch(/^ddnsd_[A-Za-z0-9_-]{43}$/);
    expect(made.text).toContain("Copy it now: it is shown only this once.");
    // It works, within its scope.
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`, { token })).status).toBe(200);
    expect((await t.request("GET", "/api/v1/providers", { token })).status).toBe(403);
    const list = await page(t, "/api-tokens", { cookie, headers: BROWSER });
    expect(list.text).not.toContain(token!);
    expect(list.text).toContain(`<code>ddnsd_••••${token!.slice(-4)}</code>`);
    expect(list.text).toContain("<li>home.example.com (A) at Home</li>");
    expect(list.text).toContain('aria-current="page">API tokens</a>');
    const id = (await t.request("GET", "/api/v1/api-tokens")).body[0].id;
    const asked = await page(t, `/api-tokens/${id}/delete`, { cookie, form: { confirm: "" } });
    expect([asked.status, asked.headers.get("location")]).toEqual([303, `/api-tokens/${id}/delete`]);
    const revoked = await page(t, `/api-tokens/${id}/delete`, { cookie, form: { confirm: "yes" } });
    expect([revoked.status, revoked.headers.get("location")]).toEqual([303, "/api-tokens"]);
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`, { token })).status).toBe(401);
  });

  test("a mistake comes back beside its field and makes nothing", async () => {
    const response = await page(t, "/api-tokens", {
      cookie,
      headers: BROWSER,
      form: { name: "old", scope: "read", expires_at: "2020-01-01" },
    });
    expect(response.text).toContain('id="f-expires_at-error">must be in the future</p>');
    expect(response.text).not.toContain('id="new-token"');
    expect((await t.request("GET", "/api/v1/api-tokens")).body).toEqual([]);
  });
});

describe("sign-in by the reverse proxy", () => {
  const PROXY = "10.9.0.1";
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({
      DDNS_TRUSTED_PROXIES: PROXY,
      DDNS_AUTH_PROXY_HEADER: "Remote-User",
      DDNS_AUTH_PROXY_LOGOUT_URL: "https://auth.home.example/logout",
    });
  });

  /** A page request from `peer` carrying the proxy's header, without any session cookie. */
  async function from(peer: string, path: string, user: string) {
    const request = new Request(`${ORIGIN}${path}`, { headers: { ...BROWSER, "remote-user": user } });
    t.ctx.signIns.rememberPeer(request, peer);
    const response = await t.app.handle(request);
    return { status: response.status, location: response.headers.get("location"), text: await response.text() };
  }

  test("pages: the proxy's user is signed in, with the proxy's sign-out instead of a password one", async () => {
    const dashboard = await from(PROXY, "/", "admin");
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toContain("Signed in as admin");
    // Twice: in the wide header and in the phones' menu.
    expect(new Set(attributeValues(dashboard.text, ".sign-out a", "href"))).toEqual(
      new Set(["https://auth.home.example/logout"]),
    );
    expect(attributeValues(dashboard.text, 'form[action="/logout"]', "action")).toEqual([]);
    // No sign-in form to show: the proxy signed the visitor in.
    expect((await from(PROXY, "/login", "admin")).location).toBe("/");
  });

  test("the header from any other address is ignored; an unknown name is refused and no account made", async () => {
    expect(await from("192.0.2.50", "/", "admin")).toMatchObject({ status: 303, location: "/login" });
    const unknown = await from(PROXY, "/", "mallory");
    expect(unknown.status).toBe(401);
    expect(unknown.text).toContain("which is no ddnsd user");
    expect(t.ctx.store.users.find("mallory")).toBeUndefined();
  });

  test("API: the proxy's user for a request without a token; ignored from elsewhere; no sign-out of it", async () => {
    const headers = { "remote-user": "admin" };
    expect((await t.request("GET", "/api/v1/domains", { token: null, headers, peer: PROXY })).status).toBe(200);
    const elsewhere = await t.request("GET", "/api/v1/domains", { token: null, headers, peer: "192.0.2.50" });
    expect([elsewhere.status, elsewhere.body.detail]).toEqual([401, "Not authenticated"]);
    const unknown = await t.request("GET", "/api/v1/domains", {
      token: null,
      headers: { "remote-user": "mallory" },
      peer: PROXY,
    });
    expect(unknown.status).toBe(401);
    expect((await t.request("POST", "/api/v1/auth/logout", { token: null, headers, peer: PROXY })).status).toBe(403);
  });
});

describe("DDNS_BASE_PATH", () => {
  const BASE = "/ddns";
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await makeTestApp({ DDNS_BASE_PATH: `${BASE}/` });
    const login = await page(t, `${BASE}/login`, { form: { username: "admin", password: TEST_PASSWORD } });
    expect([login.status, login.headers.get("location")]).toEqual([303, `${BASE}/`]);
    expect(login.headers.get("set-cookie")).toContain(`Path=${BASE}/`);
    cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const provider = await t.request("POST", `${BASE}/api/v1/providers`, {
      body: { name: "Home", type: "cloudflare", credentials: { api_token: "cf-token-secret-0123456789abcdef" } },
    });
    const domain = await t.request("POST", `${BASE}/api/v1/domains`, {
      body: { provider_id: provider.body.id, domain_name: "home.example.com" },
    });
    expect(domain.status).toBe(200);
    expect((await t.request("POST", `${BASE}/api/v1/update-keys`, { body: { name: "router" } })).status).toBe(200);
    expect((await t.request("POST", `${BASE}/api/v1/api-tokens`, { body: { name: "ha", scope: "read" } })).status).toBe(
      200,
    );
  });

  test("everything lives under it; outside it, 404", async () => {
    for (const path of ["/", "/login", "/healthz", "/api/v1/system/status", "/docs", "/metrics", "/nic/update"])
      expect((await page(t, path)).status, path).toBe(404);
    expect((await page(t, `${BASE}/healthz`)).status).toBe(200);
    expect((await page(t, `${BASE}/docs`)).text).toContain(`"${BASE}/docs/json"`);
    const document = JSON.parse((await page(t, `${BASE}/docs/json`)).text);
    expect(document.servers).toEqual([{ url: BASE, description: "This ddnsd" }]);
    expect(document.components.securitySchemes.login.flows.password.tokenUrl).toBe(`${BASE}/api/v1/auth/login`);
    expect(document.paths["/api/v1/api-tokens"]).toBeDefined();
    expect((await page(t, `${BASE}/docs/json/`)).headers.get("location")).toBe(`${BASE}/docs/json`);
    // Without a session, off to the sign-in page under it.
    expect((await page(t, `${BASE}/domains`)).headers.get("location")).toBe(`${BASE}/login?next=%2Fdomains`);
  });

  test("a crawl of every page finds no link, form, hx-* URL or asset outside it", async () => {
    const seen = new Set<string>();
    const queue = [`${BASE}/`];
    const outside: string[] = [];
    const ATTRIBUTES = [
      "href",
      "src",
      "action",
      "formaction",
      "hx-get",
      "hx-post",
      "hx-put",
      "hx-delete",
      "hx-push-url",
    ];
    while (queue.length > 0 && seen.size < 200) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const response = await page(t, path, { cookie, headers: BROWSER });
      expect(response.status, path).toBeLessThan(400);
      if (!(response.headers.get("content-type") ?? "").includes("text/html")) continue;
      for (const attribute of ATTRIBUTES) {
        for (const value of attributeValues(response.text, `[${attribute}]`, attribute)) {
          if (/^(#|https?:|mailto:|data:)/.test(value) || value === "") continue;
          const url = new URL(value, `${ORIGIN}${path}`);
          if (url.origin !== ORIGIN) continue;
          if (!url.pathname.startsWith(`${BASE}/`)) outside.push(`${path}: ${attribute}="${value}"`);
          // Follow the pages (not the actions, nor sign-out, nor the API documents' own files).
          else if (attribute === "href" && !/\/(logout|docs)/.test(url.pathname)) queue.push(url.pathname + url.search);
        }
      }
    }
    expect(outside).toEqual([]);
    expect(seen.size).toBeGreaterThan(15);
    expect([...seen]).toContain(`${BASE}/api-tokens`);
    expect([...seen].some((path) => path.startsWith(`${BASE}/help/`))).toBe(true);
  });

  test("the router push URL the pages show includes it; the push itself works there", async () => {
    const keys = await page(t, `${BASE}/update-keys`, { cookie, headers: BROWSER });
    expect(keys.text).toContain(`<code>${ORIGIN}${BASE}/nic/update</code>`);
    const push = await page(t, `${BASE}/nic/update?hostname=nobody.example.com&myip=81.2.69.160&password=wrong`);
    expect(push.text).toBe("badauth");
  });
});
