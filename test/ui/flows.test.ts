// The admin pages' second round, through the real app: error pages instead of JSON, a rejected
// form that reloads to the form, every action working as a plain form (a redirect back with the
// outcome as a notice) and a delete without JavaScript going through a confirmation page, the
// answers htmx shows in place, changing the password, a provider's health and the check on save,
// the live regions, controls named for their domain, and compression.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { jsonResponse } from "../../src/http/errors";
import { checkLogin } from "../../src/security/users";
import { errorPage } from "../../src/ui/pages";
import { CF_TOKEN, createDomain, createProvider, insertHistory, resetData } from "../api/helpers";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { attributeValues, noticeShown, ORIGIN, type PageOptions, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;
let cloudflare: CloudflareFake;
const BROWSER = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

beforeAll(async () => {
  cloudflare = startCloudflareFake();
  t = await makeTestApp({ DDNS_CLOUDFLARE_API_URL: cloudflare.url });
  cookie = await signIn(t);
});

afterAll(async () => {
  await cloudflare.stop();
});

beforeEach(() => resetData(t));

/** A request as a browser without JavaScript makes it: HTML accepted, sent from `from`. */
function browser(path: string, options: PageOptions & { from?: string } = {}) {
  const headers: Record<string, string> = { ...BROWSER, ...options.headers };
  if (options.from) headers.referer = `${ORIGIN}${options.from}`;
  return page(t, path, { cookie, ...options, headers });
}

/** The notice the next page shows, from the flash cookie a redirect set. */
const noticeAfter = (response: { headers: Headers }, path: string = "/domains") =>
  noticeShown(t, cookie, response, path);

describe("errors a person sees are pages, never JSON", () => {
  test("an unknown id and an unknown path: a 404 page inside the layout, with a way back", async () => {
    for (const path of ["/domains/999/history", "/domains/999/edit", "/providers/999/edit", "/no-such-page"]) {
      const response = await browser(path);
      expect([path, response.status, response.headers.get("content-type")]).toEqual([
        path,
        404,
        "text/html; charset=utf-8",
      ]);
      expect(response.text).toContain("<h1>Not found</h1>");
      expect(response.text).toContain('<nav class="nav-inline" aria-label="Main">');
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    }
    expect((await browser("/domains/999/history")).text).toContain(
      '<a class="button button-primary" href="/domains">All domains</a>',
    );
    expect((await browser("/domains/999/history")).text).toContain("Domain not found");
  });

  test("without a session an unknown path is a page too, offering to sign in", async () => {
    const response = await browser("/no-such-page", { cookie: null });
    expect(response.status).toBe(404);
    expect(response.text).toContain('href="/login">Sign in</a>');
    expect(response.text).not.toContain('aria-label="Main"');
  });

  test("a plain form post that fails (a domain deleted in another tab) answers with the page", async () => {
    const response = await browser("/domains/999/update", { form: { view: "list" }, from: "/domains" });
    expect(response.status).toBe(404);
    expect(response.text).toContain("It may have been deleted, perhaps in another tab");
  });

  test("a server fault is a page naming the request id to look for in the log", async () => {
    const request = new Request(`${ORIGIN}/domains`, { headers: BROWSER });
    const answer = await errorPage(
      t.ctx,
      request,
      {},
      jsonResponse(500, { detail: "Internal server error (request id 1a2b3c4d)" }),
    );
    expect(answer!.status).toBe(500);
    const text = await answer!.text();
    expect(text).toContain("Internal server error (request id 1a2b3c4d)");
    expect(text).toContain("look in ddnsd's log for the request id above");
  });

  test("the API, htmx and clients that do not ask for HTML still get {detail}", async () => {
    const api = await browser("/api/v1/domains/999");
    expect([api.status, api.headers.get("content-type")]).toEqual([401, "application/json"]);
    const htmx = await page(t, "/domains/999/update", { cookie, form: { view: "list" }, htmx: true, headers: BROWSER });
    expect([htmx.status, JSON.parse(htmx.text)]).toEqual([404, { detail: "Domain not found" }]);
    // A boosted link (htmx's page change) is a page change: it gets the page, which client.js swaps in.
    const boosted = await page(t, "/domains/999/history", { cookie, htmx: true, headers: { "hx-boosted": "true" } });
    expect([boosted.status, boosted.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"]);
    const plain = await page(t, "/no-such-page", { cookie });
    expect([plain.status, JSON.parse(plain.text)]).toEqual([404, { detail: "Not Found" }]);
  });
});

describe("a rejected form keeps an address that reloads to the form", () => {
  test("the domain form posts to its own page's URL", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    const form = await browser(`/domains/${domain.id}/edit`);
    expect(attributeValues(form.text, "#domain-form", "action")).toEqual([`/domains/${domain.id}/edit`]);
    const rejected = await browser(`/domains/${domain.id}/edit`, {
      form: { provider_id: String(provider.id), domain_name: "not a hostname" },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.text).toContain('id="f-domain_name-error"');
    expect(attributeValues((await browser("/domains/new")).text, "#domain-form", "action")).toEqual(["/domains/new"]);
  });

  test("the provider form posts to its own page's URL too", async () => {
    const provider = await createProvider(t, { name: "Home" });
    expect(attributeValues((await browser("/providers/new?type=cloudflare")).text, "#provider-form", "action")).toEqual(
      ["/providers/new"],
    );
    const form = await browser(`/providers/${provider.id}/edit`);
    expect(attributeValues(form.text, "#provider-form", "action")).toEqual([`/providers/${provider.id}/edit`]);
    const rejected = await page(t, `/providers/${provider.id}/edit`, {
      cookie,
      htmx: true,
      headers: { "hx-boosted": "true" },
      form: { name: "", type: "cloudflare" },
    });
    expect([rejected.status, rejected.headers.get("hx-replace-url")]).toEqual([200, null]);
    expect(rejected.text).toContain('id="f-name-error"');
    // The list's address takes no form any more.
    expect(
      (await browser("/providers", { form: { name: "Other", type: "cloudflare", credential_api_token: CF_TOKEN } }))
        .status,
    ).toBe(404);
    expect((await t.request("GET", "/api/v1/providers")).body).toHaveLength(1);
  });

  test("the older form addresses reload to the form rather than to an error", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id);
    for (const [path, form] of [
      [`/domains/${domain.id}`, `/domains/${domain.id}/edit`],
      [`/providers/${provider.id}`, `/providers/${provider.id}/edit`],
    ] as const) {
      const reload = await browser(path);
      expect([reload.status, reload.headers.get("location")]).toEqual([303, form]);
    }
  });
});

describe("every action works without JavaScript", () => {
  test("the switch: back to the page it was used on, with what changed", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    const list = await browser("/domains");
    expect(
      attributeValues(list.text, `form[action="/domains/${domain.id}/enabled"] input[name=is_enabled]`, "value"),
    ).toEqual(["false"]);
    const response = await browser(`/domains/${domain.id}/enabled`, {
      form: { is_enabled: "false" },
      from: "/domains?status=ok",
    });
    expect([response.status, response.headers.get("location")]).toEqual([303, "/domains?status=ok"]);
    expect(await noticeAfter(response)).toBe("notice-ok: home.example.com (A) disabled: it is not updated.");
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).body.is_enabled).toBe(false);
  });

  test("Update now: the outcome as a notice on the dashboard, a failure in its tone", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    // The test app's echo services are unreachable.
    const response = await browser(`/domains/${domain.id}/update`, { form: { view: "dashboard" }, from: "/" });
    expect([response.status, response.headers.get("location")]).toEqual([303, "/"]);
    expect(await noticeAfter(response, "/")).toBe(
      "notice-fail: home.example.com (A): The public address could not be detected. Check this machine&#x27;s internet connection; nothing is written until the address is detected again.",
    );
  });

  test("without a Referer the answer goes back to the list the control lives in", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const response = await browser(`/providers/${provider.id}/enabled`, { form: { is_enabled: "false" } });
    expect(response.headers.get("location")).toBe("/providers");
  });

  test("Verify saved credentials on the edit page: a real form, back to the form with the outcome", async () => {
    const provider = await createProvider(t, { name: "Home", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } });
    const form = await browser(`/providers/${provider.id}/edit`);
    expect(attributeValues(form.text, `form[action="/providers/${provider.id}/verify"] button`, "id")).toEqual([
      "verify-saved",
    ]);
    const response = await browser(`/providers/${provider.id}/verify`, {
      form: {},
      from: `/providers/${provider.id}/edit`,
    });
    expect([response.status, response.headers.get("location")]).toEqual([303, `/providers/${provider.id}/edit`]);
    expect(await noticeAfter(response, `/providers/${provider.id}/edit`)).toStartWith(
      "notice-ok: “Home”: the service accepted its credentials",
    );
    const inPlace = await page(t, `/providers/${provider.id}/verify`, { cookie, form: {}, htmx: true });
    expect(inPlace.text).toContain('<span class="badge badge-ok">Verified</span>');
  });

  test("Verify: the service's answer as a notice, and kept for the list", async () => {
    const provider = await createProvider(t, { name: "Home", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } });
    const response = await browser(`/providers/${provider.id}/verify`, { form: {}, from: "/providers" });
    expect(response.status).toBe(303);
    expect(await noticeAfter(response, "/providers")).toStartWith(
      "notice-ok: “Home”: the service accepted its credentials",
    );
    // The result stays after a reload.
    expect((await browser("/providers")).text).toMatch(/<span title="[^"]*valid[^"]*">Verified<\/span>/);
  });

  test("a delete without JavaScript goes through a confirmation page first", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    for (const [action, question] of [
      [
        `/domains/${domain.id}/delete`,
        "Its settings and update history are deleted. The DNS record at Home is left as it is.",
      ],
      [`/providers/${provider.id}/delete`, "Its 1 domain and its history will be deleted too"],
    ] as const) {
      const unconfirmed = await browser(action, { form: {} });
      expect([unconfirmed.status, unconfirmed.headers.get("location")]).toEqual([303, action]);
      const confirm = await browser(action);
      expect(confirm.text).toContain(question);
      expect(attributeValues(confirm.text, `form[action="${action}"] input[name=confirm]`, "value")).toEqual(["yes"]);
    }
    expect((await t.request("GET", "/api/v1/domains")).body).toHaveLength(1);
    const confirmed = await browser(`/providers/${provider.id}/delete`, { form: { confirm: "yes" } });
    expect(confirmed.headers.get("location")).toBe("/providers");
    expect((await t.request("GET", "/api/v1/providers")).body).toEqual([]);
  });

  test("with htmx (which asked in a dialog) the delete goes through at once", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const response = await page(t, `/providers/${provider.id}/delete`, { cookie, form: {}, htmx: true });
    expect(response.status).toBe(303);
    expect((await t.request("GET", "/api/v1/providers")).body).toEqual([]);
  });
});

