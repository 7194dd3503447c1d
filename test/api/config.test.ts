// docs/operations.md, settings: settings from the environment — defaults, durations, one clear error naming the
// variable — and the key files generated once in the data dir.

import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadSettings, resolveKeys, type Settings, SettingsError } from "../../src/config";
import { SERVICES } from "../../src/dns/registry";
import { DEFAULT_IPV4_URLS, DEFAULT_IPV6_URLS } from "../../src/ip/detect";
import { parseDuration } from "../../src/util/time";

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ddnsd-config-"));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("defaults", () => {
  const settings = loadSettings({});
  const DEFAULTS: { variable: string; field: keyof Settings; value: unknown }[] = [
    { variable: "DDNS_HOST", field: "host", value: "0.0.0.0" },
    { variable: "DDNS_PORT", field: "port", value: 8001 },
    { variable: "DDNS_DATA_DIR", field: "dataDir", value: resolve("./data") },
    { variable: "DDNS_SECRET_KEY", field: "secretKey", value: null },
    { variable: "DDNS_ENCRYPTION_KEY", field: "encryptionKey", value: null },
    { variable: "DDNS_TOKEN_TTL", field: "tokenTtlSeconds", value: 7 * 86400 },
    { variable: "DDNS_ADMIN_USERNAME", field: "adminUsername", value: "admin" },
    { variable: "DDNS_ADMIN_PASSWORD", field: "adminPassword", value: null },
    { variable: "DDNS_UPDATE_INTERVAL", field: "updateIntervalSeconds", value: 300 },
    { variable: "DDNS_IPV4_URLS", field: "ipv4Urls", value: [...DEFAULT_IPV4_URLS] },
    { variable: "DDNS_IPV6_URLS", field: "ipv6Urls", value: [...DEFAULT_IPV6_URLS] },
    { variable: "DDNS_ALLOW_PRIVATE_IPS", field: "allowPrivateIps", value: false },
    { variable: "DDNS_HTTP_TIMEOUT", field: "httpTimeoutMs", value: 10_000 },
    {
      variable: "DDNS_CLOUDFLARE_API_URL (and one per service)",
      field: "apiUrls",
      value: Object.fromEntries(
        SERVICES.flatMap((s) => (s.defaultApiUrl === undefined ? [] : [[s.type, s.defaultApiUrl]])),
      ),
    },
    { variable: "DDNS_HISTORY_RETENTION", field: "historyRetention", value: 1000 },
    { variable: "DDNS_VERIFY_EVERY", field: "verifyEverySeconds", value: 86_400 },
    { variable: "DDNS_LOG_LEVEL", field: "logLevel", value: "info" },
  ];
  for (const { variable, field, value } of DEFAULTS) {
    test(`${variable} defaults to ${JSON.stringify(value)}`, () => {
      expect(settings[field]).toEqual(value as never);
    });
  }

  test("the default echo services are public https URLs, for both families", () => {
    for (const url of [...settings.ipv4Urls, ...settings.ipv6Urls]) expect(url).toStartWith("https://");
    expect(settings.ipv4Urls.length).toBeGreaterThan(1);
    expect(settings.ipv6Urls.length).toBeGreaterThan(1);
  });

  test("an empty value counts as unset", () => {
    const blank = loadSettings({ DDNS_PORT: "", DDNS_TOKEN_TTL: "  ", DDNS_LOG_LEVEL: "" });
    expect([blank.port, blank.tokenTtlSeconds, blank.logLevel]).toEqual([8001, 604800, "info"]);
  });
});

