// Preloaded by `bun test` (bunfig.toml): the browser, compiled-binary and shutdown tests run
// for more than the default 5 s; every test still stops by itself within this bound.
import { afterEach, setDefaultTimeout } from "bun:test";
import { describeViolations, takeAllViolations } from "./fakes/server";

setDefaultTimeout(60_000);

// A test during which a client sent a fake what the service's own description forbids fails here,
// in every file that starts such a fake (test/fakes/server.ts).
afterEach(() => {
  const violations = takeAllViolations();
  if (violations.length > 0) throw new Error(`requests the service's description forbids:\n${describeViolations(violations)}`);
});
