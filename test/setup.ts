// Preloaded by `bun test` (bunfig.toml). The per-test timeout is `--timeout` on the command line:
// setDefaultTimeout here would hold for the first test file only.
import { afterAll, afterEach } from "bun:test";
import { describeViolations, takeAllViolations } from "./fakes/server";

// A test during which a client sent a fake what the service's own description forbids fails here,
// in every file that starts such a fake (test/fakes/server.ts).
afterEach(() => {
  const violations = takeAllViolations();
  if (violations.length > 0)
    throw new Error(`requests the service's description forbids:\n${describeViolations(violations)}`);
});

// The browser test files share one Chromium (test/e2e/browser.ts), which ends with the run; Playwright
// is loaded here only when a browser test started it.
afterAll(async () => {
  if (Symbol.for("ddnsd.chromium") in globalThis) await (await import("./e2e/browser")).closeSharedChromium();
});
