// Closed-loop HTTP load from a separate process: wrk when it is installed (C, cheap on the CPU the
// server needs), else bench/lib/loadgen.ts in its own Bun process. Same shape of result either way.

import { join } from "node:path";
import { processCpuSeconds, which } from "./common";

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  /** wrk threads; the Bun generator is single-threaded. */
  threads?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Non-2xx answers and socket errors. */
  errors: number;
  /** CPU the server process used per answered request, in µs (when its pid was given). */
  serverCpuUs?: number;
}

export function loadTool(): "wrk" | "bun" {
  return which("wrk") ? "wrk" : "bun";
}

/**
 * With `serverPid`, also the server's CPU per request: on a shared machine requests/s moves with
 * whatever else runs, CPU time per request much less.
 */
export async function runLoad(options: LoadOptions, serverPid?: number): Promise<LoadResult> {
  const cpuBefore = serverPid === undefined ? 0 : processCpuSeconds(serverPid);
  const result = await (loadTool() === "wrk" ? runWrk(options) : runBunLoad(options));
  if (serverPid !== undefined)
    result.serverCpuUs = ((processCpuSeconds(serverPid) - cpuBefore) * 1e6) / result.requests;
  return result;
}

async function runWrk(options: LoadOptions): Promise<LoadResult> {
  const args = [
    "wrk",
    `-t${options.threads ?? 2}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--latency",
    ...Object.entries(options.headers ?? {}).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
    options.url,
  ];
  const child = Bun.spawn(args, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`wrk failed (${code}): ${err}${out}`);
  return parseWrk(out);
}

/** Parses `wrk --latency` output. */
export function parseWrk(output: string): LoadResult {
  const latency = (label: string) => {
    const match = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(output);
    if (!match) throw new Error(`wrk output has no ${label}% latency:\n${output}`);
    const factor = { us: 0.001, ms: 1, s: 1000, m: 60_000 }[match[2] as "us" | "ms" | "s" | "m"];
    return Number(match[1]) * factor;
  };
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
  const total = /^\s*(\d+) requests in/m.exec(output);
  if (!rps || !total) throw new Error(`unreadable wrk output:\n${output}`);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    requestsPerSecond: Number(rps[1]),
    p50Ms: latency("50"),
    p99Ms: latency("99"),
    requests: Number(total[1]),
    errors: non2xx + socketErrors,
  };
}

async function runBunLoad(options: LoadOptions): Promise<LoadResult> {
  const child = Bun.spawn(
    ["bun", join(import.meta.dir, "loadgen.ts"), JSON.stringify({ ...options, threads: undefined })],
    { stdout: "pipe", stderr: "pipe" },
  );
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0) throw new Error(`loadgen failed (${code}): ${err}`);
  return JSON.parse(out) as LoadResult;
}
