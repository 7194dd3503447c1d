// The admin pages in a real headless Chromium, against a real server on 127.0.0.1 whose
// Cloudflare and IP-echo services are the local fakes: sign in, add and verify a provider, add a
// domain, update it, read its history, edit, disable and delete it, a validation error, sign
// out, an expired session and a cross-site form post. The browser must never leave the app.
// Screenshots of every page land in test/e2e/screenshots/ (git-ignored) for a human to look at.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SignJWT } from "jose";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { ECHO_DEFAULT_IPV4, type EchoFake, startEchoFake } from "../fakes/echo";
import { makeTestApp, SECRET_KEY, TEST_PASSWORD, type TestApp } from "../support";
import { launchChromium } from "./browser";

const SCREENSHOTS = join(import.meta.dir, "screenshots");
const LAPTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };
/** A site of the attacker's, answered inside the browser (page.route) so no request leaves it. */
const EVIL_ORIGIN = "http://evil.invalid";

// Playwright's own waits (5 s) give up first, so a failure names what it was waiting for.

let browser: Browser;
let context: BrowserContext;
let page: Page;
let app: TestApp;
let server: ReturnType<typeof Bun.serve>;
let cloudflare: CloudflareFake;
let echo: EchoFake;
let base: string;
/** Every URL the browser asked for. */
const requested: string[] = [];
/** Content-Security-Policy violations the pages reported (e.g. an inline style htmx would add). */
const cspViolations: string[] = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  cloudflare = startCloudflareFake();
  cloudflare.addZone("example.com");
  echo = startEchoFake();
  app = await makeTestApp({
    DDNS_CLOUDFLARE_API_URL: cloudflare.url,
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    DDNS_IPV6_URLS: `${echo.url}/v6`,
  });
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.app.handle(request) });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchChromium();
  context = await browser.newContext({ viewport: LAPTOP, colorScheme: "light" });
  context.setDefaultTimeout(5_000);
  // The pages' timers run on a clock that keeps time but that a test can move on (a list's refresh).
  await context.clock.install();
  page = await context.newPage();
  page.on("request", (request) => requested.push(request.url()));
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) cspViolations.push(`${page.url()}: ${message.text()}`);
  });
  // "Delete" asks first; the tests say yes.
  page.on("dialog", (dialog) => void dialog.accept());
});

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  await cloudflare?.stop();
  await echo?.stop();
});

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** Waits until `text` is visible somewhere on the page. */
async function see(text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor({ state: "visible" });
}

