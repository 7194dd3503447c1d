// What an appliance whose records are current writes and spends, on the compiled binary, beside the
// binary of the main this round started from (BENCH_REFERENCE, built in a temporary worktree) in the
// same run: each signed in and given 20 domains through the API (the records already hold the
// address), checked every minute; then, over the same minutes, the bytes each process wrote
// (/proc/<pid>/io: `write_bytes`, what reached the disk's queue, and `wchar`, every write call,
// its log included), the database and WAL's growth, the longest stretch without a byte written to
// the disk, and the CPU time of each minute (utime + stime of all threads, /proc/<pid>/stat).
// Bytes and CPU seconds move little with the machine's other load, unlike wall times.

import { existsSync, readFileSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import {
  type Appliance,
  binaryPath,
  ensureBinary,
  heading,
  login,
  machine,
  median,
  processCpuSeconds,
  REFERENCE_REVISION,
  recordFigure,
  removeDir,
  revisionBinary,
  startAppliance,
  table,
  tempDir,
} from "./lib/common";
import { type ProviderWorld, seedAppliance, startProviderWorld } from "./lib/fakes";

const DOMAINS = 20;
const MINUTES = Number(process.env.BENCH_QUIET_MINUTES ?? 4);
const SETTLE_MS = 10_000;
const SAMPLE_MS = 1_000;
/** The bound, scaled: 64 KiB for six minutes of 20 checks a minute. */
const BOUND_PER_CHECK = (64 * 1024) / (6 * DOMAINS);

interface Io {
  writeBytes: number;
  wchar: number;
}

function io(pid: number): Io {
  const text = readFileSync(`/proc/${pid}/io`, "utf8");
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, "m").exec(text)?.[1] ?? NaN);
  return { writeBytes: field("write_bytes"), wchar: field("wchar") };
}

const databaseBytes = (dir: string) =>
  ["ddnsd.db", "ddnsd.db-wal"].reduce((sum, name) => {
    const file = join(dir, name);
    return sum + (existsSync(file) ? statSync(file).size : 0);
  }, 0);

interface Side {
  label: string;
  dir: string;
  world: ProviderWorld;
  appliance: Appliance;
}

interface Measured {
  writeBytes: number;
  wchar: number;
  databaseGrowth: number;
  checks: number;
  longestQuietSeconds: number;
  cpuPerMinute: number[];
}

