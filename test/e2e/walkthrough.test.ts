// The admin pages' third walkthrough in a real Chromium, on a phone (390×844) and a laptop
// (1366×768), with JavaScript on and off: Enter saves a form, the dashboard says when address
// detection fails, a new page starts at its top, the providers page fits a laptop, an expired
// session keeps what was typed, a domain form shows only its provider's fields, and axe-core finds
// nothing on any page in either theme. Few page loads, each asserting several things.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SignJWT } from "jose";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { type NotifyFake, startWebhookReceiver } from "../fakes/notify";
import { makeTestApp, SECRET_KEY, TEST_PASSWORD, type TestApp } from "../support";
import { axeViolations } from "./axe";
import { launchChromium } from "./browser";

const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let app: TestApp;
let server: ReturnType<typeof Bun.serve>;
let cloudflare: CloudflareFake;
let echo: EchoFake;
let receiver: NotifyFake;
let base: string;
/** Content-Security-Policy violations any page reported. */
const cspViolations: string[] = [];

beforeAll(async () => {
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
  const provider = await app.request("POST", "/api/v1/providers", {
    body: { name: "Home", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
  });
  await app.request("POST", "/api/v1/domains", {
    body: { provider_id: provider.body.id, domain_name: "home.example.com", record_type: "A" },
  });
  await app.request("POST", "/api/v1/notifications", {
    body: { name: "Hook", type: "webhook", options: { url: `${receiver.url}/hook` }, events: ["update_failed"] },
  });
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
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) cspViolations.push(message.text());
  });
  await signIn(page);
  return { context, page };
}