async function signIn(): Promise<void> {
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe("admin pages in a browser", () => {
  test("sign in: an unauthenticated visit lands on the sign-in page, then comes back", async () => {
    await page.goto(`${base}/domains`);
    expect(new URL(page.url()).pathname).toBe("/login");
    await shot("login");
    await signIn();
    await page.waitForURL(`${base}/domains`);
    await see("No domains yet.");
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: "ddnsd_session", httpOnly: true, sameSite: "Strict" });
  });

  test("add a Cloudflare provider and verify it", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Providers" }).click();
    await page.getByRole("link", { name: "Add provider" }).click();
    // The service picker: each service's form asks for its own credentials.
    await page.getByRole("link", { name: "Dynu", exact: true }).first().click();
    await page.getByLabel("API key").waitFor();
    await see("Control Panel → API Credentials");
    await page.getByRole("link", { name: "Choose another service" }).click();
    await page.getByLabel("Find your service").fill("cloudflare");
    await page.getByRole("link", { name: /^Cloudflare/ }).click();
    await page.getByLabel("Name").fill("Cloudflare (home)");
    await page.getByLabel("API token").fill(CLOUDFLARE_FAKE_TOKEN);
    await see("My Profile → API Tokens");
    await shot("provider-form");
    await page.getByRole("button", { name: "Add provider" }).click();
    await see("Provider “Cloudflare (home)” added; the service accepted its credentials");
    expect(new URL(page.url()).pathname).toBe("/providers");
    // Masked: the last four characters only.
    await see(`••••${CLOUDFLARE_FAKE_TOKEN.slice(-4)}`);
    expect(await page.content()).not.toContain(CLOUDFLARE_FAKE_TOKEN);

    await page.getByRole("button", { name: "Verify" }).click();
    await see("This API Token is valid and active");
    await shot("providers");
  });

  test("add a domain, with a live preview of its schedule", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Domains" }).click();
    await page.getByRole("link", { name: "Add domain" }).click();
    await see("every 5 minutes (default)");
    await page.getByLabel("Hostname").fill("home.example.com");
    await page.getByLabel("Schedule").fill("*/10 * * * *");
    await page
      .locator("#schedule-preview")
      .getByText(/^next: /)
      .waitFor();
    expect(await page.locator("#schedule-preview").textContent()).not.toContain("default");
    await shot("domain-form");
    await page.getByRole("button", { name: "Add domain" }).click();
    await see("home.example.com added");
    const row = page.locator("tr", { hasText: "home.example.com" });
    await row.getByText("*/10 * * * *").waitFor();
    await row.getByText("Pending").waitFor();
  });

  test("update now shows the new address in the row, and a history row", async () => {
    const row = page.locator("tr", { hasText: "home.example.com" });
    await row.getByRole("button", { name: "Update now" }).click();
    await row.getByText(`Now points at ${ECHO_DEFAULT_IPV4}.`).waitFor();
    await row.locator(".cell-ip").getByText(ECHO_DEFAULT_IPV4).waitFor();
    expect(cloudflare.record("home.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
    await shot("domains");

    await row.getByRole("link", { name: "History" }).click();
    await page.getByRole("heading", { name: "home.example.com" }).waitFor();
    const history = page.locator("table.history-table tbody tr");
    expect(await history.count()).toBe(1);
    expect(await history.first().textContent()).toContain("Success");
    expect(await history.first().textContent()).toContain("Manual");
    await page.locator(".timeline").getByText(ECHO_DEFAULT_IPV4).waitFor();
    await shot("history");
  });

  test("the dashboard shows the address, the figures and the domain", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await page.locator(".public-ip .addresses").getByText(ECHO_DEFAULT_IPV4).waitFor();
    expect(await page.locator("svg.chart").count()).toBe(2);
    const row = page.locator("tr", { hasText: "home.example.com" });
    await row.getByText("OK").waitFor();
    await shot("dashboard");
    await page.emulateMedia({ colorScheme: "dark" });
    await shot("dashboard-dark");
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize(PHONE);
    await shot("dashboard-phone");
    // On a phone the navigation folds into a menu.
    expect(await page.getByRole("navigation", { name: "Main", exact: true }).isVisible()).toBe(false);
    await page.getByText("Menu").click();
    await page.getByRole("navigation", { name: "Main (menu)" }).getByRole("link", { name: "Domains" }).click();
    await see("*/10 * * * *");
    await shot("domains-phone");
    await page.setViewportSize(LAPTOP);
  });

  test("a validation error is shown next to its field and nothing typed is lost", async () => {
    await page.goto(`${base}/domains`);
    await page.locator("tr", { hasText: "home.example.com" }).getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("Hostname").fill("not a hostname");
    await page.getByLabel("TTL").fill("120");
    await page.getByRole("button", { name: "Save changes" }).click();
    const hostname = page.getByLabel("Hostname");
    await page.locator("#f-domain_name-error").waitFor();
    expect(await hostname.getAttribute("aria-invalid")).toBe("true");
    expect(await hostname.getAttribute("aria-describedby")).toContain("f-domain_name-error");
    expect(await hostname.inputValue()).toBe("not a hostname");
    expect(await page.getByLabel("TTL").inputValue()).toBe("120");
    expect(await page.locator("#f-domain_name-error").textContent()).toContain("not a valid hostname");
  });

  test("edit the schedule", async () => {
    await page.getByLabel("Hostname").fill("home.example.com");
    await page.getByLabel("Schedule").fill("*/15 * * * *");
    await page
      .locator("#schedule-preview")
      .getByText(/:(00|15|30|45)/)
      .waitFor();
    await page.getByRole("button", { name: "Save changes" }).click();
    await see("home.example.com saved.");
    await see("*/15 * * * *");
    expect((await app.request("GET", "/api/v1/domains/1")).body).toMatchObject({
      cron_schedule: "*/15 * * * *",
      config: { ttl: 120 },
    });
  });

  test("disable, then delete with a confirmation", async () => {
    const row = page.locator("tr", { hasText: "home.example.com" });
    const toggle = row.getByRole("switch");
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    await toggle.click();
    await row.getByText("Disabled", { exact: true }).waitFor();
    expect(await row.getByRole("switch").getAttribute("aria-checked")).toBe("false");
    expect(await row.getByRole("button", { name: "Update now" }).isDisabled()).toBe(true);

    await row.getByRole("button", { name: "Delete" }).click();
    // The list comes back in place, saying so; with no row after it, focus is on the list's heading.
    await see("home.example.com (A) deleted, with its history");
    await page.getByText("No domains yet.").waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "domain-list-title", undefined, {
      timeout: 15_000,
    });
    expect((await app.request("GET", "/api/v1/domains")).body).toEqual([]);
  });

  test("the about page shows the running build and no secret", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" }).click();
    await see("Settings in effect");
    const content = await page.content();
    expect(content).not.toContain(SECRET_KEY);
    expect(content).not.toContain(app.ctx.keys.encryptionKey);
    await shot("about");
  });

  test("a cross-site form post is refused", async () => {
    // The attacker's page, served by the browser itself: a form that posts to the app.
    await page.route(`${EVIL_ORIGIN}/**`, (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<form method="post" action="${base}/providers/1/delete"><button>Win a prize</button></form>`,
      }),
    );
    await page.goto(`${EVIL_ORIGIN}/prize`);
    const [response] = await Promise.all([
      page.waitForResponse(`${base}/providers/1/delete`),
      page.getByRole("button", { name: "Win a prize" }).click(),
    ]);
    // A page that says what happened, not raw JSON.
    expect(response.status()).toBe(403);
    await see("Cross-site request refused");
    await see("The form was not sent from ddnsd's own pages.");
    expect((await app.request("GET", "/api/v1/providers")).body).toHaveLength(1);
  });

  test("sign out", async () => {
    await page.goto(`${base}/`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await see("You have signed out.");
    await page.goto(`${base}/providers`);
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  test("an expired session returns to the sign-in page", async () => {
    const expired = await new SignJWT({ sub: "admin", jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(SECRET_KEY));
    await context.addCookies([
      { name: "ddnsd_session", value: expired, url: base, httpOnly: true, sameSite: "Strict" },
    ]);
    await page.goto(`${base}/providers`);
    await see("Your session has expired");
    expect(new URL(page.url()).pathname).toBe("/login");
    // Signing in again goes back to where the visitor was.
    await signIn();
    await page.waitForURL(`${base}/providers`);
  });

  test("no page broke the Content-Security-Policy", () => {
    expect(cspViolations).toEqual([]);
  });

  test("the browser never asked any host but the app", () => {
    const elsewhere = requested.filter((url) => !url.startsWith(`${base}/`) && !url.startsWith(`${EVIL_ORIGIN}/`));
    expect(elsewhere).toEqual([]);
    expect(requested.some((url) => url.includes("/assets/htmx.min.js"))).toBe(true);
  });
});
