// Preloaded by `bun test` (bunfig.toml). The per-test timeout is `--timeout` on the command line:
// setDefaultTimeout here would hold for the first test file only.
import { afterEach } from "bun:test";
import { describeViolations, takeAllViolations } from "./fakes/server";

// A test during which a client sent a fake what the service's own description forbids fails here,
// in every file that starts such a fake (test/fakes/server.ts).
afterEach(() => {
  const violations = takeAllViolations();
  if (violations.length > 0)
    throw new Error(`requests the service's description forbids:\n${describeViolations(violations)}`);
});