async function signIn(page: Page, next = "/"): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith("/login")) await page.goto(`${base}/login`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}${next}`);
}

/** The visible text of the page's notice (the flash after a redirect). */
async function notice(page: Page): Promise<string> {
  return (await page.locator("main .notice").first().textContent()) ?? "";
}

describe("Enter saves the provider and notification forms", () => {
  for (const javaScript of [true, false]) {
    test(`JavaScript ${javaScript ? "on" : "off"}: add and rename by pressing Enter`, async () => {
      const { context, page } = await open(javaScript ? LAPTOP : PHONE, { javaScript });
      try {
        const name = `Enter ${javaScript ? "js" : "nojs"}`;
        await page.goto(`${base}/providers/new?type=cloudflare`);
        await page.getByLabel("Name").fill(name);
        await page.getByLabel("API token").fill(CLOUDFLARE_FAKE_TOKEN);
        await page.getByLabel("Name").press("Enter");
        await page.waitForURL(`${base}/providers`);
        expect(await notice(page)).toContain(`Provider “${name}” added`);

        const providers = (await app.request("GET", "/api/v1/providers")).body as { id: number; name: string }[];
        const id = providers.find((p) => p.name === name)!.id;
        await page.goto(`${base}/providers/${id}/edit`);
        await page.getByLabel("Name").fill(`${name} renamed`);
        await page.getByLabel("Name").press("Enter");
        await page.waitForURL(`${base}/providers`);
        expect(await notice(page)).toContain(`Provider “${name} renamed” saved`);

        await page.goto(`${base}/notifications/new?type=webhook`);
        await page.getByLabel("Name").fill(`Hook ${name}`);
        await page.getByLabel("Receiver URL").fill(`${receiver.url}/hook`);
        await page.getByLabel("Receiver URL").press("Enter");
        await page.waitForURL(`${base}/notifications`);
        expect(await page.getByText(`Hook ${name}`).count()).toBeGreaterThan(0);
      } finally {
        await context.close();
      }
    });
  }

  test("a provider with domains shows its type, not a select that cannot change it", async () => {
    const { context, page } = await open(LAPTOP, { javaScript: false });
    try {
      await page.goto(`${base}/providers/1/edit`);
      // The service as text, with why it cannot change: no select of every service.
      expect(await page.locator(".chosen-service").textContent()).toContain("Can't change while it has 1 domain");
      expect(await page.locator("#provider-form select").count()).toBe(0);
      expect(await page.getByRole("button", { name: "Continue" }).count()).toBe(0);
      await page.getByLabel("Name").fill("Home");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.waitForURL(`${base}/providers`);
      expect(((await app.request("GET", "/api/v1/providers/1")).body as { type: string }).type).toBe("cloudflare");
    } finally {
      await context.close();
    }
  });
});

describe("the dashboard tells the truth", () => {
  test("failing detection: said on the dashboard with since when and the services' words; no row claims OK", async () => {
    expect((await app.request("POST", "/api/v1/domains/1/update_ip")).status).toBe(200);
    echo.fault({ status: 503 });
    try {
      expect((await app.request("POST", "/api/v1/domains/1/update_ip")).status).toBe(503);
      for (const [viewport, javaScript] of [
        [PHONE, true],
        [LAPTOP, false],
      ] as const) {
        const { context, page } = await open(viewport, { javaScript });
        try {
          // Said in the banner above the rows, once however many rows wait on it.
          const banner = page.locator(".box-problem");
          await banner.getByText("The public IPv4 address cannot be detected").waitFor();
          expect(await banner.count()).toBe(1);
          expect(await banner.textContent()).toContain("HTTP 503");
          const row = page.locator("#domain-1");
          expect(await row.locator(".cell-status").textContent()).toContain("Not checked");
          expect(await row.locator(".cell-status").textContent()).not.toContain("OK");
          await page.goto(`${base}/domains?status=unchecked`);
          expect(await page.locator("#domain-1").count()).toBe(1);
          await page.goto(`${base}/domains/1/history`);
          expect(
            await page.locator("table.history-table tbody tr").first().locator("summary").textContent(),
          ).toStartWith(`Failed: the public address could not be detected: ${echo.url}/v4: HTTP 503`);
        } finally {
          await context.close();
        }
      }
    } finally {
      echo.clearFaults();
    }
    // Detection works again: the warning goes and the row is OK.
    expect((await app.request("POST", "/api/v1/domains/1/update_ip")).status).toBe(200);
    const { context, page } = await open(LAPTOP);
    try {
      expect(await page.locator(".box-problem").count()).toBe(0);
      expect(await page.locator("#domain-1 .cell-status").textContent()).toContain("OK");
    } finally {
      await context.close();
    }
  });

  test("a domain whose provider is disabled says so, not a past next run", async () => {
    await app.request("PUT", "/api/v1/providers/1", { body: { is_enabled: false } });
    try {
      const { context, page } = await open(LAPTOP, { javaScript: false });
      try {
        for (const path of ["/", "/domains"]) {
          await page.goto(`${base}${path}`);
          const row = page.locator("#domain-1");
          expect(await row.textContent()).toContain("Provider disabled");
          expect(await row.textContent()).toContain("not scheduled (provider disabled)");
          expect(await row.getByRole("button", { name: /^Update now/ }).isDisabled()).toBe(true);
        }
      } finally {
        await context.close();
      }
    } finally {
      await app.request("PUT", "/api/v1/providers/1", { body: { is_enabled: true } });
    }
  });

  test("a new page opens at its top", async () => {
    const { context, page } = await open(PHONE);
    try {
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
      await page.locator("#domain-1").getByRole("link", { name: "home.example.com" }).click();
      await page.getByRole("heading", { name: "home.example.com" }).waitFor();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe("the providers page reads well for any type", () => {
  test("a card per provider: nothing behind a horizontal scroll, labels apart, Verify's answer at full width", async () => {
    const long = "ddns-key-user-with-a-rather-long-name-0123456789abcdefghij";
    const created = await app.request("POST", "/api/v1/providers", {
      body: {
        name: "Router dyndns2",
        type: "dyndns2",
        credentials: { username: long, password: "s3cret-password-value" },
        options: { server: "https://dyn.example.net" },
      },
    });
    try {
      for (const viewport of [LAPTOP, PHONE]) {
        const { context, page } = await open(viewport);
        try {
          await page.goto(`${base}/providers`);
          const overflow = await page.evaluate(
            () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
          expect(overflow).toBeLessThanOrEqual(0);
          const card = page.locator(`#provider-${created.body.id}`);
          // Each credential on its own line, its label apart from the value.
          const credentials = await card.locator(".credential").allTextContents();
          expect(credentials.map((c) => c.replace(/\s+/g, " ").trim())).toEqual([
            `Username: ${long}`,
            "Password: ••••alue",
          ]);
          for (const name of ["Verify", "Edit", "Delete"]) {
            const box = await card.locator(".actions").getByText(name, { exact: true }).boundingBox();
            expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
          }
          // Nothing in the card runs past its edge (a long username wraps).
          const cardBox = (await card.boundingBox())!;
          const widest = await card
            .locator("code")
            .evaluateAll((codes) => Math.max(...codes.map((c) => c.getBoundingClientRect().right)));
          expect(widest).toBeLessThanOrEqual(cardBox.x + cardBox.width);
          await page.locator("#provider-1").getByRole("button", { name: "Verify Home" }).click();
          await page.locator("#verify-1 .verify-result").waitFor();
          const slot = (await page.locator("#verify-1").boundingBox())!;
          const homeCard = (await page.locator("#provider-1").boundingBox())!;
          expect(slot.width).toBeGreaterThan(homeCard.width * 0.8);
        } finally {
          await context.close();
        }
      }
    } finally {
      await app.request("DELETE", `/api/v1/providers/${created.body.id}`);
    }
  });
});

