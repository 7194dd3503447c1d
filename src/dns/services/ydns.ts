// YDNS (ydns.io): one GET per write, `<base>/update/?host=<fqdn>&ip=<address>` with HTTP Basic auth
// (the account's API username and API password), answered in plain text (docs/services/ydns.md).
// The address's family picks the record: an IPv4 address sets the host's A record, an IPv6 address
// its AAAA record, and the other family is left as it is, so each request carries one address. The
// address is always named: without `ip` YDNS publishes the address the request came from.
//
// The API cannot read a record, so "never write what is already there" is the updater's job (it
// writes only when the address changed); each write here is exactly one request.
//
// Answers: `good` (the documented success; YDNS's own published server code says `ok`), `nochg`;
// `badauth` with 401; 404 `host not found` for a host that is not the account's; 400 for a request
// it cannot take (`invalid ip address (…)`). The last three never succeed by asking again.
//
// Sources: ydns.io/api/v1 (update resource, parameters, return codes); YDNS's published server code
// and official updater (github.com/ydns/bash-updater: api/v1/views.py, updater.sh).

import { failed } from "../answers";
import { failedAnswerText, maskSecrets, oneShotRequest } from "../one-shot";
import { described, oneShotClient, oneShotService, type Sent } from "../one-shot-policy";
import type { DnsProvider, Step } from "../provider";
import { type ClientContext, defineService } from "../service";

const SERVICE = "YDNS";
const CANNOT_VERIFY =
  "YDNS cannot check credentials without updating a record; the first update shows whether they work.";

export const ydns = defineService({
  type: "ydns",
  label: "YDNS",
  summary:
    "Hostnames at YDNS (ydns.io): ddnsd sets the A or AAAA address of one of your YDNS hosts with its update API; the host must already exist in your account.",
  credentials: [
    {
      key: "username",
      url: "https://ydns.io/api/v1/",
      label: "API username",
      help: "Sign in at ydns.io and open the API page (linked from the API documentation): use the API username shown there rather than your e-mail address.",
      secret: false,
    },
    {
      key: "password",
      label: "API password",
      help: "The API password from the same page (not your account password). It can update every host of the account and nothing else.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  // The update API takes only the address: the TTL is YDNS's.
  ttl: null,
  ...oneShotService(CANNOT_VERIFY),
  defaultApiUrl: "https://ydns.io/api/v1",
  // YDNS documents no request limit: the updater writes only when an address changed.
  createClient: (credentials, _options, context) =>
    createYdnsClient({ username: credentials.username ?? "", password: credentials.password ?? "" }, context),
});

export function createYdnsClient(
  credentials: { username: string; password: string },
  context: ClientContext,
): DnsProvider {
  const mask = (text: string) => maskSecrets(text, [credentials.password]);
  const authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
  return oneShotClient({
    ...described(ydns),
    service: SERVICE,
    // The address's family picks the record; the other family stays as it is.
    carries: "one",
    async send(target, addresses) {
      const address = addresses.ipv4 ?? addresses.ipv6 ?? "";
      const query = new URLSearchParams({ host: target.hostname, ip: address });
      const answer = await oneShotRequest(context, SERVICE, mask, `${context.baseUrl}/update/?${query}`, {
        method: "GET",
        headers: { Authorization: authorization, "User-Agent": context.userAgent },
      });
      return answer.ok
        ? readAnswer(answer.value.status, answer.value.headers, mask(answer.value.text), target.hostname)
        : answer;
    },
  });
}

function readAnswer(status: number, headers: Headers, text: string, hostname: string): Step<Sent> {
  const line = text.trim().split(/\r?\n/)[0] ?? "";
  const word = line.split(/\s+/)[0]?.toLowerCase() ?? "";
  const http = `HTTP ${status}`;
  if (status >= 200 && status < 300 && (word === "good" || word === "ok" || word === "nochg")) {
    const unchanged = word === "nochg";
    return {
      ok: true,
      value: {
        held: [],
        change: unchanged ? "unchanged" : "changed",
        externalId: hostname,
        detail: [`${SERVICE} host ${hostname}`, ...(unchanged ? ["it already held this address"] : [])].join(", "),
      },
    };
  }
  if (word === "badauth" || status === 401) {
    return failed(`${SERVICE}: ${line || "badauth"} — the API username or password is wrong (${http})`, {
      cause: "credentials",
      stopRetrying: true,
    });
  }
  if (word === "nohost" || status === 404) {
    return failed(`${SERVICE}: ${line || "nohost"} — ${hostname} is not a host of this account (${http})`, {
      cause: "refused",
      stopRetrying: true,
    });
  }
  if (status === 400) {
    // A request YDNS cannot take (a malformed address or host) is refused the same way every time.
    return failed(`${SERVICE}: ${line} (${http})`, { cause: "refused", stopRetrying: true });
  }
  return failedAnswerText(SERVICE, status, headers, text);
}
