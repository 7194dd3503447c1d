// Building a real app for a test: its own in-memory database, fixed keys, a collected log, and
// settings from the same loader main.ts uses (so a test can set any DDNS_* variable).

import { createApp, createContext } from "../src/app";
import { loadSettings } from "../src/config";
import type { Appliance } from "../src/context";
import { openDatabase } from "../src/db";
import { apiUrlSetting, SERVICES } from "../src/dns/registry";
import type { ServiceDescription } from "../src/dns/service";
import { createLogger } from "../src/log";
import type { FetchLike } from "../src/net/outbound";
import { setPassword, userCount } from "../src/security/users";

export const TEST_PASSWORD = "correct horse battery staple";
export const SECRET_KEY = "test-secret-key-0123456789abcdef0123456789";
export const ENCRYPTION_KEY = "test-encryption-key-0123456789abcdef012345";

export interface TestApp {
  ctx: Appliance;
  app: ReturnType<typeof createApp>;
  /** Every log line written so far. */
  logs: string[];
  /** `app.handle` for a path, with JSON in and out and the admin's token unless `token: null`. */
  /**
   * Each request comes from an address of its own (so the sign-in throttle only applies where a test
   * names the client with `peer`), as a socket's address would be seen by the app.
   */
  request(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string | null; headers?: Record<string, string>; peer?: string },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  token(): Promise<string>;
}

export interface TestAppOptions {
  /** The DNS services the app knows, e.g. the built-in ones plus a fake one the test describes. */
  services?: readonly ServiceDescription[];
  /** The app's outbound fetch (the global one by default), e.g. one that records when requests leave. */
  fetch?: FetchLike;
}

/** Every service's API, and Telegram's, on a closed loopback port unless a test names its fake: no test reaches the internet. */
const UNREACHABLE_APIS = Object.fromEntries([
  ...SERVICES.filter((service) => service.defaultApiUrl !== undefined).map((service) => [
    apiUrlSetting(service.type),
    `http://127.0.0.1:9/${service.type}`,
  ]),
  ["DDNS_TELEGRAM_API_URL", "http://127.0.0.1:9/telegram"],
]);

export async function makeTestApp(
  env: Record<string, string> = {},
  dataDir = ":memory:",
  options: TestAppOptions = {},
): Promise<TestApp> {
  const logs: string[] = [];
  const settings = loadSettings({
    DDNS_SECRET_KEY: SECRET_KEY,
    DDNS_ENCRYPTION_KEY: ENCRYPTION_KEY,
    DDNS_IPV4_URLS: "http://127.0.0.1:9/unused",
    DDNS_IPV6_URLS: "http://127.0.0.1:9/unused",
    ...UNREACHABLE_APIS,
    DDNS_HTTP_TIMEOUT: "2s",
    // No resolver: a record's name servers are asked only where a test names its own.
    DDNS_RESOLVERS: "127.0.0.1:9",
    DDNS_LOG_LEVEL: "debug",
    ...env,
  });
  const log = createLogger({ level: settings.logLevel, format: settings.logFormat, write: (line) => logs.push(line) });
  const database = openDatabase(dataDir, log);
  const keys = { secretKey: settings.secretKey!, encryptionKey: settings.encryptionKey! };
  const ctx = createContext({ settings, keys, database, log, services: options.services, fetch: options.fetch });
  if (userCount(ctx) === 0) {
    await setPassword(ctx, settings.adminUsername, TEST_PASSWORD);
  }
  const app = createApp(ctx);
  let cachedToken: string | undefined;

  const token = async () => {
    if (cachedToken) return cachedToken;
    const response = await app.handle(
      new Request(`http://localhost${settings.basePath}/api/v1/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: settings.adminUsername, password: TEST_PASSWORD }),
      }),
    );
    cachedToken = ((await response.json()) as { access_token: string }).access_token;
    return cachedToken;
  };

  const request: TestApp["request"] = async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    const bearer = options.token === undefined ? await token() : options.token;
    if (bearer !== null) headers.authorization = `Bearer ${bearer}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers["content-type"] ??= "application/json";
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    }
    const sent = new Request(`http://localhost${path}`, { method, headers, body });
    ctx.signIns.rememberPeer(sent, options.peer ?? `peer-${crypto.randomUUID()}`);
    const response = await app.handle(sent);
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the test sees the text
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };

  return { ctx, app, logs, request, token };
}
