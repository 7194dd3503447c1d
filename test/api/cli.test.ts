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

/** The parent's environment without any DDNS_* variable, plus the given ones. */
function environment(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
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
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code };
}

async function loginAs(dataDir: string, username: string, password: string) {
  const t = await makeTestApp({}, dataDir);
  apps.push(t);
  return t.request("POST", "/api/v1/auth/login", { token: null, body: { username, password } });
}

describe("ddnsd", () => {
  test("version prints `ddnsd <version> (bun <x>, commit <y>)`", async () => {
    for (const arg of ["version", "--version"]) {
      const { stdout, code } = await ddnsd([arg]);
      expect(code).toBe(0);
      const match = /^ddnsd (\S+) \(bun (\S+), commit (\S+)\)$/.exec(stdout.trim());
      expect(match).not.toBeNull();
      expect(match![1]).toBe(packageJson.version);
      expect(match![2]).toBe(Bun.version);
      expect(match![3]!.length).toBeGreaterThan(0);
    }
  }, TIMEOUT_MS * 2);

  test("help exits 0 and names every command", async () => {
    for (const arg of ["help", "--help", "-h"]) {
      const { stdout, code } = await ddnsd([arg]);
      expect(code).toBe(0);
      for (const command of ["serve", "check", "admin set-password", "version"]) expect(stdout).toContain(command);
    }
  }, TIMEOUT_MS * 3);

  test("an unknown command exits 2 with the usage", async () => {
    const { stderr, code } = await ddnsd(["frobnicate"], { env: { DDNS_PORT: "0" } });
    expect(code).toBe(2);
    expect(stderr).toContain("Unknown command");
  }, TIMEOUT_MS);

  const INVALID: { variable: string; value: string; args: string[] }[] = [
    { variable: "DDNS_PORT", value: "abc", args: [] },
    { variable: "DDNS_PORT", value: "abc", args: ["serve"] },
    { variable: "DDNS_TOKEN_TTL", value: "soon", args: ["check"] },
    { variable: "DDNS_LOG_LEVEL", value: "loud", args: ["admin", "set-password", "x"] },
  ];
  for (const { variable, value, args } of INVALID) {
    test(`${variable}=${value} ${args.join(" ") || "(serve)"} exits 1 with one line on stderr naming ${variable}`, async () => {
      const { stdout, stderr, code } = await ddnsd(args, { env: { [variable]: value }, stdin: "" });
      expect(code).toBe(1);
      const lines = stderr.split("\n").filter((line) => line.trim() !== "");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(variable);
      expect(stdout).toBe("");
    }, TIMEOUT_MS);
  }

  test("admin set-password creates the user from standard input, who can then log in", async () => {
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
  }, TIMEOUT_MS * 2);

  test("admin set-password resets an existing user's password", async () => {
    const dir = tempDir();
    expect((await ddnsd(["admin", "set-password", "bob"], { env: { DDNS_DATA_DIR: dir }, stdin: "first-password" })).code).toBe(0);
    const second = await ddnsd(["admin", "set-password", "bob"], { env: { DDNS_DATA_DIR: dir }, stdin: "second-password\n" });
    expect(second.code).toBe(0);
    expect((await loginAs(dir, "bob", "second-password")).status).toBe(200);
    expect((await loginAs(dir, "bob", "first-password")).status).toBe(401);
  }, TIMEOUT_MS * 3);

  test("a too-short password exits 2 and creates nobody", async () => {
    const dir = tempDir();
    const { stderr, code } = await ddnsd(["admin", "set-password", "carol"], { env: { DDNS_DATA_DIR: dir }, stdin: "short\n" });
    expect(code).toBe(2);
    expect(stderr).toContain("at least");
    const t = await makeTestApp({}, dir);
    apps.push(t);
    expect(t.ctx.sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM users WHERE username = ?").get("carol")!.n).toBe(0);
  }, TIMEOUT_MS);

  test("admin set-password without a user name exits 2", async () => {
    const { stderr, code } = await ddnsd(["admin", "set-password"], { stdin: "whatever-password" });
    expect(code).toBe(2);
    expect(stderr).toContain("Usage");
  }, TIMEOUT_MS);

  test("the password never appears in the command's output", async () => {
    const { stdout, stderr, code } = await ddnsd(["admin", "set-password", "dave"], { stdin: "dave-secret-password-42" });
    expect(code).toBe(0);
    expect(stdout + stderr).not.toContain("dave-secret-password-42");
  }, TIMEOUT_MS);
});
