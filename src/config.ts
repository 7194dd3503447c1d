// The only module that reads the environment: every setting (and a `DDNS_<TYPE>_API_URL` for each
// registered DNS service), typed and validated; the secret ones also from files (`<NAME>_FILE`).
// An invalid value throws a SettingsError whose message is the one line printed before exiting.

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseResolvers, resolvConfServers } from "./dns/lookup";
import type { ServerAddress } from "./dns/protocols/signed-dns";
import { apiUrlSetting, SERVICES } from "./dns/registry";
import { DEFAULT_IPV4_URLS, DEFAULT_IPV6_URLS } from "./ip/detect";
import { DEFAULT_IPV4_DNS, DEFAULT_IPV6_DNS, type DnsQuestion, parseDnsQuestions } from "./ip/dns";
import { type AddressSource, parseAddressSource, parseUrlList } from "./ip/source";
import type { LogFormat, LogLevel } from "./log";
import { type Network, parseNetwork } from "./net/address";
import { type ProxySettings, parseNoProxy } from "./net/proxy";
import { parseDuration } from "./util/time";
import { isHttpUrl } from "./util/url";

export interface Settings {
  host: string;
  port: number;
  dataDir: string;
  /** From the environment, or null to use (or create) the key file in the data dir. */
  secretKey: string | null;
  encryptionKey: string | null;
  tokenTtlSeconds: number;
  adminUsername: string;
  adminPassword: string | null;
  updateIntervalSeconds: number;
  ipv4Urls: string[];
  ipv6Urls: string[];
  ipv4Source: AddressSource;
  ipv6Source: AddressSource;
  /** The questions of the `dns` source (DDNS_IPV4_DNS / DDNS_IPV6_DNS), asked in order. */
  ipv4Dns: DnsQuestion[];
  ipv6Dns: DnsQuestion[];
  /** How many echo services must answer the same address before it is written (DDNS_ECHO_AGREE). */
  echoAgree: number;
  /** How long a push-only domain may go without a push before it is shown stale (DDNS_PUSH_STALE_AFTER). */
  pushStaleAfterSeconds: number;
  /** How often a record no name server answers for is read at its service (DDNS_VERIFY_EVERY); 0: never. */
  verifyEverySeconds: number;
  allowPrivateIps: boolean;
  httpTimeoutMs: number;
  /** The largest answer read from a service, echo service or notification target (DDNS_MAX_ANSWER_BYTES). */
  maxAnswerBytes: number;
  /** Each registered service's API base (`DDNS_<TYPE>_API_URL`), by provider type, without a trailing slash. */
  apiUrls: Record<string, string>;
  historyRetention: number;
  /** The most domains kept (DDNS_MAX_DOMAINS): past it a new one is refused. */
  maxDomains: number;
  /** A bearer token that may read /metrics besides the API's tokens; null when only those may. */
  metricsToken: string | null;
  telegramApiUrl: string;
  /** Provider writes running at once, per provider. */
  updateConcurrency: number;
  logLevel: LogLevel;
  logFormat: LogFormat;
  tlsCert: string | null;
  tlsKey: string | null;
  /** Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (DDNS_TRUSTED_PROXIES). */
  trustedProxies: Network[];
  /** The forward proxy of outbound requests (HTTPS_PROXY, HTTP_PROXY, NO_PROXY). */
  proxy: ProxySettings;
  /** The resolvers that find a zone's name servers (DDNS_RESOLVERS, else /etc/resolv.conf's). */
  resolvers: ServerAddress[];
  /** The header a sign-in proxy names its user in, believed only from trusted proxies (DDNS_AUTH_PROXY_HEADER); null: none. */
  authProxyHeader: string | null;
  /** Where the pages' "Sign out" leads when the proxy signs people in (DDNS_AUTH_PROXY_LOGOUT_URL). */
  authProxyLogoutUrl: string | null;
  /** The sub-path everything is served under, e.g. `/ddns` (DDNS_BASE_PATH); "" at the root. */
  basePath: string;
}

