// `ddnsd healthcheck` (the container image's HEALTHCHECK): which URL it asks, its verdict on what
// answers there, and the command's exit code and one stderr line when run as a real process.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { healthzUrl, probeHealth } from "../../src/healthcheck";
import { type RunningServer, startServer } from "../../src/server";
import { makeTestApp } from "../support";

const ROOT = resolve(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "ddnsd-healthcheck-"));
const cert = join(dir, "cert.pem");
const key = join(dir, "key.pem");
const servers: { stop(): unknown }[] = [];
let ddnsd: RunningServer;
let ddnsdTls: RunningServer;

beforeAll(async () => {
  const openssl = Bun.spawnSync(
    [
      "openssl",
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=nas.example.com",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stderr: "pipe" },
  );
  if (openssl.exitCode !== 0) throw new Error(`openssl failed: ${openssl.stderr.toString()}`);
  const plain = await makeTestApp({ DDNS_HOST: "127.0.0.1", DDNS_PORT: "0" });
  ddnsd = startServer(plain.ctx, plain.app);
  const tls = await makeTestApp({ DDNS_HOST: "127.0.0.1", DDNS_PORT: "0", DDNS_TLS_CERT: cert, DDNS_TLS_KEY: key });
  ddnsdTls = startServer(tls.ctx, tls.app);
});

afterAll(async () => {
  await ddnsd.stop();
  await ddnsdTls.stop();
  for (const server of servers) server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A stand-in server on a free loopback port whose /healthz answers as `respond` says. */
function standIn(respond: () => Response | Promise<Response>): number {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: respond });
  servers.push(server);
  return server.port!;
}

/** A loopback port with nothing listening: taken from a server that is stopped at once. */
function closedPort(): number {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
  const port = server.port!;
  server.stop(true);
  return port;
}

const settings = (port: number, tlsCert: string | null = null) => ({ host: "127.0.0.1", port, tlsCert });

describe("healthzUrl", () => {
  test.each([
    ["0.0.0.0", null, "http://127.0.0.1:8001/healthz"],
    ["::", null, "http://[::1]:8001/healthz"],
    ["[::]", null, "http://[::1]:8001/healthz"],
    ["192.168.1.20", null, "http://192.168.1.20:8001/healthz"],
    ["fd00::20", null, "http://[fd00::20]:8001/healthz"],
    ["localhost", null, "http://localhost:8001/healthz"],
    ["0.0.0.0", "/certs/ddnsd.pem", "https://127.0.0.1:8001/healthz"],
  ])("DDNS_HOST=%p, certificate %p → %s", (host, tlsCert, expected) => {
    expect(healthzUrl({ host, port: 8001, tlsCert }).href).toBe(expected);
  });

  test("DDNS_BASE_PATH comes before /healthz", () => {
    expect(healthzUrl({ host: "0.0.0.0", port: 8001, tlsCert: null, basePath: "/ddns" }).href).toBe(
      "http://127.0.0.1:8001/ddns/healthz",
    );
  });
});

describe("probeHealth", () => {
  test("healthy when ddnsd answers 200", async () => {
    expect(await probeHealth(settings(ddnsd.server.port!))).toEqual({ healthy: true });
  });

  test("healthy over HTTPS with a certificate that names another host", async () => {
    expect(await probeHealth(settings(ddnsdTls.server.port!, cert))).toEqual({ healthy: true });
  });

  test("a degraded answer is unhealthy and its detail is the reason", async () => {
    const port = standIn(() =>
      Response.json({ status: "degraded", detail: "The data disk is full: SQLITE_FULL" }, { status: 503 }),
    );
    expect(await probeHealth(settings(port))).toEqual({
      healthy: false,
      reason: `http://127.0.0.1:${port}/healthz answered 503: The data disk is full: SQLITE_FULL`,
    });
  });

  test("a redirect or an HTML page is not health", async () => {
    const redirect = standIn(() => new Response(null, { status: 302, headers: { location: "/login" } }));
    expect(await probeHealth(settings(redirect))).toEqual({
      healthy: false,
      reason: `http://127.0.0.1:${redirect}/healthz answered 302`,
    });
    const html = standIn(
      () => new Response("<h1>Bad gateway</h1>", { status: 502, headers: { "content-type": "text/html" } }),
    );
    expect(await probeHealth(settings(html))).toEqual({
      healthy: false,
      reason: `http://127.0.0.1:${html}/healthz answered 502`,
    });
  });

  test("nothing listening is unhealthy, naming the URL", async () => {
    const port = closedPort();
    const outcome = await probeHealth(settings(port));
    expect(outcome.healthy).toBe(false);
    expect(outcome.healthy === false && outcome.reason).toStartWith(`cannot reach http://127.0.0.1:${port}/healthz: `);
  });

  test("a server that does not answer in time is unhealthy", async () => {
    const port = standIn(() => Bun.sleep(2_000).then(() => new Response("late")));
    expect(await probeHealth(settings(port), 200)).toEqual({
      healthy: false,
      reason: `http://127.0.0.1:${port}/healthz did not answer within 0.2 s`,
    });
  });

  test("plain HTTP asked of a TLS port is unhealthy", async () => {
    expect((await probeHealth(settings(ddnsdTls.server.port!))).healthy).toBe(false);
  });

  test("DDNS_PORT=0 has no port to ask", async () => {
    expect(await probeHealth(settings(0))).toEqual({
      healthy: false,
      reason: "DDNS_PORT is 0 (a port chosen at start), so there is no port to ask",
    });
  });
});

describe("ddnsd healthcheck", () => {
  async function run(env: Record<string, string>) {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("DDNS_")));
    const child = Bun.spawn([process.execPath, "run", "src/main.ts", "healthcheck"], {
      cwd: ROOT,
      env: { ...inherited, DDNS_DATA_DIR: join(dir, "data"), ...env },
      stdout: "pipe",
      stderr: "pipe",
      timeout: 20_000,
      killSignal: "SIGKILL",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { stdout, stderr, code };
  }

  test("exits 0 and prints nothing while ddnsd answers on the wildcard address's loopback", async () => {
    expect(await run({ DDNS_HOST: "0.0.0.0", DDNS_PORT: String(ddnsd.server.port) })).toEqual({
      stdout: "",
      stderr: "",
      code: 0,
    });
  });

  test("exits 0 over HTTPS when DDNS_TLS_CERT and DDNS_TLS_KEY are set", async () => {
    const result = await run({ DDNS_PORT: String(ddnsdTls.server.port), DDNS_TLS_CERT: cert, DDNS_TLS_KEY: key });
    expect(result.code).toBe(0);
  });

  test("exits 1 with one line on stderr when nothing answers", async () => {
    const port = closedPort();
    const { stdout, stderr, code } = await run({ DDNS_PORT: String(port) });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toStartWith(`ddnsd healthcheck: cannot reach http://127.0.0.1:${port}/healthz: `);
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  });

  test("exits 1 naming the variable when a setting is invalid", async () => {
    const { stderr, code } = await run({ DDNS_PORT: "eighty" });
    expect(code).toBe(1);
    expect(stderr).toContain("Invalid setting DDNS_PORT");
  });

  test("is listed in the help", async () => {
    const child = Bun.spawnSync([process.execPath, "run", "src/main.ts", "help"], { cwd: ROOT, stdout: "pipe" });
    expect(child.stdout.toString()).toContain("healthcheck");
  });
});
