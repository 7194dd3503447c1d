// The admin pages' second round in a real Chromium, as a newcomer uses them: on a phone
// (390×844) and a laptop (1366×768), by keyboard (asserting where focus lands after each swap),
// with a tab left open while things change (a deleted domain, a scheduled update), and one pass
// with JavaScript off. Throughout, no page is raw JSON and nothing breaks the CSP. Screenshots
// land in test/e2e/screenshots/ (git-ignored) for a person to look at.

import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { eq } from "drizzle-orm";
import { domains } from "../../src/db/schema";
import { CLOUDFLARE_FAKE_TOKEN, startCloudflareFake, type CloudflareFake } from "../fakes/cloudflare";
import { ECHO_DEFAULT_IPV4, startEchoFake, type EchoFake } from "../fakes/echo";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOTS = join(import.meta.dir, "screenshots");
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const LONG_IPV6 = "2001:db8:85a3:1234:5678:8a2e:370:7334";

// The live refresh runs every 10 s; one wait spans it.
setDefaultTimeout(30_000);

let browser: Browser;
let app: TestApp;
let server: ReturnType<typeof Bun.serve>;
let cloudflare: CloudflareFake;
let echo: EchoFake;
let base: string;
/** Documents the browser was given that were not HTML (raw JSON on screen). */
const rawDocuments: string[] = [];
/** Content-Security-Policy violations any page reported. */
const cspViolations: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}; the browser tests need it.`);
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
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // A provider and two records of one name, made through the API (the first test file covers the forms).
  const provider = await app.request("POST", "/api/v1/providers", { body: { name: "Home", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } } });
  for (const record_type of ["A", "AAAA"]) {
    await app.request("POST", "/api/v1/domains", { body: { provider_id: provider.body.id, domain_name: "home.example.com", record_type } });
  }
}, 20_000);

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  await cloudflare?.stop();
  await echo?.stop();
});

async function open(viewport: { width: number; height: number }, options: { javaScript?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, colorScheme: "light", javaScriptEnabled: options.javaScript ?? true });
  context.setDefaultTimeout(5_000);
  const page = await context.newPage();
  page.on("dialog", (dialog) => void dialog.accept());
  page.on("response", (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (response.request().isNavigationRequest() && response.status() !== 303 && !type.startsWith("text/html") && !response.url().includes("/docs")) {
      rawDocuments.push(`${response.status()} ${response.url()} ${type}`);
    }
  });
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) cspViolations.push(message.text());
  });
  await page.goto(`${base}/login`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/`);
  return { context, page };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The id of the focused element ("" for <body>). */
function focusedId(page: Page): Promise<string> {
  return page.evaluate(() => (document.activeElement === document.body ? "" : (document.activeElement?.id ?? "")));
}

describe("on a phone, by keyboard", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await open(PHONE));
  });
  afterAll(() => context.close());

  test("Update now and the switch keep focus on the control that was used", async () => {
    await page.goto(`${base}/domains`);
    const update = page.locator("#update-1");
    await update.focus();
    await page.keyboard.press("Enter");
    await page.locator("#domain-1").getByText(`Now points at ${ECHO_DEFAULT_IPV4}`).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "update-1");
    expect(await focusedId(page)).toBe("update-1");

    const toggle = page.locator("#enabled-2");
    await toggle.focus();
    await page.keyboard.press("Space");
    await page.locator("#domain-2").getByText("Disabled").waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "enabled-2");
    expect(await page.locator("#enabled-2").getAttribute("aria-checked")).toBe("false");
    await page.keyboard.press("Space");
    await page.locator("#enabled-2[aria-checked=true]").waitFor();
    // Focus comes back once htmx has settled the swap (a few ms later).
    await page.waitForFunction(() => document.activeElement?.id === "enabled-2");
    expect(await focusedId(page)).toBe("enabled-2");
    await shot(page, "flows-domains-phone");
  });

  test("every control is at least 44 px tall, and a row's actions share lines", async () => {
    const heights = await page.locator("#domain-1 .cell-actions .button, #domain-1 .switch").evaluateAll((elements) =>
      elements.map((e) => Math.round(e.getBoundingClientRect().height)),
    );
    expect(heights.length).toBe(5);
    for (const height of heights) expect(height).toBeGreaterThanOrEqual(44);
    // Four actions in two rows of two: Delete never sits alone on a line.
    const tops = await page.locator("#domain-1 .cell-actions .button").evaluateAll((elements) => elements.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(2);
  });

  test("an IPv6 address breaks only between its groups", async () => {
    app.ctx.db.update(domains).set({ lastKnownIp: LONG_IPV6 }).where(eq(domains.id, 2)).run();
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto(`${base}/domains`);
    const groupsSplit = await page.locator("#domain-2 code.ip").evaluate((code) => {
      let split = 0;
      for (const node of Array.from(code.childNodes)) {
        if (node.nodeType !== Node.TEXT_NODE) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if (range.getClientRects().length > 1) split++;
      }
      return split;
    });
    expect(groupsSplit).toBe(0);
    expect(await page.locator("#domain-2 code.ip").textContent()).toBe(LONG_IPV6);
    await shot(page, "flows-ipv6-narrow");
    await page.setViewportSize(PHONE);
  });

  test("the menu opens, and Escape closes it with focus back on its button", async () => {
    await page.getByText("Menu").click();
    await page.getByRole("navigation", { name: "Main (menu)" }).waitFor();
    await shot(page, "flows-menu-phone");
    await page.keyboard.press("Escape");
    await page.getByRole("navigation", { name: "Main (menu)" }).waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("SUMMARY");
  });
});

