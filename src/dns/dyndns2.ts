// The dyndns2 protocol (`/nic/update`) that No-IP, Dyn, OVH DynHost, Strato, Infomaniak, HE, INWX,
// selfHOST and many more speak: `GET <server>/nic/update?hostname=<fqdn>&myip=<address>` with HTTP
// Basic auth and an identifying User-Agent, answered with one text line (PROVIDERS.md §2; sources:
// help.dyn.com return codes and policies, noip.com/integrate/request and /response, ddclient
// `nic_dyndns2_update`, inadyn `plugins/common.c`).
//
// The protocol cannot read a record, so "never write what is already there" is the updater's job (it
// writes only when the address changed: repeated `nochg` answers get a client blocked for abuse);
// each write here is exactly one request and is never repeated inside the client. The answer's body
// decides before its HTTP status: services send `badauth` with 401 (No-IP, deSEC) or with 200 (Dyn),
// `nohost` with 200 or 404. Codes that say the configuration is wrong stop retrying (Dyn's policy:
// every such failure is fatal until the user intervenes); `dnserr` is retried with the usual backoff,
// `911` no sooner than 30 minutes.

import { isIP } from "node:net";
import { exchange, failed, pauseSeconds, retryAfterSeconds, unreadableAnswer } from "./http";
import { cannotVerify, maskSecrets, throttleSeconds } from "./one-shot";
import type { DnsProvider, WriteOutcome } from "./provider";
import { type ClientContext, defineService } from "./service";
import { sameAddress } from "./zones";

/** Well-known update servers, for the form to fill in (`server` is their base URL). */
const PRESETS = [
  { label: "No-IP", value: "https://dynupdate.no-ip.com" },
  { label: "Dyn", value: "https://members.dyndns.org" },
  { label: "dynv6 (IPv4 only)", value: "https://dynv6.com" },
  // OVH refuses updates without `system=dyndns` (`badsys`): the parameter travels in the server URL.
  { label: "OVH DynHost", value: "https://dns.eu.ovhapis.com/nic/update?system=dyndns" },
  { label: "Strato", value: "https://dyndns.strato.com" },
  { label: "Infomaniak", value: "https://infomaniak.com" },
  { label: "Hurricane Electric", value: "https://dyn.dns.he.net" },
  { label: "INWX", value: "https://dyndns.inwx.com" },
  { label: "selfHOST", value: "https://carol.selfhost.de" },
  { label: "Joker", value: "https://svc.joker.com" },
  { label: "DNS-O-Matic", value: "https://updates.dnsomatic.com" },
  { label: "spdyn", value: "https://update.spdyn.de" },
  { label: "ipv64", value: "https://ipv64.net" },
  { label: "deSEC", value: "https://update.dedyn.io" },
] as const;

/** `911`: the service is down or in maintenance; No-IP asks for at least 30 minutes before the next try. */
const OUTAGE_PAUSE_SECONDS = 1800;
const CANNOT_VERIFY =
  "The dyndns2 protocol cannot check a username and password without updating a record; the first update shows whether they work.";

/** First words of a successful answer; Infomaniak's newer spelling besides the classic one. */
const CHANGED = new Set(["good", "successfully_changed"]);
const UNCHANGED = new Set(["nochg", "no_change"]);

/** Answers that say the configuration is wrong: asking again cannot succeed and gets clients blocked. */
const STOP_CODES = new Map<string, string>(Object.entries({
  badauth: "the username or password is wrong",
  "!donator": "the request uses a feature of paid accounts only",
  notfqdn: "the hostname is not a fully qualified domain name",
  nohost: "the hostname does not exist in this account",
  numhost: "too many hosts in one request, or the name is a round-robin record",
  abuse: "the hostname is blocked for abuse",
  badagent: "the service refuses this client (its User-Agent)",
  badsys: "the service refuses the system parameter",
  "!yours": "the hostname belongs to another account",
  "!active": "the hostname's domain is not activated",
}));

