// The dyndns2 protocol (`/nic/update`) that No-IP, Dyn, OVH DynHost, Strato, Infomaniak, HE, INWX,
// deSEC, Dynu and many more speak: `GET <server>/nic/update?hostname=<fqdn>&myip=<address>` with HTTP
// Basic auth and an identifying User-Agent, answered with one text line (sources: help.dyn.com return
// codes, policies and perform-update; noip.com/integrate/request and /response; ddclient
// `nic_dyndns2_update`; inadyn `plugins/common.c`; qdm12/ddns-updater's providers).
//
// Each service speaks its own dialect of it, chosen by the server (the DIALECTS table below, the one
// home of these facts; docs/services/dyndns2.md): whether one request names both of a hostname's
// addresses (Dyn and deSEC delete, or set from the connection, the family an update does not name),
// in which parameters, how it says "leave this family as it is", and which families it takes at all.
// What is sent and whether the answer is believed is the one-shot policy's (one-shot-policy.ts).
//
// The protocol cannot read a record, so "never write what is already there" is the updater's job (it
// writes only when the address changed: repeated `nochg` answers get a client blocked for abuse);
// each write is exactly one request and is never repeated inside the client. The answer's body
// decides before its HTTP status: services send `badauth` with 401 (No-IP, deSEC) or with 200 (Dyn),
// `nohost` with 200, 400 or 404. Codes that say the configuration is wrong stop retrying (Dyn's
// policy: every such failure is fatal until the user intervenes).

import { isIP } from "node:net";
import { retryAfterSeconds, unreadableAnswer } from "../../net/http";
import { failed, throttleWait } from "../answers";
import { failedAnswerText, maskSecrets, type OneShotAnswer, oneShotRequest } from "../one-shot";
import { type OneShotApi, oneShotClient, oneShotService, type Sent } from "../one-shot-policy";
import type { Addresses, DnsProvider, RecordType, Step } from "../provider";
import { type ClientContext, defineService } from "../service";

/**
 * How one service speaks the protocol.
 * - `list`: both families in one parameter, `myip=<v4>,<v6>` (Dyn, No-IP, Variomedia …): one request
 *   carries the hostname's two addresses.
 * - `pair`: each family in its own parameter (`myip` + `myipv6`, deSEC's `myipv4` + `myipv6`), and
 *   `keep`, where the service has one, for a family ddnsd does not manage (deSEC `preserve`, Dynu `no`).
 * - `one`: one family per request, the other left as it is by the service (HE keeps a key per record;
 *   OVH a DynHost per type).
 */
interface Dialect {
  style: "list" | "pair" | "one";
  /** The record types the service takes on this endpoint. */
  recordTypes: readonly RecordType[];
  /** `list`/`one`: the address parameter (ChangeIP says `ip`); default `myip`. */
  addressParam?: string;
  /** `pair`: the two parameters, and the value that leaves a family unchanged. */
  ipv4Param?: string;
  ipv6Param?: string;
  keep?: string;
  /** The hostname parameter; default `hostname` (All-Inkl says `host`). */
  hostnameParam?: string;
  /** The update path when the server URL names none; default `/nic/update`. */
  path?: string;
  /** A success answer in the service's own words (ChangeIP: "200 Successful Update"). */
  success?: RegExp;
  /** "Already there" in the service's own words (ipv64: "no change"). */
  unchanged?: RegExp;
  /** "Slow down" in the service's own words (ipv64: "overcommited", its daily limit). */
  throttle?: RegExp;
  /**
   * What the service says with the HTTP status alone, where the body says nothing the protocol
   * knows (selfHOST: 204 no change, 409 no zones …).
   */
  statuses?: Readonly<Record<number, StatusMeaning>>;
  /**
   * Dynu: a name under one of the account's own domains is sent as `hostname=<domain>&<alias>=<name
   * inside it>`, the domain being the one `config.zone_id` names.
   */
  aliasParam?: string;
}

/** What an HTTP status means at a service that answers with statuses (`Dialect.statuses`). */
type StatusMeaning = { unchanged: true } | { cause: "refused" | "throttled"; why: string; stopRetrying?: boolean };

