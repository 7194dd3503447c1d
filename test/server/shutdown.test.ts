// The graceful stop of the real appliance (`bun run src/main.ts`): SIGTERM while a provider call is
// in flight lets that update finish and record its history row, then the process exits 0 and logs
// "stopped". Both for an update the scheduler started and for a forced update over HTTP.

import { Database } from "bun:sqlite";
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { ECHO_DEFAULT_IPV4, type EchoFake, startEchoFake } from "../fakes/echo";
import type { LoggedRequest } from "../fakes/server";

const MAIN = join(import.meta.dir, "../../src/main.ts");
const PASSWORD = "shutdown-test-password-1234";
const SLOW_MS = 1_500;

let cf: CloudflareFake;
let echo: EchoFake;
let dir: string;

beforeAll(() => {
  cf = startCloudflareFake();
  echo = startEchoFake();
});

afterAll(async () => {
  await Promise.all([cf.stop(), echo.stop()]);
});

beforeEach(() => {
  cf.reset();
  echo.reset();
  cf.addZone("example.com");
  dir = mkdtempSync(join(tmpdir(), "ddnsd-shutdown-"));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

interface Appliance {
  url: string;
  lines: string[];
  exited: Promise<number>;
  kill(signal: NodeJS.Signals): void;
}

async function startAppliance(): Promise<Appliance> {
  const child = Bun.spawn([process.execPath, "run", MAIN], {
    env: {
      PATH: process.env.PATH ?? "",
      DDNS_HOST: "127.0.0.1",
      DDNS_PORT: "0",
      DDNS_DATA_DIR: dir,
      DDNS_ADMIN_PASSWORD: PASSWORD,
      DDNS_CLOUDFLARE_API_URL: cf.url,
      DDNS_IPV4_URLS: `${echo.url}/v4`,
      DDNS_IPV6_URLS: `${echo.url}/v6`,
      // Written records' name servers are asked through no resolver: nothing leaves this machine.
      DDNS_RESOLVERS: "127.0.0.1:9",
      DDNS_LOG_FORMAT: "json",
      DDNS_LOG_LEVEL: "info",
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
  const deadline = performance.now() + 10_000;
  let url: string | undefined;
  while (url === undefined) {
    if (performance.now() > deadline) {
      child.kill();
      throw new Error(`the appliance did not start:\n${lines.join("\n")}`);
    }
    const listening = lines.map(parse).find((line) => line?.msg === "listening");
    url = listening?.url as string | undefined;
    await Bun.sleep(20);
  }
  return { url: url.replace(/\/$/, ""), lines, exited: child.exited, kill: (signal) => child.kill(signal) };
}

function parse(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

async function api(appliance: Appliance, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${appliance.url}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function setUp(appliance: Appliance): Promise<{ token: string; domainId: number }> {
  const login = await api(appliance, "POST", "/api/v1/auth/login", undefined, {
    username: "admin",
    password: PASSWORD,
  });
  expect(login.status).toBe(200);
  const token = login.body.access_token as string;
  const provider = await api(appliance, "POST", "/api/v1/providers", token, {
    name: "Cloudflare",
    type: "cloudflare",
    credentials: { api_token: "cf-fake-token-0123456789abcdef" },
  });
  expect(provider.status).toBe(200);
  const domain = await api(appliance, "POST", "/api/v1/domains", token, {
    provider_id: provider.body.id,
    domain_name: "home.example.com",
  });
  expect(domain.status).toBe(200);
  return { token, domainId: domain.body.id };
}

async function waitForWriteInFlight(): Promise<void> {
  const deadline = performance.now() + 5_000;
  const inFlightWrite = (r: LoggedRequest) =>
    (r.method === "POST" || r.method === "PATCH") && r.answeredAt === undefined;
  while (!cf.requests.some(inFlightWrite)) {
    if (performance.now() > deadline) throw new Error("no provider write started");
    await Bun.sleep(10);
  }
}

function historyRows(): { status: string; trigger: string; ip_address: string | null }[] {
  const db = new Database(join(dir, "ddnsd.db"), { readonly: true });
  try {
    return db
      .query<{ status: string; trigger: string; ip_address: string | null }, []>(
        "SELECT status, trigger, ip_address FROM history ORDER BY id",
      )
      .all();
  } finally {
    db.close();
  }
}

async function exitWithin(appliance: Appliance, ms: number): Promise<number> {
  const timeout = Bun.sleep(ms).then(() => "timeout" as const);
  const result = await Promise.race([appliance.exited, timeout]);
  if (result === "timeout") {
    appliance.kill("SIGKILL");
    throw new Error(`the appliance did not exit within ${ms} ms:\n${appliance.lines.join("\n")}`);
  }
  return result;
}

test("SIGTERM during a scheduled update: the update finishes, its row is written, exit 0", async () => {
  // The new domain's first write (a create) is slow.
  cf.fault({ delayMs: SLOW_MS }, undefined, (r) => r.method === "POST");
  const appliance = await startAppliance();
  await setUp(appliance);
  await waitForWriteInFlight();
  const signalledAt = performance.now();
  appliance.kill("SIGTERM");

  expect(await exitWithin(appliance, 8_000)).toBe(0);
  // It waited for the provider's answer rather than dropping the update.
  expect(performance.now() - signalledAt).toBeGreaterThan(SLOW_MS / 3);
  expect(cf.record("home.example.com", "A")?.content).toBe(ECHO_DEFAULT_IPV4);
  expect(historyRows()).toEqual([{ status: "SUCCESS", trigger: "schedule", ip_address: ECHO_DEFAULT_IPV4 }]);
  const messages = appliance.lines.map(parse).map((line) => line?.msg);
  expect(messages).toContain("shutting down");
  expect(messages).toContain("record updated");
  expect(messages.at(-1)).toBe("stopped");
});

test("SIGTERM during a forced update over HTTP: the request is answered, its row is written, exit 0", async () => {
  const appliance = await startAppliance();
  const { token, domainId } = await setUp(appliance);
  // Let the scheduler's first write of the new domain land (fast), then force one that is slow.
  const deadline = performance.now() + 5_000;
  while (cf.record("home.example.com", "A") === undefined && performance.now() < deadline) await Bun.sleep(20);
  while (historyRows().length === 0 && performance.now() < deadline) await Bun.sleep(20);
  expect(historyRows()).toHaveLength(1);
  cf.fault({ delayMs: SLOW_MS }, undefined, (r) => r.method === "PATCH");
  // Changed at Cloudflare by someone else since, so that the forced update has something to write.
  cf.record("home.example.com", "A")!.content = "198.51.100.77";

  const forced = api(appliance, "POST", `/api/v1/domains/${domainId}/update_ip`, token);
  await waitForWriteInFlight();
  appliance.kill("SIGTERM");

  const answer = await forced;
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({
    domain_id: domainId,
    success: true,
    ip_address: ECHO_DEFAULT_IPV4,
    // The record held another address: the forced update says what it found, whatever ddnsd remembered.
    changed: true,
    previous_ip: "198.51.100.77",
  });
  expect(await exitWithin(appliance, 8_000)).toBe(0);
  expect(historyRows()).toEqual([
    { status: "SUCCESS", trigger: "schedule", ip_address: ECHO_DEFAULT_IPV4 },
    { status: "SUCCESS", trigger: "manual", ip_address: ECHO_DEFAULT_IPV4 },
  ]);
  const messages = appliance.lines.map(parse).map((line) => line?.msg);
  expect(messages.at(-1)).toBe("stopped");
  // No new connections once stopping.
  await expect(fetch(`${appliance.url}/healthz`)).rejects.toThrow();
});
