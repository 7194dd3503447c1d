// Domain Discount24 (DD24) Dynamic DNS, run by Key-Systems: one GET per write,
// `<base>/update.php?hostname=<full name>&password=<dynamic DNS password>&ip=<ipv4>`, answered in
// Key-Systems' `key = value` lines (`code = 200` / `description = Command completed successfully`)
// (docs/services/dd24.md; sources: DD24's support article "Dynamic DNS", RRPproxy's DynamicDNS API
// page, ddns-updater `providers/dd24/provider.go`, ddclient `nic_keysystems_update`).
//
// The API cannot read a record, so "never write what is already there" is the updater's job; each
// write is exactly one request. The address is always sent: `ip=auto` would publish the address the
// request came from. `mx=` would replace the host's MX record, so it is never sent. DD24 documents
// IPv4 addresses only (`ip=213.x.x.x`), so only A records are offered.
//
// Only the `code` decides: 200 is done (and so is an empty 200, see readAnswer); "Authorization failed" (a wrong password, or a host that is
// not a dynamic DNS subdomain: one password belongs to one subdomain) stays until the user edits
// something. DD24 refuses a second update within 30 minutes of a successful one, so writes are paced
// to one per 30 minutes and any other refusal is retried later.

import { failed } from "../answers";
import { failedAnswerText, maskSecrets, type OneShotAnswer, oneShotRequest } from "../one-shot";
import { described, oneShotClient, oneShotService, type Sent } from "../one-shot-policy";
import type { DnsProvider, Step } from "../provider";
import { type ClientContext, defineService } from "../service";

const SERVICE = "Domain Discount24";
const CANNOT_VERIFY =
  "Domain Discount24 cannot check a dynamic DNS password without updating the record; the first update shows whether it works.";

export const dd24 = defineService({
  type: "dd24",
  label: "Domain Discount24",
  summary:
    "Domains registered at Domain Discount24 (DD24) with its Dynamic DNS. ddnsd sets the IPv4 (A) address of one dynamic DNS subdomain; DD24 documents no IPv6 updates and allows one update per 30 minutes.",
  credentials: [
    {
      key: "password",
      url: "https://support.domaindiscount24.com/hc/en-gb/articles/4409759444625-Dynamic-DNS",
      label: "Dynamic DNS password",
      help: "DD24: Domains → My domains → (the domain) → DynamicDNS tab → Add Dynamic DNS to Subdomain: enter the subdomain, type or generate a password and click Add. The password belongs to that one subdomain and can only update its address; it is not your account password.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A"],
  // The dynamic DNS update names no TTL and the service documents none.
  ttl: null,
  ...oneShotService(CANNOT_VERIFY),
  defaultApiUrl: "https://dynamicdns.key-systems.net",
  // "Once a dynamic ip address was successfully updated, subsequent update requests will be denied
  // … wait at least 30 minutes" (DD24's support article). A password serves one subdomain, so one
  // provider holds one host and this pace is that host's.
  rateLimits: [{ requests: 1, perSeconds: 1800 }],
  createClient: (credentials, _options, context) => createDd24Client(credentials.password ?? "", context),
});

export function createDd24Client(password: string, context: ClientContext): DnsProvider {
  const mask = (text: string) => maskSecrets(text, [password]);
  return oneShotClient({
    ...described(dd24),
    service: SERVICE,
    carries: "one",
    typeRefusal: "Dynamic DNS sets IPv4 (A) addresses only",
    async send(target, { ipv4 }) {
      const query = new URLSearchParams({ hostname: target.hostname, password, ip: ipv4 ?? "" });
      const answer = await oneShotRequest(context, SERVICE, mask, `${context.baseUrl}/update.php?${query}`, {
        method: "GET",
        headers: { "User-Agent": context.userAgent },
      });
      return answer.ok ? readAnswer(answer.value, target.hostname, mask) : answer;
    },
  });
}

function readAnswer(
  { status, headers, text }: OneShotAnswer,
  hostname: string,
  mask: (text: string) => string,
): Step<Sent> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([a-z]+)\s*=\s*(.*?)\s*$/i.exec(line);
    if (match) fields.set(match[1]!.toLowerCase(), match[2]!);
  }
  const code = fields.get("code");
  // DD24 answers some updates it did with an empty 200 (qdm12/ddns-updater's dd24 client takes ""
  // for success; its documentation shows only the code block). Calling it a failure would have the
  // update sent again, which DD24 refuses for 30 minutes after a success: so it is taken as done.
  if (status === 200 && text.trim() === "") {
    return {
      ok: true,
      value: {
        held: [],
        externalId: hostname,
        detail: `${SERVICE} dynamic DNS host ${hostname}, empty answer (HTTP 200)`,
      },
    };
  }
  if (status !== 200 || code === undefined || !/^\d{3}$/.test(code))
    return failedAnswerText(SERVICE, status, headers, mask(text));
  // The answer names no address: what was sent is what DD24 now publishes.
  if (code === "200")
    return { ok: true, value: { held: [], externalId: hostname, detail: `${SERVICE} dynamic DNS host ${hostname}` } };
  const description = mask(fields.get("description") ?? "no description");
  if (/authori[sz]ation failed/i.test(description)) {
    return failed(
      `${SERVICE}: ${description} — the password is wrong or ${hostname} is not one of its dynamic DNS subdomains (code ${code})`,
      {
        cause: "credentials",
        stopRetrying: true,
      },
    );
  }
  // Anything else (the 30-minute hold among them) may pass: retried later, never at once.
  return failed(`${SERVICE}: ${description} (code ${code})`, { cause: "refused" });
}
