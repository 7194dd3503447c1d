// The admin pages' second round in a real Chromium, as a newcomer uses them: on a phone
// (390×844) and a laptop (1366×768), by keyboard (asserting where focus lands after each swap),
// with a tab left open while things change (a deleted domain, a scheduled update), the second
// wave's pages (an update key seen once, a notification and its test against a loopback webhook
// receiver, the AAAA suffix fields), and one pass with JavaScript off. Throughout, no page is raw JSON and nothing breaks the CSP. Screenshots
// land in test/e2e/screenshots/ (git-ignored) for a person to look at.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { domains } from "../../src/db/schema";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { ECHO_DEFAULT_IPV4, type EchoFake, startEchoFake } from "../fakes/echo";
import { type NotifyFake, startWebhookReceiver } from "../fakes/notify";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { launchChromium, untilSecondAfter } from "./browser";

const SCREENSHOTS = join(import.meta.dir, "screenshots");
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const LONG_IPV6 = "2001:db8:85a3:1234:5678:8a2e:370:7334";

// The live refresh runs every 10 s; one wait spans it.

let browser: Browser;
let app: TestApp;
let server: ReturnType<typeof Bun.serve>;
let cloudflare: CloudflareFake;
let echo: EchoFake;
let receiver: NotifyFake;
let base: string;
/** Documents the browser was given that were not HTML (raw JSON on screen). */
const rawDocuments: string[] = [];
/** Content-Security-Policy violations any page reported. */
const cspViolations: string[] = [];

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  cloudflare = startCloudflareFake();
  cloudflare.addZone("example.com");
  echo = startEchoFake();
  receiver = startWebhookReceiver();
  app = await makeTestApp({
    DDNS_CLOUDFLARE_API_URL: cloudflare.url,
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    DDNS_IPV6_URLS: `${echo.url}/v6`,
  });
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.app.handle(request) });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchChromium();
  // A provider and two records of one name, made through the API (the first test file covers the forms).
  const provider = await app.request("POST", "/api/v1/providers", {
    body: { name: "Home", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
  });
  for (const record_type of ["A", "AAAA"]) {
    await app.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.body.id, domain_name: "home.example.com", record_type },
    });
  }
});

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  await cloudflare?.stop();
  await echo?.stop();
  await receiver?.stop();
});

