// /docs under its Content-Security-Policy (docs/api.md, limits: not frameable, a CSP): Swagger UI still
// renders the reference in Chromium, with nothing refused by the policy.

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

test("the Swagger page renders under its CSP, with no violation reported", async () => {
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto(`${s.base}/docs`);
  expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await page.locator(".swagger-ui .info .title").waitFor({ timeout: 10_000 });
  expect(await page.locator(".opblock").count()).toBeGreaterThan(10);
  expect(violations).toEqual([]);
});
