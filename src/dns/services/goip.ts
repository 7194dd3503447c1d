// GoIP.de: one GET per write,
// `<base>/setip?username=<router login>&password=<its password>&subdomain=<full name>&ip=<ipv4>`
// (`ip6=<ipv6>` for AAAA) with `shortResponse=true`, answered in one line of plain text
// (docs/services/goip.md; sources: goip.de/update-url.html, ddns-updater
// `providers/goip/provider.go`).
//
// The API cannot read a record, so "never write what is already there" is the updater's job; each
// write is exactly one request. GoIP publishes the address the request came from when `ip` is
// missing ("wird automatisch erkannt, wenn der Parameter fehlt"), so when the hostname has both an A
// and an AAAA domain at the provider, every request names both addresses (the one-shot policy,
// one-shot-policy.ts) and the A record is never replaced by the caller's address.
//
// A done update answers `<subdomain> (<address>)…`, naming the address the record now holds, which
// must be the one sent; `Zugriff verweigert` ("access denied": a wrong login, or a subdomain the
// login may not update) stays until the user edits something. GoIP documents no request limit.

import { isIP } from "node:net";
import { failed } from "../answers";
import { failedAnswerText, maskSecrets, type OneShotAnswer, oneShotRequest } from "../one-shot";
import { described, oneShotClient, oneShotService, type Sent } from "../one-shot-policy";
import type { DnsProvider, Step } from "../provider";
import { type ClientContext, defineService } from "../service";

const SERVICE = "GoIP";
/** GoIP's two zones: a subdomain is a name under one of them. */
const ZONES = [".goip.de", ".goip.it"];
const CANNOT_VERIFY =
  "GoIP cannot check a router login without updating a record; the first update shows whether it works.";

export const goip = defineService({
  type: "goip",
  label: "GoIP.de",
  summary:
    "Free hostnames under goip.de and goip.it. ddnsd sets the A or AAAA address of one of your GoIP subdomains; the subdomain must already exist in your GoIP account.",
  credentials: [
    {
      key: "username",
      url: "https://www.goip.de/update-url.html",
      label: "Router username",
      secret: false,
      help: "GoIP.de: sign in and open your router list (Routerliste). Each router entry is a separate login made for the update URL, not your account login; add one for ddnsd, so it can be removed on its own, and copy its username.",
    },
    {
      key: "password",
      url: "https://www.goip.de/update-url.html",
      label: "Router password",
      help: "The password of that router entry in GoIP's router list (not your account password).",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  // GoIP sets the TTL itself and the update URL cannot change it.
  ttl: null,
  ...oneShotService(CANNOT_VERIFY),
  defaultApiUrl: "https://www.goip.de",
  // No documented request limit: the updater's own pacing (one write per changed address) is all it asks.
  createClient: (credentials, _options, context) =>
    createGoipClient(credentials.username ?? "", credentials.password ?? "", context),
});

export function createGoipClient(username: string, password: string, context: ClientContext): DnsProvider {
  const mask = (text: string) => maskSecrets(text, [password]);
  return oneShotClient({
    ...described(goip),
    service: SERVICE,
    // Without `ip` GoIP publishes the caller's IPv4: a hostname's two addresses go together.
    carries: "both",
    async send(target, addresses) {
      const hostname = target.hostname.toLowerCase();
      if (!ZONES.some((zone) => hostname.endsWith(zone))) {
        return failed(`${SERVICE}: ${target.hostname} is not a name under goip.de or goip.it`, {
          cause: "refused",
          stopRetrying: true,
        });
      }
      const query = new URLSearchParams({ username, password, subdomain: hostname });
      if (addresses.ipv4 !== undefined) query.set("ip", addresses.ipv4);
      if (addresses.ipv6 !== undefined) query.set("ip6", addresses.ipv6);
      query.set("shortResponse", "true");
      const answer = await oneShotRequest(context, SERVICE, mask, `${context.baseUrl}/setip?${query}`, {
        method: "GET",
        headers: { "User-Agent": context.userAgent },
      });
      return answer.ok ? readAnswer(answer.value, hostname, mask) : answer;
    },
  });
}

function readAnswer(
  { status, headers, text }: OneShotAnswer,
  hostname: string,
  mask: (text: string) => string,
): Step<Sent> {
  const line = (text.trim().split(/\r?\n/)[0] ?? "").trim();
  if (status === 200 && line.toLowerCase().startsWith(`${hostname} (`)) {
    // Every parenthesised address is one the subdomain holds now: the policy checks them against those sent.
    const held = [...line.matchAll(/\(([^()\s]+)\)/g)].map((m) => m[1] ?? "").filter((a) => isIP(a) !== 0);
    return { ok: true, value: { held, externalId: hostname, detail: `${SERVICE} subdomain ${hostname}` } };
  }
  if (/^zugriff verweigert/i.test(line)) {
    return failed(
      `${SERVICE}: ${mask(line)} — the router login is wrong or may not update ${hostname} (HTTP ${status})`,
      {
        cause: "credentials",
        stopRetrying: true,
      },
    );
  }
  return failedAnswerText(SERVICE, status, headers, mask(text));
}
