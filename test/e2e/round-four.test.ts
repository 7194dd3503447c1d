// The admin pages' fourth round in a real Chromium: finding one's service among 87 (searching as
// one types, on a phone with whole names), a failure's cause where people look and kept across the
// list's refresh, choices that cannot work refused, lists that scale (search, sort, failing
// first), and /docs readable in both themes with nothing for axe-core to find.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { launchChromium } from "./browser";

const AXE_SOURCE = readFileSync(join(import.meta.dir, "../../node_modules/axe-core/axe.min.js"), "utf8");
const LAPTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let app: TestApp;
let server: ReturnType<typeof Bun.serve>;
let cloudflare: CloudflareFake;
let echo: EchoFake;
let base: string;

beforeAll(async () => {
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
});

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  await cloudflare?.stop();
  await echo?.stop();
});

async function open(
  viewport: { width: number; height: number },
  options: { javaScript?: boolean; colorScheme?: "light" | "dark" } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport,
    colorScheme: options.colorScheme ?? "light",
    javaScriptEnabled: options.javaScript ?? true,
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on("dialog", (dialog) => void dialog.accept());
  await page.goto(`${base}/login`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/`);
  return { context, page };
}

/** axe-core's violations on the page as it is: rule id and the first node. */
async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(() =>
    (window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }).axe.run(
      document,
      {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
      },
    ),
  )) as { violations: { id: string; nodes: { target: string[] }[] }[] };
  return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes[0]?.target.join(" ")}`);
}

/** The names of the service entries on screen. */
function visibleServices(page: Page): Promise<string[]> {
  return page.locator("[data-service-group] .service-entry:visible .service-name").allTextContents();
}

describe("the service picker", () => {
  test("narrows as one types, by other names too, and a preset opens the dyndns2 form with its server", async () => {
    const { context, page } = await open(LAPTOP);
    try {
      await page.goto(`${base}/providers`);
      await page.getByRole("link", { name: "Add provider" }).click();
      await page.waitForURL(`${base}/providers/new`);
      expect((await visibleServices(page)).length).toBe(87);
      // No "Search" button with JavaScript: the list follows what is typed.
      expect(await page.getByRole("button", { name: "Search" }).isVisible()).toBe(false);
      const search = page.getByLabel("Find your service");
      for (const [typed, expected] of [
        ["noip", ["No-IP"]],
        ["hurricane", ["Hurricane Electric"]],
        ["gcp", ["Google Cloud DNS"]],
        ["bind", ["RFC 2136 (DNS UPDATE)"]],
      ] as const) {
        await search.fill(typed);
        expect(await visibleServices(page)).toEqual([...expected]);
      }
      expect(await page.locator("[data-service-count]").textContent()).toBe("1 service of 87 match");
      // The popular entries stand above the groups only while nothing is searched; a router's name says where a router goes.
      expect(await page.locator("[data-service-popular]").isVisible()).toBe(false);
      await search.fill("fritz");
      expect(await page.locator("[data-router-hint]").isVisible()).toBe(true);
      await search.fill("");
      expect(await page.locator("[data-service-popular]").isVisible()).toBe(true);
      expect(await page.locator("[data-router-hint]").isVisible()).toBe(false);
      await search.fill("he.net");
      await page.getByRole("link", { name: /Hurricane Electric/ }).click();
      await page.waitForURL(/type=dyndns2/);
      expect(await page.locator("input[name=option_server]").inputValue()).toBe("https://dyn.dns.he.net");
      expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("Hurricane Electric");
    } finally {
      await context.close();
    }
  });

  test("without JavaScript the search is a form the server answers; on a phone every name is whole", async () => {
    const { context, page } = await open(PHONE, { javaScript: false });
    try {
      await page.goto(`${base}/providers/new`);
      // Whole names: no entry's name is cut (its box as wide as its text needs), none overflows the screen.
      const cut = await page
        .locator(".service-name")
        .evaluateAll((names) =>
          names
            .filter(
              (name) =>
                name.scrollWidth > name.clientWidth + 1 || name.getBoundingClientRect().right > window.innerWidth,
            )
            .map((name) => name.textContent),
        );
      expect(cut).toEqual([]);
      expect(await page.getByRole("button", { name: "Continue" }).count()).toBe(0);
      await page.getByLabel("Find your service").fill("google");
      await page.getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/q=google/);
      expect(await visibleServices(page)).toEqual(["Google Cloud DNS"]);
      await page.getByRole("link", { name: /Google Cloud DNS/ }).click();
      await page.waitForURL(/type=gcloud/);
      expect(await page.locator(".chosen-service strong").textContent()).toBe("Google Cloud DNS");
    } finally {
      await context.close();
    }
  });

  test("adding a Cloudflare provider from the picker saves it", async () => {
    const { context, page } = await open(LAPTOP);
    try {
      await page.goto(`${base}/providers/new?q=cloudflare`);
      await page.getByRole("link", { name: /Cloudflare/ }).click();
      await page.waitForURL(/type=cloudflare/);
      await page.getByLabel("Name").fill("Home");
      await page.getByLabel("API token").fill(CLOUDFLARE_FAKE_TOKEN);
      await page.getByRole("button", { name: "Add provider" }).click();
      await page.waitForURL(`${base}/providers`);
      expect(await page.locator(".notice").first().textContent()).toContain("Provider “Home” added");
    } finally {
      await context.close();
    }
  });

  test("axe-core finds nothing on the picker, light and dark, phone and laptop", async () => {
    const found: string[] = [];
    for (const viewport of [PHONE, LAPTOP]) {
      for (const colorScheme of ["light", "dark"] as const) {
        const { context, page } = await open(viewport, { colorScheme });
        try {
          for (const path of ["/providers/new", "/providers/new?q=nsupdate"]) {
            await page.goto(`${base}${path}`);
            for (const violation of await axeViolations(page))
              found.push(`${path} ${viewport.width} ${colorScheme}: ${violation}`);
          }
        } finally {
          await context.close();
        }
      }
    }
    expect(found).toEqual([]);
  });
});

