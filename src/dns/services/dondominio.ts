// DonDominio (MrDomain) DonDNS: one GET per write,
// `<base>/json/?user=<username>&password=<DonDNS key>&host=<full name>&ip=<ipv4>&lang=en`, answered
// with JSON `{"success": …, "messages": [...]}` (docs/services/dondominio.md; sources: DonDNS's API
// page on dondominio.dev, ddns-updater `providers/dondominio/provider.go`, ddclient
// `nic_dondominio_update`, DonDominio's own dondns-bash client).
//
// The DonDNS key travels as `password`: the API page's table calls it `apikey`, but its example, the
// clients (ddclient, DonDominio's own, ddns-updater since its PR #969) and their users' tests send
// `password`. The API cannot read or create a record (an A record must exist in the zone), so "never
// write what is already there" is the updater's job; each write is exactly one request. The address
// is always sent: without `ip` DonDNS takes the address the request came from. DonDNS documents IPv4
// (A) records only.
//
// Only `success` decides, whatever the status. DonDNS does not publish which of its refusals are
// final (a wrong user or key, a host missing from the zone) and which may pass, so its words are kept
// and the update is retried with the updater's backoff rather than given up.

import { isObject, parseJson } from "../../util/json";
import { failed } from "../answers";
import { failedAnswerText, maskSecrets, type OneShotAnswer, oneShotRequest } from "../one-shot";
import { described, oneShotClient, oneShotService, type Sent } from "../one-shot-policy";
import type { DnsProvider, Step } from "../provider";
import { type ClientContext, defineService } from "../service";

const SERVICE = "DonDominio";
const CANNOT_VERIFY =
  "DonDNS cannot check a DonDNS key without updating a record; the first update shows whether it works.";

export const dondominio = defineService({
  type: "dondominio",
  label: "DonDominio (DonDNS)",
  summary:
    "Domains at DonDominio / MrDomain, through its DonDNS service. ddnsd sets the IPv4 (A) address of an existing A record in the domain's DNS zone.",
  credentials: [
    {
      key: "username",
      url: "https://dondominio.dev/en/dondns/docs/api/",
      label: "Username",
      help: "The username you sign in to DonDominio (MrDomain) with.",
      secret: false,
    },
    {
      key: "key",
      url: "https://dondominio.dev/en/dondns/docs/api/",
      label: "DonDNS key",
      help: "DonDominio: My Account (next to Balance) → DonDNS Key → Generate a new key. It is a second password used only by external applications such as DonDNS, not your sign-in password; DonDominio offers no key narrower than the account. Create the A record in the domain's DNS Zone first (any address, e.g. 127.0.0.1): DonDNS only updates it.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A"],
  // The TTL is the zone record's own; the DonDNS update cannot change it.
  ttl: null,
  ...oneShotService(CANNOT_VERIFY),
  defaultApiUrl: "https://dondns.dondominio.com",
  // No documented request limit: the updater's own pacing (one write per changed address) is all it asks.
  createClient: (credentials, _options, context) =>
    createDonDominioClient(credentials.username ?? "", credentials.key ?? "", context),
});

export function createDonDominioClient(username: string, key: string, context: ClientContext): DnsProvider {
  const mask = (text: string) => maskSecrets(text, [key]);
  return oneShotClient({
    ...described(dondominio),
    service: SERVICE,
    carries: "one",
    typeRefusal: "DonDNS sets IPv4 (A) records only",
    async send(target, { ipv4 }) {
      const hostname = target.hostname.toLowerCase();
      const query = new URLSearchParams({ user: username, password: key, host: hostname, ip: ipv4 ?? "", lang: "en" });
      const answer = await oneShotRequest(context, SERVICE, mask, `${context.baseUrl}/json/?${query}`, {
        method: "GET",
        headers: { "User-Agent": context.userAgent, Accept: "application/json" },
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
  const body = parseJson(text);
  // A "slow down" or a server's failure keeps its meaning even when it comes as DonDNS JSON.
  if (status === 429 || status >= 500 || !isObject(body) || typeof body.success !== "boolean")
    return failedAnswerText(SERVICE, status, headers, mask(text));
  // The answer names no address: what was sent is what the record now holds.
  if (body.success)
    return { ok: true, value: { held: [], externalId: hostname, detail: `${SERVICE} DonDNS host ${hostname}` } };
  const messages = Array.isArray(body.messages)
    ? body.messages.filter((m): m is string => typeof m === "string" && m.trim() !== "")
    : [];
  const code =
    typeof body.errorCode === "number" || typeof body.errorCode === "string" ? `code ${body.errorCode}, ` : "";
  return failed(`${SERVICE}: ${mask(messages.join("; ") || "update refused")} (${code}HTTP ${status})`, {
    cause: "refused",
  });
}