/** What a server the table does not know gets: both families in `myip`, the protocol's own way. */
const DEFAULT_DIALECT: Dialect = { style: "list", recordTypes: ["A", "AAAA"] };
const BOTH: readonly RecordType[] = ["A", "AAAA"];
const IPV4: readonly RecordType[] = ["A"];
const IPV6: readonly RecordType[] = ["AAAA"];

/**
 * The well-known update servers, for the form to fill in (`server` is their base URL), each with its
 * dialect. A server is matched by its host name. Sources after each entry: the service's own page,
 * then an independent client.
 */
const PRESETS: readonly {
  label: string;
  value: string;
  dialect: Dialect;
  /**
   * Seconds after which an unchanged host is sent again (a domain's default `config.refresh_every`),
   * only where the service's own documentation says idle hosts expire (docs/services/dyndns2.md).
   */
  refreshEvery?: number;
}[] = [
  // noip.com/integrate/request ("myip=1.2.3.4,2001:db8::1"); ddclient dyndns2.
  { label: "No-IP", value: "https://dynupdate.no-ip.com", dialect: { style: "list", recordTypes: BOTH } },
  // help.dyn.com/perform-update; ddclient dyndns2 (`myip=<v4>,<v6>`; the family left out is dropped).
  // Dyn's update abuse policy lets a host be "touched" every 28 days to keep it from expiring (any
  // other unchanged update is abuse): sent again after 25 days, ddclient's max-interval.
  {
    label: "Dyn",
    value: "https://members.dyndns.org",
    dialect: { style: "list", recordTypes: BOTH },
    refreshEvery: 25 * 86400,
  },
  // dynv6.com/docs/apis: "/nic/update … can only be used to update the IPv4 address"; ddns-updater dynv6.
  { label: "dynv6 (IPv4 only)", value: "https://dynv6.com", dialect: { style: "one", recordTypes: IPV4 } },
  // OVH refuses updates without `system=dyndns` (`badsys`): the parameter travels in the server URL.
  // A DynHost record per type (help.ovhcloud.com DynHost guide; ddns-updater ovh sends one family).
  {
    label: "OVH DynHost",
    value: "https://dns.eu.ovhapis.com/nic/update?system=dyndns",
    dialect: { style: "one", recordTypes: BOTH },
  },
  // strato.de FAQ on DynDNS (`myip=<v4>,<v6>`); ddclient dyndns2.
  { label: "Strato", value: "https://dyndns.strato.com", dialect: { style: "list", recordTypes: BOTH } },
  // faq.infomaniak.com/2376; ddns-updater infomaniak (one family per request).
  { label: "Infomaniak", value: "https://infomaniak.com", dialect: { style: "one", recordTypes: BOTH } },
  // dns.he.net dynamic DNS help (a key per record; the address in `myip`); ddns-updater he.
  { label: "Hurricane Electric", value: "https://dyn.dns.he.net", dialect: { style: "one", recordTypes: BOTH } },
  // kb.inwx.com DynDNS (`myip=` and `myipv6=`); ddclient dyndns2.
  {
    label: "INWX",
    value: "https://dyndns.inwx.com",
    dialect: { style: "pair", recordTypes: BOTH, ipv4Param: "myip", ipv6Param: "myipv6" },
  },
  // selfhost.de DynDNS help; ddns-updater selfhostde (one family per request).
  // Its API sheet answers with HTTP statuses (ddns-updater selfhostde reads them the same way).
  {
    label: "selfHOST",
    value: "https://carol.selfhost.de",
    dialect: {
      style: "one",
      recordTypes: BOTH,
      statuses: {
        204: { unchanged: true },
        409: { cause: "refused", why: "the account has no zones for this hostname", stopRetrying: true },
        410: { cause: "refused", why: "the account is not active", stopRetrying: true },
        411: { cause: "refused", why: "the address sent is not a valid one" },
        412: { cause: "refused", why: "the address sent is a private one" },
        503: { cause: "throttled", why: "the last update was too recent (update time too brief)" },
      },
    },
  },
  // joker.com DynDNS FAQ; ddclient dyndns2.
  { label: "Joker", value: "https://svc.joker.com", dialect: DEFAULT_DIALECT },
  // dnsomatic.com/docs/api; ddns-updater dnsomatic. It passes updates on to other services.
  { label: "DNS-O-Matic", value: "https://updates.dnsomatic.com", dialect: DEFAULT_DIALECT },
  // spdyn.de update API; ddns-updater spdyn.
  { label: "spdyn", value: "https://update.spdyn.de", dialect: DEFAULT_DIALECT },
  // ipv64.net DynDNS help (`myip`, `myipv6`); ddns-updater ipv64.
  // Its own words besides the protocol's: "success", "no change", and "overcommited" over its daily limit.
  {
    label: "ipv64",
    value: "https://ipv64.net",
    dialect: {
      style: "pair",
      recordTypes: BOTH,
      ipv4Param: "myip",
      ipv6Param: "myipv6",
      success: /\bsuccess\b/i,
      unchanged: /\bno change\b/i,
      throttle: /overcommit/i,
    },
  },
  // desec.readthedocs.io dynDNS update API: a family not named is deleted, "always specify both … use
  // preserve"; desec-stack's own tests. ddns-updater desec.
  {
    label: "deSEC",
    value: "https://update.dedyn.io",
    dialect: { style: "pair", recordTypes: BOTH, ipv4Param: "myipv4", ipv6Param: "myipv6", keep: "preserve" },
  },
  // changeip.com knowledge base "DNS update URL" (`ip=`, IPv4; answers "200 Successful Update");
  // ddclient nic_changeip_update, ddns-updater changeip.
  {
    label: "ChangeIP (IPv4 only)",
    value: "https://nic.changeip.com",
    dialect: { style: "one", recordTypes: IPV4, addressParam: "ip", success: /successful update/i },
  },
  // support.opendns.com "Dynamic IP updates" (a network label as the hostname, IPv4); ddns-updater opendns.
  { label: "OpenDNS (IPv4 only)", value: "https://updates.opendns.com", dialect: { style: "one", recordTypes: IPV4 } },
  // dyndns.variomedia.de ("myip=127.0.0.1,::1" updates both); ddns-updater variomedia.
  { label: "Variomedia", value: "https://dyndns.variomedia.de", dialect: { style: "list", recordTypes: BOTH } },
  // all-inkl.com DynDNS guide (`host=`, `myip=`, `myip6=` on the root path); ddns-updater allinkl.
  {
    label: "All-Inkl",
    value: "https://dyndns.kasserver.com",
    dialect: {
      style: "pair",
      recordTypes: BOTH,
      ipv4Param: "myip",
      ipv6Param: "myip6",
      hostnameParam: "host",
      path: "/",
    },
  },
  // ddnss.de FAQ (ddclient with protocol=dyndns2 and server=ddnss.de); ddns-updater ddnss.
  { label: "DDNSS", value: "https://ddnss.de", dialect: DEFAULT_DIALECT },
  // websupport.sk DynDNS help (dyndns.websupport.sk/nic/update); ddclient dyndns2.
  { label: "WebSupport", value: "https://dyndns.websupport.sk", dialect: DEFAULT_DIALECT },
  // nic.ru "Dynamic DNS" help (api.nic.ru/dyndns/update, IPv4); ddclient dyndns2 with that path.
  {
    label: "NIC.RU (IPv4 only)",
    value: "https://api.nic.ru",
    dialect: { style: "one", recordTypes: IPV4, path: "/dyndns/update" },
  },
  // now-dns.com client docs (`/update?hostname=&myip=`); ddns-updater nowdns.
  { label: "Now-DNS", value: "https://now-dns.com", dialect: { style: "one", recordTypes: BOTH, path: "/update" } },
  // dynu.com IP update protocol ("myip=no" / "myipv6=no" leave a family as it is; a name under your
  // own domain is `hostname=<domain>&alias=<name>`); ddns-updater dynu.
  {
    label: "Dynu (dyndns2)",
    value: "https://api.dynu.com",
    dialect: {
      style: "pair",
      recordTypes: BOTH,
      ipv4Param: "myip",
      ipv6Param: "myipv6",
      keep: "no",
      aliasParam: "alias",
    },
  },
  // nsupdate.info's docs (user.rst: "IP v4 and v6 addresses work completely independently … send 2
  // updates", and its router help naming the IPv4-only host for A and the IPv6-only host for AAAA);
  // its published server code (api/views.py) sets each address's own family and keeps the other;
  // the ddclient settings its router help gives (protocol dyndns2, server=ipv4.nsupdate.info).
  { label: "nsupdate.info (IPv4)", value: "https://ipv4.nsupdate.info", dialect: { style: "one", recordTypes: IPV4 } },
  { label: "nsupdate.info (IPv6)", value: "https://ipv6.nsupdate.info", dialect: { style: "one", recordTypes: IPV6 } },
  // PowerDNS-Admin is self-hosted: its /nic/update takes `myip` as a comma list of both families
  // (PowerDNS-Admin `routes/index.py` dyndns_update). The value is an example to replace with yours.
  { label: "PowerDNS-Admin (your server)", value: "https://powerdns-admin.example.net", dialect: DEFAULT_DIALECT },
];

