// The admin pages at /ddns in a real Chromium, through a real nginx that passes /ddns/ on unchanged
// and answers everything else itself: sign in, add a Cloudflare provider (its fake) and a domain on
// the pages, Update now and its outcome in the row, the history, sign out. Every request the browser
// makes — pages, redirects, htmx requests, styles, scripts, the favicon — stays under /ddns, and so
// does every request nginx passed on; the session cookie's path is /ddns/.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { ECHO_DEFAULT_IPV4, type EchoFake, startEchoFake } from "../fakes/echo";
import { type Served, serve } from "../hardening/helpers";
import { TEST_PASSWORD } from "../support";
import { lacks } from "../tools";
import { launchChromium } from "./browser";

const BASE = "/ddns";
/** nginx's own answer to anything outside /ddns/: a request that escaped the prefix shows as this status. */
const OUTSIDE = 418;

let s: Served;
let cloudflare: CloudflareFake;
let echo: EchoFake;
let nginx: Subprocess | undefined;
let dir: string;
let front: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Every URL the browser asked for, redirects and htmx requests included. */
const requested: string[] = [];
/** Every answer the browser got with nginx's status for outside the prefix. */
const escaped: string[] = [];

async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

async function answering(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url);
      return;
    } catch {
      await Bun.sleep(50);
    }
  }
  throw new Error(`${url} never answered`);
}

async function see(text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor({ state: "visible" });
}

describe.skipIf(lacks("nginx", "chromium"))("the admin pages under /ddns behind nginx, in Chromium", () => {
  beforeAll(async () => {
    cloudflare = startCloudflareFake();
    cloudflare.addZone("example.com");
    echo = startEchoFake();
    s = await serve({
      DDNS_BASE_PATH: BASE,
      DDNS_CLOUDFLARE_API_URL: cloudflare.url,
      DDNS_IPV4_URLS: `${echo.url}/v4`,
      DDNS_IPV6_URLS: `${echo.url}/v6`,
    });
    dir = mkdtempSync(join(tmpdir(), "ddnsd-sub-path-"));
    const port = await freePort();
    writeFileSync(
      join(dir, "nginx.conf"),
      `daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log;
events {}
http {
  log_format paths '$status $request_uri';
  access_log ${dir}/access.log paths;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location /ddns/ {
      proxy_set_header Host $host:$server_port;
      proxy_pass http://127.0.0.1:${s.port};
    }
    location / {
      return ${OUTSIDE};
    }
  }
}
`,
    );
    nginx = Bun.spawn(["nginx", "-c", join(dir, "nginx.conf"), "-p", dir, "-e", join(dir, "nginx-error.log")], {
      stdout: "ignore",
      stderr: "ignore",
    });
    front = `http://127.0.0.1:${port}`;
    await answering(`${front}${BASE}/healthz`);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (nginx) {
      nginx.kill();
      await nginx.exited;
    }
    await s?.running.stop();
    await cloudflare?.stop();
    await echo?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test.each([true, false])(
    "JavaScript %p: sign in, add a provider and a domain, Update now, sign out: nothing leaves /ddns",
    async (javaScript) => {
      requested.length = 0;
      escaped.length = 0;
      context = await browser.newContext({ viewport: { width: 1280, height: 860 }, javaScriptEnabled: javaScript });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      page.on("request", (request) => requested.push(request.url()));
      page.on("response", (response) => {
        if (response.status() === OUTSIDE) escaped.push(response.url());
      });
      page.on("dialog", (dialog) => void dialog.accept());
      const name = javaScript ? "home" : "plain";
      // Signed out: the prefix's root sends the browser to the sign-in page under the prefix.
      await page.goto(`${front}${BASE}/`);
      expect(new URL(page.url()).pathname).toBe(`${BASE}/login`);
      await page.getByLabel("Username").fill("admin");
      await page.getByLabel("Password").fill(TEST_PASSWORD);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname === `${BASE}/`);
      const [cookie] = await context.cookies();
      expect(cookie).toMatchObject({ name: "ddnsd_session", path: `${BASE}/`, httpOnly: true });

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Providers" }).click();
      await page.getByRole("link", { name: "Add provider" }).click();
      await page.getByLabel("Find your service").fill("cloudflare");
      // Without JavaScript the filter does not run: the popular services and the full list both show it.
      await page
        .getByRole("link", { name: /^Cloudflare/ })
        .first()
        .click();
      await page.getByLabel("Name").fill(`Provider ${name}`);
      await page.getByLabel("API token").fill(CLOUDFLARE_FAKE_TOKEN);
      await page.getByRole("button", { name: "Add provider" }).click();
      await see(`Provider “Provider ${name}” added`);
      expect(new URL(page.url()).pathname).toBe(`${BASE}/providers`);

      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Domains" }).click();
      await page.getByRole("link", { name: "Add domain" }).click();
      await page.getByLabel("Hostname").fill(`${name}.example.com`);
      await page.getByRole("button", { name: "Add domain" }).click();
      await see(`${name}.example.com added`);
      expect(new URL(page.url()).pathname).toBe(`${BASE}/domains`);

      const row = page.locator("tr", { hasText: `${name}.example.com` });
      await row.getByRole("button", { name: /^Update now/ }).click();
      // With htmx the row shows the outcome in place; without it the list comes back with it.
      await row.getByText(`Now points at ${ECHO_DEFAULT_IPV4}.`).waitFor();
      expect(cloudflare.record(`${name}.example.com`, "A")?.content).toBe(ECHO_DEFAULT_IPV4);
      await row.getByRole("link", { name: "History" }).click();
      await page.getByRole("heading", { name: `${name}.example.com` }).waitFor();
      expect(await page.locator("table.history-table tbody tr").first().textContent()).toContain("Success");

      await page.getByRole("button", { name: "Sign out" }).click();
      await see("You have signed out.");
      expect(new URL(page.url()).pathname).toBe(`${BASE}/login`);
      await page.goto(`${front}${BASE}/providers`);
      expect(new URL(page.url()).pathname).toBe(`${BASE}/login`);

      const outside = requested.filter((url) => {
        const path = new URL(url).pathname;
        return path !== BASE && !path.startsWith(`${BASE}/`);
      });
      expect(outside).toEqual([]);
      expect(escaped).toEqual([]);
      // The pages, posts, htmx requests and assets asked for, as nginx saw them: all passed on.
      expect(new Set(requested.map((url) => new URL(url).pathname)).size).toBeGreaterThan(8);
      await context.close();
      const passed = readFileSync(join(dir, "access.log"), "utf8").trim().split("\n");
      expect(passed.length).toBeGreaterThan(10);
      expect(passed.filter((line) => !line.split(" ")[1]!.startsWith(`${BASE}/`))).toEqual([]);
    },
  );
});
