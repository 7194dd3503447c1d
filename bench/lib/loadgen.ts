// The load generator used when wrk is not installed: `bun bench/lib/loadgen.ts '<json options>'`
// keeps `connections` requests in flight for `seconds` and prints a
// LoadResult as JSON. One Bun thread; it can saturate before a fast server does, which is why the
// runner prefers wrk — but ours and the bare server are measured with the same tool either way.

import type { LoadOptions, LoadResult } from "./load";

const options = JSON.parse(process.argv[2] ?? "{}") as LoadOptions;
const latencies: number[] = [];
let errors = 0;
const started = performance.now();
const stopAt = started + options.seconds * 1000;

async function connection(): Promise<void> {
  while (performance.now() < stopAt) {
    const sent = performance.now();
    try {
      const response = await fetch(options.url, { headers: options.headers });
      await response.arrayBuffer();
      if (response.status >= 400) errors++;
      latencies.push(performance.now() - sent);
    } catch {
      errors++;
    }
  }
}

await Promise.all(Array.from({ length: options.connections }, connection));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.max(0, Math.ceil((p / 100) * latencies.length) - 1))] ?? NaN;
const result: LoadResult = {
  requestsPerSecond: latencies.length / elapsed,
  p50Ms: at(50),
  p99Ms: at(99),
  requests: latencies.length,
  errors,
};
console.log(JSON.stringify(result));
