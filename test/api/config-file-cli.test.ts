// `ddnsd export` and `ddnsd import` on data dirs: the file written with owner-only permissions,
// secrets in clear only with --include-secrets, import printing each change (nothing made with
// --dry-run), a bad file refused with its line. (While a server runs, import goes through it:
// test/server/control.test.ts.)

import { afterAll, afterEach, describe, expect, test } from "bun:test";
import {
  chownSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLOUDFLARE_FAKE_TOKEN } from "../fakes/cloudflare";
import { ENCRYPTION_KEY, makeTestApp, SECRET_KEY, type TestApp } from "../support";

const ROOT = join(import.meta.dir, "../..");
const TIMEOUT_MS = 30_000;
const dirs: string[] = [];
const apps: TestApp[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ddnsd-config-cli-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const t of apps.splice(0)) t.ctx.sqlite.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function ddnsd(args: string[], dataDir: string, stdin?: string) {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.startsWith("DDNS_") && value !== undefined) env[key] = value;
  const child = Bun.spawn([process.execPath, "run", "src/main.ts", ...args], {
    cwd: ROOT,
    env: {
      ...env,
      DDNS_DATA_DIR: dataDir,
      DDNS_SECRET_KEY: SECRET_KEY,
      DDNS_ENCRYPTION_KEY: ENCRYPTION_KEY,
      DDNS_LOG_LEVEL: "error",
    },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
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

/** A data dir with a provider, a domain and a notification with a secret. */
async function configuredDir(): Promise<string> {
  const dir = tempDir();
  const t = await makeTestApp({}, dir);
  apps.push(t);
  const provider = await t.request("POST", "/api/v1/providers", {
    body: { name: "Cloudflare", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
  });
  await t.request("POST", "/api/v1/domains", {
    body: { provider_id: provider.body.id, domain_name: "home.example.com" },
  });
  await t.request("POST", "/api/v1/notifications", {
    body: { name: "Monitor", type: "uptime_kuma", options: { url: "http://127.0.0.1:9/api/push/SecretToken99" } },
  });
  t.ctx.sqlite.close();
  apps.pop();
  return dir;
}

describe("ddnsd export / import", () => {
  test(
    "export --file with a symlink at F replaces the link, leaves the file it pointed to alone, and writes a new file of the writer's, mode 0600",
    async () => {
      const source = await configuredDir();
      const dir = tempDir();
      const elsewhere = join(dir, "someone-elses");
      writeFileSync(elsewhere, "not for ddnsd to write\n", { mode: 0o644 });
      const file = join(dir, "ddnsd.yaml");
      symlinkSync(elsewhere, file);
      const exported = await ddnsd(["export", "--file", file, "--include-secrets"], source);
      expect(exported.code).toBe(0);
      expect(readFileSync(elsewhere, "utf8")).toBe("not for ddnsd to write\n");
      expect(statSync(elsewhere).mode & 0o777).toBe(0o644);
      expect(lstatSync(file).isSymbolicLink()).toBe(false);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, "utf8")).toContain("SecretToken99");

      // An existing file someone else owns: replaced by a new one, whose owner is the writer.
      if (process.getuid?.() === 0) {
        rmSync(file);
        writeFileSync(file, "old\n", { mode: 0o644 });
        chownSync(file, 65534, 65534);
        expect((await ddnsd(["export", "--file", file, "--include-secrets"], source)).code).toBe(0);
        expect([statSync(file).uid, statSync(file).mode & 0o777]).toEqual([0, 0o600]);
      }
      expect(readdirSync(dir).sort()).toEqual(["ddnsd.yaml", "someone-elses"]);
    },
    TIMEOUT_MS * 3,
  );

  test(
    "export --file writes the file readable by its owner only, secrets sealed; import into an empty data dir gives the same file back",
    async () => {
      const source = await configuredDir();
      const file = join(tempDir(), "ddnsd.yaml");
      const exported = await ddnsd(["export", "--file", file], source);
      expect([exported.code, exported.stderr]).toEqual([0, `Written to ${file}.\n`]);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const text = readFileSync(file, "utf8");
      expect(text).not.toContain(CLOUDFLARE_FAKE_TOKEN);
      expect(text).not.toContain("SecretToken99");

      const target = tempDir();
      const dry = await ddnsd(["import", file, "--dry-run"], target);
      expect(dry.code).toBe(0);
      expect(dry.stdout).toBe(
        'create provider "Cloudflare" (cloudflare)\ncreate domain home.example.com A at "Cloudflare"\ncreate notification "Monitor" (uptime_kuma)\nDry run: 3 changes, none made.\n',
      );
      const applied = await ddnsd(["import", file], target);
      expect([applied.code, applied.stdout.split("\n").length]).toEqual([0, 4]);
      const again = await ddnsd(["export"], target);
      expect(again.stdout).toBe(text);
      expect((await ddnsd(["import", "-"], target, text)).stdout).toBe("Nothing to change.\n");
    },
    TIMEOUT_MS * 3,
  );

  test(
    "--include-secrets writes them in clear",
    async () => {
      const source = await configuredDir();
      const { stdout, code } = await ddnsd(["export", "--include-secrets"], source);
      expect(code).toBe(0);
      expect(stdout).toContain(`api_token: ${CLOUDFLARE_FAKE_TOKEN}`);
      expect(stdout).toContain("SecretToken99");
      expect(stdout).not.toContain("_sealed");
    },
    TIMEOUT_MS,
  );

  test(
    "a bad file: exit 1, the line named, nothing changed",
    async () => {
      const target = tempDir();
      const file = join(tempDir(), "bad.yaml");
      writeFileSync(
        file,
        "version: 1\nproviders:\n  - name: CF\n    type: cloudflare\n    credentials: {api_token: abc}\ndomains:\n  - provider: CF\n    name: not a hostname\n",
      );
      const { code, stderr } = await ddnsd(["import", file], target);
      expect(code).toBe(1);
      expect(stderr).toStartWith(`ddnsd: ${file}: Line 8: domains[0].name: `);
      expect((await ddnsd(["export"], target)).stdout).not.toContain("CF");
    },
    TIMEOUT_MS * 2,
  );

  test(
    "wrong usage exits 2 with the usage line",
    async () => {
      const dir = tempDir();
      expect((await ddnsd(["import"], dir)).code).toBe(2);
      expect((await ddnsd(["export", "--nope"], dir)).code).toBe(2);
      const EXPORT = "Usage: ddnsd export [--file F] [--include-secrets]";
      const IMPORT = "Usage: ddnsd import F [--dry-run] [--prune [--force]]   (F may be - for standard input)";
      const WRONG: { args: string[]; stderr: string }[] = [
        { args: ["export", "--nope"], stderr: `ddnsd: Unknown option '--nope'\n${EXPORT}` },
        { args: ["export", "--file"], stderr: `ddnsd: Option '--file <value>' argument missing\n${EXPORT}` },
        {
          args: ["export", "--include-secrets=yes"],
          stderr: `ddnsd: Option '--include-secrets' does not take an argument\n${EXPORT}`,
        },
        { args: ["export", "extra"], stderr: EXPORT },
        { args: ["import", "--prune"], stderr: IMPORT },
        { args: ["import", "a.yaml", "-x"], stderr: `ddnsd: Unknown option '-x'\n${IMPORT}` },
      ];
      for (const { args, stderr } of WRONG) {
        const result = await ddnsd(args, dir);
        expect({ args, code: result.code, stderr: result.stderr.trim() }).toEqual({ args, code: 2, stderr });
      }
    },
    TIMEOUT_MS * 4,
  );
});