describe("values", () => {
  const DURATIONS: { text: string; seconds: number }[] = [
    { text: "30s", seconds: 30 },
    { text: "5m", seconds: 300 },
    { text: "12h", seconds: 43_200 },
    { text: "7d", seconds: 604_800 },
    { text: "90", seconds: 90 },
    { text: "1s", seconds: 1 },
    { text: " 15m ", seconds: 900 },
  ];
  for (const { text, seconds } of DURATIONS) {
    test(`duration ${JSON.stringify(text)} → ${seconds} s, for every duration setting`, () => {
      expect(parseDuration(text)).toBe(seconds);
      const timeout = seconds <= 120 ? { DDNS_HTTP_TIMEOUT: text } : {};
      const settings = loadSettings({ DDNS_TOKEN_TTL: text, DDNS_UPDATE_INTERVAL: text, ...timeout });
      expect(settings.tokenTtlSeconds).toBe(seconds);
      expect(settings.updateIntervalSeconds).toBe(seconds);
      if (seconds <= 120) expect(settings.httpTimeoutMs).toBe(seconds * 1000);
    });
  }

  test("DDNS_HTTP_TIMEOUT is at most 2m: a request waits 255 s at most for its answer", () => {
    expect(loadSettings({ DDNS_HTTP_TIMEOUT: "2m" }).httpTimeoutMs).toBe(120_000);
    expect(() => loadSettings({ DDNS_HTTP_TIMEOUT: "5m" })).toThrow(
      "Invalid setting DDNS_HTTP_TIMEOUT: must be at most 2m, got 300s",
    );
  });

  test("DDNS_MAX_ANSWER_BYTES: 1 MiB by default, a whole number of bytes from 1 KiB", () => {
    expect(loadSettings({}).maxAnswerBytes).toBe(1_048_576);
    expect(loadSettings({ DDNS_MAX_ANSWER_BYTES: "65536" }).maxAnswerBytes).toBe(65_536);
    expect(() => loadSettings({ DDNS_MAX_ANSWER_BYTES: "1k" })).toThrow("Invalid setting DDNS_MAX_ANSWER_BYTES");
  });

  const BOOLEANS: { text: string; value: boolean }[] = [
    { text: "true", value: true },
    { text: "TRUE", value: true },
    { text: "1", value: true },
    { text: "yes", value: true },
    { text: "on", value: true },
    { text: "false", value: false },
    { text: "0", value: false },
    { text: "no", value: false },
    { text: "off", value: false },
  ];
  for (const { text, value } of BOOLEANS) {
    test(`DDNS_ALLOW_PRIVATE_IPS=${text} → ${value}`, () => {
      expect(loadSettings({ DDNS_ALLOW_PRIVATE_IPS: text }).allowPrivateIps).toBe(value);
    });
  }

  test("every setting read from the environment", () => {
    const dir = tempDir();
    const settings = loadSettings({
      DDNS_HOST: "127.0.0.1",
      DDNS_PORT: "8443",
      DDNS_DATA_DIR: dir,
      DDNS_SECRET_KEY: "s".repeat(32),
      DDNS_ENCRYPTION_KEY: "e".repeat(40),
      DDNS_TOKEN_TTL: "2h",
      DDNS_ADMIN_USERNAME: "root@home",
      DDNS_ADMIN_PASSWORD: "hunter2hunter2",
      DDNS_UPDATE_INTERVAL: "1m",
      DDNS_IPV4_URLS: "http://127.0.0.1:1/a, http://127.0.0.1:2/b",
      DDNS_IPV6_URLS: "http://[::1]:3/c",
      DDNS_ALLOW_PRIVATE_IPS: "true",
      DDNS_HTTP_TIMEOUT: "3s",
      DDNS_CLOUDFLARE_API_URL: "http://127.0.0.1:4/client/v4/",
      DDNS_DYNU_API_URL: "http://127.0.0.1:5/v2",
      DDNS_HISTORY_RETENTION: "50",
      DDNS_LOG_LEVEL: "DEBUG",
    });
    expect(settings).toMatchObject({
      host: "127.0.0.1",
      port: 8443,
      dataDir: dir,
      secretKey: "s".repeat(32),
      encryptionKey: "e".repeat(40),
      tokenTtlSeconds: 7200,
      adminUsername: "root@home",
      adminPassword: "hunter2hunter2",
      updateIntervalSeconds: 60,
      ipv4Urls: ["http://127.0.0.1:1/a", "http://127.0.0.1:2/b"],
      ipv6Urls: ["http://[::1]:3/c"],
      allowPrivateIps: true,
      httpTimeoutMs: 3000,
      apiUrls: { cloudflare: "http://127.0.0.1:4/client/v4", dynu: "http://127.0.0.1:5/v2" },
      historyRetention: 50,
      logLevel: "debug",
    });
  });

  test("DDNS_RESOLVERS: a comma list of addresses, each with an optional port; unset, the system's resolvers from /etc/resolv.conf", () => {
    expect(loadSettings({ DDNS_RESOLVERS: "192.0.2.53, [2001:db8::53]:5353,127.0.0.1:5300" }).resolvers).toEqual([
      { host: "192.0.2.53", port: 53 },
      { host: "2001:db8::53", port: 5353 },
      { host: "127.0.0.1", port: 5300 },
    ]);
    const system = Bun.spawnSync(["sh", "-c", "grep -E '^nameserver' /etc/resolv.conf | awk '{print $2}'"])
      .stdout.toString()
      .split("\n")
      .filter(Boolean);
    expect(loadSettings({}).resolvers.map((server) => server.host)).toEqual(system);
  });

  test("DDNS_VERIFY_EVERY: a duration, or 0 for never", () => {
    expect(loadSettings({ DDNS_VERIFY_EVERY: "0" }).verifyEverySeconds).toBe(0);
    expect(loadSettings({ DDNS_VERIFY_EVERY: "12h" }).verifyEverySeconds).toBe(43_200);
  });

  test("DDNS_PORT=0 (any free port) is allowed", () => {
    expect(loadSettings({ DDNS_PORT: "0" }).port).toBe(0);
  });
});

