// Preloaded by `bun test` (bunfig.toml): the browser, compiled-binary and shutdown tests run
// for more than the default 5 s; every test still stops by itself within this bound.
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(60_000);
