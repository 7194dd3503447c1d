// Choosing the address source on the About page in a real Chromium, with JavaScript on (htmx) and
// off: an interface picked from the list is saved and said to be in effect, a bad echo URL is an
// error next to its field with what was typed kept, and "the environment's setting" resets it.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { effectiveSource } from "../../src/updater/address-source";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { launchChromium } from "./browser";

let browser: Browser;
let app: TestApp;
let server: ReturnType<typeof Bun.serve>;
let base: string;

beforeAll(async () => {
  // Saving detects again at once: the environment's echo services are a closed local port, never the internet.
  app = await makeTestApp({
    DDNS_ALLOW_PRIVATE_IPS: "true",
    DDNS_IPV4_URLS: "http://127.0.0.1:9/v4",
    DDNS_IPV6_URLS: "http://127.0.0.1:9/v6",
  });
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.app.handle(request) });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  app?.ctx.sqlite.close();
});

describe("the About page's address sources", () => {
  for (const javaScript of [true, false]) {
    test(`JavaScript ${javaScript ? "on" : "off"}: pick an interface, a bad URL is refused in place, back to the environment`, async () => {
      const context = await browser.newContext({
        viewport: { width: 1366, height: 768 },
        javaScriptEnabled: javaScript,
      });
      context.setDefaultTimeout(5_000);
      const page = await context.newPage();
      try {
        await page.goto(`${base}/login`);
        await page.getByLabel("Username").fill("admin");
        await page.getByLabel("Password").fill(TEST_PASSWORD);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(`${base}/`);

        await page.goto(`${base}/about`);
        const ipv4 = page.getByLabel("IPv4 address from");
        expect(await ipv4.inputValue()).toBe("environment");
        await ipv4.selectOption("interface:lo");
        await page.getByRole("button", { name: "Save address sources" }).click();
        await page.locator("main .notice").getByText("Address sources saved").waitFor();
        expect(await page.locator(".facts").textContent()).toContain(
          "IPv4: interface:lo (read from the network interface lo; chosen below)",
        );
        expect(await page.getByLabel("IPv4 address from").inputValue()).toBe("interface:lo");
        expect(effectiveSource(app.ctx, 4).from).toBe("database");

        await page.getByLabel("IPv4 address from").selectOption("web");
        await page.getByLabel("IPv4 echo services").fill("ftp://example.net/ip");
        await page.getByRole("button", { name: "Save address sources" }).click();
        await page.locator("#f-ipv4_urls-error").getByText("expected http(s) URLs").waitFor();
        expect(await page.getByLabel("IPv4 echo services").inputValue()).toBe("ftp://example.net/ip");
        expect(await page.getByLabel("IPv4 address from").inputValue()).toBe("web");
        expect(effectiveSource(app.ctx, 4).source).toEqual({ kind: "interface", name: "lo" });

        await page.getByLabel("IPv4 address from").selectOption("environment");
        await page.getByRole("button", { name: "Save address sources" }).click();
        await page.locator("main .notice").getByText("Address sources saved").waitFor();
        expect(effectiveSource(app.ctx, 4).from).toBe("environment");
      } finally {
        await context.close();
      }
    });
  }
});