describe("providers: checked on save, and their health in the list", () => {
  test("saved either way; working credentials say so, refused ones are a warning with what to do", async () => {
    const good = await browser("/providers/new", {
      form: { name: "Good", type: "cloudflare", credential_api_token: CLOUDFLARE_FAKE_TOKEN, is_enabled: "on" },
    });
    expect(good.headers.get("location")).toBe("/providers");
    expect(await noticeAfter(good, "/providers")).toStartWith(
      "notice-ok: Provider “Good” added; the service accepted its credentials (",
    );
    const bad = await browser("/providers/new", {
      form: { name: "Bad", type: "cloudflare", credential_api_token: CF_TOKEN, is_enabled: "on" },
    });
    expect(await noticeAfter(bad, "/providers")).toBe(
      "notice-warn: Provider “Bad” added; Bad refused the credentials: Invalid API Token (code 1000, HTTP 401); correct them with Edit, then Verify again.",
    );
    expect((await t.request("GET", "/api/v1/providers")).body.map((p: { name: string }) => p.name)).toEqual([
      "Good",
      "Bad",
    ]);
  });

  test("the list marks a provider whose credentials were refused or whose updates failed", async () => {
    const ok = await createProvider(t, { name: "Fine", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } });
    const failing = await createProvider(t, { name: "Failing" });
    const domain = await createDomain(t, failing.id);
    insertHistory(t, domain.id, { status: "FAILED", message: "Cloudflare: Authentication error" });
    insertHistory(t, domain.id, {});
    await t.request("POST", `/api/v1/providers/${ok.id}/verify`);
    await t.request("POST", `/api/v1/providers/${failing.id}/verify`);
    const list = (await browser("/providers")).text;
    expect(attributeValues(list, "li.card-failing", "id")).toEqual([`provider-${failing.id}`]);
    expect(list).toContain('<span class="badge badge-idle">1 of 2 updates failed</span>');
    expect(list).toContain(">Credentials refused</span>");
    expect(list).toContain(">Verified</span>");
  });
});

