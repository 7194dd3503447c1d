// `bun run bench` — runs every benchmark one after another (each in its own process, so none
// competes with another for the two cores), then prints the figures with their targets.
// `bun run bench api history` runs only those. Figures, not tests: nothing here fails on a number;
// the exit code is 1 only when a benchmark could not run.
//
// Tools: wrk (API load; a Bun load generator stands in without it), ddclient, openssl and inadyn
// (the peer comparisons; skipped without them), GNU time (the peers' peak memory).
// On Debian: sudo apt-get install -y wrk ddclient openssl inadyn time

import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, type Figure, heading, machine, missingTool, table, which } from "./lib/common";

const BENCHES: { name: string; file: string; what: string; budgetSeconds: number }[] = [
  { name: "api", file: "api.ts", what: "API throughput and latency vs a bare Bun.serve", budgetSeconds: 120 },
  { name: "cost", file: "request-cost.ts", what: "where an API request's time goes, in-process", budgetSeconds: 60 },
  { name: "updates", file: "updates.ts", what: "update cost", budgetSeconds: 120 },
  {
    name: "services",
    file: "services.ts",
    what: "every DNS service: requests per record, pacing, 1,000 records",
    budgetSeconds: 1800,
  },
  { name: "ddclient", file: "ddclient.ts", what: "ddclient vs ddnsd on 100 Cloudflare records", budgetSeconds: 90 },
  { name: "inadyn", file: "inadyn.ts", what: "inadyn vs ddnsd on 100 dyndns2 hostnames", budgetSeconds: 90 },
  {
    name: "footprint",
    file: "footprint.ts",
    what: "binary sizes, start, memory idle and after load, idle minutes, beside a bare Bun.serve",
    budgetSeconds: 600,
  },
  {
    name: "quiet",
    file: "quiet.ts",
    what: "bytes written and CPU per minute while nothing changes, beside the previous main",
    budgetSeconds: 480,
  },
  { name: "history", file: "history.ts", what: "metrics and history over 1,000,000 rows", budgetSeconds: 90 },
  { name: "dns", file: "dns.ts", what: "a hostile DNS answer refused, the largest one read", budgetSeconds: 30 },
  {
    name: "domains-page",
    file: "domains-page.ts",
    what: "peak memory under eight loads of the Domains page at 1,000 domains",
    budgetSeconds: 180,
  },
  {
    name: "logins",
    file: "logins.ts",
    what: "peak memory under a login flood, a throttled attempt",
    budgetSeconds: 60,
  },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !BENCHES.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(", ")}; choose from ${BENCHES.map((b) => b.name).join(", ")}.`);
  process.exit(2);
}
const selected = wanted.length === 0 ? BENCHES : BENCHES.filter((b) => wanted.includes(b.name));

heading("ddnsd benchmarks");
console.log(`date:    ${new Date().toISOString()}`);
console.log(`machine: ${machine()}`);
const notes: string[] = [];
if (!which("wrk")) {
  notes.push(
    "wrk not found: the API load comes from bench/lib/loadgen.ts (Bun) instead, which tops out earlier. Install it with: sudo apt-get install -y wrk",
  );
}
if (!which("ddclient")) notes.push(missingTool("ddclient", "ddclient", "the ddclient comparison"));
if (!which("openssl")) notes.push(missingTool("openssl", "openssl", "the ddclient comparison"));
if (!which("inadyn")) notes.push(missingTool("inadyn", "inadyn", "the inadyn comparison"));
if (!existsSync("/usr/bin/time")) {
  notes.push(
    "/usr/bin/time not found: the peers' peak RSS includes this Bun process's own (~25–50 MB). Install it with: sudo apt-get install -y time",
  );
}
for (const note of notes) console.log(`note:    ${note}`);

// One copy of the binary for every script: tests rebuilding dist/ddnsd meanwhile don't matter.
const binary = ensureBinary();
const work = mkdtempSync(join(tmpdir(), "ddnsd-bench-run-"));
const figuresFile = join(work, "figures.jsonl");
const env = { ...process.env, BENCH_BINARY: binary, BENCH_FIGURES: figuresFile };

const started = performance.now();
const timings: string[][] = [];
let failed = false;
try {
  for (const bench of selected) {
    const file = join(import.meta.dir, bench.file);
    const benchStarted = performance.now();
    const child = Bun.spawn(["bun", file], { env, stdout: "inherit", stderr: "inherit" });
    const timer = setTimeout(() => {
      console.error(`\n${bench.name}: still running after ${bench.budgetSeconds} s; stopped.`);
      child.kill("SIGTERM");
    }, bench.budgetSeconds * 1000);
    const code = await child.exited;
    clearTimeout(timer);
    const seconds = (performance.now() - benchStarted) / 1000;
    timings.push([bench.name, `${seconds.toFixed(0)} s${code === 0 ? "" : ` (exit ${code})`}`]);
    if (code !== 0) {
      failed = true;
      console.error(`\n${bench.name} failed (exit ${code}).`);
    }
  }

  const figures: Figure[] = existsSync(figuresFile)
    ? readFileSync(figuresFile, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Figure)
    : [];
  heading("Summary");
  console.log(`machine: ${machine()}\n`);
  console.log(
    table(
      ["benchmark", "figure", "value", "target", ""],
      figures.map((f) => [
        f.bench,
        f.name,
        f.value,
        f.target ?? "",
        f.met === undefined ? "" : f.met ? "met" : "MISSED",
      ]),
      3,
    ),
  );
  console.log();
  console.log(
    table(["benchmark", "time"], [...timings, ["total", `${((performance.now() - started) / 1000).toFixed(0)} s`]]),
  );
  for (const note of notes) console.log(`note: ${note}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