/** `911`: the service is down or in maintenance; No-IP asks for at least 30 minutes before the next try. */
const OUTAGE_WAIT_SECONDS = 1800;
/**
 * `dnserr`: the service's own DNS failed. Dyn asks clients to wait before trying again; the provider
 * is paused (as for a "slow down") for 5 minutes, so none of its hostnames asks sooner.
 */
const DNSERR_WAIT_SECONDS = 300;
const CANNOT_VERIFY =
  "The dyndns2 protocol cannot check a username and password without updating a record; the first update shows whether they work.";

/** First words of a successful answer; Infomaniak's newer spelling besides the classic one. */
const CHANGED = new Set(["good", "successfully_changed"]);
const UNCHANGED = new Set(["nochg", "no_change"]);

/** Answers that say the configuration is wrong: asking again cannot succeed and gets clients blocked. */
const STOP_CODES = new Map<string, string>(
  Object.entries({
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
  }),
);

export const dyndns2 = defineService({
  type: "dyndns2",
  label: "dyndns2 (No-IP, Dyn, OVH, …)",
  summary:
    "Any update service that speaks the dyndns2 protocol (/nic/update): No-IP, Dyn, OVH DynHost, Strato, Infomaniak, Hurricane Electric, INWX, deSEC, Dynu, All-Inkl, Variomedia and many more. ddnsd sends one update per changed address, naming both of a hostname's addresses where the service wants them together; the hostname must already exist at the service.",
  credentials: [
    {
      key: "username",
      label: "Username",
      help: "The user name for updates. No-IP: create a DDNS Key (Dynamic DNS → DDNS Keys) and use its username rather than your account. OVH: the DynHost login (Domains → DynHost → Manage access). Hurricane Electric and nsupdate.info: the hostname. deSEC: the domain name. Variomedia: your account's e-mail address. dynv6: anything.",
      secret: false,
    },
    {
      key: "password",
      label: "Password",
      help: "The password for updates: No-IP the DDNS Key's password, OVH the DynHost login's password, Hurricane Electric the record's DDNS key, nsupdate.info the host's update secret, deSEC a token of the domain, dynv6 the zone's HTTP token. Prefer such an update-only key to the account password.",
      secret: true,
    },
  ],
  options: [
    {
      key: "server",
      label: "Update server",
      help: "The update service's base URL; ddnsd calls <server>/nic/update (or the service's own path for the well-known ones). A URL that already names its path is used as it is, with any query parameters it carries (OVH's system=dyndns). The well-known servers are spoken to in their own dialect; see /help/services/dyndns2.",
      kind: "url",
      required: true,
      presets: PRESETS.map(({ label, value }) => ({ label, value })),
    },
  ],
  recordTypes: ["A", "AAAA"],
  // The protocol has no TTL: each service sets its own (OVH DynHost 60 s).
  ttl: null,
  ...oneShotService(CANNOT_VERIFY, (options) =>
    typeof options.server === "string" ? (presetOf(options.server)?.refreshEvery ?? null) : null,
  ),
  // Every request goes to the provider's own `server` option; the setting has nothing to point at.
  createClient: (credentials, options, context) =>
    createDyndns2Client(
      { username: credentials.username ?? "", password: credentials.password ?? "" },
      typeof options.server === "string" ? options.server : "",
      context,
    ),
});

