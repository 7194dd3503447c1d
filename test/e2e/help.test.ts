// The docs at /help in Chromium, without signing in, on a phone and a laptop: the page fits the
// screen (long commands and tables scroll inside themselves), a link between pages leads to the
// other page's section, and nothing is refused by the pages' Content-Security-Policy. (axe-core's
// check of the help pages is in walkthrough.test.ts, with every other page.)

import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { type Served, serve } from "../hardening/helpers";
import { launchChromium } from "./browser";

let browser: Browser;
let s: Served;

beforeAll(async () => {
  s = await serve();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await s?.running.stop();
});

test("help pages fit a phone and a laptop, and their links lead to the other page's section", async () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1366, height: 768 },
  ]) {
    const context = await browser.newContext({ viewport });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    try {
      for (const path of ["/help", "/help/operations", "/help/nas", "/help/services/cloudflare"]) {
        const response = await page.goto(`${s.base}${path}`);
        expect(response?.status()).toBe(200);
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        ).toBeLessThanOrEqual(0);
      }
      await page.goto(`${s.base}/help/nas`);
      await page.locator(".help-doc").getByRole("link", { name: "Back up and restore" }).click();
      await page.waitForURL(`${s.base}/help/operations#back-up-and-restore`);
      expect(await page.getByRole("heading", { name: "Back up and restore" }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
    expect(violations).toEqual([]);
  }
}, 60_000);
