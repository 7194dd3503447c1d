// axe-core run over a page in the browser tests' Chromium: its violations as short lines, so a
// test can expect none and a failure names each rule and the first elements it found.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(join(import.meta.dir, "../../node_modules/axe-core/axe.min.js"), "utf8");

/**
 * axe-core's violations on the page as it is (rule id, count and the first nodes), with its
 * experimental rule that a control's name starts with its visible text turned on. `colourOnly`
 * runs just the rules a theme changes.
 */
export async function axeViolations(page: Page, colourOnly = false): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the pages' CSP does not govern.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const options = colourOnly
    ? { runOnly: ["color-contrast", "link-in-text-block"], resultTypes: ["violations"] }
    : { rules: { "label-content-name-mismatch": { enabled: true } }, resultTypes: ["violations"] };
  const results = (await page.evaluate(
    (options) =>
      (window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }).axe.run(
        document,
        options,
      ),
    options,
  )) as { violations: { id: string; nodes: { target: string[] }[] }[] };
  return results.violations.map(
    (v) =>
      `${v.id} (${v.nodes.length}): ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(" "))
        .join(", ")}`,
  );
}
