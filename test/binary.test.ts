// The compiled binary, started from an empty directory with only its embedded defaults (plus a
// loopback address and a free port), answers /healthz, /docs, /help and a login. On x64 it is the
// release's default x64 asset, built for Bun's baseline target (CPUs without AVX2), and says so.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const workDir = mkdtempSync(join(tmpdir(), "ddnsd-binary-"));
// Built beside the test's data, so a developer's dist/ddnsd is left alone.
const binary = join(workDir, "ddnsd");
/** The release target built here: the baseline x64 asset on x64, this machine's kind elsewhere. */
const TARGET = process.arch === "x64" ? "linux-x64-baseline" : null;
let child: ReturnType<typeof Bun.spawn> | undefined;
let baseUrl = "";
let stderr = "";

/** Collects the child's stderr in the background; resolves with the URL of its "listening" line. */
async function waitForListening(stream: ReadableStream<Uint8Array>): Promise<string> {
  void (async () => {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      stderr += decoder.decode(chunk.value);
  })();
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const match = /listening url=(\S+)/.exec(stderr);
    if (match) return match[1]!.replace(/\/$/, "");
    await Bun.sleep(20);
  }
  throw new Error(`the binary did not start:\n${stderr}`);
}

beforeAll(async () => {
  const build = Bun.spawnSync(
    ["bun", "run", "build", `--outfile=${binary}`, ...(TARGET ? [`--target=${TARGET}`] : [])],
    {
      cwd: root,
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  if (build.exitCode !== 0) throw new Error(`build failed: ${build.stderr.toString()}`);
  child = Bun.spawn([binary], {
    cwd: workDir,
    // The address detection at start must not leave this machine.
    env: {
      PATH: process.env.PATH ?? "",
      DDNS_HOST: "127.0.0.1",
      DDNS_PORT: "0",
      DDNS_ADMIN_PASSWORD: "binary-test-password",
      DDNS_IPV4_URLS: "http://127.0.0.1:9/unused",
      DDNS_IPV6_URLS: "http://127.0.0.1:9/unused",
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  baseUrl = await waitForListening(child.stderr as ReadableStream<Uint8Array>);
});

afterAll(async () => {
  child?.kill("SIGTERM");
  await child?.exited;
  rmSync(workDir, { recursive: true, force: true });
});

test("answers /healthz", async () => {
  const response = await fetch(`${baseUrl}/healthz`);
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
});

test("serves /docs with its embedded Swagger UI and the OpenAPI document", async () => {
  const page = await (await fetch(`${baseUrl}/docs`)).text();
  expect(page).toContain("/docs/assets/swagger-ui-bundle.js");
  expect((await fetch(`${baseUrl}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
  const spec = (await (await fetch(`${baseUrl}/docs/json`)).json()) as {
    openapi: string;
    paths: Record<string, unknown>;
  };
  expect(spec.openapi).toStartWith("3.1");
  expect(Object.keys(spec.paths)).toContain("/api/v1/domains/{domain_id}/update_ip");
});

test.skipIf(TARGET === null)(
  "the baseline x64 asset names its target in its version line, for version, --version and -v",
  () => {
    for (const arg of ["version", "--version", "-v"]) {
      const run = Bun.spawnSync([binary, arg], { cwd: workDir, stdout: "pipe", stderr: "pipe" });
      expect(run.exitCode).toBe(0);
      expect(run.stdout.toString().trim()).toMatch(/^ddnsd \S+ \(linux-x64-baseline, bun \S+, commit \S+\)$/);
    }
  },
);

test("serves the docs embedded in it at /help, with the stylesheet and the files they link to, from a directory without them", async () => {
  expect(existsSync(join(workDir, "docs"))).toBe(false);
  const index = await fetch(`${baseUrl}/help`);
  expect(index.status).toBe(200);
  const page = await (await fetch(`${baseUrl}/help/operations`)).text();
  expect(page).toContain('id="back-up-and-restore"');
  expect(page).toContain("/assets/styles.css");
  expect((await fetch(`${baseUrl}/help/services/cloudflare`)).status).toBe(200);
  // The design notes, one folder down, and compose.yaml, which the docs link to, are embedded too.
  expect(await (await fetch(`${baseUrl}/help/design/layers`)).text()).toContain('id="a-part-takes-only-what-it-uses"');
  const compose = await fetch(`${baseUrl}/help/compose.yaml`);
  expect(compose.status).toBe(200);
  expect(await compose.text()).toContain("image: ghcr.io/ddnsd/ddnsd:latest");
});

test("speaks German to a German browser and serves the script that puts times in its zone", async () => {
  const login = await (await fetch(`${baseUrl}/login`, { headers: { "accept-language": "de" } })).text();
  expect(login).toContain('<html lang="de">');
  expect(login).toContain("<h1>Anmelden</h1>");
  const script = /<script src="(\/assets\/local-time\.js\?v=[^"]+)"/.exec(login)?.[1];
  expect(script).toBeDefined();
  const served = await fetch(`${baseUrl}${script}`);
  expect(served.status).toBe(200);
  expect(await served.text()).toContain("Intl.DateTimeFormat");
});

test("logs in the first admin and uses the token", async () => {
  const login = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password: "binary-test-password" }),
  });
  expect(login.status).toBe(200);
  const { access_token } = (await login.json()) as { access_token: string };
  const status = await fetch(`${baseUrl}/api/v1/system/status`, {
    headers: { authorization: `Bearer ${access_token}` },
  });
  expect(await status.json()).toMatchObject({ initialized: true, database: "sqlite", scheduler: "running" });
});

test("keeps its database and generated keys in ./data, keys with mode 0600", () => {
  expect(existsSync(join(workDir, "data", "ddnsd.db"))).toBe(true);
  for (const key of ["secret.key", "encryption.key"]) {
    expect(statSync(join(workDir, "data", key)).mode & 0o777).toBe(0o600);
  }
});

test("stops cleanly on SIGTERM with exit code 0", async () => {
  child!.kill("SIGTERM");
  expect(await child!.exited).toBe(0);
  expect(stderr).toContain("stopped");
  expect(stderr).not.toContain("binary-test-password");
});