export class SettingsError extends Error {}

type Env = Record<string, string | undefined>;

/**
 * The secret settings that may instead be read from a file named by `<NAME>_FILE`, as Docker and
 * Compose secrets (/run/secrets/…) and systemd credentials ($CREDENTIALS_DIRECTORY/…) pass them.
 */
export const FILE_SETTINGS = [
  "DDNS_SECRET_KEY",
  "DDNS_ENCRYPTION_KEY",
  "DDNS_ADMIN_PASSWORD",
  "DDNS_METRICS_TOKEN",
] as const;

class Reader {
  /** Where a file-backed setting's value came from (`DDNS_SECRET_KEY_FILE`), for its error messages. */
  private readonly sources = new Map<string, string>();

  constructor(private readonly env: Env) {}

  private given(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === "" ? undefined : value.trim();
  }

  private raw(name: string): string | undefined {
    if (!(FILE_SETTINGS as readonly string[]).includes(name)) return this.given(name);
    const fileSetting = `${name}_FILE`;
    const path = this.given(fileSetting);
    if (path === undefined) return this.given(name);
    if (this.given(name) !== undefined)
      this.fail(name, `both ${name} and ${fileSetting} are set; set only one of them`);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      this.fail(fileSetting, `cannot read the file ${path}: ${(error as Error).message}`);
    }
    // A file written by `echo` or an editor ends in a newline that is not part of the secret.
    const value = text.replace(/\r?\n$/, "");
    if (value.trim() === "") this.fail(fileSetting, `the file ${path} is empty`);
    this.sources.set(name, fileSetting);
    return value.trim();
  }

  fail(name: string, why: string): never {
    throw new SettingsError(`Invalid setting ${this.sources.get(name) ?? name}: ${why}`);
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optional(name: string): string | null {
    return this.raw(name) ?? null;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
      this.fail(name, `expected a whole number from ${min} to ${max}, got "${text}"`);
    }
    return Number(text);
  }

  /** A duration setting, at least a second: none of them (token lifetime, interval, timeout) means anything at zero. */
  duration(name: string, fallback: string): number {
    const text = this.raw(name) ?? fallback;
    const seconds = parseDuration(text);
    if (seconds === null) this.fail(name, `expected a duration like 30s, 5m, 12h or 7d, got "${text}"`);
    if (seconds < 1) this.fail(name, `must be at least 1s, got "${text}"`);
    return seconds;
  }

  /** A duration setting that `0` turns off (returned as 0). */
  durationOrOff(name: string, fallback: string): number {
    return this.raw(name)?.trim() === "0" ? 0 : this.duration(name, fallback);
  }

  boolean(name: string, fallback: boolean): boolean {
    const text = this.raw(name)?.toLowerCase();
    if (text === undefined) return fallback;
    if (["true", "1", "yes", "on"].includes(text)) return true;
    if (["false", "0", "no", "off"].includes(text)) return false;
    this.fail(name, `expected true or false, got "${text}"`);
  }

  choice<T extends string>(name: string, fallback: T, allowed: readonly T[]): T {
    const text = (this.raw(name) ?? fallback).toLowerCase() as T;
    if (!allowed.includes(text)) this.fail(name, `expected one of ${allowed.join(", ")}, got "${text}"`);
    return text;
  }

  url(name: string, fallback: string): string {
    const text = this.raw(name) ?? fallback;
    if (!isHttpUrl(text)) this.fail(name, `expected an http(s) URL, got "${text}"`);
    return text.replace(/\/+$/, "");
  }

  urls(name: string, fallback: readonly string[]): string[] {
    const text = this.raw(name);
    if (text === undefined) return [...fallback];
    const list = parseUrlList(text);
    if (typeof list === "string") this.fail(name, `expected comma-separated http(s) URLs, got "${list}"`);
    return list;
  }

  /** `web`, `dns`, or `interface:<name>` with a Linux interface name (at most 15 characters, no slash or space). */
  addressSource(name: string): AddressSource {
    const text = this.raw(name) ?? "web";
    const source = parseAddressSource(text);
    if (source === null) this.fail(name, `expected web, dns or interface:<name> (e.g. interface:eth0), got "${text}"`);
    return source;
  }

  /** Comma-separated `<name>/<type>[/<class>]@<server>[:<port>]` questions of the `dns` source. */
  dnsQuestions(name: string, fallback: readonly string[]): DnsQuestion[] {
    const list = parseDnsQuestions(this.raw(name) ?? fallback.join(","));
    if (typeof list === "string") this.fail(name, list);
    return list;
  }

  password(name: string): string | null {
    const text = this.raw(name);
    if (text !== undefined && text.length < 8) this.fail(name, "must be at least 8 characters long");
    return text ?? null;
  }

  networks(name: string): Network[] {
    const text = this.raw(name);
    if (text === undefined) return [];
    return text
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item) => {
        const network = parseNetwork(item);
        if (network === null) this.fail(name, `expected comma-separated IP addresses or CIDR blocks, got "${item}"`);
        return network;
      });
  }

  /**
   * A proxy variable, in either case (the lowercase one wins, as curl reads them): an http(s) URL,
   * `http://` assumed when it names only `host:port`.
   */
  proxyUrl(name: string): string | null {
    const lower = name.toLowerCase();
    const used = this.given(lower) !== undefined ? lower : name;
    const text = this.given(used);
    if (text === undefined) return null;
    const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
    // The value may carry the proxy's password (user:password@host): it is not repeated in the error.
    if (!isHttpUrl(url))
      this.fail(
        used,
        `expected the proxy's http(s) URL, e.g. http://proxy.lan:3128, got "${text.replace(/\/\/[^/@]*@/, "//••••@")}"`,
      );
    return url;
  }

  noProxy(): ProxySettings["noProxy"] {
    const used = this.given("no_proxy") !== undefined ? "no_proxy" : "NO_PROXY";
    const { rules, bad } = parseNoProxy(this.given(used) ?? "");
    if (bad !== null)
      this.fail(used, `expected comma-separated host names, .domains, IP addresses or CIDR blocks, or *, got "${bad}"`);
    return rules;
  }

  /** A comma list of resolver addresses (`host`, `host:port`, `[v6]:port`); the system's from resolv.conf when unset. */
  resolvers(name: string, resolvConf: string): ServerAddress[] {
    const text = this.raw(name);
    if (text === undefined) {
      try {
        return resolvConfServers(readFileSync(resolvConf, "utf8"));
      } catch {
        return [];
      }
    }
    const servers = parseResolvers(text);
    if (typeof servers === "string")
      this.fail(
        name,
        `expected comma-separated IP addresses, each optionally with :port (e.g. 192.0.2.53, [2001:db8::53]:5353), got "${servers}"`,
      );
    if (servers.length === 0) this.fail(name, "must name at least one resolver");
    return servers;
  }

  secret(name: string): string | null {
    const text = this.raw(name);
    if (text !== undefined && text.length < 32) this.fail(name, "must be at least 32 characters long");
    return text ?? null;
  }
}