describe("/docs", () => {
  test("axe-core finds nothing on the API reference, light and dark, and its servers list has a label", async () => {
    const found: string[] = [];
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport: LAPTOP, colorScheme });
      try {
        const page = await context.newPage();
        await page.goto(`${base}/docs`);
        await page.locator(".swagger-ui .opblock").first().waitFor({ timeout: 20_000 });
        await page.locator(".swagger-ui .servers select[aria-label]").waitFor();
        for (const violation of await axeViolations(page)) found.push(`${colorScheme}: ${violation}`);
      } finally {
        await context.close();
      }
    }
    expect(found).toEqual([]);
  });
});

describe("a failure's cause where people look", () => {
  test("the message after Update now is still there after the list refreshes itself, in the service's words with the next step", async () => {
    const provider = await app.request("POST", "/api/v1/providers", {
      body: { name: "Cloudflare (personal)", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
    });
    const domain = await app.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.body.id, domain_name: "cause.example.com", create_if_missing: false },
    });
    const { context, page } = await open(LAPTOP);
    const row = page.locator(`#domain-${domain.body.id}`);
    try {
      // The page's timers on a clock the test moves on, so the refresh comes without a real 10 s wait.
      await page.clock.install();
      await page.goto(`${base}/`);
      cloudflare.fault({ status: 400, code: 1004, message: "DNS Validation Error" });
      try {
        await row.getByRole("button", { name: /^Update now/ }).click();
        await row
          .locator(".update-result")
          .getByText("Cloudflare (personal) refused the request: DNS Validation Error")
          .waitFor();
      } finally {
        cloudflare.clearFaults();
      }
      // The dashboard refreshes every 10 s: move its clock on, wait for that refresh (a new region
      // in place of the one marked), then the message is still there.
      await page
        .locator("[data-live]")
        .first()
        .evaluate((region) => region.setAttribute("data-before", ""));
      await page.clock.runFor(10_000);
      await page.waitForFunction(() => !document.querySelector("[data-live]")?.hasAttribute("data-before"));
      expect(await row.locator(".update-result").textContent()).toContain(
        "Cloudflare (personal) refused the request: DNS Validation Error",
      );
      expect(await row.locator(".update-result").textContent()).toContain("Check the domain's name and zone");
      // Failing first: the failing domain is the dashboard's first row.
      expect(await page.locator("#dashboard-live tbody tr").first().getAttribute("id")).toBe(
        `domain-${domain.body.id}`,
      );
    } finally {
      await context.close();
      await app.request("DELETE", `/api/v1/domains/${domain.body.id}`);
    }
  });
});

