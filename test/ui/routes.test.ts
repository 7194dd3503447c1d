// The admin pages through the real app (`app.handle`): who may see them, the session cookie,
// the same-origin check, forms that keep what was typed and show the services' errors, the
// in-place fragments, and that no page ever holds a secret or shows up in the API document.

import { beforeAll, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { providers } from "../../src/db/schema";
import { PROVIDER_TYPES } from "../../src/dns/registry";
import { ASSETS } from "../../views/assets";
import { CF_TOKEN, createDomain, createProvider, expectErrorBody, insertHistory, resetData } from "../api/helpers";
import { ENCRYPTION_KEY, makeTestApp, SECRET_KEY, TEST_PASSWORD, type TestApp } from "../support";
import { attributeValues, count, domainForm, elementCount, ORIGIN, page, signIn } from "./helpers";

/** The script elements every page has, and no others: client.js's words (data), client.js, local-time.js and htmx. */
const LAYOUT_SCRIPTS = 4;

let t: TestApp;
let cookie: string;
const ADMIN_PASSWORD_SETTING = "env-admin-password-never-shown-0123";

beforeAll(async () => {
  t = await makeTestApp({ DDNS_ADMIN_PASSWORD: ADMIN_PASSWORD_SETTING });
  cookie = await signIn(t);
});

beforeEach(() => resetData(t));

/** Every page a signed-in admin can open, with the data they need. */
async function seedPages(): Promise<string[]> {
  const provider = await createProvider(t, { name: "Home" });
  const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
  insertHistory(t, domain.id, { ip: "203.0.113.7" });
  return [
    "/",
    "/providers",
    "/providers/new",
    `/providers/${provider.id}/edit`,
    `/providers/credential-field?type=cloudflare&provider=${provider.id}`,
    "/domains",
    "/domains/new",
    `/domains/${domain.id}/edit`,
    `/domains/${domain.id}/history`,
    "/domains/schedule-preview?cron_schedule=*/5+*+*+*+*",
    `/domains/provider-options?provider_id=${provider.id}`,
    "/about",
    "/update-keys",
    "/notifications",
    "/notifications/new",
    "/notifications/fields?type=telegram",
  ];
}

describe("without a session", () => {
  test("every page redirects to sign in, with a JSON body like every non-2xx answer", async () => {
    const paths = await seedPages();
    for (const path of paths) {
      const response = await page(t, path);
      expect([path, response.status]).toEqual([path, 303]);
      expect(response.headers.get("location")).toStartWith("/login");
      expectErrorBody(JSON.parse(response.text));
    }
  });

  test("every state-changing route redirects too, and changes nothing", async () => {
    await seedPages();
    const before = JSON.stringify([
      (await t.request("GET", "/api/v1/providers")).body,
      (await t.request("GET", "/api/v1/domains")).body,
    ]);
    const posts = [
      "/providers/new",
      "/providers/1/edit",
      "/providers/1/verify",
      "/providers/1/enabled",
      "/providers/1/delete",
      "/domains",
      "/domains/1",
      "/domains/1/enabled",
      "/domains/1/update",
      "/domains/1/delete",
      "/update-keys",
      "/update-keys/1/delete",
      "/notifications/new",
      "/notifications/1/edit",
      "/notifications/1/test",
      "/notifications/1/enabled",
      "/notifications/1/delete",
    ];
    for (const path of posts) {
      const response = await page(t, path, {
        form: {
          name: "x",
          type: "dynu",
          credential_api_key: "k",
          is_enabled: "false",
          domain_name: "a.example.com",
          provider_id: "1",
        },
      });
      expect([path, response.status, response.headers.get("location")]).toEqual([path, 303, "/login"]);
    }
    const after = JSON.stringify([
      (await t.request("GET", "/api/v1/providers")).body,
      (await t.request("GET", "/api/v1/domains")).body,
    ]);
    expect(after).toBe(before);
  });

  test("the sign-in page brings the visitor back to the page asked for", async () => {
    const response = await page(t, "/domains?status=failed");
    expect(response.headers.get("location")).toBe(`/login?next=${encodeURIComponent("/domains?status=failed")}`);
    const login = await page(t, response.headers.get("location")!);
    expect(attributeValues(login.text, "input[name=next]", "value")).toEqual(["/domains?status=failed"]);
  });

  test("an htmx request gets HX-Redirect, so the whole page goes to sign in", async () => {
    const response = await page(t, "/domains/1/update", { form: { view: "list" }, htmx: true });
    expect(response.status).toBe(401);
    expect(response.headers.get("hx-redirect")).toBe("/login?next=%2Fdomains");
    expect(JSON.parse(response.text)).toEqual({ detail: "Not authenticated" });
  });

  test("a forged or foreign token is no session", async () => {
    // The signature's first character is changed: its last one carries only 4 bits of the MAC, so
    // some replacements there decode to the very same bytes.
    const token = cookie.split("=")[1]!;
    const signatureStart = token.lastIndexOf(".") + 1;
    const forged =
      token.slice(0, signatureStart) + (token[signatureStart] === "A" ? "B" : "A") + token.slice(signatureStart + 1);
    for (const value of ["not-a-jwt", forged]) {
      const response = await page(t, "/", { cookie: `ddnsd_session=${value}` });
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/login");
    }
  });
});

describe("signing in and out", () => {
  test("signing in sets the session cookie: HttpOnly, SameSite=Strict, outliving the token (so its expiry can be told)", async () => {
    const response = await page(t, "/login", {
      form: { username: "admin", password: TEST_PASSWORD, next: "/providers" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/providers");
    const setCookie = response.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^ddnsd_session=[\w-]+\.[\w-]+\.[\w-]+;/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).toContain(`Max-Age=${604800 + 7 * 24 * 3600}`);
    expect(setCookie).toContain("Path=/");
    // Plain HTTP here: a Secure cookie would never come back.
    expect(setCookie).not.toContain("Secure");
  });

  test("a wrong password shows the form again with the username kept and no cookie", async () => {
    const response = await page(t, "/login", { form: { username: "admin", password: "wrong" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.text).toContain("Incorrect username or password");
    expect(attributeValues(response.text, "#f-username", "value")).toEqual(["admin"]);
    expect(attributeValues(response.text, "#f-password", "aria-invalid")).toEqual(["true"]);
  });

  const NEXT: [string, string][] = [
    ["a page of ours", "/domains/3/history?page=2"],
    ["another host", "https://evil.example/steal"],
    ["a scheme-relative URL", "//evil.example/steal"],
    ["the sign-in page itself", "/login?next=/"],
  ];
  for (const [name, next] of NEXT) {
    test(`after signing in, never leaves the site: ${name}`, async () => {
      const response = await page(t, "/login", { form: { username: "admin", password: TEST_PASSWORD, next } });
      const location = response.headers.get("location")!;
      expect(location).toStartWith("/");
      expect(location).not.toStartWith("//");
      expect(location).not.toContain("evil");
      expect(location).not.toStartWith("/login");
    });
  }

  test("signing out clears the cookie and says so", async () => {
    const session = await signIn(t);
    const response = await page(t, "/logout", { form: {}, cookie: session });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/login?signed_out=1");
    expect(response.headers.get("set-cookie")).toMatch(/^ddnsd_session=; Max-Age=0;/);
    expect((await page(t, "/login?signed_out=1")).text).toContain("You have signed out.");
  });

  test("with TLS configured the cookie is Secure", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ddnsd-tls-"));
    try {
      // Only read as PEM files here: the cookie is decided by the setting, no server is started.
      writeFileSync(join(dir, "cert.pem"), "-----BEGIN CERTIFICATE-----\nplaceholder\n");
      writeFileSync(join(dir, "key.pem"), "-----BEGIN PRIVATE KEY-----\nplaceholder\n");
      const tls = await makeTestApp({ DDNS_TLS_CERT: join(dir, "cert.pem"), DDNS_TLS_KEY: join(dir, "key.pem") });
      const response = await page(tls, "/login", { form: { username: "admin", password: TEST_PASSWORD } });
      expect(response.headers.get("set-cookie")).toContain("Secure");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an expired session", () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await makeTestApp({ DDNS_TOKEN_TTL: "1s" });
  });

  test("returns to the sign-in page, which says the session expired", async () => {
    const session = await signIn(short);
    expect((await page(short, "/providers", { cookie: session })).status).toBe(200);
    // The token's expiry is read from the wall clock: moved on past it, not waited for.
    setSystemTime(new Date(Date.now() + 2_100));
    let response: Awaited<ReturnType<typeof page>>;
    try {
      response = await page(short, "/providers", { cookie: session });
    } finally {
      setSystemTime();
    }
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/login?expired=1&next=%2Fproviders");
    expect(JSON.parse(response.text)).toEqual({ detail: "Token has expired" });
    const login = await page(short, response.headers.get("location")!);
    expect(login.text).toContain("Your session has expired");
  });
});

describe("cross-site requests", () => {
  const FOREIGN: [string, Record<string, string>][] = [
    ["another Origin", { origin: "http://evil.example" }],
    ["another port", { origin: "http://localhost:8080" }],
    ["Origin null (a sandboxed or file page)", { origin: "null" }],
    ["no Origin, another Referer", { origin: "", referer: "http://evil.example/page" }],
    ["neither Origin nor Referer", { origin: "" }],
  ];
  for (const [name, headers] of FOREIGN) {
    test(`refused with 403: ${name}`, async () => {
      await createProvider(t, { name: "Home" });
      for (const path of ["/providers/1/delete", "/login", "/logout"]) {
        const response = await page(t, path, { form: { username: "admin", password: TEST_PASSWORD }, cookie, headers });
        expect([path, response.status]).toEqual([path, 403]);
        expect(JSON.parse(response.text)).toEqual({ detail: "Cross-site request refused" });
      }
      expect((await t.request("GET", "/api/v1/providers")).body).toHaveLength(1);
    });
  }

  test("a same-site Referer is enough when the browser sends no Origin", async () => {
    await createProvider(t, { name: "Home" });
    const response = await page(t, "/providers/1/enabled", {
      form: { is_enabled: "false" },
      cookie,
      headers: { origin: "", referer: `${ORIGIN}/providers` },
    });
    expect([response.status, response.headers.get("location")]).toEqual([303, "/providers"]);
    expect((await t.request("GET", "/api/v1/providers/1")).body.is_enabled).toBe(false);
  });
});

describe("providers", () => {
  test("adding one redirects to the list with a notice; the list shows it masked", async () => {
    const response = await page(t, "/providers/new", {
      cookie,
      form: { name: "Home", type: "cloudflare", credential_api_token: CF_TOKEN, is_enabled: "on" },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/providers");
    const flash = response.headers.get("set-cookie")!.split(";")[0]!;
    const list = await page(t, "/providers", { cookie: `${cookie}; ${flash}` });
    // Saved, and checked with the service (unreachable here): a warning that says what to do.
    expect(list.text).toContain(
      "Provider “Home” added; could not reach Home: request failed: nothing accepts connections at that address and port (is the server running, and on this port?); its credentials were not checked",
    );
    expect(list.text).not.toContain("ECONNREFUSED");
    expect(list.text).not.toContain("Is the computer able");
    expect(list.text).toContain(`••••${CF_TOKEN.slice(-4)}`);
    // Shown once.
    expect(list.headers.get("set-cookie")).toMatch(/^ddnsd_flash=; Max-Age=0/);
  });

  test("a validation error comes back next to its field, with everything typed kept", async () => {
    const response = await page(t, "/providers/new", {
      cookie,
      form: { name: "Home", type: "dynu", credential_api_key: "   " },
    });
    expect(response.status).toBe(200);
    expect(attributeValues(response.text, "#f-credential_api_key", "aria-invalid")).toEqual(["true"]);
    expect(attributeValues(response.text, "#f-credential_api_key", "aria-describedby")).toEqual([
      "f-credential_api_key-help f-credential_api_key-error",
    ]);
    expect(response.text).toContain(
      '<p class="field-error" id="f-credential_api_key-error">is required for a Dynu provider</p>',
    );
    expect(attributeValues(response.text, "#f-name", "value")).toEqual(["Home"]);
    expect(response.text).toContain('<input type="hidden" name="type" value="dynu"/>');
    expect(attributeValues(response.text, "#f-is_enabled", "checked")).toEqual([]);
    expect((await t.request("GET", "/api/v1/providers")).body).toEqual([]);
  });

  test("without JavaScript, Continue shows the chosen type's fields and saves nothing", async () => {
    const response = await page(t, "/providers/new", {
      cookie,
      form: { name: "Home", type: "dynu", credential_api_token: "typed", continue: "type" },
    });
    expect(response.status).toBe(200);
    expect(response.text).toContain('<input type="hidden" name="type" value="dynu"/>');
    expect(attributeValues(response.text, "#f-credential_api_key", "name")).toEqual(["credential_api_key"]);
    expect(attributeValues(response.text, "#f-credential_api_token", "name")).toEqual([]);
    expect(response.text).not.toContain("field-error");
    expect((await t.request("GET", "/api/v1/providers")).body).toEqual([]);
  });

  test("an unknown type is refused by the same rule as the API", async () => {
    const response = await page(t, "/providers/new", {
      cookie,
      form: { name: "Home", type: "nosuchservice", credential_token: "x" },
    });
    expect(response.text).toContain(`id="f-type-error">must be one of: ${PROVIDER_TYPES.join(", ")}</p>`);
  });

  test("a duplicate name is shown above the form", async () => {
    await createProvider(t, { name: "Home" });
    const response = await page(t, "/providers/new", {
      cookie,
      form: { name: "home", type: "cloudflare", credential_api_token: CF_TOKEN },
    });
    expect(response.status).toBe(200);
    expect(response.text).toContain("A provider named &quot;Home&quot; already exists");
    expect(response.text).not.toContain(CF_TOKEN);
  });

  test("editing with an empty credential keeps the stored one", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const sealed = t.ctx.db.select({ credentials: providers.credentials }).from(providers).get()!.credentials;
    const response = await page(t, `/providers/${provider.id}/edit`, {
      cookie,
      form: { name: "Home renamed", type: "cloudflare", credential_api_token: "", is_enabled: "on" },
    });
    expect(response.status).toBe(303);
    expect(t.ctx.db.select({ credentials: providers.credentials }).from(providers).get()!.credentials).toBe(sealed);
    expect((await t.request("GET", `/api/v1/providers/${provider.id}`)).body).toMatchObject({
      name: "Home renamed",
      credentials: provider.credentials,
    });
  });

  test("changing the type while it has domains is a conflict shown on the form", async () => {
    const provider = await createProvider(t, { name: "Home" });
    await createDomain(t, provider.id);
    const response = await page(t, `/providers/${provider.id}/edit`, {
      cookie,
      form: { name: "Home", type: "dynu", credential_api_key: "new-key", is_enabled: "on" },
    });
    expect(response.status).toBe(200);
    expect(response.text).toContain("The provider&#x27;s type cannot change while it has domains");
  });

  test("the switch posts the state it sets and answers with the row", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const response = await page(t, `/providers/${provider.id}/enabled`, {
      cookie,
      form: { is_enabled: "false" },
      htmx: true,
    });
    expect(response.status).toBe(200);
    expect(response.text).toStartWith(`<li id="provider-${provider.id}" class="card provider-card"`);
    expect(attributeValues(response.text, "button[role=switch]", "aria-checked")).toEqual(["false"]);
    expect((await t.request("GET", `/api/v1/providers/${provider.id}`)).body.is_enabled).toBe(false);
  });

  test("verify answers with the outcome inline", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const response = await page(t, `/providers/${provider.id}/verify`, { cookie, form: {}, htmx: true });
    expect(response.status).toBe(200);
    // The service's address is closed here: could not reach it, which is no refusal.
    expect(response.text).toContain('<span class="badge badge-fail">Could not reach</span>');
    expect(response.text).toContain("Could not reach Home: request failed: nothing accepts connections");
    expect(response.text).not.toContain("ECONNREFUSED");
  });

  test("the credential field follows the type; the mask shows only for the stored type", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const same = await page(t, `/providers/credential-field?type=cloudflare&provider=${provider.id}`, { cookie });
    expect(same.text).toContain(">API token</span></label>");
    expect(same.text).toContain(provider.credentials.api_token);
    const other = await page(t, `/providers/credential-field?type=dynu&provider=${provider.id}`, { cookie });
    expect(other.text).toContain(">API key</span></label>");
    expect(other.text).not.toContain("Stored:");
  });

  test("delete takes its domains along, as the confirmation said", async () => {
    const provider = await createProvider(t, { name: "Home" });
    await createDomain(t, provider.id);
    await createDomain(t, provider.id);
    const list = await page(t, "/providers", { cookie });
    expect(attributeValues(list.text, "form[hx-confirm]", "hx-confirm")[0]).toContain(
      "Its 2 domains and their history will be deleted too",
    );
    const response = await page(t, `/providers/${provider.id}/delete`, { cookie, form: { confirm: "yes" } });
    expect(response.status).toBe(303);
    expect(decodeURIComponent(response.headers.get("set-cookie")!)).toContain(
      "Provider “Home” deleted, with its 2 domains.",
    );
    expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);
  });
});

describe("domains", () => {
  let providerId: number;
  beforeEach(async () => {
    providerId = (await createProvider(t, { name: "Home" })).id;
  });

  const form = (fields: Record<string, string> = {}) => domainForm(providerId, { ...fields });

  test("adding one stores what the form said", async () => {
    const response = await page(t, "/domains", {
      cookie,
      form: form({ domain_name: "Home.Example.com.", cron_schedule: "*/10 * * * *", ttl: "300", proxied: "true" }),
    });
    expect(response.status).toBe(303);
    expect((await t.request("GET", "/api/v1/domains/1")).body).toMatchObject({
      domain_name: "home.example.com",
      cron_schedule: "*/10 * * * *",
      config: { ttl: 300, proxied: true, create_if_missing: true },
      is_enabled: true,
    });
  });

  const INVALID: { name: string; fields: Record<string, string>; field: string; message: string }[] = [
    {
      name: "a hostname that isn't one",
      fields: { domain_name: "not a hostname" },
      field: "domain_name",
      message: "is not a valid hostname",
    },
    {
      name: "an IP address for a hostname",
      fields: { domain_name: "192.0.2.1" },
      field: "domain_name",
      message: "not an IP address",
    },
    { name: "a TTL that isn't a number", fields: { ttl: "soon" }, field: "ttl", message: "must be 1 (automatic)" },
    { name: "a TTL out of range", fields: { ttl: "5" }, field: "ttl", message: "60 to 86400 seconds for Cloudflare" },
    {
      name: "a record type the API refuses",
      fields: { record_type: "MX" },
      field: "record_type",
      message: "must be &quot;A&quot;",
    },
  ];
  for (const { name, fields, field, message } of INVALID) {
    test(`a validation error next to its field: ${name}`, async () => {
      const response = await page(t, "/domains", { cookie, form: form(fields) });
      expect(response.status).toBe(200);
      expect(attributeValues(response.text, `#f-${field}`, "aria-invalid")).toEqual(["true"]);
      expect(attributeValues(response.text, `#f-${field}`, "aria-describedby")[0]).toContain(`f-${field}-error`);
      expect(response.text).toMatch(new RegExp(`id="f-${field}-error">[^<]*${message.replace(/[()]/g, "\\$&")}`));
      // Nothing typed is lost.
      for (const [input, value] of Object.entries(fields)) {
        if (input === "record_type") continue;
        expect(attributeValues(response.text, `#f-${input}`, "value")).toEqual([value]);
      }
      expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);
    });
  }

  test("a bad schedule: the preview shows the problem, tied to the field", async () => {
    const response = await page(t, "/domains", { cookie, form: form({ cron_schedule: "every day" }) });
    expect(attributeValues(response.text, "#f-cron_schedule", "aria-invalid")).toEqual(["true"]);
    expect(attributeValues(response.text, "#f-cron_schedule", "value")).toEqual(["every day"]);
    expect(response.text).toContain('id="f-cron_schedule-error">expected 5 fields');
    expect(count(response.text, 'class="field-error"')).toBe(1);
  });

  test("a duplicate is a conflict above the form", async () => {
    await createDomain(t, providerId, { domain_name: "home.example.com" });
    const response = await page(t, "/domains", { cookie, form: form() });
    expect(response.text).toContain("home.example.com A is already configured on this provider");
  });

  test("the schedule preview answers as the user types", async () => {
    const empty = await page(t, "/domains/schedule-preview?cron_schedule=", { cookie, htmx: true });
    expect(empty.text).toContain("every 5 minutes (default)");
    const cron = await page(t, `/domains/schedule-preview?cron_schedule=${encodeURIComponent("0 3 * * *")}`, {
      cookie,
      htmx: true,
    });
    expect(cron.text).toMatch(/next: (\w{3} )?03:00, \w{3} 03:00, \w{3} 03:00/);
    const bad = await page(t, "/domains/schedule-preview?cron_schedule=61+*+*+*+*", { cookie, htmx: true });
    expect(bad.text).toContain('class="field-error"');
  });

  test("editing keeps config keys the form doesn't show, and a new hostname forgets the old record", async () => {
    const domain = await createDomain(t, providerId, {
      domain_name: "home.example.com",
      external_id: "rec-1",
      config: { zone_id: "zone-1", ttl: 60, note: "mine" },
    });
    const edit = await page(t, `/domains/${domain.id}/edit`, { cookie });
    expect(attributeValues(edit.text, "#f-zone_id", "value")).toEqual(["zone-1"]);
    expect(attributeValues(edit.text, "#f-external_id", "value")).toEqual(["rec-1"]);
    // The form sends everything back, ids included, as they were shown.
    const response = await page(t, `/domains/${domain.id}`, {
      cookie,
      form: form({ domain_name: "nas.example.com", ttl: "60", zone_id: "zone-1", external_id: "rec-1" }),
    });
    expect(response.status).toBe(303);
    const saved = (await t.request("GET", `/api/v1/domains/${domain.id}`)).body;
    expect(saved).toMatchObject({
      domain_name: "nas.example.com",
      external_id: null,
      config: { ttl: 60, note: "mine", create_if_missing: true },
    });
    expect(saved.config.zone_id).toBeUndefined();
  });

  test("update now: a failure is shown in the row, not as an error page", async () => {
    const domain = await createDomain(t, providerId);
    // The test app's echo services are unreachable, so detection fails (the API's 503).
    const response = await page(t, `/domains/${domain.id}/update`, { cookie, form: { view: "dashboard" }, htmx: true });
    expect(response.status).toBe(200);
    expect(response.text).toStartWith(`<tr id="domain-${domain.id}">`);
    expect(response.text).toContain(
      "The public address could not be detected. Check this machine&#x27;s internet connection; nothing is written until the address is detected again.",
    );
    // No attempt reached the record, and it is not called current while its address is unknown.
    expect(response.text).toContain('<span class="badge badge-warn">Not checked</span>');
    // The dashboard's row layout: no Edit link.
    expect(response.text).not.toContain("/edit");
  });

  test("update now on a disabled domain: the refusal is shown in the row", async () => {
    const domain = await createDomain(t, providerId, { is_enabled: false });
    const response = await page(t, `/domains/${domain.id}/update`, { cookie, form: { view: "list" }, htmx: true });
    expect(response.text).toContain("The domain is disabled; enable it to update it");
    expect(response.text).toContain("/edit");
  });

  test("the switch disables and enables", async () => {
    const domain = await createDomain(t, providerId);
    const off = await page(t, `/domains/${domain.id}/enabled`, { cookie, form: { is_enabled: "false" }, htmx: true });
    expect(off.text).toContain('<span class="badge badge-idle">Disabled</span>');
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).body.is_enabled).toBe(false);
    const on = await page(t, `/domains/${domain.id}/enabled`, { cookie, form: { is_enabled: "true" }, htmx: true });
    expect(attributeValues(on.text, "button[role=switch]", "aria-checked")).toEqual(["true"]);
  });

  test("filters by provider and status", async () => {
    const other = await createProvider(t, { name: "Other", type: "dynu" });
    const ok = await createDomain(t, providerId, { domain_name: "ok.example.com" });
    t.ctx.sqlite.run("UPDATE domains SET last_update_status = 'SUCCESS' WHERE id = ?", [ok.id]);
    await createDomain(t, providerId, { domain_name: "off.example.com", is_enabled: false });
    await createDomain(t, other.id, { domain_name: "dynu.example.com" });
    // The first updates' detection (no echo service here) failed: as if it worked again.
    t.ctx.publicIp.failures = { ipv4: null, ipv6: null };
    const rows = async (query: string) => {
      const html = (await page(t, `/domains${query}`, { cookie })).text;
      return attributeValues(html, "a.domain-link", "href").length;
    };
    expect(await rows("")).toBe(3);
    expect(await rows(`?provider=${providerId}`)).toBe(2);
    expect(await rows("?status=ok")).toBe(1);
    expect(await rows("?status=disabled")).toBe(1);
    expect(await rows(`?provider=${other.id}&status=pending`)).toBe(1);
    expect((await page(t, "/domains?status=failed", { cookie })).text).toContain("No domain matches these filters.");
  });

  test("history pages, newest first, with the addresses held", async () => {
    const domain = await createDomain(t, providerId);
    const now = Date.now();
    for (let i = 0; i < 30; i++)
      insertHistory(
        t,
        domain.id,
        { ip: i < 20 ? "198.51.100.2" : "203.0.113.7", ageMs: (30 - i) * 60_000, message: `row ${i}` },
        now,
      );
    const first = await page(t, `/domains/${domain.id}/history`, { cookie });
    expect(count(first.text, '<tr><td data-label="When"')).toBe(25);
    expect(first.text.indexOf("row 29")).toBeLessThan(first.text.indexOf("row 28"));
    expect(first.text).toContain("Page 1 of 2");
    expect(attributeValues(first.text, ".timeline-ip", "class")).toHaveLength(2);
    const second = await page(t, `/domains/${domain.id}/history?page=2`, { cookie });
    expect(count(second.text, '<tr><td data-label="When"')).toBe(5);
    expect(second.text).toContain("row 0");
  });

  test("delete removes the domain and says so", async () => {
    const domain = await createDomain(t, providerId);
    const response = await page(t, `/domains/${domain.id}/delete`, { cookie, form: { confirm: "yes" } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/domains");
    expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);
  });

  test("an unknown id is the API's 404, as JSON", async () => {
    const response = await page(t, "/domains/999/edit", { cookie });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.text)).toEqual({ detail: "Domain not found" });
  });
});

