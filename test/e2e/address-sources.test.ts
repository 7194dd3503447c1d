// Choosing the address source on the About page in a real Chromium, with JavaScript on (htmx) and
// off: an interface picked from the list is saved and said to be in effect, a bad echo URL is an
// error next to its field with what was typed kept, and "the environment's setting" resets it. And
// the domain form's "Ask now": the echo services' answer shown in the field, the form as it was.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { effectiveSource } from "../../src/updater/address-source";
import { createProvider } from "../api/helpers";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { axeViolations } from "./axe";
import { launchChromium } from "./browser";

let browser: Browser;
let app: TestApp;
let server: ReturnType<typeof Bun.serve>;
let base: string;
let echo: EchoFake;

beforeAll(async () => {
  // Saving detects again at once, and "Ask now" asks: the environment's echo services are the fake, never the internet.
  echo = startEchoFake();
  app = await makeTestApp({
    DDNS_ALLOW_PRIVATE_IPS: "true",
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    DDNS_IPV6_URLS: `${echo.url}/v6`,
  });
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.app.handle(request) });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  app?.ctx.sqlite.close();
  await echo?.stop();
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

describe("the domain form's Ask now", () => {
  for (const javaScript of [true, false]) {
    test(`JavaScript ${javaScript ? "on" : "off"}: the echo services' answer in the field, the form as it was${javaScript ? ", nothing for axe-core" : ""}`, async () => {
      app.ctx.publicIp.answers.clear();
      if ((await app.request("GET", "/api/v1/providers")).body.length === 0)
        await createProvider(app, { name: "Home" });
      const context = await browser.newContext({
        viewport: { width: 1366, height: 768 },
        javaScriptEnabled: javaScript,
      });
      context.setDefaultTimeout(5_000);
      const page = await context.newPage();
      try {
        await page.goto(`${base}/login?next=/domains/new`);
        await page.getByLabel("Username").fill("admin");
        await page.getByLabel("Password").fill(TEST_PASSWORD);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(`${base}/domains/new`);

        await page.getByLabel("Hostname").fill("typed.example.com");
        const choice = page.getByLabel("Where this record's address comes from");
        await choice.selectOption("dns");
        expect(await choice.locator('option[value="web"]').textContent()).toBe(
          "Echo services on the web — not asked yet",
        );
        // Marks the page as it is, to tell an answer swapped in place from a page loaded again.
        if (javaScript) await page.evaluate(() => document.body.setAttribute("data-before", ""));
        await page.getByRole("button", { name: "Ask the echo services now" }).click();
        await page.locator("#address-source-asked").getByText(`The echo services give ${echo.ipv4}`).waitFor();
        expect(await choice.locator('option[value="web"]').textContent()).toBe(
          `Echo services on the web — now ${echo.ipv4}`,
        );
        expect(await choice.inputValue()).toBe("dns");
        expect(await page.getByLabel("Hostname").inputValue()).toBe("typed.example.com");
        expect(new URL(page.url()).pathname).toBe("/domains/new");
        if (javaScript) {
          // With htmx the answer comes in place: the same page, the button keeping the focus it was pressed with.
          expect(await page.evaluate(() => document.body.hasAttribute("data-before"))).toBe(true);
          expect(await page.evaluate(() => document.activeElement?.id)).toBe("ask-source-web");
          await page.locator(".address-source").screenshot({ path: "/tmp/ask-now.png" });
          // axe-core runs as a script; the markup without JavaScript is the same.
          expect(await axeViolations(page)).toEqual([]);
        }
        expect((await app.request("GET", "/api/v1/domains")).body).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
