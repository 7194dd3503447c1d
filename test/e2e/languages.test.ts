// The pages' languages and times in a real headless Chromium: a browser set to German and to a
// time zone far from UTC gets German pages whose times are in its own zone (and, without
// JavaScript, in UTC saying so); the language buttons switch to Chinese in place; axe finds
// nothing on the translated pages in German and Chinese.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createDomain, createProvider } from "../api/helpers";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { axeViolations } from "./axe";
import { launchChromium } from "./browser";

const ZONE = "Asia/Shanghai";

let browser: Browser;
let app: TestApp;
let server: ReturnType<typeof Bun.serve>;
let base: string;

beforeAll(async () => {
  app = await makeTestApp();
  const provider = await createProvider(app, { name: "Home DNS" });
  await createDomain(app, provider.id, { domain_name: "nas.example.com" });
  await app.request("POST", "/api/v1/update-keys", { body: { name: "Router" } });
  await app.request("POST", "/api/v1/notifications", {
    body: { name: "Phone alerts", type: "ntfy", options: { url: "https://ntfy.example.net/ddnsd" } },
  });
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.app.handle(request) });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  app.ctx.store.users.setLanguage("admin", "en");
  await browser?.close();
  server?.stop(true);
});

async function german(javaScriptEnabled = true): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale: "de-DE", timezoneId: ZONE, javaScriptEnabled });
  context.setDefaultTimeout(5_000);
  return { context, page: await context.newPage() };
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${base}/login`);
  await page.locator("#f-username").fill("admin");
  await page.locator("#f-password").fill(TEST_PASSWORD);
  await page.locator("form[action='/login'] button[type=submit]").click();
  await page.waitForURL(`${base}/`);
}

describe("a browser set to German, in Shanghai", () => {
  test("the sign-in page is German, from the browser's language", async () => {
    const { context, page } = await german();
    await page.goto(`${base}/login`);
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    expect(await page.locator("h1").textContent()).toBe("Anmelden");
    await context.close();
  });

  test("a time is shown in the browser's zone and language; without JavaScript in UTC, saying so", async () => {
    const { context, page } = await german();
    await signIn(page);
    await page.goto(`${base}/domains`);
    const time = page.locator("[data-as-of] time");
    const at = Date.parse((await time.getAttribute("datetime"))!);
    const expected = new Intl.DateTimeFormat("de", {
      timeZone: ZONE,
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    }).format(at);
    await page.waitForFunction((text) => document.querySelector("[data-as-of] time")?.textContent === text, expected);
    // Shanghai is UTC+8 all year: the hour shown is not the server's UTC hour.
    const hour = new Date(at + 8 * 3_600_000).getUTCHours();
    expect(expected).toContain(String(hour).padStart(2, "0"));
    await context.close();

    const plain = await german(false);
    await signIn(plain.page);
    await plain.page.goto(`${base}/domains`);
    expect(await plain.page.locator("[data-as-of] time").textContent()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
    await plain.context.close();
  });

  test("the language buttons switch the page to Chinese, and it stays so", async () => {
    const { context, page } = await german();
    await signIn(page);
    await page.goto(`${base}/update-keys`);
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    await page.locator(".site-footer button[name=language][value=zh-CN]").click();
    await page.waitForFunction(() => document.documentElement.lang === "zh-CN");
    expect(page.url()).toBe(`${base}/update-keys`);
    expect(await page.locator("h1").textContent()).toBe("更新密钥");
    await page.goto(`${base}/providers`);
    expect(await page.locator("h1").textContent()).toBe("服务商");
    await context.close();
  });

  test("the words the page's script writes are German: the theme button, the picker's count", async () => {
    // The admin chose Chinese in the test before: German again.
    app.ctx.store.users.setLanguage("admin", "de");
    const { context, page } = await german();
    await signIn(page);
    await page.goto(`${base}/providers/new`);
    const theme = page.locator(".header-user [data-theme-toggle]");
    await theme.waitFor({ state: "visible" });
    expect(await theme.textContent()).toContain("Design: System");
    // Headless Chromium's system look is light: the first press chooses dark.
    await theme.click();
    expect(await theme.textContent()).toContain("Design: dunkel");
    await theme.click();
    expect(await theme.textContent()).toContain("Design: hell");
    await page.locator("#f-q").fill("duckdns");
    await page.waitForFunction(() =>
      /^1 von \d+ Diensten passt$/.test(document.querySelector("[data-service-count]")?.textContent ?? ""),
    );
    await page.locator("#f-q").fill("");
    await page.waitForFunction(() =>
      /^\d+ Dienste$/.test(document.querySelector("[data-service-count]")?.textContent ?? ""),
    );
    await context.close();
  });

  test("axe finds nothing on the translated pages, in German and in Chinese", async () => {
    const found: string[] = [];
    for (const language of ["de", "zh-CN"]) {
      app.ctx.store.users.setLanguage("admin", language);
      const { context, page } = await german();
      await page.goto(`${base}/login`);
      for (const violation of await axeViolations(page)) found.push(`${language} /login: ${violation}`);
      await signIn(page);
      const paths = ["/providers", "/update-keys", "/notifications", "/account/password", "/no-such-page"];
      for (const path of [...paths, "/domains/new", "/notifications/new", "/about", "/help", "/providers/new"]) {
        await page.goto(`${base}${path}`);
        expect(await page.locator("html").getAttribute("lang")).toBe(language);
        for (const violation of await axeViolations(page)) found.push(`${language} ${path}: ${violation}`);
      }
      await context.close();
    }
    expect(found).toEqual([]);
  });
});
