// The real appliance as a child process (`bun run src/main.ts`) on a data dir of the test's, on a
// port chosen up front (so /healthz can be asked from the very start), with its log collected.

import { join } from "node:path";

const MAIN = join(import.meta.dir, "../../src/main.ts");
export const APPLIANCE_PASSWORD = "appliance-test-password-1234";

export interface Appliance {
  base: string;
  lines: string[];
  exited: Promise<number>;
  pid: number;
  kill(signal?: NodeJS.Signals | number): void;
}

export function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

export function spawnAppliance(dataDir: string, env: Record<string, string> = {}): Appliance {
  const port = freePort();
  const child = Bun.spawn([process.execPath, "run", MAIN], {
    env: {
      PATH: process.env.PATH ?? "",
      DDNS_HOST: "127.0.0.1",
      DDNS_PORT: String(port),
      DDNS_DATA_DIR: dataDir,
      DDNS_ADMIN_PASSWORD: APPLIANCE_PASSWORD,
      DDNS_IPV4_URLS: "http://127.0.0.1:9/v4",
      DDNS_IPV6_URLS: "http://127.0.0.1:9/v6",
      // Written records' name servers are asked through no resolver: nothing leaves this machine.
      DDNS_RESOLVERS: "127.0.0.1:9",
      DDNS_LOG_FORMAT: "json",
      ...env,
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const lines: string[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffered = "";
    const reader = child.stderr.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffered += decoder.decode(chunk.value, { stream: true });
      const parts = buffered.split("\n");
      buffered = parts.pop()!;
      lines.push(...parts);
    }
    if (buffered) lines.push(buffered);
  })();
  return {
    base: `http://127.0.0.1:${port}`,
    lines,
    exited: child.exited,
    pid: child.pid,
    kill: (signal) => child.kill(signal),
  };
}

/** Asks /healthz every few ms until it answers 200 (at most `timeoutMs`); returns the statuses seen before. */
export async function untilHealthy(appliance: Appliance, timeoutMs = 15_000): Promise<number[]> {
  const seen: number[] = [];
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const status = await fetch(`${appliance.base}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return seen;
    if (seen.at(-1) !== status) seen.push(status);
    if (performance.now() > deadline)
      throw new Error(`not healthy within ${timeoutMs} ms:\n${appliance.lines.join("\n")}`);
    await Bun.sleep(2);
  }
}

export async function login(appliance: Appliance, password = APPLIANCE_PASSWORD) {
  return fetch(`${appliance.base}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password }),
  });
}