describe("on a laptop, in a tab left open", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await open(LAPTOP));
  });
  afterAll(() => context.close());

  test("the dashboard shows a new address without a reload", async () => {
    await page.goto(`${base}/`);
    await page.locator("#domain-1").getByText(ECHO_DEFAULT_IPV4).waitFor();
    const asOf = await page.locator("[data-as-of] time").textContent();
    // A scheduled update elsewhere changes the address.
    echo.ipv4 = "93.184.216.34";
    const update = await app.request("POST", "/api/v1/domains/1/update_ip");
    expect([update.status, update.body.ip_address]).toEqual([200, "93.184.216.34"]);
    await page.locator("#domain-1").getByText("93.184.216.34").waitFor({ timeout: 15_000 });
    expect(await page.locator("[data-as-of] time").textContent()).not.toBe(asOf);
    expect(page.url()).toBe(`${base}/`);
    await shot(page, "flows-dashboard-live");
  });

  test("actions on a domain deleted elsewhere say so in place, with what to do", async () => {
    await app.request("POST", "/api/v1/domains", { body: { provider_id: 1, domain_name: "gone.example.com" } });
    await page.goto(`${base}/domains`);
    const row = page.locator("tr", { hasText: "gone.example.com" });
    await row.waitFor();
    const id = (await row.getAttribute("id"))!.replace("domain-", "");
    await app.request("DELETE", `/api/v1/domains/${id}`);
    await row.getByRole("button", { name: /^Update now/ }).click();
    await row.getByText("Domain not found. It may have been deleted in another tab: reload the page to see the current state.").waitFor();
    await row.getByRole("switch").click();
    await row.locator(".request-error").nth(1).waitFor();
    expect(await row.locator(".request-error").count()).toBe(2);
    await shot(page, "flows-deleted-elsewhere");
    // Its history link leads to a page that says what happened, not to JSON.
    await row.getByRole("link", { name: /^History/ }).click();
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    await page.getByRole("link", { name: "All domains" }).click();
    await page.waitForURL(`${base}/domains`);
  });

  test("the theme toggle remembers the choice", async () => {
    const toggle = page.locator(".header-user [data-theme-toggle]");
    await toggle.click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await page.locator(".header-user [data-theme-toggle]").getAttribute("aria-pressed")).toBe("true");
    await shot(page, "flows-domains-dark");
    await page.locator(".header-user [data-theme-toggle]").click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
  });

  test("the green badge and the input borders meet WCAG AA contrast", async () => {
    await page.goto(`${base}/providers/new`);
    const ratios = await page.evaluate(() => {
      const luminance = (color: string) => {
        const [r, g, b] = color.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((v) => {
          const c = Number(v) / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        }) as [number, number, number];
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const ratio = (a: string, b: string) => {
        const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
        return (hi + 0.05) / (lo + 0.05);
      };
      const badge = document.createElement("span");
      badge.className = "badge badge-ok";
      document.body.append(badge);
      const input = document.querySelector("input[type=text]")!;
      const card = input.closest(".card")!;
      return {
        badge: ratio(getComputedStyle(badge).color, getComputedStyle(badge).backgroundColor),
        input: ratio(getComputedStyle(input).borderTopColor, getComputedStyle(card).backgroundColor),
      };
    });
    expect(ratios.badge).toBeGreaterThanOrEqual(4.5);
    expect(ratios.input).toBeGreaterThanOrEqual(3);
  });
});

describe("without JavaScript", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await open(PHONE, { javaScript: false }));
  });
  afterAll(() => context.close());

  test("Update now, the switch and Verify post, and come back with the outcome", async () => {
    await page.goto(`${base}/domains`);
    await page.locator("#update-1").click();
    await page.waitForURL(`${base}/domains`);
    await shot(page, "flows-nojs-updated");
    expect(await page.locator(".notice").textContent()).toMatch(/^home\.example\.com \(A\): (Now points at|Already pointed at) /);
    await page.locator("#enabled-1").click();
    await page.getByText("home.example.com (A) disabled: it is not updated.").waitFor();
    expect(await page.locator("#enabled-1").getAttribute("aria-checked")).toBe("false");
    await shot(page, "flows-nojs-domains");
    await page.goto(`${base}/providers`);
    await page.getByRole("button", { name: "Verify Home" }).click();
    await page.getByText("“Home”: the service accepted its credentials").waitFor();
  });

  test("a delete goes through a confirmation page", async () => {
    await page.goto(`${base}/domains`);
    await page.getByRole("button", { name: "Delete home.example.com (A)" }).click();
    await page.getByRole("heading", { name: "Delete home.example.com (A)?" }).waitFor();
    expect((await app.request("GET", "/api/v1/domains")).body.map((d: { id: number }) => d.id)).toContain(1);
    await shot(page, "flows-nojs-confirm");
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByText("home.example.com (A) deleted.").waitFor();
    expect((await app.request("GET", "/api/v1/domains")).body.map((d: { id: number }) => d.id)).not.toContain(1);
  });

  test("a mistyped address is a page with a way back", async () => {
    await page.goto(`${base}/domains/12345/history`);
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    await page.getByRole("link", { name: "All domains" }).click();
    await page.waitForURL(`${base}/domains`);
  });
});

describe("throughout", () => {
  test("no page was raw JSON, and nothing broke the Content-Security-Policy", () => {
    expect(rawDocuments).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