heading("Writes and CPU while nothing changes");
console.log(`machine: ${machine()}`);
const loadBefore = loadavg()[0]!;
ensureBinary();
const work = tempDir("quiet");
const sides: Side[] = [];
try {
  const binaries = [
    { label: "ddnsd", binary: binaryPath() },
    { label: `reference ${REFERENCE_REVISION}`, binary: revisionBinary(REFERENCE_REVISION) },
  ];
  for (const { label, binary } of binaries) {
    const world = await startProviderWorld({ records: DOMAINS });
    const dir = join(work, label.replace(/\W+/g, "-"));
    const appliance = await startAppliance(
      dir,
      { DDNS_CLOUDFLARE_API_URL: world.cloudflareUrl, DDNS_IPV4_URLS: world.echoV4Url, DDNS_UPDATE_INTERVAL: "1m" },
      binary,
    );
    sides.push({ label, dir, world, appliance });
    await seedAppliance(appliance.url, await login(appliance.url), world, DOMAINS);
  }
  await Bun.sleep(SETTLE_MS);

  // Both sides sampled together each second: a write shows as a rise of write_bytes.
  const start = sides.map((side) => ({
    io: io(side.appliance.pid),
    db: databaseBytes(side.dir),
    echo: side.world.echo.requests.length,
    cpu: processCpuSeconds(side.appliance.pid),
  }));
  const lastWrite = sides.map(() => performance.now());
  const longestQuiet = sides.map(() => 0);
  const previous = start.map((s) => s.io.writeBytes);
  const cpuPerMinute: number[][] = sides.map(() => []);
  const minuteCpu = start.map((s) => s.cpu);
  const began = performance.now();
  for (let second = 1; second <= MINUTES * 60; second++) {
    await Bun.sleep(Math.max(0, began + second * SAMPLE_MS - performance.now()));
    const now = performance.now();
    sides.forEach((side, i) => {
      const written = io(side.appliance.pid).writeBytes;
      if (written > previous[i]!) {
        longestQuiet[i] = Math.max(longestQuiet[i]!, now - lastWrite[i]!);
        lastWrite[i] = now;
        previous[i] = written;
      }
      if (second % 60 === 0) {
        const cpu = processCpuSeconds(side.appliance.pid);
        cpuPerMinute[i]!.push(cpu - minuteCpu[i]!);
        minuteCpu[i] = cpu;
      }
    });
  }
  const ended = performance.now();
  const measured: Measured[] = sides.map((side, i) => {
    const end = io(side.appliance.pid);
    return {
      writeBytes: end.writeBytes - start[i]!.io.writeBytes,
      wchar: end.wchar - start[i]!.io.wchar,
      databaseGrowth: databaseBytes(side.dir) - start[i]!.db,
      // Each pass asks the echo once for the 20 domains it checks.
      checks: (side.world.echo.requests.length - start[i]!.echo) * DOMAINS,
      longestQuietSeconds: Math.max(longestQuiet[i]!, ended - lastWrite[i]!) / 1000,
      cpuPerMinute: cpuPerMinute[i]!,
    };
  });

  const perCheck = (bytes: number, checks: number) => (checks === 0 ? "–" : `${(bytes / checks).toFixed(0)} B`);
  const rows = measured.map((m, i) => [
    sides[i]!.label,
    String(m.checks),
    `${m.writeBytes} (${perCheck(m.writeBytes, m.checks)})`,
    `${m.wchar} (${perCheck(m.wchar, m.checks)})`,
    String(m.databaseGrowth),
    `${m.longestQuietSeconds.toFixed(0)} s of ${MINUTES * 60}`,
    m.cpuPerMinute.map((s) => s.toFixed(2)).join(" / "),
  ]);
  console.log(
    `\n${DOMAINS} domains whose records hold the address, checked every minute; ${MINUTES} minutes measured on both at once\n`,
  );
  console.log(
    table(
      [
        "binary",
        "domain checks",
        "write_bytes (per check)",
        "wchar (per check)",
        "db + WAL growth, bytes",
        "longest stretch with no disk write",
        "CPU s per minute",
      ],
      rows,
    ),
  );
  const ours = measured[0]!;
  const bound = BOUND_PER_CHECK * ours.checks;
  console.log(
    `\nbound: ≤ ${BOUND_PER_CHECK.toFixed(0)} B a check (64 KiB for six minutes of 20): ${ours.writeBytes <= bound ? "met" : "MISSED"}`,
  );
  console.log(
    `the machine's load average (1 min): ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (nproc ${navigator.hardwareConcurrency})`,
  );
  recordFigure({
    bench: "quiet",
    name: "bytes written to the disk per unchanged domain check (reference)",
    value: `${perCheck(ours.writeBytes, ours.checks)} (${perCheck(measured[1]!.writeBytes, measured[1]!.checks)})`,
    target: `≤ ${BOUND_PER_CHECK.toFixed(0)} B`,
    met: ours.writeBytes <= bound,
  });
  recordFigure({
    bench: "quiet",
    name: `longest stretch with no disk write, of ${MINUTES} min (reference)`,
    value: `${ours.longestQuietSeconds.toFixed(0)} s (${measured[1]!.longestQuietSeconds.toFixed(0)} s)`,
  });
  const cpuMedian = median(ours.cpuPerMinute);
  recordFigure({
    bench: "quiet",
    name: `CPU a minute, ${DOMAINS} domains checked every minute, median (reference)`,
    value: `${cpuMedian.toFixed(2)} s (${median(measured[1]!.cpuPerMinute).toFixed(2)} s)`,
  });
} finally {
  for (const side of sides) {
    await side.appliance.stop();
    await side.world.stop();
  }
  removeDir(work);
}
