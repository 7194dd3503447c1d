// ZoneEdit's dynamic update: one GET per write, `<base>/auth/dynamic.html?host=<name>&dnsto=<ipv4>`
// (and `zone=<zone>` when the domain's config names it), with HTTP basic auth: the ZoneEdit
// username and the domain's dynamic authentication token (docs/services/zoneedit.md). The answer is
// HTTP 200 whatever happened, one XML-like tag per host, never closed:
//   <SUCCESS CODE="200" TEXT="Update succeeded." ZONE="example.com" IP="203.0.113.7">
//   <SUCCESS CODE="201" TEXT="No records need updating." ZONE="example.com">
//   <ERROR CODE="708" TEXT="Failed Login: user" ZONE="example.com">
// so it is read with a pattern, never handed to an XML parser. The API cannot read a record:
// "never write what is already there" is the updater's job, and each write is one request.
//
// ZoneEdit wants ten minutes between updates of a host. Its "too soon" answers (707, and 702 at
// its newer endpoint) are a "slow down" with that wait. ddclient and inadyn count 707 (a duplicate
// update) as success; ddnsd does not take an answer that does not say the address is there as
// proof that it is, and asks again after the wait instead.
//
// Sources: ZoneEdit's support articles "Dynamic DNS" and "Changes to Dynamic DNS"
// (support.zoneedit.com, as lego and ddns-updater link them: the per-domain token, ten minutes between
// updates); ddclient `nic_zoneedit1_update` (the URL, the three answers above, 707, `zone=`, its
// ten-minute min-interval), inadyn plugins/zoneedit.c (200/201/707), lego providers/dns/zoneedit
// (basic auth with the token; the 708 answer) and qdm12/ddns-updater providers/zoneedit (702, 708, 709).

import { exchange, failed } from "./http";
import { failedAnswerText, maskSecrets } from "./one-shot";
import { oneShotClient, type Sent } from "./one-shot-policy";
import type { DnsProvider, FailureCause, Step } from "./provider";
import { type ClientContext, defineService } from "./service";
import { configuredZone, zoneHolds } from "./zones";

const SERVICE = "ZoneEdit";
/** ZoneEdit's minimum time between two updates of a host. */
const MIN_INTERVAL_SECONDS = 600;
const CANNOT_VERIFY = "ZoneEdit's dynamic update cannot check a token without updating a record; the first update shows whether it works.";

/** What an ERROR code means; an unknown code is a refusal that may pass. */
const ERRORS: Record<string, { cause: FailureCause; stopRetrying?: boolean; retryAfterSeconds?: number }> = {
  // The zone is not in this account: only an edit (of the host name or the account) helps.
  "701": { cause: "refused", stopRetrying: true },
  "702": { cause: "throttled", retryAfterSeconds: MIN_INTERVAL_SECONDS },
  "707": { cause: "throttled", retryAfterSeconds: MIN_INTERVAL_SECONDS },
  "708": { cause: "credentials", stopRetrying: true },
  "709": { cause: "refused", stopRetrying: true },
};

export const zoneedit = defineService({
  type: "zoneedit",
  label: "ZoneEdit",
  summary:
    "Domains whose DNS is at ZoneEdit, through its dynamic update with the username and a domain's dynamic token. ddnsd sets the IPv4 address of an existing dynamic A record; the dynamic update cannot create or read records.",
  credentials: [
    {
      key: "username",
      label: "Username",
      help: "Your ZoneEdit login name.",
      url: "https://cp.zoneedit.com/",
      secret: false,
    },
    {
      key: "token",
      label: "Dynamic authentication token",
      help:
        "In ZoneEdit's control panel: the domain's DNS settings → DYN records, where the dynamic authentication token is shown. It is made for dynamic updates of that domain and is not your account password.",
      url: "https://cp.zoneedit.com/",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A"],
  // The TTL is set per record in ZoneEdit's control panel; the dynamic update cannot change it.
  ttl: null,
  canVerify: false,
  verifyUnavailable: CANNOT_VERIFY,
  defaultApiUrl: "https://dynamic.zoneedit.com",
  // Ten minutes between updates of one host is ZoneEdit's own rule (its "too soon" answers pause the
  // provider for it); ddnsd writes only when an address changed, and keeps a gentle pace besides.
  rateLimits: [{ requests: 1, perSeconds: 10 }],
  createClient: (credentials, _options, context) => createZoneeditClient({ username: (credentials.username ?? "").trim(), token: credentials.token ?? "" }, context),
});

export function createZoneeditClient(credentials: { username: string; token: string }, context: ClientContext): DnsProvider {
  const mask = (text: string) => maskSecrets(text, [credentials.token]);
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.token}`).toString("base64")}`;

  return oneShotClient({
    service: SERVICE,
    verifyUnavailable: CANNOT_VERIFY,
    carries: "one",
    recordTypes: ["A"],
    typeRefusal: "its dynamic update sets IPv4 (A) records only",
    async send(target, { ipv4 }) {
      const zone = configuredZone(target.config.zone_id);
      if (zone !== undefined && !zoneHolds(zone, target.hostname)) {
        return failed(`${SERVICE}: config.zone_id ${zone} does not hold ${target.hostname}; correct it or remove it`, { cause: "refused", stopRetrying: true });
      }
      const query = new URLSearchParams({ host: target.hostname, dnsto: ipv4 ?? "" });
      if (zone !== undefined) query.set("zone", zone);
      const answer = await exchange(
        context.fetch,
        `${context.baseUrl}/auth/dynamic.html?${query}`,
        { method: "GET", headers: { Authorization: authorization, "User-Agent": context.userAgent } },
        context.timeoutMs,
      );
      if (!answer.ok) return failed(`${SERVICE}: ${mask(answer.reason)}`, { cause: answer.cause });
      return readAnswer(answer, target.hostname, mask);
    },
  });
}

function readAnswer({ status, headers, text }: { status: number; headers: Headers; text: string }, hostname: string, mask: (text: string) => string): Step<Sent> {
  const tag = status === 200 ? /<(SUCCESS|ERROR)\s+([^>]*)>/i.exec(text) : null;
  if (!tag) {
    const failure = failedAnswerText(SERVICE, status, headers, mask(text));
    // Basic auth refused before ZoneEdit's own answer: only other credentials help.
    return status === 401 ? { ...failure, stopRetrying: true } : failure;
  }
  const attributes = Object.fromEntries([...(tag[2] ?? "").matchAll(/(\w+)\s*=\s*"([^"]*)"/g)].map((m) => [m[1]!.toUpperCase(), m[2]!]));
  const code = attributes.CODE ?? "";
  const words = mask(attributes.TEXT ?? "").trim();
  if (tag[1]!.toUpperCase() === "SUCCESS") {
    // 201: "No records need updating" — the record already held the address.
    const unchanged = code === "201";
    const zone = attributes.ZONE ? ` in ${attributes.ZONE}` : "";
    return {
      ok: true,
      value: {
        held: attributes.IP ? [attributes.IP] : [],
        change: unchanged ? "unchanged" : "changed",
        externalId: hostname,
        detail: [`${SERVICE} host ${hostname}${zone}`, ...(unchanged ? ["it already held this address"] : [])].join(", "),
      },
    };
  }
  const meaning = ERRORS[code] ?? { cause: "refused" as const };
  const wait = meaning.retryAfterSeconds === undefined ? "" : "; ZoneEdit wants ten minutes between updates of a host";
  return failed(`${SERVICE}: ${words || "error"} (code ${code || "none"}${wait})`, meaning);
}