describe("changing the password", () => {
  test("the current password is checked, the new one is confirmed, and then it is the one that works", async () => {
    // An app of its own: the change revokes every token issued before it, the other tests' too.
    const own = await makeTestApp();
    const session = await signIn(own);
    const change = (form: Record<string, string>) =>
      page(own, "/account/password", { cookie: session, headers: BROWSER, form });
    const form = await page(own, "/account/password", { cookie: session, headers: BROWSER });
    expect(form.text).toContain('autocomplete="current-password"');
    const wrong = await change({
      current_password: "nope",
      new_password: "a-new-password",
      confirm_password: "a-new-password",
    });
    expect(wrong.status).toBe(200);
    expect(wrong.text).toContain("This is not your current password.");
    expect(wrong.text).not.toContain("a-new-password");
    const differ = await change({
      current_password: TEST_PASSWORD,
      new_password: "a-new-password",
      confirm_password: "another",
    });
    expect(differ.text).toContain("The two new passwords differ.");
    const short = await change({ current_password: TEST_PASSWORD, new_password: "short", confirm_password: "short" });
    expect(short.text).toContain("Use at least 8 characters.");
    expect(await checkLogin(own.ctx, "admin", TEST_PASSWORD)).toBe(true);

    const done = await change({
      current_password: TEST_PASSWORD,
      new_password: "a-new-password",
      confirm_password: "a-new-password",
    });
    expect([done.status, done.headers.get("location")]).toEqual([303, "/login?password_changed=1"]);
    expect(done.headers.get("set-cookie")).toContain("ddnsd_session=;");
    expect(await checkLogin(own.ctx, "admin", "a-new-password")).toBe(true);
    expect(await checkLogin(own.ctx, "admin", TEST_PASSWORD)).toBe(false);
    expect((await page(own, "/login?password_changed=1")).text).toContain("Your password was changed.");
    // The session the change was made in is dead, even if the browser kept its cookie.
    expect((await page(own, "/account/password", { cookie: session, headers: BROWSER })).status).toBe(303);
    expect(
      (await page(own, "/account/password", { cookie: await signIn(own, "a-new-password"), headers: BROWSER })).status,
    ).toBe(200);
  });

  test("the sign-in page says how to reset a forgotten password", async () => {
    const login = (await page(t, "/login")).text;
    expect(login).toContain("<summary>Forgot the password?</summary>");
    expect(login).toContain("sudo sh install.sh --reset-admin-password");
  });
});