export function loadSettings(env: Env = process.env): Settings {
  const read: Reader = new Reader(env);
  const tlsCert = read.optional("DDNS_TLS_CERT");
  const tlsKey = read.optional("DDNS_TLS_KEY");
  if ((tlsCert === null) !== (tlsKey === null)) {
    read.fail(
      tlsCert === null ? "DDNS_TLS_CERT" : "DDNS_TLS_KEY",
      "DDNS_TLS_CERT and DDNS_TLS_KEY must be set together",
    );
  }
  for (const [name, path] of [
    ["DDNS_TLS_CERT", tlsCert],
    ["DDNS_TLS_KEY", tlsKey],
  ] as const) {
    if (path === null) continue;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      read.fail(name, `cannot read ${path}: ${(error as Error).message}`);
    }
    if (!text.includes("-----BEGIN ")) read.fail(name, `${path} is not a PEM file`);
  }
  const adminUsername = read.string("DDNS_ADMIN_USERNAME", "admin");
  if (!/^[A-Za-z0-9._@-]{1,64}$/.test(adminUsername)) {
    read.fail("DDNS_ADMIN_USERNAME", "use 1-64 letters, digits, dots, dashes, underscores or @");
  }
  return {
    host: read.string("DDNS_HOST", "0.0.0.0"),
    port: read.integer("DDNS_PORT", 8001, 0, 65535),
    dataDir: resolve(read.string("DDNS_DATA_DIR", "./data")),
    secretKey: read.secret("DDNS_SECRET_KEY"),
    encryptionKey: read.secret("DDNS_ENCRYPTION_KEY"),
    tokenTtlSeconds: read.duration("DDNS_TOKEN_TTL", "7d"),
    adminUsername,
    adminPassword: read.password("DDNS_ADMIN_PASSWORD"),
    updateIntervalSeconds: read.duration("DDNS_UPDATE_INTERVAL", "5m"),
    ipv4Urls: read.urls("DDNS_IPV4_URLS", DEFAULT_IPV4_URLS),
    ipv6Urls: read.urls("DDNS_IPV6_URLS", DEFAULT_IPV6_URLS),
    ipv4Source: read.addressSource("DDNS_IPV4_SOURCE"),
    ipv6Source: read.addressSource("DDNS_IPV6_SOURCE"),
    ipv4Dns: read.dnsQuestions("DDNS_IPV4_DNS", DEFAULT_IPV4_DNS),
    ipv6Dns: read.dnsQuestions("DDNS_IPV6_DNS", DEFAULT_IPV6_DNS),
    echoAgree: read.integer("DDNS_ECHO_AGREE", 2, 1, 10),
    pushStaleAfterSeconds: read.duration("DDNS_PUSH_STALE_AFTER", "24h"),
    verifyEverySeconds: read.durationOrOff("DDNS_VERIFY_EVERY", "24h"),
    allowPrivateIps: read.boolean("DDNS_ALLOW_PRIVATE_IPS", false),
    httpTimeoutMs: httpTimeoutSeconds(read) * 1000,
    maxAnswerBytes: read.integer("DDNS_MAX_ANSWER_BYTES", 1024 * 1024, 1024, 1024 * 1024 * 1024),
    apiUrls: Object.fromEntries(
      SERVICES.flatMap((service) =>
        service.defaultApiUrl === undefined
          ? []
          : [[service.type, read.url(apiUrlSetting(service.type), service.defaultApiUrl)]],
      ),
    ),
    historyRetention: read.integer("DDNS_HISTORY_RETENTION", 1000, 1, 1_000_000),
    maxDomains: read.integer("DDNS_MAX_DOMAINS", 1000, 1, 100_000),
    metricsToken: read.secret("DDNS_METRICS_TOKEN"),
    telegramApiUrl: read.url("DDNS_TELEGRAM_API_URL", "https://api.telegram.org"),
    updateConcurrency: read.integer("DDNS_UPDATE_CONCURRENCY", 4, 1, 64),
    logLevel: read.choice("DDNS_LOG_LEVEL", "info", ["debug", "info", "warn", "error"] as const),
    logFormat: read.choice("DDNS_LOG_FORMAT", "text", ["text", "json"] as const),
    tlsCert,
    tlsKey,
    trustedProxies: read.networks("DDNS_TRUSTED_PROXIES"),
    proxy: { https: read.proxyUrl("HTTPS_PROXY"), http: read.proxyUrl("HTTP_PROXY"), noProxy: read.noProxy() },
    resolvers: read.resolvers("DDNS_RESOLVERS", "/etc/resolv.conf"),
    ...authProxySettings(read),
    basePath: basePathSetting(read),
  };
}

