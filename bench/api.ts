// API throughput and latency: GET /api/v1/domains (100 domains) and GET /api/v1/metrics/dashboard,
// authenticated, 32 connections, against the compiled binary — and, in the same run, against a
// bare Bun.serve in its own process answering the same JSON precomputed (the ceiling of this
// stack). Runs alternate ours, bare, ours, bare so drift hits both alike; the figure is the ratio.
// Targets: ≥ 0.7× the bare server's requests/s, p99 ≤ 10 ms.

import { join } from "node:path";
import {
  ensureBinary,
  freePort,
  heading,
  login,
  machine,
  ms,
  ratio,
  recordFigure,
  removeDir,
  startAppliance,
  table,
  tempDir,
} from "./lib/common";
import { seedAppliance, startProviderWorld, writeJson } from "./lib/fakes";
import { type LoadResult, loadTool, runLoad } from "./lib/load";

const DOMAINS = 100;
const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 5);
const ROUNDS = 2;
const ENDPOINTS = ["/api/v1/domains", "/api/v1/metrics/dashboard"];

heading("API throughput and latency");
console.log(`machine: ${machine()}`);
console.log(
  `load: ${loadTool() === "wrk" ? "wrk -t2" : "bench/lib/loadgen.ts (wrk not installed: sudo apt-get install -y wrk)"}, ${CONNECTIONS} connections, ${SECONDS} s per run, runs alternate ours/bare ×${ROUNDS}`,
);

ensureBinary();
const dir = tempDir("api");
const world = await startProviderWorld({ records: DOMAINS });
// The scheduler runs inside the binary: after the first pass has written every record, the next
// run is a day away, so during the measurement its one-second tick finds nothing due.
const appliance = await startAppliance(dir, {
  DDNS_CLOUDFLARE_API_URL: world.cloudflareUrl,
  DDNS_IPV4_URLS: world.echoV4Url,
  DDNS_UPDATE_INTERVAL: "24h",
});
let bare: Bun.Subprocess | undefined;
try {
  const token = await login(appliance.url);
  await seedAppliance(appliance.url, token, world, DOMAINS);
  const auth = { Authorization: `Bearer ${token}` };
  const outboundBefore = world.cloudflare.requests.length + world.echo.requests.length;

  // The bare server answers the very bytes ddnsd answered.
  const bodies: Record<string, string> = {};
  for (const path of ENDPOINTS) {
    const response = await fetch(`${appliance.url}${path}`, { headers: auth });
    bodies[path] = await response.text();
  }
  writeJson(join(dir, "bodies.json"), bodies);
  const barePort = freePort();
  bare = Bun.spawn(["bun", join(import.meta.dir, "lib/bare-server.ts"), String(barePort), join(dir, "bodies.json")], {
    stdout: "pipe",
    stderr: "inherit",
  });
  await (bare.stdout as ReadableStream<Uint8Array>).getReader().read(); // "ready"
  const bareUrl = `http://127.0.0.1:${barePort}`;

  const rows: string[][] = [];
  const ratios: string[] = [];
  for (const path of ENDPOINTS) {
    const size = Buffer.byteLength(bodies[path]!);
    const servers = [
      { name: "ddnsd", url: `${appliance.url}${path}`, pid: appliance.pid },
      { name: "bare Bun.serve", url: `${bareUrl}${path}`, pid: bare.pid },
    ];
    // Warm both (JIT, connections), untimed; then ours, bare, ours, bare.
    for (const server of servers)
      await runLoad({ url: server.url, headers: auth, connections: CONNECTIONS, seconds: 2 });
    const runs = servers.map(() => [] as LoadResult[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, server] of servers.entries()) {
        runs[i]!.push(
          await runLoad({ url: server.url, headers: auth, connections: CONNECTIONS, seconds: SECONDS }, server.pid),
        );
      }
    }
    const errors = runs[0]!.reduce((sum, r) => sum + r.errors, 0);
    if (errors > 0) throw new Error(`${path}: ${errors} requests failed against ddnsd`);
    const mean = (results: LoadResult[], key: "requestsPerSecond" | "p50Ms" | "serverCpuUs") =>
      results.reduce((sum, r) => sum + (r[key] ?? 0), 0) / results.length;
    const worstP99 = (results: LoadResult[]) => Math.max(...results.map((r) => r.p99Ms));
    for (const [i, server] of servers.entries()) {
      const results = runs[i]!;
      rows.push([
        i === 0 ? `${path} (${(size / 1024).toFixed(1)} KB)` : "",
        server.name,
        ...results.map((r) => r.requestsPerSecond.toFixed(0)),
        ms(mean(results, "p50Ms")),
        ms(worstP99(results)),
        `${mean(results, "serverCpuUs").toFixed(0)} µs`,
      ]);
    }
    const [ours, theirs] = [runs[0]!, runs[1]!];
    const throughput = mean(ours, "requestsPerSecond") / mean(theirs, "requestsPerSecond");
    const cpu = mean(theirs, "serverCpuUs") / mean(ours, "serverCpuUs");
    const p99 = worstP99(ours);
    ratios.push(
      `${path}: ddnsd ÷ bare = ${ratio(throughput)} the requests/s, ${ratio(cpu)} the requests per CPU second`,
    );
    const name = path.replace("/api/v1", "");
    recordFigure({
      bench: "api",
      name: `${name}: ddnsd req/s ÷ bare Bun.serve req/s`,
      value: `${ratio(throughput)} (${mean(ours, "requestsPerSecond").toFixed(0)} vs ${mean(theirs, "requestsPerSecond").toFixed(0)})`,
      target: "≥ 0.70×",
      met: throughput >= 0.7,
    });
    recordFigure({
      bench: "api",
      name: `${name}: server CPU per request, ddnsd vs bare`,
      value: `${mean(ours, "serverCpuUs").toFixed(0)} µs vs ${mean(theirs, "serverCpuUs").toFixed(0)} µs`,
    });
    recordFigure({
      bench: "api",
      name: `${name}: p99 latency at ${CONNECTIONS} connections`,
      value: ms(p99),
      target: "≤ 10 ms",
      met: p99 <= 10,
    });
  }
  console.log();
  console.log(
    table(
      [
        "endpoint",
        "server",
        ...Array.from({ length: ROUNDS }, (_, i) => `req/s run ${i + 1}`),
        "p50",
        "p99",
        "CPU / request",
      ],
      rows,
      2,
    ),
  );
  const outbound = world.cloudflare.requests.length + world.echo.requests.length - outboundBefore;
  console.log(`\n${ratios.join("\n")}`);
  console.log(`scheduler: ${outbound} provider or echo requests during the measurement (its next run is a day away)`);
  console.log(
    "(p50: mean of the runs; p99: the worse run; CPU / request: the server process's user+system time over the requests it answered.\n" +
      ` Targets: ≥ 0.70× the bare server's requests/s, p99 ≤ 10 ms. With ${CONNECTIONS} connections kept busy, latency ≈ ${CONNECTIONS} ÷ requests/s.)`,
  );
} finally {
  bare?.kill();
  await bare?.exited;
  await appliance.stop();
  await world.stop();
  removeDir(dir);
}