/** The table's entry for a server, matched by its host. */
function presetOf(server: string): (typeof PRESETS)[number] | undefined {
  const host = hostOf(server);
  return PRESETS.find((preset) => hostOf(preset.value) === host);
}

/** The dialect a server speaks: the table's entry for its host, else the protocol's own way. */
function dialectOf(server: string): Dialect {
  return presetOf(server)?.dialect ?? DEFAULT_DIALECT;
}

export function createDyndns2Client(
  credentials: { username: string; password: string },
  server: string,
  context: ClientContext,
): DnsProvider {
  const dialect = dialectOf(server);
  const updateUrl = updateUrlOf(server, dialect);
  const service = serviceName(server);
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
  const mask = (text: string) => maskSecrets(text, [credentials.password]);

  const api: OneShotApi = {
    service,
    verifyUnavailable: CANNOT_VERIFY,
    carries: dialect.style === "one" ? "one" : "both",
    recordTypes: dialect.recordTypes,
    typeRefusal: `takes ${dialect.recordTypes.join(" and ")} records only on this update server`,
    async send(target, addresses) {
      if (updateUrl === undefined) {
        return failed(`dyndns2: the server ${JSON.stringify(server)} is not an http(s) URL`, {
          cause: "refused",
          stopRetrying: true,
        });
      }
      const url = new URL(updateUrl);
      const alias = aliasOf(dialect, target.hostname, target.config.zone_id);
      url.searchParams.set(dialect.hostnameParam ?? "hostname", alias?.domain ?? target.hostname);
      if (alias) url.searchParams.set(dialect.aliasParam!, alias.name);
      for (const [name, value] of Object.entries(addressParams(dialect, addresses))) url.searchParams.set(name, value);
      const answer = await oneShotRequest(context, service, mask, url.toString(), {
        method: "GET",
        headers: { Authorization: authorization, "User-Agent": context.userAgent },
      });
      return answer.ok ? readAnswer(service, dialect, answer.value, target.hostname, mask) : answer;
    },
  };
  return oneShotClient(api);
}