describe("pages that keep themselves current", () => {
  test("the dashboard and the filtered domain list refresh themselves and say as of when", async () => {
    const provider = await createProvider(t, { name: "Home" });
    await createDomain(t, provider.id);
    // The first update's detection (no echo service here) failed: as if it worked again.
    t.ctx.publicIp.failures = { ipv4: null, ipv6: null };
    const dashboard = (await browser("/")).text;
    expect(attributeValues(dashboard, "#dashboard-live", "hx-trigger")).toEqual(["every 10s"]);
    expect(attributeValues(dashboard, "#dashboard-live", "hx-select")).toEqual(["#dashboard-live"]);
    expect(dashboard).toMatch(/As of <time datetime="[^"]+Z"/);
    // Without JavaScript the dashboard reloads itself.
    expect(dashboard).toContain('<noscript><meta http-equiv="refresh" content="60"/></noscript>');
    const list = (await browser(`/domains?provider=${provider.id}&status=pending`)).text;
    expect(attributeValues(list, "#domain-list", "hx-get")).toEqual([
      `/domains?provider=${provider.id}&status=pending`,
    ]);
    // Relative times carry their instant, for the script that keeps them true.
    expect(list).toMatch(/<time datetime="[^"]+" title="[^"]+" data-relative>/);
  });
});

