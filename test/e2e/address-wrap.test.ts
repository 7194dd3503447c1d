// Addresses in narrow laptop columns, measured in a real Chromium at 1366×768: an IPv4 address in the
// domains table sits on one line, and any address in the table and in a domain's history timeline
// breaks only after a ":" or "." (never inside a group of digits). Long domain names and messages
// squeeze the columns the way a full table does.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { insertHistory } from "../api/helpers";
import { makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { launchChromium } from "./browser";

const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const IPV6 = "2a01:4f8:c17:b8f:5c3a:1e2f:fe4b:9d01";
const IPV4 = "185.103.110.182";

let browser: Browser;
let app: TestApp;
let server: ReturnType<typeof Bun.serve>;
let base: string;
let sixId: number;
let fourId: number;

beforeAll(async () => {
  app = await makeTestApp();
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => app.app.handle(request) });
  base = `http://127.0.0.1:${server.port}`;
  browser = await launchChromium();
  const provider = await app.request("POST", "/api/v1/providers", {
    body: {
      name: "The home router's Cloudflare account",
      type: "cloudflare",
      credentials: { api_token: "x".repeat(40) },
    },
  });
  const now = Date.now();
  for (const [name, type, ip] of [
    ["a-rather-long-host-name-for-the-nas.living-room.example.com", "AAAA", IPV6],
    ["another-long-host-name.basement.example.com", "A", IPV4],
  ] as const) {
    const domain = await app.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.body.id, domain_name: name, record_type: type },
    });
    app.ctx.sqlite.run(
      "UPDATE domains SET last_known_ip = ?, last_update_status = 'SUCCESS', last_checked_at = ?, next_run_at = ? WHERE id = ?",
      [ip, now, now + 3_600_000, domain.body.id],
    );
    if (type === "AAAA") sixId = domain.body.id;
    else fourId = domain.body.id;
  }
  insertHistory(app, sixId, {
    ip: "2a01:4f8:c17:b8f:5c3a:1e2f:fe4b:9d00",
    ageMs: 86_400_000,
    message: "Record created",
  });
  insertHistory(app, sixId, {
    ip: IPV6,
    previousIp: "2a01:4f8:c17:b8f:5c3a:1e2f:fe4b:9d00",
    ageMs: 3_600_000,
    message: "Record updated from the old address to the new one",
  });
  for (const [ip, previousIp, ageMs] of [
    ["185.103.110.181", null, 7_200_000],
    [IPV4, "185.103.110.181", 3_600_000],
  ] as const)
    insertHistory(app, fourId, {
      ip,
      previousIp,
      ageMs,
      message: "Record updated from the old address to the new one",
    });
});

afterAll(async () => {
  await browser?.close();
  server?.stop(true);
  app?.ctx.sqlite.close();
});

interface Layout {
  text: string;
  /** How many lines the address takes. */
  lines: number;
  /** The characters before each line break, with where in the address it fell. */
  breaksAfter: string[];
}

/** Where each address (`selector`) breaks: every character's box, and a new line wherever one starts lower. */
async function addressLayouts(page: Page, selector: string): Promise<Layout[]> {
  return page.locator(selector).evaluateAll((codes) =>
    codes.map((code) => {
      const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      const characters: { char: string; top: number }[] = [];
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          characters.push({ char: text[i]!, top: Math.round(range.getBoundingClientRect().top) });
        }
      }
      const text = characters.map((c) => c.char).join("");
      const breaksAfter: string[] = [];
      for (let i = 1; i < characters.length; i++) {
        if (characters[i]!.top > characters[i - 1]!.top + 2) breaksAfter.push(`${text.slice(0, i)}|${text.slice(i)}`);
      }
      return { text, lines: breaksAfter.length + 1, breaksAfter };
    }),
  );
}

/** A break is fine right after a group's separator; anything else splits a group. */
function badBreaks(layouts: Layout[]): string[] {
  return layouts.flatMap((layout) => layout.breaksAfter.filter((at) => !/[:.]\|/.test(at)));
}

/** A fresh browser context of that size, signed in, on the dashboard. */
async function signedIn(viewport: { width: number; height: number }, javaScript: boolean) {
  const context = await browser.newContext({ viewport, colorScheme: "light", javaScriptEnabled: javaScript });
  context.setDefaultTimeout(5_000);
  const page = await context.newPage();
  await page.goto(`${base}/login`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`${base}/`);
  return { context, page };
}

describe("addresses at 1366×768", () => {
  for (const javaScript of [true, false]) {
    test(`JavaScript ${javaScript ? "on" : "off"}: an IPv4 address on one line, and no break inside a group`, async () => {
      const { context, page } = await signedIn(LAPTOP, javaScript);
      try {
        await page.goto(`${base}/domains`);
        const table = await addressLayouts(page, "main table .cell-ip");
        expect(table.map((layout) => layout.text)).toContain(IPV6);
        expect(table.map((layout) => layout.text)).toContain(IPV4);
        expect(badBreaks(table)).toEqual([]);

        await page.goto(`${base}/domains/${sixId}/history`);
        const timeline = await addressLayouts(page, "main .timeline-ip");
        expect(timeline.map((layout) => layout.text)).toContain(IPV6);
        expect(badBreaks(timeline)).toEqual([]);
        // On a laptop an IPv4 address never breaks ("185.103.110." / "182" did), also in a list of IPv4
        // rows only, whose column nothing wider holds open; the longest IPv6 may, between groups.
        expect(table.filter((layout) => layout.text === IPV4).map((layout) => layout.lines)).toEqual([1]);
        await page.goto(`${base}/domains?q=basement`);
        const alone = await addressLayouts(page, "main table .cell-ip");
        expect(alone.map((layout) => [layout.text, layout.lines])).toEqual([[IPV4, 1]]);
      } finally {
        await context.close();
      }
    });
  }
});

describe("IPv4 addresses are never broken", () => {
  test("in a domain's history table on a laptop, and on a phone's dashboard, which does not scroll sideways", async () => {
    const laptop = await signedIn(LAPTOP, true);
    try {
      await laptop.page.goto(`${base}/domains/${fourId}/history`);
      const rows = await addressLayouts(laptop.page, "main table code.ip");
      expect(rows.filter((layout) => layout.text.startsWith("185.")).length).toBeGreaterThan(1);
      expect(rows.filter((layout) => layout.lines > 1)).toEqual([]);
    } finally {
      await laptop.context.close();
    }
    const phone = await signedIn(PHONE, true);
    try {
      const dashboard = await addressLayouts(phone.page, "main .cell-ip code.ip");
      expect(dashboard.filter((layout) => layout.text === IPV4).map((layout) => layout.lines)).toEqual([1]);
      const widths = await phone.page.evaluate(() => ({
        content: document.documentElement.scrollWidth,
        screen: window.innerWidth,
      }));
      expect(widths.content).toBeLessThanOrEqual(widths.screen);
    } finally {
      await phone.context.close();
    }
  });
});
