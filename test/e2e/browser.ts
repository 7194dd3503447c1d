// How every browser test starts Debian's Chromium: headless, as root (no sandbox), and with the
// background services off — without them Chromium keeps reaching for hosts this closed network
// refuses, which slows its start under load.

import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
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

/**
 * Resolves once the wall clock has left `second` (Unix seconds): a page's "As of" time is to the
 * second, so a refresh moved on by `page.clock` shows another time only after that.
 */
export async function untilSecondAfter(second: number): Promise<void> {
  while (Math.floor(Date.now() / 1000) <= second) await Bun.sleep(20);
}