/** DDNS_AUTH_PROXY_HEADER and its logout URL; the header needs a proxy to be believed from. */
function authProxySettings(read: Reader): Pick<Settings, "authProxyHeader" | "authProxyLogoutUrl"> {
  const header = read.optional("DDNS_AUTH_PROXY_HEADER");
  if (header !== null && !/^[A-Za-z0-9-]{1,64}$/.test(header))
    read.fail("DDNS_AUTH_PROXY_HEADER", `expected a header name such as Remote-User, got "${header}"`);
  if (header !== null && read.networks("DDNS_TRUSTED_PROXIES").length === 0)
    read.fail("DDNS_AUTH_PROXY_HEADER", "it is believed only from DDNS_TRUSTED_PROXIES, which is not set");
  const logout = read.optional("DDNS_AUTH_PROXY_LOGOUT_URL");
  return {
    authProxyHeader: header,
    authProxyLogoutUrl: logout === null ? null : read.url("DDNS_AUTH_PROXY_LOGOUT_URL", logout),
  };
}

/** DDNS_BASE_PATH: `/ddns` or `/home/ddns` (a trailing slash dropped); `/` or unset is the root. */
function basePathSetting(read: Reader): string {
  const path = read.string("DDNS_BASE_PATH", "/").replace(/\/+$/, "");
  if (path !== "" && !/^(\/[A-Za-z0-9._~-]+)+$/.test(path))
    read.fail("DDNS_BASE_PATH", `expected a path such as /ddns (letters, digits, . _ ~ -), got "${path}"`);
  return path;
}