describe("an expired session", () => {
  async function expireSession(context: BrowserContext): Promise<void> {
    const expired = await new SignJWT({ sub: "admin", jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(SECRET_KEY));
    await context.addCookies([
      { name: "ddnsd_session", value: expired, url: base, httpOnly: true, sameSite: "Strict" },
    ]);
  }

  test("the cookie outlives its token, so an expiry is said rather than a bare sign-in page", async () => {
    const { context } = await open(LAPTOP, { javaScript: false });
    try {
      const [cookie] = await context.cookies();
      expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(app.ctx.settings.tokenTtlSeconds + 3600);
    } finally {
      await context.close();
    }
  });

  for (const javaScript of [true, false]) {
    test(`JavaScript ${javaScript ? "on" : "off"}: saying so, and back to the form${javaScript ? " with what was typed" : ""}`, async () => {
      const { context, page } = await open(javaScript ? PHONE : LAPTOP, { javaScript });
      try {
        await page.goto(`${base}/domains/1/edit`);
        await page.getByLabel("Schedule").fill("*/7 * * * *");
        // With JavaScript the preview of the next runs swaps in below the field: the form settles first.
        if (javaScript)
          await page.waitForFunction(
            () => !(document.querySelector("#schedule-preview")?.textContent ?? "default").includes("default"),
          );
        await page.getByLabel("TTL").fill("300");
        await expireSession(context);
        await page.getByRole("button", { name: "Save changes" }).click();
        await page.getByText("Your session has expired").waitFor();
        expect(new URL(page.url()).pathname).toBe("/login");
        // Without JavaScript nothing can keep what was typed: the page says so rather than nothing.
        if (!javaScript)
          expect(await page.locator(".notice").first().textContent()).toContain("The form you sent was not saved");
        await signIn(page, "/domains/1/edit");
        if (javaScript) {
          await page.getByText("What you typed is back").waitFor();
          expect(await page.getByLabel("Schedule").inputValue()).toBe("*/7 * * * *");
          expect(await page.getByLabel("TTL").inputValue()).toBe("300");
          // The schedule's preview follows the schedule put back.
          await page.waitForFunction(
            () => !(document.querySelector("#schedule-preview")?.textContent ?? "default").includes("default"),
          );
        }
        // Nothing was saved behind the visitor's back.
        expect(
          ((await app.request("GET", "/api/v1/domains/1")).body as { cron_schedule: string | null }).cron_schedule,
        ).toBeNull();
      } finally {
        await context.close();
      }
    });
  }
});

describe("the domain form shows and stores only the chosen provider's options", () => {
  test("without JavaScript Continue shows the provider's options; what does not apply is not stored, and the API refuses it", async () => {
    const porkbun = await app.request("POST", "/api/v1/providers", {
      body: {
        name: "Pork",
        type: "porkbun",
        credentials: { api_key: "pk1_0123456789abcdef", secret_api_key: "sk1_0123456789abcdef" },
      },
    });
    const refused = await app.request("POST", "/api/v1/domains", {
      body: { provider_id: porkbun.body.id, domain_name: "pork.example.com", config: { proxied: true } },
    });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain("Porkbun has no proxy");
    try {
      const { context, page } = await open(PHONE, { javaScript: false });
      try {
        await page.goto(`${base}/domains/new`);
        await page.getByLabel("Provider", { exact: true }).selectOption(String(porkbun.body.id));
        await page.getByLabel("Hostname").fill("pork.example.com");
        await page.getByRole("button", { name: "Continue" }).click();
        expect(await page.getByLabel("Cloudflare proxy").count()).toBe(0);
        expect(await page.locator("#provider-options").textContent()).not.toContain("1 (automatic)");
        expect(await page.getByLabel("Hostname").inputValue()).toBe("pork.example.com");
        // A form that still sends a proxy setting (an old page, a tampered one): not stored.
        await page.evaluate(() => {
          const input = document.createElement("input");
          Object.assign(input, { type: "hidden", name: "proxied", value: "true" });
          document.querySelector("#domain-form")!.append(input);
        });
        await page.getByLabel("Hostname").press("Enter");
        await page.waitForURL((url) => url.pathname === "/domains");
        const domains = (await app.request("GET", "/api/v1/domains")).body as {
          domain_name: string;
          config: Record<string, unknown>;
        }[];
        expect(domains.find((d) => d.domain_name === "pork.example.com")!.config.proxied).toBeUndefined();
      } finally {
        await context.close();
      }
    } finally {
      await app.request("DELETE", `/api/v1/providers/${porkbun.body.id}?cascade=true`);
    }
  });
});

describe("failures point at their cause", () => {
  test("credentials, the request in the service's words, the network: in the row after Update now, under the status, and in the history", async () => {
    const { context, page } = await open(LAPTOP);
    const row = page.locator("#domain-1");
    try {
      await page.goto(`${base}/domains`);
      const cases = [
        {
          fault: { status: 403, code: 9109, message: "Invalid access token" },
          row: "Home refused the credentials: Invalid access token (code 9109, HTTP 403). Correct them in the provider's settings",
          history: "Failed: Home refused the credentials: Invalid access token",
        },
        {
          fault: { status: 400, code: 1004, message: "DNS Validation Error" },
          row: "Home refused the request: DNS Validation Error",
          history: "Failed: Home refused the request: DNS Validation Error",
        },
        { fault: { status: 502 }, row: "Could not reach Home: ", history: "Failed: could not reach Home" },
      ];
      for (const { fault, row: words, history } of cases) {
        cloudflare.fault(fault);
        try {
          await row.getByRole("button", { name: /^Update now/ }).click();
          await row.locator(".update-result").getByText(words).waitFor();
          expect(await row.locator(".update-result").textContent()).not.toContain("check the provider's credentials");
        } finally {
          cloudflare.clearFaults();
        }
        await page.goto(`${base}/domains/1/history`);
        expect(await page.locator("table.history-table tbody tr").first().locator("summary").textContent()).toContain(
          history,
        );
        await page.goto(`${base}/domains`);
      }
      // The list says why the domain failed, under its status, in the same words after a reload.
      expect(await row.locator(".update-result").textContent()).toContain("Could not reach Home: ");
    } finally {
      await context.close();
      await app.request("POST", "/api/v1/domains/1/update_ip");
    }
  });
});

describe("the smaller things", () => {
  test("a taken name is its field's error, focused, with the typed token kept; the pages' own words; no event, no notification", async () => {
    const aaaa = await app.request("POST", "/api/v1/domains", {
      body: { provider_id: 1, domain_name: "six.example.com", record_type: "AAAA" },
    });
    app.ctx.sqlite.run(
      "UPDATE domains SET last_known_ip = ?, last_update_status = 'SUCCESS', next_run_at = ? WHERE id = ?",
      ["2001:db8:85a3:1234:5678:8a2e:370:7334", Date.now() + 3_600_000, aaaa.body.id],
    );
    const { context, page } = await open({ width: 1000, height: 768 });
    try {
      // A new IPv6 suffix is written at once, not at the next run an hour away.
      await page.goto(`${base}/domains/${aaaa.body.id}/edit`);
      await page.getByLabel("Interface id (suffix)").fill("::1234:5678:9abc:def0");
      await page.getByRole("button", { name: "Save changes" }).click();
      await page.waitForURL((url) => url.pathname === "/domains");
      const saved = (await app.request("GET", `/api/v1/domains/${aaaa.body.id}`)).body as {
        next_run_at: string | null;
      };
      expect(Date.parse(saved.next_run_at!)).toBeLessThanOrEqual(Date.now());

      await page.goto(`${base}/providers/new?type=cloudflare`);
      await page.getByLabel("Name").fill("Home");
      await page.getByLabel("API token").fill(CLOUDFLARE_FAKE_TOKEN);
      await page.getByRole("button", { name: "Add provider" }).click();
      await page.locator("#f-name-error").getByText('A provider named "Home" already exists').waitFor();
      await page.waitForFunction(() => document.activeElement?.id === "f-name");
      expect(await page.getByLabel("API token").inputValue()).toBe(CLOUDFLARE_FAKE_TOKEN);

      await page.goto(`${base}/update-keys`);
      await page.getByLabel("Name", { exact: true }).fill("Router");
      await page.getByLabel("Only these:").check();
      await page.getByRole("button", { name: "Create key" }).click();
      const keyError = (await page.locator("#f-domain_ids-error").textContent()) ?? "";
      expect(keyError).toContain("tick at least one domain");
      expect(keyError).not.toContain("null");

      await page.goto(`${base}/domains/abc/edit`);
      expect(await page.locator("main").textContent()).not.toContain("must be a positive integer");

      await page.goto(`${base}/notifications/new?type=webhook`);
      await page.getByLabel("Name").fill("Silent");
      await page.getByLabel("Receiver URL").fill(`${receiver.url}/hook`);
      for (const box of await page.locator("input[name=events]").all()) await box.uncheck();
      await page.getByRole("button", { name: "Add notification" }).click();
      await page.locator("#f-events").getByText("must name at least one event").waitFor();
      const api = await app.request("POST", "/api/v1/notifications", {
        body: { name: "Silent", type: "webhook", options: { url: `${receiver.url}/hook` }, events: [] },
      });
      expect(api.status).toBe(422);
    } finally {
      await context.close();
      await app.request("DELETE", `/api/v1/domains/${aaaa.body.id}`);
    }
  });
});

describe("help links to each service's token page", () => {
  test("the credential's help links the page where it is made, in a new tab, with the least privilege to grant", async () => {
    for (const [viewport, javaScript] of [
      [PHONE, false],
      [LAPTOP, true],
    ] as const) {
      const { context, page } = await open(viewport, { javaScript });
      try {
        await page.goto(`${base}/providers/new?type=cloudflare`);
        const help = page.locator("#f-credential_api_token-help");
        expect(await help.textContent()).toContain("Zone : DNS : Edit");
        const link = help.getByRole("link", { name: /Cloudflare page where it is made/ });
        expect(await link.getAttribute("href")).toBe("https://dash.cloudflare.com/profile/api-tokens");
        expect(await link.getAttribute("target")).toBe("_blank");
        expect(await link.getAttribute("rel")).toContain("noopener");
      } finally {
        await context.close();
      }
    }
  });
});

describe("the log in the page", () => {
  test("About shows the newest log lines, newest first, with no secret in them", async () => {
    expect((await app.request("POST", "/api/v1/domains/1/update_ip")).status).toBe(200);
    const { context, page } = await open(PHONE, { javaScript: false });
    try {
      await page.goto(`${base}/about`);
      const log = page.getByRole("region", { name: "Recent log" }).or(page.locator("pre.log-lines"));
      const lines = ((await page.locator("pre.log-lines").textContent()) ?? "").split("\n");
      expect(lines.some((line) => line.includes("home.example.com"))).toBe(true);
      expect(Date.parse(lines[0]!.split(" ")[0]!)).toBeGreaterThanOrEqual(Date.parse(lines.at(-1)!.split(" ")[0]!));
      expect(await log.first().isVisible()).toBe(true);
      const content = await page.content();
      expect(content).not.toContain(CLOUDFLARE_FAKE_TOKEN);
      // Long lines scroll inside the box, not the page.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
    } finally {
      await context.close();
    }
  });
});

const PAGES = [
  "/",
  "/domains",
  "/domains/new",
  "/domains/1/edit",
  "/domains/1/history",
  "/providers",
  "/providers/new",
  "/providers/new?q=noip",
  "/providers/new?type=cloudflare",
  "/providers/new?type=dyndns2&server=https%3A%2F%2Fdyn.dns.he.net",
  "/providers/1/edit",
  "/update-keys",
  "/notifications",
  "/notifications/new",
  "/about",
  "/account/password",
  "/help",
  "/help/operations",
  "/help/services/cloudflare",
];

describe("axe-core finds nothing", () => {
  for (const [name, viewport] of [
    ["phone", PHONE],
    ["laptop", LAPTOP],
  ] as const) {
    test(`on every page, light and dark, on a ${name}`, async () => {
      const { context, page } = await open(viewport);
      const found: string[] = [];
      try {
        for (const path of [...PAGES, "/login?expired=1"]) {
          if (path.startsWith("/login")) await context.clearCookies();
          await page.goto(`${base}${path}`);
          for (const colorScheme of ["light", "dark"] as const) {
            await page.emulateMedia({ colorScheme });
            for (const violation of await axeViolations(page, colorScheme === "dark"))
              found.push(`${path} ${colorScheme}: ${violation}`);
          }
          await page.emulateMedia({ colorScheme: "light" });
        }
      } finally {
        await context.close();
      }
      expect(found).toEqual([]);
    }, 120_000);
  }
});

test("no page broke the Content-Security-Policy", () => {
  expect(cspViolations).toEqual([]);
});
