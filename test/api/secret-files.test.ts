// Secret settings from files: `DDNS_<NAME>_FILE` names a file holding the value (Docker and Compose
// secrets, systemd credentials); its trailing newline is not part of the secret; setting both the
// variable and its _FILE, or naming a file that cannot be read, stops the start with one line
// naming what is wrong.

import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FILE_SETTINGS, loadSettings, type Settings, SettingsError } from "../../src/config";

const ROOT = join(import.meta.dir, "../..");
const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ddnsd-secret-files-"));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function secretFile(content: string): string {
  const path = join(tempDir(), "secret");
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

function failure(env: Record<string, string>): string {
  try {
    loadSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as Error).message;
  }
  throw new Error("the settings loaded");
}

const FIELDS: Record<(typeof FILE_SETTINGS)[number], keyof Settings> = {
  DDNS_SECRET_KEY: "secretKey",
  DDNS_ENCRYPTION_KEY: "encryptionKey",
  DDNS_ADMIN_PASSWORD: "adminPassword",
  DDNS_METRICS_TOKEN: "metricsToken",
};

describe("DDNS_<NAME>_FILE", () => {
  const value = "a-secret-of-more-than-thirty-two-characters-0123";

  for (const name of FILE_SETTINGS) {
    test(`${name}_FILE: the value is the file's content, without its trailing newline`, () => {
      const settings = loadSettings({ [`${name}_FILE`]: secretFile(`${value}\n`) });
      expect(settings[FIELDS[name]]).toBe(value);
    });

    test(`${name} and ${name}_FILE both set: an error naming both`, () => {
      const message = failure({ [name]: value, [`${name}_FILE`]: secretFile(value) });
      expect(message).toContain(`${name} and ${name}_FILE`);
    });
  }

  test("a Windows line ending is trimmed too, and a value without a newline is taken as it is", () => {
    expect(loadSettings({ DDNS_METRICS_TOKEN_FILE: secretFile(`${value}\r\n`) }).metricsToken).toBe(value);
    expect(loadSettings({ DDNS_METRICS_TOKEN_FILE: secretFile(value) }).metricsToken).toBe(value);
  });

  test("a missing file: an error naming the setting and the file", () => {
    const path = join(tempDir(), "nowhere");
    const message = failure({ DDNS_SECRET_KEY_FILE: path });
    expect(message).toStartWith("Invalid setting DDNS_SECRET_KEY_FILE: cannot read the file ");
    expect(message).toContain(path);
  });

  test("an unreadable file: an error naming the file", () => {
    if (process.getuid?.() === 0) return; // root reads any file
    const path = secretFile(value);
    chmodSync(path, 0o000);
    expect(failure({ DDNS_ENCRYPTION_KEY_FILE: path })).toContain(path);
  });

  test("an empty file is refused, not taken as unset", () => {
    expect(failure({ DDNS_ADMIN_PASSWORD_FILE: secretFile("\n") })).toBe(
      `Invalid setting DDNS_ADMIN_PASSWORD_FILE: the file ${join(tempDirs.at(-1)!, "secret")} is empty`,
    );
  });

  test("the value is checked like the variable's, and the error names the _FILE it came from", () => {
    expect(failure({ DDNS_SECRET_KEY_FILE: secretFile("short\n") })).toBe(
      "Invalid setting DDNS_SECRET_KEY_FILE: must be at least 32 characters long",
    );
  });

  test("a setting that is not secret has no _FILE form", () => {
    expect(loadSettings({ DDNS_PORT_FILE: secretFile("9999") }).port).toBe(8001);
  });

  test("`ddnsd serve` with both set exits 1 with one line naming both", async () => {
    const env: Record<string, string> = {};
    for (const [key, entry] of Object.entries(process.env))
      if (!key.startsWith("DDNS_") && entry !== undefined) env[key] = entry;
    const child = Bun.spawn([process.execPath, "run", "src/main.ts", "serve"], {
      cwd: ROOT,
      env: {
        ...env,
        DDNS_DATA_DIR: tempDir(),
        DDNS_ADMIN_PASSWORD: "long enough",
        DDNS_ADMIN_PASSWORD_FILE: secretFile("long enough\n"),
      },
      stdout: "pipe",
      stderr: "pipe",
      timeout: 20_000,
      killSignal: "SIGKILL",
    });
    const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    expect(code).toBe(1);
    expect(stderr.trim().split("\n")).toEqual([
      "ddnsd: Invalid setting DDNS_ADMIN_PASSWORD: both DDNS_ADMIN_PASSWORD and DDNS_ADMIN_PASSWORD_FILE are set; set only one of them",
    ]);
  });
});