describe("invalid values stop the start with one line naming the variable", () => {
  const INVALID: { env: Record<string, string>; names: string }[] = [
    { env: { DDNS_PORT: "abc" }, names: "DDNS_PORT" },
    { env: { DDNS_PORT: "65536" }, names: "DDNS_PORT" },
    { env: { DDNS_PORT: "-1" }, names: "DDNS_PORT" },
    { env: { DDNS_PORT: "80.5" }, names: "DDNS_PORT" },
    { env: { DDNS_TOKEN_TTL: "soon" }, names: "DDNS_TOKEN_TTL" },
    { env: { DDNS_TOKEN_TTL: "0s" }, names: "DDNS_TOKEN_TTL" },
    { env: { DDNS_TOKEN_TTL: "5w" }, names: "DDNS_TOKEN_TTL" },
    { env: { DDNS_TOKEN_TTL: "-5m" }, names: "DDNS_TOKEN_TTL" },
    { env: { DDNS_UPDATE_INTERVAL: "0s" }, names: "DDNS_UPDATE_INTERVAL" },
    { env: { DDNS_UPDATE_INTERVAL: "0" }, names: "DDNS_UPDATE_INTERVAL" },
    { env: { DDNS_UPDATE_INTERVAL: "fast" }, names: "DDNS_UPDATE_INTERVAL" },
    { env: { DDNS_HTTP_TIMEOUT: "0s" }, names: "DDNS_HTTP_TIMEOUT" },
    { env: { DDNS_VERIFY_EVERY: "daily" }, names: "DDNS_VERIFY_EVERY" },
    { env: { DDNS_ALLOW_PRIVATE_IPS: "maybe" }, names: "DDNS_ALLOW_PRIVATE_IPS" },
    { env: { DDNS_IPV4_URLS: "ftp://x" }, names: "DDNS_IPV4_URLS" },
    { env: { DDNS_IPV4_URLS: "http://ok.example, not a url" }, names: "DDNS_IPV4_URLS" },
    { env: { DDNS_IPV6_URLS: " , , " }, names: "DDNS_IPV6_URLS" },
    { env: { DDNS_CLOUDFLARE_API_URL: "api.cloudflare.com" }, names: "DDNS_CLOUDFLARE_API_URL" },
    { env: { DDNS_DYNU_API_URL: "file:///etc/passwd" }, names: "DDNS_DYNU_API_URL" },
    { env: { DDNS_LOG_LEVEL: "loud" }, names: "DDNS_LOG_LEVEL" },
    { env: { DDNS_SECRET_KEY: "too-short" }, names: "DDNS_SECRET_KEY" },
    { env: { DDNS_SECRET_KEY: "x".repeat(31) }, names: "DDNS_SECRET_KEY" },
    { env: { DDNS_ENCRYPTION_KEY: "short" }, names: "DDNS_ENCRYPTION_KEY" },
    { env: { DDNS_HISTORY_RETENTION: "0" }, names: "DDNS_HISTORY_RETENTION" },
    { env: { DDNS_ADMIN_PASSWORD: "seven77" }, names: "DDNS_ADMIN_PASSWORD" },
    { env: { DDNS_HISTORY_RETENTION: "lots" }, names: "DDNS_HISTORY_RETENTION" },
    { env: { DDNS_ADMIN_USERNAME: "two words" }, names: "DDNS_ADMIN_USERNAME" },
    { env: { DDNS_RESOLVERS: "resolver.example.net" }, names: "DDNS_RESOLVERS" },
    { env: { DDNS_RESOLVERS: "192.0.2.53:99999" }, names: "DDNS_RESOLVERS" },
    { env: { DDNS_RESOLVERS: " , " }, names: "DDNS_RESOLVERS" },
    { env: { DDNS_TLS_CERT: "/etc/hostname" }, names: "DDNS_TLS_KEY" },
    { env: { DDNS_TLS_KEY: "/etc/hostname" }, names: "DDNS_TLS_CERT" },
    { env: { DDNS_TLS_CERT: "/nonexistent/cert.pem", DDNS_TLS_KEY: "/nonexistent/key.pem" }, names: "DDNS_TLS_CERT" },
  ];
  for (const { env, names } of INVALID) {
    test(`${Object.entries(env)
      .map(([k, v]) => `${k}=${JSON.stringify(v.length > 20 ? `${v.slice(0, 8)}…` : v)}`)
      .join(" ")} → names ${names}`, () => {
      let caught: unknown;
      try {
        loadSettings(env);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SettingsError);
      const message = (caught as Error).message;
      expect(message).toContain(names);
      expect(message).not.toContain("\n");
    });
  }

  test("a secret's value is never repeated in the error", () => {
    try {
      loadSettings({ DDNS_SECRET_KEY: "my-short-secret" });
      throw new Error("no error");
    } catch (error) {
      expect((error as Error).message).not.toContain("my-short-secret");
    }
  });

  test("a TLS certificate and key that are PEM files are accepted; other files are refused by name", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "cert.pem"), "-----BEGIN CERTIFICATE-----\n…\n");
    writeFileSync(join(dir, "key.pem"), "-----BEGIN PRIVATE KEY-----\n…\n");
    writeFileSync(join(dir, "junk.pem"), "not a certificate");
    expect(() => loadSettings({ DDNS_TLS_CERT: join(dir, "junk.pem"), DDNS_TLS_KEY: join(dir, "key.pem") })).toThrow(
      /^Invalid setting DDNS_TLS_CERT: .*junk\.pem is not a PEM file$/,
    );
    expect(() => loadSettings({ DDNS_TLS_CERT: join(dir, "cert.pem"), DDNS_TLS_KEY: dir })).toThrow(
      /^Invalid setting DDNS_TLS_KEY: cannot read /,
    );
    const settings = loadSettings({ DDNS_TLS_CERT: join(dir, "cert.pem"), DDNS_TLS_KEY: join(dir, "key.pem") });
    expect(settings.tlsCert).toBe(join(dir, "cert.pem"));
    expect(settings.tlsKey).toBe(join(dir, "key.pem"));
  });
});

