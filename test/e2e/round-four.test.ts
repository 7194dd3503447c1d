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
  return page.locator(".service-entry:visible .service-name").allTextContents();
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