export const dyndns2 = defineService({
  type: "dyndns2",
  label: "dyndns2 (No-IP, Dyn, OVH, …)",
  summary:
    "Any update service that speaks the dyndns2 protocol (/nic/update): No-IP, Dyn, OVH DynHost, Strato, Infomaniak, Hurricane Electric, INWX, selfHOST and many more. ddnsd sends one update per changed address; the hostname must already exist at the service.",
  credentials: [
    {
      key: "username",
      label: "Username",
      help: "The user name for updates. No-IP: create a DDNS Key (Dynamic DNS → DDNS Keys) and use its username rather than your account. OVH: the DynHost login (Domains → DynHost → Manage access). Hurricane Electric: the hostname. dynv6: anything.",
      secret: false,
    },
    {
      key: "password",
      label: "Password",
      help: "The password for updates: No-IP the DDNS Key's password, OVH the DynHost login's password, Hurricane Electric the record's DDNS key, dynv6 the zone's HTTP token. Prefer such an update-only key to the account password.",
      secret: true,
    },
  ],
  options: [
    {
      key: "server",
      label: "Update server",
      help: "The update service's base URL; ddnsd calls <server>/nic/update. A URL that already ends in /nic/update is used as it is, with any query parameters it carries (OVH's system=dyndns).",
      kind: "url",
      required: true,
      presets: PRESETS,
    },
  ],
  recordTypes: ["A", "AAAA"],
  // The protocol has no TTL: each service sets its own (OVH DynHost 60 s).
  ttl: null,
  canVerify: false,
  verifyUnavailable: CANNOT_VERIFY,
  // Every request goes to the provider's own `server` option; the setting has nothing to point at.
  createClient: (credentials, options, context) =>
    createDyndns2Client(
      { username: credentials.username ?? "", password: credentials.password ?? "" },
      typeof options.server === "string" ? options.server : "",
      context,
    ),
});

export function createDyndns2Client(
  credentials: { username: string; password: string },
  server: string,
  context: ClientContext,
): DnsProvider {
  const updateUrl = updateUrlOf(server);
  const service = serviceName(server);
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;

  return {
    verify: cannotVerify(CANNOT_VERIFY),

    async writeRecord(target, ip) {
      if (updateUrl === undefined) {
        return failed(`dyndns2: the server ${JSON.stringify(server)} is not an http(s) URL`, { stopRetrying: true });
      }
      const url = new URL(updateUrl);
      url.searchParams.set("hostname", target.hostname);
      url.searchParams.set("myip", ip);
      const answer = await exchange(
        context.fetch,
        url.toString(),
        { method: "GET", headers: { Authorization: authorization, "User-Agent": context.userAgent } },
        context.timeoutMs,
      );
      if (!answer.ok) return failed(`${service}: ${maskSecrets(answer.reason, [credentials.password])}`);
      return readAnswer(service, answer, target.hostname, ip, credentials.password);
    },
  };
}

/** `<server>/nic/update`, or the server itself when it already names that path; undefined when not an http(s) URL. */
function updateUrlOf(server: string): string | undefined {
  let url: URL;
  try {
    url = new URL(server.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  const path = url.pathname.replace(/\/+$/, "");
  url.pathname = path.endsWith("/nic/update") ? path : `${path}/nic/update`;
  return url.toString();
}

/** How messages name the service: the preset's label when the server is a well-known one, else its host. */
function serviceName(server: string): string {
  let host: string;
  try {
    host = new URL(server.trim()).host;
  } catch {
    return "dyndns2";
  }
  return PRESETS.find((preset) => new URL(preset.value).host === host)?.label ?? `dyndns2 ${host}`;
}

function readAnswer(
  service: string,
  { status, headers, text }: { status: number; headers: Headers; text: string },
  hostname: string,
  ip: string,
  password: string,
): WriteOutcome {
  // One line per hostname; ddnsd sends one hostname, so the first line is its answer.
  const line = text.split(/\r?\n/).map((l) => l.trim()).find((l) => l !== "") ?? "";
  const [word = "", ...rest] = line.split(/\s+/);
  const code = word.toLowerCase();
  const http = `HTTP ${status}`;

  if (CHANGED.has(code) || UNCHANGED.has(code)) {
    // A success line may carry the addresses the host holds now (`good 1.2.3.4,2001:db8::1`): when it
    // does, the one sent must be among them, or the service published something else (its caller's).
    const held = rest.join(" ").split(/[\s,]+/).filter((a) => isIP(a) !== 0);
    if (held.length > 0 && !held.some((a) => sameAddress(a, ip))) {
      return failed(`${service}: answered "${maskSecrets(line, [password])}", which does not hold ${ip} (${http})`);
    }
    const facts = UNCHANGED.has(code) ? ["it already held this address"] : [];
    return { ok: true, action: "updated", externalId: hostname, zoneId: "", message: [`${service} answered ${code}`, ...facts].join(", ") };
  }
  const stopReason = STOP_CODES.get(code);
  if (stopReason !== undefined) return failed(`${service}: ${code} — ${stopReason} (${http})`, { stopRetrying: true });
  if (code === "dnserr") return failed(`${service}: dnserr — the service's DNS failed; tried again later (${http})`);
  if (code === "911") {
    const asked = retryAfterSeconds(headers) ?? 0;
    return failed(`${service}: 911 — the service is down or in maintenance (${http})`, {
      retryAfterSeconds: pauseSeconds(Math.max(asked, OUTAGE_PAUSE_SECONDS)),
    });
  }
  return failed(`${service}: ${unreadableAnswer(status, maskSecrets(text, [password]))}`, {
    retryAfterSeconds: throttleSeconds(status, headers),
  });
}
