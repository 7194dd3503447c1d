// The admin pages' fifth round in a real Chromium: the domain form on a phone (the "Address from"
// choice within the screen, the fixed address only for a fixed source, the schedule's presets, the
// provider's zones offered), every form's "Enabled" label beside its box, the appliance's problems
// in one banner, each page with nothing for axe-core to find.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { axeViolations } from "./axe";
import { launchChromium } from "./browser";

const LAPTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let app: TestApp;
let server: ReturnType<typeof Bun.serve>;
let cloudflare: CloudflareFake;
let base: string;
let providerId: number;

beforeAll(async () => {
  cloudflare = startCloudflareFake();
  cloudflare.addZone("example.com");
  app = await makeTestApp({ DDNS_CLOUDFLARE_API_URL: cloudflare.url });
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.app.handle(request) });
  base = `http://127.0.0.1:${server.port}`;
  const provider = await app.request("POST", "/api/v1/providers", {
    body: { name: "Home", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
  });
  providerId = (provider.body as { id: number }).id;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  await cloudflare?.stop();
});

async function open(
  viewport: { width: number; height: number },
  options: { javaScript?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport, javaScriptEnabled: options.javaScript ?? true });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/`);
  return { context, page };
}

describe("the domain form", () => {
  test("on a phone: the address choice within the screen, the fixed address only for a fixed source, presets fill the schedule", async () => {
    const { context, page } = await open(PHONE);
    try {
      await page.goto(`${base}/domains/new?provider=${providerId}`);
      const select = page.locator("#f-address_source");
      const box = await select.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      const fixed = page.locator("#f-fixed_address");
      expect(await fixed.isVisible()).toBe(false);
      await select.selectOption("fixed");
      expect(await fixed.isVisible()).toBe(true);
      await select.selectOption("web");
      expect(await fixed.isVisible()).toBe(false);
      await page.getByRole("button", { name: "Every 15 minutes" }).click();
      expect(await page.locator("#f-cron_schedule").inputValue()).toBe("*/15 * * * *");
      expect(page.url()).toBe(`${base}/domains/new?provider=${providerId}`);
      // The preview follows, as when typing: no longer the default interval's.
      await page.waitForFunction(
        () => !document.querySelector("#schedule-preview")?.textContent?.includes("(default)"),
      );
      expect(
        await page.locator("#provider-zones option").evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value)),
      ).toEqual(["example.com"]);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("without JavaScript the fixed address still waits for its choice", async () => {
    const { context, page } = await open(LAPTOP, { javaScript: false });
    try {
      await page.goto(`${base}/domains/new?provider=${providerId}`);
      expect(await page.locator("#f-fixed_address").isVisible()).toBe(false);
    } finally {
      await context.close();
    }
  });
});

describe("every form's Enabled label beside its box", () => {
  for (const path of ["/domains/new", "/providers/new?type=cloudflare", "/notifications/new"]) {
    test(path, async () => {
      const { context, page } = await open(LAPTOP);
      try {
        await page.goto(`${base}${path}`);
        const checkbox = await page.locator("#f-is_enabled").boundingBox();
        const label = await page.locator('label[for="f-is_enabled"]').boundingBox();
        expect(checkbox).not.toBeNull();
        expect(label).not.toBeNull();
        expect(label!.x - (checkbox!.x + checkbox!.width)).toBeLessThan(20);
      } finally {
        await context.close();
      }
    });
  }
});

describe("update keys", () => {
  test("the domains are searched by name as one types, a ticked one kept in sight", async () => {
    for (const [name, type] of [
      ["home.example.com", "A"],
      ["home.example.com", "AAAA"],
      ["cam.example.com", "A"],
    ] as const)
      await app.request("POST", "/api/v1/domains", {
        body: { provider_id: providerId, domain_name: name, record_type: type },
      });
    const { context, page } = await open(PHONE);
    try {
      await page.goto(`${base}/update-keys`);
      const items = page.locator("[data-domain-choices] li");
      expect(await items.count()).toBe(2);
      await page.getByLabel("Only these:").check();
      await page.getByLabel("home.example.com (A, AAAA) at Home").check();
      await page.getByLabel("Find a domain").fill("cam");
      expect(await page.getByLabel("cam.example.com (A) at Home").isVisible()).toBe(true);
      expect(await page.getByLabel("home.example.com (A, AAAA) at Home").isVisible()).toBe(true);
      await page.getByLabel("home.example.com (A, AAAA) at Home").uncheck();
      await page.getByLabel("Find a domain").fill("cam.");
      expect(await page.getByLabel("home.example.com (A, AAAA) at Home").isVisible()).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe("/docs", () => {
  test("dark when the browser asks for dark, with nothing for axe-core to find; light otherwise", async () => {
    for (const colorScheme of ["dark", "light"] as const) {
      const browserContext = await browser.newContext({ viewport: LAPTOP, colorScheme });
      try {
        const page = await browserContext.newPage();
        await page.goto(`${base}/docs`);
        await page.locator(".swagger-ui .opblock").first().waitFor({ timeout: 20_000 });
        await page.locator(".swagger-ui .opblock-summary-control").first().click();
        await page.locator(".swagger-ui .opblock-body").first().waitFor();
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        const [r = 0, g = 0, b = 0] = (background.match(/\d+/g) ?? []).map(Number);
        if (colorScheme === "dark") expect(r + g + b).toBeLessThan(150);
        // Light: the page's own white (a transparent body over the white canvas).
        else expect(background === "rgba(0, 0, 0, 0)" || r + g + b > 600).toBe(true);
        expect(await axeViolations(page)).toEqual([]);
      } finally {
        await browserContext.close();
      }
    }
  }, 60_000);
});