describe("every control says which domain it acts on", () => {
  test("two rows, no two controls with the same accessible name", async () => {
    const provider = await createProvider(t, { name: "Home" });
    await createDomain(t, provider.id, { domain_name: "home.example.com" });
    await createDomain(t, provider.id, { domain_name: "home.example.com", record_type: "AAAA" });
    const list = (await browser("/domains")).text;
    const labels = [
      ...attributeValues(list, "td.cell-actions [aria-label]", "aria-label"),
      ...attributeValues(list, "button[role=switch]", "aria-label"),
    ];
    expect(labels).toContain("Delete home.example.com (AAAA)");
    expect(labels).toContain("Updates for home.example.com (A)");
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toHaveLength(10);
    // Each has an id, so focus can come back to it after its row is swapped.
    expect(attributeValues(list, "button[id^=update-]", "id")).toEqual(["update-1", "update-2"]);
  });
});

describe("compression", () => {
  test("pages and assets in brotli or gzip when the browser accepts it, and as they are otherwise", async () => {
    const plain = await browser("/domains");
    for (const [accept, encoding, decode] of [
      ["gzip, deflate, br, zstd", "br", brotliDecompressSync],
      ["gzip", "gzip", gunzipSync],
    ] as const) {
      const response = await t.app.handle(
        new Request(`${ORIGIN}/domains`, { headers: { ...BROWSER, cookie, "accept-encoding": accept } }),
      );
      expect(response.headers.get("content-encoding")).toBe(encoding);
      expect(response.headers.get("vary")).toContain("Accept-Encoding");
      const body = decode(Buffer.from(await response.arrayBuffer())).toString();
      // The same page, but for the "as of" time.
      expect(body.replace(/As of .*?<\/time>/, "")).toBe(plain.text.replace(/As of .*?<\/time>/, ""));
    }
    expect(plain.headers.get("content-encoding")).toBeNull();
    const refused = await t.app.handle(
      new Request(`${ORIGIN}/login`, { headers: { "accept-encoding": "br;q=0, gzip;q=0" } }),
    );
    expect(refused.headers.get("content-encoding")).toBeNull();

    const bundle = await t.app.handle(
      new Request(`${ORIGIN}/docs/assets/swagger-ui-bundle.js`, { headers: { "accept-encoding": "br" } }),
    );
    const compressed = Buffer.from(await bundle.arrayBuffer());
    const original = await (await t.app.handle(new Request(`${ORIGIN}/docs/assets/swagger-ui-bundle.js`))).text();
    expect(compressed.length).toBeLessThan(original.length / 2);
    expect(brotliDecompressSync(compressed).toString()).toBe(original);
  });

  test("the favicon browsers ask for is there", async () => {
    const response = await page(t, "/favicon.ico");
    expect([response.status, response.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
  });
});