/**
 * The domain and the name inside it, where the dialect sends a name under one of the account's own
 * domains that way (Dynu) and `config.zone_id` names the domain; undefined otherwise.
 */
function aliasOf(dialect: Dialect, hostname: string, zoneId: unknown): { domain: string; name: string } | undefined {
  if (dialect.aliasParam === undefined || typeof zoneId !== "string") return undefined;
  const domain = zoneId.trim().toLowerCase().replace(/\.$/, "");
  if (domain === "" || !hostname.endsWith(`.${domain}`)) return undefined;
  return { domain, name: hostname.slice(0, -(domain.length + 1)) };
}

/** The address parameters of one request, in the dialect's way. */
function addressParams(dialect: Dialect, { ipv4, ipv6 }: Addresses): Record<string, string> {
  if (dialect.style !== "pair") {
    return { [dialect.addressParam ?? "myip"]: [ipv4, ipv6].filter((a) => a !== undefined).join(",") };
  }
  const params: Record<string, string> = {};
  const v4 = ipv4 ?? dialect.keep;
  const v6 = ipv6 ?? dialect.keep;
  if (v4 !== undefined) params[dialect.ipv4Param ?? "myip"] = v4;
  if (v6 !== undefined) params[dialect.ipv6Param ?? "myipv6"] = v6;
  return params;
}