describe("resolveKeys", () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  test("generates secret.key and encryption.key once, mode 0600, and reuses them", () => {
    const dir = join(tempDir(), "nested", "data");
    const settings = loadSettings({ DDNS_DATA_DIR: dir });
    const first = resolveKeys(settings);
    for (const name of ["secret.key", "encryption.key"]) {
      expect(existsSync(join(dir, name))).toBe(true);
      expect(mode(join(dir, name))).toBe(0o600);
    }
    expect(first.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(first.encryptionKey.length).toBeGreaterThanOrEqual(32);
    expect(first.secretKey).not.toBe(first.encryptionKey);
    expect(readFileSync(join(dir, "secret.key"), "utf8").trim()).toBe(first.secretKey);
    expect(readFileSync(join(dir, "encryption.key"), "utf8").trim()).toBe(first.encryptionKey);
    const second = resolveKeys(loadSettings({ DDNS_DATA_DIR: dir }));
    expect(second).toEqual(first);
  });

  test("a key file emptied or cut short stops the start, naming the setting", () => {
    const dir = tempDir();
    resolveKeys(loadSettings({ DDNS_DATA_DIR: dir }));
    writeFileSync(join(dir, "encryption.key"), "\n");
    expect(() => resolveKeys(loadSettings({ DDNS_DATA_DIR: dir }))).toThrow(
      /^Invalid setting DDNS_ENCRYPTION_KEY: the key file .* holds fewer than 32 characters/,
    );
  });

  test("two data dirs get different keys", () => {
    const a = resolveKeys(loadSettings({ DDNS_DATA_DIR: tempDir() }));
    const b = resolveKeys(loadSettings({ DDNS_DATA_DIR: tempDir() }));
    expect(a.secretKey).not.toBe(b.secretKey);
    expect(a.encryptionKey).not.toBe(b.encryptionKey);
  });

  test("prefers the environment's keys and then writes no key file", () => {
    const dir = tempDir();
    const keys = resolveKeys(
      loadSettings({
        DDNS_DATA_DIR: dir,
        DDNS_SECRET_KEY: "env-secret-key-0123456789abcdef0123",
        DDNS_ENCRYPTION_KEY: "env-encryption-key-0123456789abcdef01",
      }),
    );
    expect(keys).toEqual({
      secretKey: "env-secret-key-0123456789abcdef0123",
      encryptionKey: "env-encryption-key-0123456789abcdef01",
    });
    expect(existsSync(join(dir, "secret.key"))).toBe(false);
    expect(existsSync(join(dir, "encryption.key"))).toBe(false);
  });

  test("an environment key wins over an existing key file; the other still comes from its file", () => {
    const dir = tempDir();
    const generated = resolveKeys(loadSettings({ DDNS_DATA_DIR: dir }));
    const mixed = resolveKeys(
      loadSettings({ DDNS_DATA_DIR: dir, DDNS_SECRET_KEY: "env-secret-key-0123456789abcdef0123" }),
    );
    expect(mixed).toEqual({ secretKey: "env-secret-key-0123456789abcdef0123", encryptionKey: generated.encryptionKey });
  });
});