async function open(
  viewport: { width: number; height: number },
  options: { javaScript?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport,
    colorScheme: "light",
    javaScriptEnabled: options.javaScript ?? true,
  });
  context.setDefaultTimeout(5_000);
  const page = await context.newPage();
  page.on("dialog", (dialog) => void dialog.accept());
  page.on("response", (response) => {
    const type = response.headers()["content-type"] ?? "";
    if (
      response.request().isNavigationRequest() &&
      response.status() !== 303 &&
      !type.startsWith("text/html") &&
      !response.url().includes("/docs")
    ) {
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

/** Until no htmx request is under way and every swap has settled: the next key goes to a list at rest. */
function settled(page: Page): Promise<unknown> {
  return page.waitForFunction(() => document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling") === null);
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
    await page.waitForFunction(() => document.activeElement?.id === "update-1", undefined, { timeout: 15_000 });
    expect(await focusedId(page)).toBe("update-1");
    await settled(page);

    const toggle = page.locator("#enabled-2");
    await toggle.focus();
    await page.keyboard.press("Space");
    await page.locator("#domain-2").getByText("Disabled", { exact: true }).waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "enabled-2", undefined, { timeout: 15_000 });
    expect(await page.locator("#enabled-2").getAttribute("aria-checked")).toBe("false");
    await settled(page);
    await page.keyboard.press("Space");
    await page.locator("#enabled-2[aria-checked=true]").waitFor();
    // Focus comes back once htmx has settled the swap (a few ms later).
    await page.waitForFunction(() => document.activeElement?.id === "enabled-2", undefined, { timeout: 15_000 });
    expect(await focusedId(page)).toBe("enabled-2");
    await shot(page, "flows-domains-phone");
  });

  test("every control is at least 44 px tall, and a row's actions share a line", async () => {
    const heights = await page
      .locator("#domain-1 .cell-actions .button, #domain-1 .switch")
      .evaluateAll((elements) => elements.map((e) => Math.round(e.getBoundingClientRect().height)));
    expect(heights.length).toBe(5);
    for (const height of heights) expect(height).toBeGreaterThanOrEqual(44);
    // The four actions on one line, inside the screen: Delete never sits alone on a line.
    const boxes = await page
      .locator("#domain-1 .cell-actions .button")
      .evaluateAll((elements) => elements.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
    expect(new Set(boxes.map((box) => Math.round(box.top))).size).toBe(1);
    for (const box of boxes) expect(box.right).toBeLessThanOrEqual(page.viewportSize()!.width);
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

describe("a list left open while its controls are used", () => {
  test("a control swapped in works at once: pressed the moment its row comes back, it answers in place", async () => {
    const { context, page } = await open(LAPTOP);
    await page.goto(`${base}/domains`);
    await page.evaluate(() => {
      (window as unknown as { samePage: boolean }).samePage = true;
      // The moment the switch's answer is swapped in, its new switch is pressed (as fast as no person can).
      document.addEventListener(
        "htmx:afterSwap",
        () => queueMicrotask(() => (document.getElementById("enabled-1") as HTMLButtonElement).click()),
        { once: true },
      );
    });
    await page.locator("#enabled-1").click();
    await page.locator("#enabled-1[aria-checked=true]").waitFor();
    await settled(page);
    // Answered in place both times: the page was never reloaded by a plain form's post.
    expect(await page.evaluate(() => (window as unknown as { samePage?: boolean }).samePage)).toBe(true);
    expect((await app.request("GET", "/api/v1/domains/1")).body.is_enabled).toBe(true);
    await context.close();
  });

  test("a refresh of the list never runs beside a switch's request, after refreshes have come and gone", async () => {
    // The page's clock is driven by the test, so the refreshes come exactly when it says.
    const { context, page } = await open(LAPTOP);
    await page.clock.install();
    await page.goto(`${base}/domains`);
    await page.evaluate(() => {
      const counter = window as unknown as { liveSent: number };
      counter.liveSent = 0;
      document.addEventListener("htmx:beforeSend", (event) => {
        if ((event as CustomEvent).detail.elt.hasAttribute("data-live")) counter.liveSent++;
      });
    });
    const liveSent = () => page.evaluate(() => (window as unknown as { liveSent: number }).liveSent);
    // Two refreshes come and go (each replaces the list, so the request's element is gone when it ends).
    for (const refresh of [1, 2]) {
      await page.evaluate(() => document.getElementById("domain-list")?.setAttribute("data-seen", ""));
      await page.clock.fastForward(10_000);
      expect(await liveSent()).toBe(refresh);
      await page.locator("#domain-list:not([data-seen])").waitFor();
    }
    // The switch's request is held in the browser while the next refresh falls due.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/domains/1/enabled", async (route) => {
      await held;
      await route.continue();
    });
    await page.locator("#enabled-1").focus();
    const sent = page.waitForRequest("**/domains/1/enabled");
    await page.keyboard.press("Space");
    await sent;
    await page.clock.fastForward(10_000);
    expect(await liveSent()).toBe(2);
    release();
    await page.locator("#enabled-1[aria-checked=false]").waitFor();
    await page.waitForFunction(() => document.activeElement?.id === "enabled-1", undefined, { timeout: 15_000 });
    // Back on, as the other tests expect it.
    await page.unroute("**/domains/1/enabled");
    await settled(page);
    await page.keyboard.press("Space");
    await page.locator("#enabled-1[aria-checked=true]").waitFor();
    await context.close();
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
    // The page's timers on a clock the test moves on, so the refresh comes without a real 10 s wait.
    await page.clock.install();
    await page.goto(`${base}/`);
    await page.locator("#domain-1 code.ip").getByText(ECHO_DEFAULT_IPV4).waitFor();
    const asOf = await page.locator("[data-as-of] time").textContent();
    const asOfSecond = Math.floor(Date.now() / 1000);
    // A scheduled update elsewhere changes the address.
    echo.ipv4 = "93.184.216.34";
    const update = await app.request("POST", "/api/v1/domains/1/update_ip");
    expect([update.status, update.body.ip_address]).toEqual([200, "93.184.216.34"]);
    // "As of" is to the second: the refresh is made once the second it shows has passed.
    await untilSecondAfter(asOfSecond);
    await page.clock.runFor(10_000);
    await page.locator("#domain-1 code.ip").getByText("93.184.216.34").waitFor();
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
    await row
      .getByText("Domain not found. It may have been deleted in another tab: reload the page to see the current state.")
      .waitFor();
    await row.getByRole("switch").click();
    await row.locator(".request-error").nth(1).waitFor();
    expect(await row.locator(".request-error").count()).toBe(2);
    await shot(page, "flows-deleted-elsewhere");
    // Its history link leads to a page that says what happened, not to JSON.
    await row.getByRole("link", { name: /^History/ }).click();
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    await page.getByRole("link", { name: "All domains" }).click();
    await page.waitForURL((url) => url.pathname === "/domains");
  });

  test("the theme toggle remembers the choice", async () => {
    const toggle = page.locator(".header-user [data-theme-toggle]");
    await toggle.click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await page.locator(".header-user [data-theme-toggle]").textContent()).toContain("Theme: dark");
    await shot(page, "flows-domains-dark");
    await page.locator(".header-user [data-theme-toggle]").click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("light");
    // The third press goes back to following the system, and that is remembered too.
    await page.locator(".header-user [data-theme-toggle]").click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(await page.locator(".header-user [data-theme-toggle]").textContent()).toContain("Theme: system");
    await page.reload();
    expect(
      await page.evaluate(() => [document.documentElement.dataset.theme, localStorage.getItem("ddnsd-theme")]),
    ).toEqual([undefined, null]);
  });

  test("the green badge and the input borders meet WCAG AA contrast", async () => {
    await page.goto(`${base}/providers/new?type=cloudflare`);
    const ratios = await page.evaluate(() => {
      const luminance = (color: string) => {
        const [r, g, b] = color
          .match(/\d+(\.\d+)?/g)!
          .slice(0, 3)
          .map((v) => {
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

describe("the second wave's pages, on a phone", () => {
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    ({ context, page } = await open(PHONE));
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  });
  afterAll(() => context.close());

  test("an update key: created, copied, and never shown again", async () => {
    await page.goto(`${base}/update-keys`);
    await page.getByLabel("Name").fill("FRITZ!Box");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = await page.locator("#new-key").inputValue();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Copy key" }).click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shot(page, "flows-update-key-created-phone");
    await page.goto(`${base}/update-keys`);
    await page
      .locator("#update-key-1")
      .getByText(`••••${key.slice(-4)}`)
      .waitFor();
    expect(await page.content()).not.toContain(key);
    await shot(page, "flows-update-keys-phone");
  });

  test("a notification: the fields follow the type, and a test reaches the receiver", async () => {
    await page.goto(`${base}/notifications/new`);
    await page.getByLabel("Type").selectOption("telegram");
    await page.getByLabel("Bot token").waitFor();
    await page.getByLabel("Type").selectOption("webhook");
    await page.getByLabel("Receiver URL").fill(`${receiver.url}/hook`);
    await page.getByLabel("Name").fill("Home hook");
    await page.getByLabel("Signing secret (optional)").fill("a-signing-secret-for-the-browser-test");
    await shot(page, "flows-notification-form-phone");
    await page.getByRole("button", { name: "Add notification" }).click();
    await page.getByText("Notification “Home hook” added").waitFor();
    expect(page.url()).toBe(`${base}/notifications`);
    const row = page.locator("#notification-1");
    await row.getByRole("button", { name: "Send test: Home hook" }).click();
    await row.getByText("Test sent").waitFor();
    expect(receiver.delivered).toHaveLength(1);
    expect(receiver.delivered[0]!.headers["x-ddnsd-signature"]).toStartWith("sha256=");
    await page.waitForFunction(() => document.activeElement?.id === "notification-test-1");
    expect(await page.content()).not.toContain("a-signing-secret-for-the-browser-test");
    const heights = await row
      .locator(".button, .switch")
      .evaluateAll((elements) => elements.map((e) => Math.round(e.getBoundingClientRect().height)));
    expect(heights.length).toBe(4);
    for (const height of heights) expect(height).toBeGreaterThanOrEqual(44);
    await shot(page, "flows-notifications-phone");
  });

  test("the AAAA suffix fields show for AAAA only, and a mistake is said next to them", async () => {
    await page.goto(`${base}/domains/new`);
    const suffix = page.getByLabel("Interface id (suffix)");
    await page.getByLabel("Record type").selectOption("A");
    expect(await suffix.isVisible()).toBe(false);
    await page.getByLabel("Record type").selectOption("AAAA");
    await suffix.waitFor();
    await page.getByLabel("Hostname").fill("nas.example.com");
    await suffix.fill("2001:db8::1");
    await page.getByRole("button", { name: "Add domain" }).click();
    await page.getByText("must leave the first 64 bits (the prefix) zero").waitFor();
    expect(await suffix.getAttribute("aria-invalid")).toBe("true");
    await shot(page, "flows-domain-suffix-phone");
    await suffix.fill("::1234:5678:9abc:def0");
    await page.getByRole("button", { name: "Add domain" }).click();
    await page.waitForURL((url) => url.pathname === "/domains");
    const added = (await app.request("GET", "/api/v1/domains")).body.find(
      (d: { domain_name: string }) => d.domain_name === "nas.example.com",
    );
    expect(added.config.ipv6_suffix).toBe("::1234:5678:9abc:def0");
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
    await page.waitForURL((url) => url.pathname === "/domains");
    await shot(page, "flows-nojs-updated");
    expect(await page.locator(".notice").textContent()).toMatch(
      /^home\.example\.com \(A\): (Now points at|Already pointed at) /,
    );
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

  test("the second wave's pages: a key shown once, a notification added through Continue, tested and deleted", async () => {
    await page.goto(`${base}/update-keys`);
    await page.getByLabel("Name").fill("OpenWrt");
    await page.getByLabel("Only these:").check();
    await page.getByRole("button", { name: "Create key" }).click();
    await page.getByText("tick at least one domain").waitFor();
    await page.getByLabel("All domains, including ones added later").check();
    await page.getByRole("button", { name: "Create key" }).click();
    expect(await page.locator("#new-key").inputValue()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.getByRole("button", { name: "Copy key" }).isVisible()).toBe(false);
    await shot(page, "flows-nojs-update-key");

    await page.goto(`${base}/notifications/new?type=webhook`);
    await page.getByLabel("Type").selectOption("ntfy");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Topic URL").fill(`${receiver.url}/hook`);
    await page.getByLabel("Name").fill("Phone");
    await page.getByRole("button", { name: "Add notification" }).click();
    await page.getByText("Notification “Phone” added").waitFor();
    await page.getByRole("button", { name: "Send test: Phone" }).click();
    await page.getByText("“Phone”: test message sent.").waitFor();
    await shot(page, "flows-nojs-notifications");
    await page.getByRole("button", { name: "Delete Phone" }).click();
    await page.getByRole("heading", { name: "Delete notification “Phone”?" }).waitFor();
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByText("Notification “Phone” deleted.").waitFor();
  });

  test("a mistyped address is a page with a way back", async () => {
    await page.goto(`${base}/domains/12345/history`);
    await page.getByRole("heading", { name: "Not found" }).waitFor();
    await page.getByRole("link", { name: "All domains" }).click();
    await page.waitForURL((url) => url.pathname === "/domains");
  });
});

describe("throughout", () => {
  test("no page was raw JSON, and nothing broke the Content-Security-Policy", () => {
    expect(rawDocuments).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
