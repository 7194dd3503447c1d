// The settings in effect, for the About page: an explicit list, so a setting added later stays
// hidden until someone decides how to show it. Secrets appear only as where they come from.

import { join } from "node:path";
import type { SettingLine } from "../../views/pages/about";
import { formatServer, type ServerAddress } from "../dns/protocols/signed-dns";
import { apiUrlSetting, SERVICES } from "../dns/registry";
import { type DnsQuestion, questionText } from "../ip/dns";
import { type AddressSource, sourceText } from "../ip/source";
import type { LogFormat, LogLevel } from "../log";
import type { Network } from "../net/address";
import { formatDuration } from "../util/time";

/** The settings the page lists (the app's settings have them all); the secret ones only say where they come from. */
export interface ShownSettings {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly secretKey: string | null;
  readonly encryptionKey: string | null;
  readonly tokenTtlSeconds: number;
  readonly adminUsername: string;
  readonly adminPassword: string | null;
  readonly updateIntervalSeconds: number;
  readonly ipv4Source: AddressSource;
  readonly ipv6Source: AddressSource;
  readonly ipv4Urls: readonly string[];
  readonly ipv6Urls: readonly string[];
  readonly echoAgree: number;
  readonly ipv4Dns: readonly DnsQuestion[];
  readonly ipv6Dns: readonly DnsQuestion[];
  readonly pushStaleAfterSeconds: number;
  readonly allowPrivateIps: boolean;
  readonly httpTimeoutMs: number;
  readonly maxAnswerBytes: number;
  readonly apiUrls: Readonly<Record<string, string>>;
  readonly historyRetention: number;
  readonly maxDomains: number;
  readonly updateConcurrency: number;
  readonly logLevel: LogLevel;
  readonly logFormat: LogFormat;
  readonly tlsCert: string | null;
  readonly tlsKey: string | null;
  readonly trustedProxies: readonly Pick<Network, "text">[];
  readonly resolvers: readonly ServerAddress[];
}

function keySource(fromEnvironment: boolean, dataDir: string, file: string): string {
  return fromEnvironment ? "set in the environment (hidden)" : `generated, kept in ${join(dataDir, file)} (hidden)`;
}

/** The `DDNS_<TYPE>_API_URL` settings that differ from their service's default, then one line for the rest. */
function apiUrlLines(apiUrls: Readonly<Record<string, string>>): [string, string][] {
  const defaults = new Map<string, string | undefined>(
    SERVICES.map((service) => [service.type, service.defaultApiUrl]),
  );
  const changed = Object.entries(apiUrls).filter(([type, url]) => defaults.get(type) !== url);
  const rest = Object.keys(apiUrls).length - changed.length;
  return [
    ...changed.map(([type, url]): [string, string] => [apiUrlSetting(type), url]),
    ...(rest > 0
      ? [["DDNS_<TYPE>_API_URL", `the services' own addresses (${rest} at their defaults)`] as [string, string]]
      : []),
  ];
}

export function settingsInEffect(s: ShownSettings): SettingLine[] {
  const lines: [string, string][] = [
    ["DDNS_HOST", s.host],
    ["DDNS_PORT", String(s.port)],
    ["DDNS_DATA_DIR", s.dataDir],
    ["DDNS_SECRET_KEY", keySource(s.secretKey !== null, s.dataDir, "secret.key")],
    ["DDNS_ENCRYPTION_KEY", keySource(s.encryptionKey !== null, s.dataDir, "encryption.key")],
    ["DDNS_TOKEN_TTL", formatDuration(s.tokenTtlSeconds)],
    ["DDNS_ADMIN_USERNAME", s.adminUsername],
    ["DDNS_ADMIN_PASSWORD", s.adminPassword === null ? "not set" : "set in the environment (hidden)"],
    ["DDNS_UPDATE_INTERVAL", formatDuration(s.updateIntervalSeconds)],
    ["DDNS_IPV4_SOURCE", sourceText(s.ipv4Source)],
    ["DDNS_IPV6_SOURCE", sourceText(s.ipv6Source)],
    ["DDNS_IPV4_URLS", s.ipv4Urls.join(", ")],
    ["DDNS_IPV6_URLS", s.ipv6Urls.join(", ")],
    ["DDNS_ECHO_AGREE", String(s.echoAgree)],
    ["DDNS_IPV4_DNS", s.ipv4Dns.map(questionText).join(", ")],
    ["DDNS_IPV6_DNS", s.ipv6Dns.map(questionText).join(", ")],
    ["DDNS_PUSH_STALE_AFTER", formatDuration(s.pushStaleAfterSeconds)],
    ["DDNS_ALLOW_PRIVATE_IPS", String(s.allowPrivateIps)],
    ["DDNS_HTTP_TIMEOUT", formatDuration(Math.round(s.httpTimeoutMs / 1000))],
    ["DDNS_MAX_ANSWER_BYTES", String(s.maxAnswerBytes)],
    // Only the services' API addresses someone set: the rest are each service's own, and listing
    // dozens of them at their defaults hides the settings that matter.
    ...apiUrlLines(s.apiUrls),
    ["DDNS_HISTORY_RETENTION", String(s.historyRetention)],
    ["DDNS_MAX_DOMAINS", String(s.maxDomains)],
    ["DDNS_UPDATE_CONCURRENCY", String(s.updateConcurrency)],
    ["DDNS_LOG_LEVEL", s.logLevel],
    ["DDNS_LOG_FORMAT", s.logFormat],
    ["DDNS_TLS_CERT", s.tlsCert ?? "not set (plain HTTP)"],
    ["DDNS_TLS_KEY", s.tlsKey ?? "not set"],
    ["DDNS_TRUSTED_PROXIES", s.trustedProxies.map((network) => network.text).join(", ") || "none"],
    ["DDNS_RESOLVERS", s.resolvers.map(formatServer).join(", ") || "none (no nameserver in /etc/resolv.conf)"],
  ];
  return lines.map(([name, value]) => ({ name, value }));
}