describe("the dashboard", () => {
  test("figures, charts and domains from the database", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    insertHistory(t, domain.id, { ip: "203.0.113.7", ageMs: 30 * 60_000 });
    insertHistory(t, domain.id, { status: "FAILED", ip: "203.0.113.8", ageMs: 10 * 60_000 });
    // A failed detection (no address) is the detection's: in no update figure.
    insertHistory(t, domain.id, { status: "FAILED", ip: null, ageMs: 5 * 60_000 });
    const response = await page(t, "/", { cookie });
    expect(response.status).toBe(200);
    expect(count(response.text, '<g class="bar">')).toBe(24 + 7);
    expect(response.text).toContain("1 succeeded, 1 failed");
    expect(response.text).toContain('<div class="stat-value">50%</div>');
    expect(response.text).toContain(`<tr id="domain-${domain.id}">`);
  });
});

describe("never a secret", () => {
  test("no page holds a credential, the sealed value, a key or a password", async () => {
    const paths = await seedPages();
    const sealed = t.ctx.db.select({ credentials: providers.credentials }).from(providers).get()!.credentials;
    const secrets = [
      CF_TOKEN,
      sealed,
      sealed.slice(3, 40),
      SECRET_KEY,
      ENCRYPTION_KEY,
      ADMIN_PASSWORD_SETTING,
      TEST_PASSWORD,
    ];
    for (const path of paths) {
      const response = await page(t, path, { cookie });
      expect([path, response.status]).toEqual([path, 200]);
      for (const secret of secrets) expect([path, response.text.includes(secret)]).toEqual([path, false]);
    }
  });
});

