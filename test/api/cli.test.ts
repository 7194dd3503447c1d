// The command line, run as a real process (`bun run src/main.ts …`) on a temp data dir:
// version, help, a bad setting's one-line error, and `admin set-password` from standard input.

import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import packageJson from "../../package.json";
import { makeTestApp, type TestApp } from "../support";

const ROOT = resolve(import.meta.dir, "../..");
const TIMEOUT_MS = 20_000;

const tempDirs: string[] = [];
const apps: TestApp[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ddnsd-cli-"));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const t of apps.splice(0)) t.ctx.sqlite.close();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The parent's environment without any DDNS_* variable, plus the given ones. The echo services
 * point at a closed loopback port: `serve` detects the address once at start, and no test may
 * reach the internet.
 */
function environment(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {
    DDNS_IPV4_URLS: "http://127.0.0.1:9/v4",
    DDNS_IPV6_URLS: "http://127.0.0.1:9/v6",
  };
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("DDNS_") && value !== undefined) env[key] = value;
  }
  return { ...env, ...extra };
}

async function ddnsd(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}) {
  const child = Bun.spawn([process.execPath, "run", "src/main.ts", ...args], {
    cwd: ROOT,
    env: environment({ DDNS_DATA_DIR: tempDir(), ...options.env }),
    stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
    stdout: "pipe",
    stderr: "pipe",
    timeout: TIMEOUT_MS,
    killSignal: "SIGKILL",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, code };
}

async function loginAs(dataDir: string, username: string, password: string) {
  const t = await makeTestApp({}, dataDir);
  apps.push(t);
  return t.request("POST", "/api/v1/auth/login", { token: null, body: { username, password } });
}

describe("ddnsd", () => {
  test(
    "version, --version and -v print `ddnsd <version> (<target>, bun <x>, commit <y>)`",
    async () => {
      for (const arg of ["version", "--version", "-v"]) {
        const { stdout, code } = await ddnsd([arg]);
        expect(code).toBe(0);
        const match = /^ddnsd (\S+) \((\S+), bun (\S+), commit (\S+)\)$/.exec(stdout.trim());
        expect(match).not.toBeNull();
        expect(match![1]).toBe(packageJson.version);
        expect(match![2]).toBe("source");
        expect(match![3]).toBe(Bun.version);
        expect(match![4]!.length).toBeGreaterThan(0);
      }
    },
    TIMEOUT_MS * 3,
  );

  test(
    "help exits 0 and names every command",
    async () => {
      for (const arg of ["help", "--help", "-h"]) {
        const { stdout, code } = await ddnsd([arg]);
        expect(code).toBe(0);
        for (const command of ["serve", "check", "admin set-password", "version"]) expect(stdout).toContain(command);
      }
    },
    TIMEOUT_MS * 3,
  );

  test(
    "an unknown command exits 2 with the usage",
    async () => {
      const { stderr, code } = await ddnsd(["frobnicate"], { env: { DDNS_PORT: "0" } });
      expect(code).toBe(2);
      expect(stderr).toContain("Unknown command");
    },
    TIMEOUT_MS,
  );

  const INVALID: { variable: string; value: string; args: string[] }[] = [
    { variable: "DDNS_PORT", value: "abc", args: [] },
    { variable: "DDNS_PORT", value: "abc", args: ["serve"] },
    { variable: "DDNS_TOKEN_TTL", value: "soon", args: ["check"] },
    { variable: "DDNS_LOG_LEVEL", value: "loud", args: ["admin", "set-password", "x"] },
  ];
  for (const { variable, value, args } of INVALID) {
    test(
      `${variable}=${value} ${args.join(" ") || "(serve)"} exits 1 with one line on stderr naming ${variable}`,
      async () => {
        const { stdout, stderr, code } = await ddnsd(args, { env: { [variable]: value }, stdin: "" });
        expect(code).toBe(1);
        const lines = stderr.split("\n").filter((line) => line.trim() !== "");
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(variable);
        expect(stdout).toBe("");
      },
      TIMEOUT_MS,
    );
  }

  test(
    "a short DDNS_ADMIN_PASSWORD exits 1 with one line naming it",
    async () => {
      const { stderr, code } = await ddnsd(["serve"], { env: { DDNS_ADMIN_PASSWORD: "short" } });
      expect(code).toBe(1);
      expect(stderr.trim().split("\n")).toEqual([
        "ddnsd: Invalid setting DDNS_ADMIN_PASSWORD: must be at least 8 characters long",
      ]);
    },
    TIMEOUT_MS,
  );

  test(
    "a data dir that cannot be written exits 1 with one line naming DDNS_DATA_DIR",
    async () => {
      const file = join(tempDir(), "not-a-directory");
      await Bun.write(file, "x");
      const { stderr, code } = await ddnsd(["check"], { env: { DDNS_DATA_DIR: join(file, "data") } });
      expect(code).toBe(1);
      const lines = stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith("ddnsd: Invalid setting DDNS_DATA_DIR: ");
    },
    TIMEOUT_MS,
  );

  test(
    "a port already in use exits 1 with one line naming DDNS_PORT",
    async () => {
      const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("busy") });
      try {
        const { stderr, code } = await ddnsd(["serve"], {
          env: { DDNS_HOST: "127.0.0.1", DDNS_PORT: String(taken.port), DDNS_ADMIN_PASSWORD: "long-enough-password" },
        });
        expect(code).toBe(1);
        const errors = stderr
          .trim()
          .split("\n")
          .filter((line) => line.startsWith("ddnsd:"));
        expect(errors).toEqual([expect.stringContaining("Invalid setting DDNS_PORT: cannot listen on 127.0.0.1:")]);
      } finally {
        taken.stop(true);
      }
    },
    TIMEOUT_MS,
  );

  test(
    "an address not on this machine exits 1 with one line naming DDNS_HOST",
    async () => {
      const { stderr, code } = await ddnsd(["serve"], {
        env: { DDNS_HOST: "192.0.2.1", DDNS_PORT: "0", DDNS_ADMIN_PASSWORD: "long-enough-password" },
      });
      expect(code).toBe(1);
      const errors = stderr
        .trim()
        .split("\n")
        .filter((line) => line.startsWith("ddnsd:"));
      expect(errors).toEqual([expect.stringContaining("Invalid setting DDNS_HOST: cannot listen on 192.0.2.1:0")]);
    },
    TIMEOUT_MS,
  );

  test(
    "a key file the service cannot read exits 1 with one line, not a stack trace",
    async () => {
      const dir = tempDir();
      const { mkdirSync } = await import("node:fs");
      mkdirSync(join(dir, "secret.key")); // a directory where the key file should be
      const { stderr, code } = await ddnsd(["check"], { env: { DDNS_DATA_DIR: dir } });
      expect(code).toBe(1);
      const lines = stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith("ddnsd: Invalid setting DDNS_SECRET_KEY: cannot read the key file ");
    },
    TIMEOUT_MS,
  );

  test(
    "a replaced encryption key stops the start with one line naming DDNS_ENCRYPTION_KEY",
    async () => {
      const dir = tempDir();
      const t = await makeTestApp({ DDNS_ENCRYPTION_KEY: "the-original-encryption-key-0123456789" }, dir);
      apps.push(t);
      await t.request("POST", "/api/v1/providers", {
        body: { name: "cf", type: "cloudflare", credentials: { api_token: "a-token-0123456789" } },
      });
      const { stderr, code } = await ddnsd(["check"], {
        env: { DDNS_DATA_DIR: dir, DDNS_ENCRYPTION_KEY: "a-different-encryption-key-9876543210" },
      });
      expect(code).toBe(1);
      const lines = stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith("ddnsd: Invalid setting DDNS_ENCRYPTION_KEY: ");
    },
    TIMEOUT_MS,
  );

  test(
    "without DDNS_ADMIN_PASSWORD the first admin's generated password is logged once, and works",
    async () => {
      const dir = tempDir();
      const child = Bun.spawn([process.execPath, "run", "src/main.ts", "serve"], {
        cwd: ROOT,
        env: environment({ DDNS_DATA_DIR: dir, DDNS_HOST: "127.0.0.1", DDNS_PORT: "0", DDNS_LOG_FORMAT: "json" }),
        stdout: "pipe",
        stderr: "pipe",
        timeout: TIMEOUT_MS,
      });
      let log = "";
      const reader = (child.stderr as ReadableStream<Uint8Array>).getReader();
      const deadline = Date.now() + TIMEOUT_MS / 2;
      while (!log.includes('"msg":"first admin created') && Date.now() < deadline) {
        const chunk = await reader.read();
        if (chunk.done) break;
        log += new TextDecoder().decode(chunk.value);
      }
      child.kill("SIGTERM");
      await child.exited;
      // One JSON object per line, the password in exactly one of them.
      const lines = log
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { msg: string });
      const announced = lines.filter((line) => line.msg.startsWith("first admin created"));
      expect(announced).toHaveLength(1);
      const password = /password (\S+) /.exec(announced[0]!.msg)![1]!;
      expect(password).toHaveLength(20);
      expect((await loginAs(dir, "admin", password)).status).toBe(200);
    },
    TIMEOUT_MS,
  );

  test(
    "admin set-password creates the user from standard input, who can then log in",
    async () => {
      const dir = tempDir();
      const { stdout, code } = await ddnsd(["admin", "set-password", "alice"], {
        env: { DDNS_DATA_DIR: dir },
        stdin: "alices-long-password\n",
      });
      expect(code).toBe(0);
      expect(stdout).toContain("alice");
      const ok = await loginAs(dir, "alice", "alices-long-password");
      expect(ok.status).toBe(200);
      expect(ok.body.token_type).toBe("bearer");
      // The trailing newline of the input is not part of the password.
      expect((await loginAs(dir, "alice", "alices-long-password\n")).status).toBe(401);
    },
    TIMEOUT_MS * 2,
  );

  test(
    "admin set-password resets an existing user's password",
    async () => {
      const dir = tempDir();
      expect(
        (await ddnsd(["admin", "set-password", "bob"], { env: { DDNS_DATA_DIR: dir }, stdin: "first-password" })).code,
      ).toBe(0);
      const second = await ddnsd(["admin", "set-password", "bob"], {
        env: { DDNS_DATA_DIR: dir },
        stdin: "second-password\n",
      });
      expect(second.code).toBe(0);
      expect((await loginAs(dir, "bob", "second-password")).status).toBe(200);
      expect((await loginAs(dir, "bob", "first-password")).status).toBe(401);
    },
    TIMEOUT_MS * 3,
  );

  test(
    "a too-short password exits 2 and creates nobody",
    async () => {
      const dir = tempDir();
      const { stderr, code } = await ddnsd(["admin", "set-password", "carol"], {
        env: { DDNS_DATA_DIR: dir },
        stdin: "short\n",
      });
      expect(code).toBe(2);
      expect(stderr).toContain("at least");
      const t = await makeTestApp({}, dir);
      apps.push(t);
      expect(
        t.ctx.sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM users WHERE username = ?").get("carol")!
          .n,
      ).toBe(0);
    },
    TIMEOUT_MS,
  );

  test(
    "admin set-password without a user name exits 2",
    async () => {
      const { stderr, code } = await ddnsd(["admin", "set-password"], { stdin: "whatever-password" });
      expect(code).toBe(2);
      expect(stderr).toContain("Usage");
    },
    TIMEOUT_MS,
  );

  test(
    "the password never appears in the command's output",
    async () => {
      const { stdout, stderr, code } = await ddnsd(["admin", "set-password", "dave"], {
        stdin: "dave-secret-password-42",
      });
      expect(code).toBe(0);
      expect(stdout + stderr).not.toContain("dave-secret-password-42");
    },
    TIMEOUT_MS,
  );
});
