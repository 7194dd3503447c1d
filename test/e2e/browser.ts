// How every browser test starts Debian's Chromium: headless, as root (no sandbox), and with the
// background services off — without them Chromium keeps reaching for hosts this closed network
// refuses, which slows its start under load.

import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";

function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}; the browser tests need it (apt-get install -y chromium).`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** The one Chromium of this run, on the global object so that every test file finds the same one. */
const SHARED = Symbol.for("ddnsd.chromium");
const holder = globalThis as { [SHARED]?: Promise<Browser> };

/**
 * Chromium for one test file. `bun test` runs the files in one process, and a launch with its first
 * page costs about a second on a 2-core machine, so the files share one browser: each gets a handle
 * whose `close()` closes only the contexts and pages it opened. The browser itself is closed once,
 * after the last file (`closeSharedChromium`, from test/setup.ts), or launched again if it went away.
 */
export async function launchChromium(): Promise<Browser> {
  let browser = await (holder[SHARED] ??= launch());
  if (!browser.isConnected()) browser = await (holder[SHARED] = launch());
  const opened = new Set<BrowserContext>();
  const own: Partial<Browser> = {
    newContext: async (options) => {
      const context = await browser.newContext(options);
      opened.add(context);
      return context;
    },
    newPage: async (options) => {
      const page = await browser.newPage(options);
      opened.add(page.context());
      return page;
    },
    close: async () => {
      await Promise.all([...opened].map((context) => context.close()));
      opened.clear();
    },
  };
  return new Proxy(browser, {
    get: (target, key) => (key in own ? own[key as keyof Browser] : Reflect.get(target, key, target)),
  });
}

/** Closes the run's shared Chromium, if a test file started it. */
export async function closeSharedChromium(): Promise<void> {
  const shared = holder[SHARED];
  delete holder[SHARED];
  await (await shared)?.close();
}

/**
 * Resolves once the wall clock has left `second` (Unix seconds): a page's "As of" time is to the
 * second, so a refresh moved on by `page.clock` shows another time only after that.
 */
export async function untilSecondAfter(second: number): Promise<void> {
  while (Math.floor(Date.now() / 1000) <= second) await Bun.sleep(20);
}