function hostOf(server: string): string | undefined {
  try {
    return new URL(server.trim()).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * The update URL: the server with the dialect's path (`/nic/update`) when it names none or another
 * base below it, or the server itself when it already ends in that path; undefined when not http(s).
 */
function updateUrlOf(server: string, dialect: Dialect): string | undefined {
  let url: URL;
  try {
    url = new URL(server.trim());
  } catch {
    return undefined;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") return undefined;
  const updatePath = (dialect.path ?? "/nic/update").replace(/\/+$/, "");
  const path = url.pathname.replace(/\/+$/, "");
  if (updatePath === "") url.pathname = path === "" ? "/" : path;
  else url.pathname = path.endsWith(updatePath) || path.endsWith("/nic/update") ? path : `${path}${updatePath}`;
  return url.toString();
}

/** How messages name the service: the preset's label when the server is a well-known one, else its host. */
function serviceName(server: string): string {
  const host = hostOf(server);
  if (host === undefined) return "dyndns2";
  return presetOf(server)?.label ?? `dyndns2 ${new URL(server.trim()).host}`;
}

function readAnswer(
  service: string,
  dialect: Dialect,
  { status, headers, text }: OneShotAnswer,
  hostname: string,
  mask: (text: string) => string,
): Step<Sent> {
  // One line per hostname; ddnsd sends one hostname, so the first line is its answer.
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== "") ?? "";
  const [word = "", ...rest] = line.split(/\s+/);
  const code = word.toLowerCase();
  const http = `HTTP ${status}`;

  if (CHANGED.has(code) || UNCHANGED.has(code)) {
    // A success line may carry the addresses the host holds now (`good 1.2.3.4,2001:db8::1`); the
    // policy checks them against what was sent.
    const held = rest
      .join(" ")
      .split(/[\s,]+/)
      .filter((a) => isIP(a) !== 0);
    const unchanged = UNCHANGED.has(code);
    return {
      ok: true,
      value: {
        change: unchanged ? "unchanged" : "changed",
        held,
        externalId: hostname,
        detail: [`${service} answered ${code}`, ...(unchanged ? ["it already held this address"] : [])].join(", "),
      },
    };
  }
  if (dialect.throttle?.test(line)) {
    return failed(`${service}: ${mask(line)} (${http})`, { cause: "throttled", ...throttleWait(headers) });
  }
  if (status >= 200 && status < 300 && (dialect.unchanged?.test(line) || dialect.success?.test(line))) {
    const unchanged = dialect.unchanged?.test(line) === true;
    return {
      ok: true,
      value: {
        ...(unchanged ? { change: "unchanged" as const } : {}),
        held: [],
        externalId: hostname,
        detail: `${service} answered "${mask(line)}"`,
      },
    };
  }
  const stopReason = STOP_CODES.get(code);
  if (stopReason !== undefined) {
    return failed(`${service}: ${code} — ${stopReason} (${http})`, {
      cause: code === "badauth" ? "credentials" : "refused",
      stopRetrying: true,
    });
  }
  if (code === "dnserr") {
    return failed(`${service}: dnserr — the service's DNS failed (${http})`, {
      cause: "throttled",
      retryAfterSeconds: DNSERR_WAIT_SECONDS,
    });
  }
  if (code === "911") {
    return failed(`${service}: 911 — the service is down or in maintenance (${http})`, {
      cause: "throttled",
      retryAfterSeconds: Math.max(retryAfterSeconds(headers) ?? 0, OUTAGE_WAIT_SECONDS),
    });
  }
  const meaning = dialect.statuses?.[status];
  if (meaning !== undefined) {
    if ("unchanged" in meaning) {
      return {
        ok: true,
        value: {
          change: "unchanged",
          held: [],
          externalId: hostname,
          detail: `${service} answered ${http}: no change, it already held this address`,
        },
      };
    }
    return failed(`${service}: ${http} — ${meaning.why}`, {
      cause: meaning.cause,
      ...(meaning.cause === "throttled" ? throttleWait(headers) : {}),
      ...(meaning.stopRetrying ? { stopRetrying: true } : {}),
    });
  }
  // A 401 without a word of the protocol is as final as `badauth`: the server refused the
  // credentials, and asking again with them gets clients blocked.
  if (status === 401) {
    return failed(`${service}: ${unreadableAnswer(status, mask(text))} — the username or password is wrong`, {
      cause: "credentials",
      stopRetrying: true,
    });
  }
  return failedAnswerText(service, status, headers, mask(text));
}
