// Where an API request's microseconds go: each piece of ddnsd's per-request work timed on its own,
// in-process (the app as main.ts builds it, on a file database, log level info), averaged over
// 40,000 calls after 4,000 untimed ones. What the socket and HTTP parsing cost is the bare
// server's CPU per request in bench/api.ts; this splits the rest.
//
//   bun run bench/request-cost.ts

import { mkdtempSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { screenRequest } from "../src/http/screen";
import { verifyToken } from "../src/http/tokens";
import { createLogger } from "../src/log";
import { whileUnchanged } from "../src/modules/shared";
import { makeTestApp } from "../test/support";
import { heading, machine, recordFigure, removeDir, table } from "./lib/common";

const CALLS = 40_000;
const WARMUP = 4_000;

heading("Where an API request's time goes (in-process)");
console.log(machine());
const dir = mkdtempSync(join(tmpdir(), "ddnsd-bench-cost-"));
const t = await makeTestApp({ DDNS_LOG_LEVEL: "info" }, dir);
const token = await t.token();
const headers = { authorization: `Bearer ${token}`, host: "127.0.0.1:8000" };
const url = (path: string) => `http://127.0.0.1:8000${path}`;

/** Mean µs per call; a Response's body is read, as the socket would. */
async function perCall(work: () => unknown): Promise<number> {
  const once = async () => {
    const result = await work();
    if (result instanceof Response) await result.arrayBuffer();
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await once();
  return ((performance.now() - started) * 1000) / CALLS;
}

const devNull = openSync("/dev/null", "w");
const infoLog = createLogger({ level: "info", format: "text", write: (line) => writeSync(devNull, `${line}\n`) });
const requestFields = { method: "GET", path: "/api/v1/domains", status: 200, duration_ms: 0.4 };
const cached = whileUnchanged(t.ctx, () => ({ total_domains: 0 }));
const screened = new Request(url("/api/v1/metrics/dashboard"), { headers });
const answered = new Response("{}");

const rows: [string, number, string][] = [
  [
    "building the Request (the loop's own cost, in every line below)",
    await perCall(() => new Request(url("/api/v1/metrics/dashboard"), { headers })),
    "",
  ],
  [
    "GET /api/v1/metrics/dashboard through the app (all of the below but the log)",
    await perCall(() => t.app.handle(new Request(url("/api/v1/metrics/dashboard"), { headers }))),
    "",
  ],
  [
    "GET /healthz through the app (routing and hooks, no token)",
    await perCall(() => t.app.handle(new Request(url("/healthz"), { headers }))),
    "",
  ],
  [
    "  the token check: cached signature, revocation from memory",
    await perCall(() => verifyToken(t.ctx, token)),
    "exact: read again after any write",
  ],
  [
    "  the change check (the write count) and the cached answer's Response",
    await perCall(() => cached()),
    "follows every database write",
  ],
  ["  screening (Host, declared body size)", await perCall(() => screenRequest(screened)), ""],
  ["  the security header", await perCall(() => answered.headers.set("x-content-type-options", "nosniff")), ""],
  [
    "  the request line at debug, not written (level info)",
    await perCall(() => infoLog.debug("request", requestFields)),
    "today",
  ],
  [
    "  the request line at info, written (to /dev/null)",
    await perCall(() => infoLog.info("request", requestFields)),
    "before issue 14",
  ],
];
console.log();
console.log(
  table(
    ["piece", "µs per call", "note"],
    rows.map(([name, us, note]) => [name, us.toFixed(2), note]),
    1,
  ),
);
console.log(
  "\n(Indented pieces are parts of the request above them. Timings in-process, from source, on a busy machine they move by ±20 %.)",
);
for (const [name, us] of rows.slice(1))
  recordFigure({ bench: "cost", name: name.trim(), value: `${us.toFixed(1)} µs` });

t.ctx.sqlite.close();
removeDir(dir);