describe("the dashboard on a phone", () => {
  test("the charts' labels read at 11 px or more", async () => {
    const provider = await app.request("POST", "/api/v1/providers", {
      body: { name: "Charts", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
    });
    await app.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.body.id, domain_name: "charts.example.com" },
    });
    const { context, page } = await open(PHONE);
    try {
      await page.goto(`${base}/`);
      const sizes = await page
        .locator(".chart-label")
        .evaluateAll((labels) => labels.map((label) => label.getBoundingClientRect().height));
      expect(sizes.length).toBeGreaterThan(0);
      for (const size of sizes) expect(size).toBeGreaterThanOrEqual(11);
    } finally {
      await context.close();
    }
  });
});

describe("lists that scale", () => {
  test("a domain just added is shown where it lands in a long list, marked, with JavaScript and without", async () => {
    const provider = await app.request("POST", "/api/v1/providers", {
      body: { name: "Many", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
    });
    for (let i = 0; i < 30; i++) {
      await app.request("POST", "/api/v1/domains", {
        body: {
          provider_id: provider.body.id,
          domain_name: `h${String(i).padStart(2, "0")}.example.com`,
          is_enabled: false,
        },
      });
    }
    for (const javaScript of [true, false]) {
      const { context, page } = await open(PHONE, { javaScript });
      try {
        await page.goto(`${base}/domains/new?provider=${provider.body.id}`);
        const name = `h15${javaScript ? "a" : "b"}.example.com`;
        await page.getByLabel("Hostname").fill(name);
        await page.getByRole("button", { name: "Add domain" }).click();
        await page.waitForURL((url) => url.pathname === "/domains");
        const landed = page.locator("tr.row-landed");
        await landed.waitFor();
        expect(await landed.locator("a.domain-link").textContent()).toBe(name);
        await page.waitForFunction(() => {
          const box = document.querySelector("tr.row-landed")?.getBoundingClientRect();
          return box !== undefined && box.top < window.innerHeight && box.bottom > 0;
        });
      } finally {
        await context.close();
      }
    }
  });
});

describe("a delete keeps one's place", () => {
  /** The accessible name of the focused element, as the test reads it: a control's label or a heading's text. */
  function focused(page: Page): Promise<string> {
    return page.evaluate(() => {
      const active = document.activeElement;
      return active === null || active === document.body
        ? "(the page)"
        : (active.getAttribute("aria-label") ?? active.textContent ?? "").trim();
    });
  }

  for (const list of [
    {
      path: "/domains",
      heading: "Your domains",
      add: async (name: string) => {
        const providers = (await app.request("GET", "/api/v1/providers")).body as { id: number; name: string }[];
        const provider =
          providers.find((p) => p.name === "Deletes") ??
          (
            await app.request("POST", "/api/v1/providers", {
              body: { name: "Deletes", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
            })
          ).body;
        return app.request("POST", "/api/v1/domains", {
          body: { provider_id: provider.id, domain_name: `del-${name.toLowerCase()}.example.com`, is_enabled: false },
        });
      },
      // Searched, so only these three are listed; the search comes back with the list.
      url: "/domains?q=del-",
      deleteLabel: (name: string) => `Delete del-${name.toLowerCase()}.example.com (A)`,
      said: (name: string) =>
        `del-${name.toLowerCase()}.example.com (A) deleted, with its history; the record at Deletes is left as it is.`,
      // The list refreshes itself: focus stays on the next row's Delete through a refresh.
      live: true,
    },
    {
      path: "/notifications",
      heading: "Your notifications",
      add: (name: string) =>
        app.request("POST", "/api/v1/notifications", {
          body: { name, type: "webhook", options: { url: "http://127.0.0.1:9/hook" }, events: ["update_failed"] },
        }),
      deleteLabel: (name: string) => `Delete ${name}`,
      said: (name: string) => `Notification “${name}” deleted.`,
    },
    {
      path: "/update-keys",
      heading: "Your update keys",
      add: (name: string) => app.request("POST", "/api/v1/update-keys", { body: { name } }),
      deleteLabel: (name: string) => `Delete update key ${name}`,
      said: (name: string) => `Update key “${name}” deleted; a router still using it is refused from now on.`,
    },
  ]) {
    test(`${list.path}: deleted in place, focus on the next row's Delete, then on the list's heading`, async () => {
      for (const name of ["First", "Second", "Third"]) expect((await list.add(name)).status).toBe(200);
      const { context, page } = await open(PHONE);
      try {
        await page.goto(`${base}${list.url ?? list.path}`);
        // A mark on the window: a page load would clear it.
        await page.evaluate(() => Object.assign(window, { samePage: true }));
        await page.getByRole("button", { name: list.deleteLabel("First") }).focus();
        await page.keyboard.press("Enter");
        await page.getByText(list.said("First")).waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await page.waitForFunction(
          (label) => document.activeElement?.getAttribute("aria-label") === label,
          list.deleteLabel("Second"),
        );
        expect(await page.getByRole("button", { name: list.deleteLabel("First") }).count()).toBe(0);
        if (list.live) {
          const asOf = await page.locator("[data-as-of] time").first().textContent();
          await page.waitForFunction(
            (before) => document.querySelector("[data-as-of] time")?.textContent !== before,
            asOf,
            { timeout: 25_000 },
          );
          await page.waitForFunction(
            (label) => document.activeElement?.getAttribute("aria-label") === label,
            list.deleteLabel("Second"),
          );
          expect(await page.getByRole("button", { name: list.deleteLabel("Third") }).count()).toBe(1);
        }
        // The last row: nothing comes after it, so focus lands on the list's heading, in view.
        await page.getByRole("button", { name: list.deleteLabel("Third") }).focus();
        await page.keyboard.press("Enter");
        await page.getByText(list.said("Third")).waitFor();
        await page.waitForFunction((heading) => document.activeElement?.textContent === heading, list.heading);
        expect(await focused(page)).toBe(list.heading);
        expect(await page.getByRole("heading", { name: list.heading }).isVisible()).toBe(true);
        expect(await page.evaluate(() => "samePage" in window)).toBe(true);
        expect(page.url()).toBe(`${base}${list.url ?? list.path}`);
        // Tab goes on from the list, not from the page's top.
        await page.keyboard.press("Tab");
        expect(await focused(page)).not.toBe("Skip to content");
      } finally {
        await context.close();
      }
    });
  }
});

describe("42 domains on a phone", () => {
  test("the dashboard lists the failing ones and sums up the rest; the domain list's rows are compact", async () => {
    for (const domain of (await app.request("GET", "/api/v1/domains")).body as { id: number }[])
      await app.request("DELETE", `/api/v1/domains/${domain.id}`);
    const ids: number[] = [];
    for (let p = 0; p < 3; p++) {
      const provider = await app.request("POST", "/api/v1/providers", {
        body: { name: `Cloudflare ${p + 1}`, type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
      });
      for (let i = 0; i < 14; i++) {
        // Two of them in a zone the account does not hold: they fail.
        const zone = p === 0 && i < 2 ? "example.org" : "example.com";
        const domain = await app.request("POST", "/api/v1/domains", {
          body: {
            provider_id: provider.body.id,
            domain_name: `host${p}-${i}.${zone}`,
            record_type: i % 3 === 0 ? "AAAA" : "A",
          },
        });
        ids.push(domain.body.id);
      }
    }
    for (const id of ids) await app.request("POST", `/api/v1/domains/${id}/update_ip`);

    const { context, page } = await open(PHONE);
    try {
      await page.goto(`${base}/`);
      const rows = page.locator("#dashboard-live tbody tr");
      expect(await rows.count()).toBe(2);
      expect(await rows.locator("a.domain-link").allTextContents()).toEqual([
        "host0-0.example.org",
        "host0-1.example.org",
      ]);
      const summary = page.locator(".folded-summary");
      expect((await summary.textContent())?.replace(/\s+/g, " ")).toBe(
        "40 more domains: 40 OK. See all 42 on the Domains page",
      );
      expect(await summary.getByRole("link").getAttribute("href")).toBe("/domains");
      // The page's own height, without the language buttons every page has at its foot.
      const dashboardHeight = await page.evaluate(
        () =>
          document.documentElement.scrollHeight -
          (document.querySelector(".site-footer")?.getBoundingClientRect().height ?? 0),
      );
      const found: string[] = [];
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        for (const violation of await axeViolations(page)) found.push(`/ ${colorScheme}: ${violation}`);
      }
      await page.emulateMedia({ colorScheme: "light" });
      // The address, the figures and the charts (about 1,700 px), then the two failing rows (it was
      // 15,000 px with every domain listed).
      expect(dashboardHeight).toBeLessThan(1800 + 250 * 2);

      await page.goto(`${base}/domains`);
      const listRows = page.locator("#domain-list tbody tr");
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        for (const violation of await axeViolations(page)) found.push(`/domains ${colorScheme}: ${violation}`);
      }
      await page.emulateMedia({ colorScheme: "light" });
      expect(found).toEqual([]);
      expect(await listRows.count()).toBe(42);
      const healthy = await listRows.evaluateAll((all) =>
        all
          .filter((row) => row.querySelector(".update-result-fail") === null)
          .map((row) => row.getBoundingClientRect().height)
          .sort((a, b) => a - b),
      );
      expect(healthy.length).toBe(40);
      // A healthy row is its name and switch, provider and address, schedule and status, and the
      // actions on one line: about 170 px, 200 px with a name that wraps (it was 397 px, a line per field).
      expect(healthy.at(-1)!).toBeLessThanOrEqual(200);
      const listHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(listHeight).toBeLessThan(1000 + 180 * 42);
      // The four actions side by side, each a thumb's target.
      const actions = await listRows
        .first()
        .locator(".cell-actions .button")
        .evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect()));
      expect(new Set(actions.map((box) => Math.round(box.top))).size).toBe(1);
      for (const box of actions) expect(box.height).toBeGreaterThanOrEqual(44);
      expect(Math.max(...actions.map((box) => box.right))).toBeLessThanOrEqual(PHONE.width);

      // A tablet: the same cards, nothing behind a sideways scroll (the seven columns did not fit).
      await page.setViewportSize({ width: 820, height: 1180 });
      for (const path of ["/", "/domains"]) {
        await page.goto(`${base}${path}`);
        const hidden = await page
          .locator(".table-wrap")
          .evaluateAll((wraps) => wraps.map((wrap) => wrap.scrollWidth - wrap.clientWidth));
        expect(hidden.every((px) => px <= 0)).toBe(true);
      }
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe("the smaller things, on a phone", () => {
  test("a key's domain list shows only for “Only these”; a notification's actions share a line; a heartbeat names no events", async () => {
    await app.request("POST", "/api/v1/notifications", {
      body: { name: "Beat", type: "healthchecks", options: { url: "http://127.0.0.1:9/ping" } },
    });
    const provider = await app.request("POST", "/api/v1/providers", {
      body: { name: "Keys", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
    });
    await app.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.body.id, domain_name: "keyed.example.com", is_enabled: false },
    });
    const { context, page } = await open(PHONE);
    try {
      await page.goto(`${base}/update-keys`);
      const choices = page.locator("input[name=domain_ids]");
      expect(await choices.count()).toBeGreaterThan(0);
      expect(await choices.first().isVisible()).toBe(false);
      await page.getByLabel("Only these:").check();
      await choices.first().waitFor();
      await page.getByLabel("All domains, including ones added later").check();
      await choices.first().waitFor({ state: "hidden" });

      await page.goto(`${base}/notifications`);
      const row = page.locator("tr", { has: page.getByRole("link", { name: "Beat" }) });
      expect((await row.locator("td[data-label=Events]").textContent())?.trim()).toBe(
        "A ping after each scheduled check",
      );
      const tops = await row
        .locator(".cell-actions .button")
        .evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
      expect(tops.length).toBe(3);
      expect(new Set(tops).size).toBe(1);
    } finally {
      await context.close();
    }
  });
});
