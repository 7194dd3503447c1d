// What every benchmark shares: the compiled binary (rebuilt when the sources are newer), starting
// and stopping it on a loopback port, logging in, reading a process's memory from /proc, small
// statistics, and the figures each script hands to the runner's summary.

import {
  appendFileSync,
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const ROOT = join(import.meta.dir, "../..");
export const BUILT_BINARY = join(ROOT, "dist", "ddnsd");
export const ADMIN_PASSWORD = "bench-admin-password";
/** Fixed keys, so a data directory prepared by one process can be opened by another. */
export const SECRET_KEY = "bench-secret-key-0123456789abcdef0123456789";
export const ENCRYPTION_KEY = "bench-encryption-key-0123456789abcdef012345";

// ---------------------------------------------------------------- the binary

function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestSource(join(path, name)));
  return newest;
}

/**
 * Builds dist/ddnsd with `bun run build` when it is missing or older than anything it is built
 * from, then returns a private copy of it: tests rebuild dist/ddnsd while they run, and a binary
 * replaced under a running benchmark would measure two builds. `bench/run.ts` makes the copy once
 * and hands it to every script in BENCH_BINARY.
 */
export function ensureBinary(): string {
  const given = process.env.BENCH_BINARY;
  if (given && existsSync(given)) return (binary = given);
  const inputs = ["src", "views", "migrations", "package.json", "bun.lock"]
    .map((p) => join(ROOT, p))
    .filter(existsSync);
  const newest = Math.max(...inputs.map(newestSource));
  if (!existsSync(BUILT_BINARY) || statSync(BUILT_BINARY).mtimeMs < newest) {
    console.log(
      existsSync(BUILT_BINARY)
        ? "dist/ddnsd is older than the sources; rebuilding…"
        : "dist/ddnsd is missing; building…",
    );
    const build = Bun.spawnSync(["bun", "run", "build"], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    if (build.exitCode !== 0) throw new Error(`bun run build failed:\n${build.stderr.toString()}`);
  }
  const copy = join(mkdtempSync(join(tmpdir(), "ddnsd-bench-bin-")), "ddnsd");
  copyFileSync(BUILT_BINARY, copy);
  chmodSync(copy, 0o755);
  snapshotDir = dirname(copy);
  process.once("exit", () => {
    if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
  });
  return (binary = copy);
}

let snapshotDir: string | undefined;
let binary: string | undefined;

/** The binary ensureBinary() settled on. */
export function binaryPath(): string {
  if (binary === undefined) throw new Error("call ensureBinary() first");
  return binary;
}

/**
 * The binary of another revision (`BENCH_REFERENCE`, the main this round started from unless
 * given), built in a temporary git worktree beside this one with its own `bun run build`, for a
 * comparison in the same run. The worktree shares this checkout's node_modules when its lockfile is
 * the same, and installs its own otherwise.
 */
export function revisionBinary(revision: string): string {
  const dir = mkdtempSync(join(tmpdir(), "ddnsd-bench-rev-"));
  const tree = join(dir, "tree");
  const run = (cmd: string[], cwd: string) => {
    const done = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
    if (done.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed:\n${done.stderr.toString()}`);
  };
  run(["git", "worktree", "add", "--detach", tree, revision], ROOT);
  try {
    const sameLock = readFileSync(join(tree, "bun.lock"), "utf8") === readFileSync(join(ROOT, "bun.lock"), "utf8");
    if (sameLock) symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
    else run(["bun", "install", "--frozen-lockfile"], tree);
    run(["bun", "run", "build"], tree);
    const binary = join(dir, "ddnsd");
    copyFileSync(join(tree, "dist", "ddnsd"), binary);
    chmodSync(binary, 0o755);
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    return binary;
  } finally {
    Bun.spawnSync(["git", "worktree", "remove", "--force", tree], { cwd: ROOT });
  }
}

/** The revision compared with by default: the main this round started from. */
export const REFERENCE_REVISION = process.env.BENCH_REFERENCE ?? "8ea44bc";

// ---------------------------------------------------------------- processes

/** A free TCP port on 127.0.0.1 (asked from the kernel, then released for the child to take). */
export function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `ddnsd-bench-${label}-`));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The appliance's environment: loopback only, fixed keys, a known admin password. */
export function applianceEnv(
  dataDir: string,
  port: number,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? "/root",
    DDNS_HOST: "127.0.0.1",
    DDNS_PORT: String(port),
    DDNS_DATA_DIR: dataDir,
    DDNS_SECRET_KEY: SECRET_KEY,
    DDNS_ENCRYPTION_KEY: ENCRYPTION_KEY,
    DDNS_ADMIN_PASSWORD: ADMIN_PASSWORD,
    // Nothing may leave the machine: every outbound URL points at a closed loopback port unless the
    // benchmark gives a fake's address.
    DDNS_IPV4_URLS: "http://127.0.0.1:9/v4",
    DDNS_IPV6_URLS: "http://127.0.0.1:9/v6",
    DDNS_CLOUDFLARE_API_URL: "http://127.0.0.1:9/client/v4",
    DDNS_DYNU_API_URL: "http://127.0.0.1:9/v2",
    // The name servers asked whether a record is served are found through these resolvers.
    DDNS_RESOLVERS: "127.0.0.1:9",
    DDNS_ALLOW_PRIVATE_IPS: "false",
    ...extra,
    // Runtime settings to compare (e.g. BENCH_ENV='{"BUN_JSC_useDFGJIT":"0"}'), as a JSON object.
    ...(JSON.parse(process.env.BENCH_ENV ?? "{}") as Record<string, string>),
  };
}

export interface Appliance {
  url: string;
  pid: number;
  process: Bun.Subprocess;
  /** Where the child's log went. */
  logFile: string;
  /** ms from spawn to the first 200 from /healthz. */
  startedInMs: number;
  stop(): Promise<void>;
}

/**
 * Runs `dist/ddnsd serve`, its log in a file (so the benchmark never spends time reading it), and
 * waits for the first 200 of /healthz, polled every millisecond: that answer means ready (the first
 * admin exists), so a login sent right after it works.
 */
export async function startAppliance(
  dataDir: string,
  extraEnv: Record<string, string> = {},
  binary = binaryPath(),
): Promise<Appliance> {
  const port = freePort();
  const url = `http://127.0.0.1:${port}`;
  mkdirSync(dataDir, { recursive: true });
  const logFile = join(dataDir, `serve-${port}.log`);
  const started = performance.now();
  const child = Bun.spawn([binary, "serve"], {
    env: applianceEnv(dataDir, port, extraEnv),
    stdout: Bun.file(logFile),
    stderr: Bun.file(logFile),
  });
  const startedInMs = await waitForHealth(url, started, child, logFile);
  return {
    url,
    pid: child.pid,
    process: child,
    logFile,
    startedInMs,
    async stop() {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await child.exited;
      clearTimeout(timer);
    },
  };
}

async function waitForHealth(url: string, started: number, child: Bun.Subprocess, logFile: string): Promise<number> {
  const deadline = started + 20_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`ddnsd exited with ${child.exitCode}:\n${readLog(logFile)}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.status === 200) {
        await response.arrayBuffer();
        return performance.now() - started;
      }
    } catch {
      // not listening yet
    }
    await Bun.sleep(1);
  }
  child.kill("SIGKILL");
  throw new Error(`ddnsd did not answer /healthz within 20 s:\n${readLog(logFile)}`);
}

function readLog(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-20).join("\n");
  } catch {
    return "(no log)";
  }
}

export async function login(url: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A JSON request to the appliance's API; throws on anything but 200. */
export async function api<T = any>(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** CPU seconds (user + system) a live process has used so far, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the command name (which may hold spaces) start at ")"; utime and stime are 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * How often a live process's main thread — the event loop, where timers and requests run — was put
 * to sleep and woken: its voluntary context switches (it waited: a timer, a socket) and involuntary
 * ones (preempted), from /proc/<pid>/status. (Summing every thread's would undercount: a worker
 * thread that ends takes its counts with it.)
 */
export function processContextSwitches(pid: number): { voluntary: number; involuntary: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return {
    voluntary: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
    involuntary: Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
  };
}

const CLOCK_TICKS = (() => {
  const getconf = Bun.which("getconf");
  const answer = getconf ? Number(Bun.spawnSync([getconf, "CLK_TCK"]).stdout.toString().trim()) : NaN;
  return Number.isFinite(answer) && answer > 0 ? answer : 100;
})();

/**
 * VmRSS and VmHWM (peak) of a live process, in bytes; and the RSS split into `anon` (the process's
 * own memory: heap, stacks, caches) and `file` (pages of the executable and libraries it has read:
 * clean, shared between processes running the same file, and reclaimable under memory pressure).
 */
export function processMemory(pid: number): { rss: number; peak: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb("VmRSS"), peak: kb("VmHWM"), anon: kb("RssAnon"), file: kb("RssFile") };
}

// ---------------------------------------------------------------- statistics and printing

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (values: number[]) => percentile(values, 50);

/** Runs `work` `times` times after `warmup` untimed runs; the durations in ms. */
export async function timeRuns(times: number, work: () => unknown, warmup = 3): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await work();
  const durations: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await work();
    durations.push(performance.now() - started);
  }
  return durations;
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const ms = (value: number) =>
  value < 1 ? `${value.toFixed(2)} ms` : value < 100 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
export const ratio = (value: number) => `${value.toFixed(2)}×`;

/** A plain-text table with a header row; the first `textColumns` columns left-aligned, the rest (figures) right-aligned. */
export function table(header: string[], rows: string[][], textColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < textColumns ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function heading(text: string): void {
  console.log(`\n== ${text} ${"=".repeat(Math.max(0, 70 - text.length))}`);
}

// ---------------------------------------------------------------- figures for the runner's summary

export interface Figure {
  /** Which benchmark, e.g. "api". */
  bench: string;
  name: string;
  value: string;
  /** The target, e.g. "≤ 10 ms"; empty when the figure is informative only. */
  target?: string;
  /** Whether the target was met; undefined when there is no target. */
  met?: boolean;
}

/** Prints nothing; appends the figure for `bench/run.ts` (BENCH_FIGURES names the file) when run by it. */
export function recordFigure(figure: Figure): void {
  const file = process.env.BENCH_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify(figure)}\n`);
}

// ---------------------------------------------------------------- tools

/** The path of a command on PATH, or null. */
export function which(command: string): string | null {
  return Bun.which(command);
}

export function missingTool(command: string, debianPackage: string, what: string): string {
  return `${command} not found: ${what} is skipped. Install it with: sudo apt-get install -y ${debianPackage}`;
}

/** A one-line description of the machine, for the figures to be read against. */
export function machine(): string {
  const cpuinfo = readFileSync("/proc/cpuinfo", "utf8");
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? "unknown CPU";
  const cores = navigator.hardwareConcurrency;
  const memKb = Number(/^MemTotal:\s+(\d+)/m.exec(readFileSync("/proc/meminfo", "utf8"))?.[1] ?? 0);
  const kernel = readFileSync("/proc/sys/kernel/osrelease", "utf8").trim();
  let os = "Linux";
  try {
    os = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync("/etc/os-release", "utf8"))?.[1] ?? os;
  } catch {
    // no os-release
  }
  return `${model}, ${cores} cores, ${(memKb / 1024 / 1024).toFixed(0)} GB RAM, ${os}, kernel ${kernel}, Bun ${Bun.version}`;
}

// ---------------------------------------------------------------- one measured run of a command

export interface MeasuredRun {
  code: number;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** user + system */
  cpuSeconds: number;
  /** Peak resident set, bytes. */
  peakRss: number;
}

const GNU_TIME = "/usr/bin/time";

/**
 * Runs a command to its end (killed after `timeoutMs`) and measures it through GNU time: a child
 * forked straight from this Bun process inherits Bun's own peak RSS in its rusage (Linux keeps the
 * pre-exec high-water mark), which would add ~25–50 MB to a 5 MB program. time's own small process
 * is the one forked from here. Without /usr/bin/time (Debian: apt-get install time) the inflated
 * rusage is used (bench/run.ts says so).
 */
export async function measuredRun(
  cmd: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<MeasuredRun> {
  const haveTime = existsSync(GNU_TIME);
  const report = join(mkdtempSync(join(tmpdir(), "ddnsd-bench-time-")), "rusage");
  const argv = haveTime ? [GNU_TIME, "-f", "%U %S %M", "-o", report, ...cmd] : cmd;
  const started = performance.now();
  const child = Bun.spawn(argv, { env, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  const wallMs = performance.now() - started;
  try {
    if (!haveTime) {
      const usage = child.resourceUsage()!;
      return {
        code,
        stdout,
        stderr,
        wallMs,
        cpuSeconds: Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6,
        peakRss: usage.maxRSS,
      };
    }
    // time appends "Command exited with non-zero status N" before its line when the command failed.
    const [user, system, kb] = readFileSync(report, "utf8").trim().split("\n").at(-1)!.split(" ").map(Number);
    return { code, stdout, stderr, wallMs, cpuSeconds: user! + system!, peakRss: kb! * 1024 };
  } finally {
    rmSync(dirname(report), { recursive: true, force: true });
  }
}