describe("plumbing", () => {
  test("assets are served from the binary with long caching, and pages link their versioned URLs", async () => {
    for (const asset of Object.values(ASSETS)) {
      const response = await page(t, asset.route);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(asset.contentType);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(response.text.length).toBeGreaterThan(100);
    }
    const login = (await page(t, "/login")).text;
    expect(attributeValues(login, "link[rel=stylesheet]", "href")).toEqual([ASSETS.styles.url]);
    expect(attributeValues(login, "link[rel=icon]", "href")).toEqual([ASSETS.favicon.url]);
    expect(attributeValues(login, "script", "src")).toEqual([ASSETS.client.url, ASSETS.localTime.url, ASSETS.htmx.url]);
    expect(elementCount(login, "script")).toBe(LAYOUT_SCRIPTS);
    // The one without a src is data: the words client.js writes, in the page's language.
    expect(attributeValues(login, "script:not([src])", "type")).toEqual(["application/json"]);
  });

  test("pages are not cached, not framed, and scripts come only from the app", async () => {
    const response = await page(t, "/", { cookie });
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
  });

  test("the OpenAPI document lists only the API, /healthz, the router push, the ACME challenge and /metrics", async () => {
    const paths = Object.keys((await t.request("GET", "/docs/json", { token: null })).body.paths);
    expect(paths.length).toBeGreaterThan(5);
    const outside = ["/healthz", "/nic/update", "/metrics", "/acme-dns/update", "/acme/present", "/acme/cleanup"];
    for (const path of paths) expect(outside.includes(path) || path.startsWith("/api/v1/")).toBe(true);
  });

  test("the API is untouched by the pages: its errors stay JSON, its guard stays bearer", async () => {
    const response = await t.request("GET", "/api/v1/providers", { token: null, headers: { cookie } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: "Not authenticated" });
  });
});