/**
 * A request being served waits at most 255 s for its answer (Bun's longest idle timeout, server.ts),
 * and may make a few outbound calls in a row: one call may take no more than 2 minutes.
 */
const LONGEST_HTTP_TIMEOUT_SECONDS = 120;

function httpTimeoutSeconds(read: Reader): number {
  const seconds = read.duration("DDNS_HTTP_TIMEOUT", "10s");
  if (seconds > LONGEST_HTTP_TIMEOUT_SECONDS) read.fail("DDNS_HTTP_TIMEOUT", `must be at most 2m, got ${seconds}s`);
  return seconds;
}

export interface Keys {
  secretKey: string;
  encryptionKey: string;
}

/**
 * The JWT and encryption keys: from the environment, else from `<data dir>/<file>`, created once
 * with mode 0600 so that tokens and stored credentials survive restarts.
 */
export function resolveKeys(settings: Settings): Keys {
  return {
    secretKey: settings.secretKey ?? keyFile(settings.dataDir, "secret.key"),
    encryptionKey: settings.encryptionKey ?? keyFile(settings.dataDir, "encryption.key"),
  };
}

function keyFile(dataDir: string, name: string): string {
  const path = join(dataDir, name);
  const variable = name === "secret.key" ? "DDNS_SECRET_KEY" : "DDNS_ENCRYPTION_KEY";
  if (existsSync(path)) {
    let key: string;
    try {
      key = readFileSync(path, "utf8").trim();
    } catch (error) {
      throw new SettingsError(
        `Invalid setting ${variable}: cannot read the key file ${path}: ${(error as Error).message}`,
      );
    }
    if (key.length < 32) {
      throw new SettingsError(
        `Invalid setting ${variable}: the key file ${path} holds fewer than 32 characters; restore it from a backup`,
      );
    }
    return key;
  }
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const key = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    writeFileSync(path, `${key}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(path, 0o600);
    return key;
  } catch (error) {
    throw new SettingsError(`Invalid setting DDNS_DATA_DIR: cannot write ${path}: ${(error as Error).message}`);
  }
}
