// Namecheap's Dynamic DNS: one GET per write,
// `<base>/update?host=<relative>&domain=<registered domain>&password=<ddns password>&ip=<ipv4>`,
// answered with an XML `<interface-response>` in an HTTP 200 whatever happened (docs/services/namecheap.md;
// sources: ddns-updater `providers/namecheap/provider.go` and `docs/namecheap.md`, ddclient
// `nic_namecheap_update`, inadyn PR #467, Namecheap's knowledge base on Dynamic DNS).
//
// The API cannot read or create a record (an "A + Dynamic DNS Record" must exist in the web UI), so
// "never write what is already there" is the updater's job; each write is exactly one request. The
// hostname is split into `host` and `domain` by the Public Suffix List (`home.example.co.uk` →
// `home` + `example.co.uk`, the apex → `@`) unless `config.zone_id` names the domain; the domain found
// is returned as the zone id, so the updater saves it and later writes need no list. The list (tldts)
// is imported only when a split is needed: it costs ~6 MB of memory once loaded, nothing before.
//
// Only `<ErrCount>` decides: `<Done>true</Done>` comes with errors too. The prolog claims
// `encoding="utf-16"` while the body is plain ASCII/UTF-8, so the answer is read as text and its
// elements picked out, never handed to a strict XML parser.

import { failed } from "../answers";
import { failedAnswerText, maskSecrets, type OneShotAnswer, oneShotRequest } from "../one-shot";
import { described, oneShotClient, oneShotService, type Sent } from "../one-shot-policy";
import type { DnsProvider, RecordTarget, Step, StepFailure } from "../provider";
import { type ClientContext, defineService } from "../service";
import { configuredZone } from "../zones";

const SERVICE = "Namecheap";
/** Errors that stay until the user changes something at Namecheap or in ddnsd: asking again cannot help. */
const PERMANENT_ERRORS = [/password/i, /not found/i, /no records updated/i];
const CANNOT_VERIFY =
  "Namecheap's Dynamic DNS cannot check a password without updating a record; the first update shows whether it works.";

export const namecheap = defineService({
  type: "namecheap",
  label: "Namecheap",
  summary:
    'Domains registered at Namecheap that use its Dynamic DNS. ddnsd sets the address of an existing "A + Dynamic DNS Record"; Namecheap\'s Dynamic DNS cannot create records or set IPv6 addresses.',
  credentials: [
    {
      key: "password",
      url: "https://ap.www.namecheap.com/domains/list/",
      label: "Dynamic DNS password",
      help: 'Namecheap: Domain List → Manage (the domain) → Advanced DNS → Dynamic DNS: switch it on and copy the Dynamic DNS Password shown there. It belongs to that one domain and can only update its Dynamic DNS records; it is not your account password. Add an "A + Dynamic DNS Record" for each host on the same page.',
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A"],
  // The TTL is set per record in Namecheap's web UI; the Dynamic DNS update cannot change it.
  ttl: null,
  ...oneShotService(CANNOT_VERIFY),
  defaultApiUrl: "https://dynamicdns.park-your-domain.com",
  // No documented request limit: the updater's own pacing (one write per changed address) is all it asks.
  createClient: (credentials, _options, context) => createNamecheapClient(credentials.password ?? "", context),
});

export function createNamecheapClient(password: string, context: ClientContext): DnsProvider {
  const mask = (text: string) => maskSecrets(text, [password]);

  return oneShotClient({
    ...described(namecheap),
    service: SERVICE,
    carries: "one",
    typeRefusal: "Dynamic DNS sets IPv4 (A) records only",
    async send(target, { ipv4 }) {
      const split = await splitHostname(target);
      if (!split.ok) return split;
      const query = new URLSearchParams({ host: split.host, domain: split.domain, password, ip: ipv4 ?? "" });
      const answer = await oneShotRequest(context, SERVICE, mask, `${context.baseUrl}/update?${query}`, {
        method: "GET",
        headers: { "User-Agent": context.userAgent, Accept: "application/xml" },
      });
      return answer.ok ? readAnswer(answer.value, split, target.hostname, mask) : answer;
    },
  });
}

type Split = { ok: true; host: string; domain: string };

/** `host` relative to `domain` (`@` for the domain itself). */
async function splitHostname(target: RecordTarget): Promise<Split | StepFailure> {
  const hostname = target.hostname;
  const configured = configuredZone(target.config.zone_id) ?? "";
  let domain = configured;
  if (domain === "") {
    const { parse } = await import("tldts");
    domain = parse(hostname).domain ?? "";
    if (domain === "") {
      return failed(`${SERVICE}: ${hostname} is not under a registrable domain (Public Suffix List)`, {
        cause: "refused",
        stopRetrying: true,
      });
    }
  }
  if (hostname === domain) return { ok: true, host: "@", domain };
  if (hostname.endsWith(`.${domain}`)) return { ok: true, host: hostname.slice(0, -(domain.length + 1)), domain };
  return failed(`${SERVICE}: config.zone_id ${configured} does not hold ${hostname}; correct it or remove it`, {
    cause: "refused",
    stopRetrying: true,
  });
}

function readAnswer(
  { status, headers, text }: OneShotAnswer,
  split: Split,
  hostname: string,
  mask: (text: string) => string,
): Step<Sent> {
  const http = `HTTP ${status}`;
  const errCount = element(text, "ErrCount");
  if (status !== 200 || errCount === undefined || !/^\d+$/.test(errCount)) {
    return failedAnswerText(SERVICE, status, headers, mask(text));
  }
  if (errCount === "0") {
    // `<IP>` is the address the record holds now: the policy checks it against the one sent.
    const held = element(text, "IP");
    return {
      ok: true,
      value: {
        held: held ? [held] : [],
        externalId: hostname,
        zoneId: split.domain,
        detail: `${SERVICE} host ${split.host} of ${split.domain}`,
      },
    };
  }
  // Errors are numbered <Err1>, <Err2> …; each <response> adds its ResponseNumber.
  const reasons = [...text.matchAll(/<Err\d+>([\s\S]*?)<\/Err\d+>/g)]
    .map((m) => decodeXml(m[1] ?? "").trim())
    .filter(Boolean);
  const reason = reasons.join("; ") || "request failed";
  const number = element(text, "ResponseNumber");
  const details = [
    number ? `response ${number}` : "",
    `${errCount === "1" ? "" : `${errCount} errors, `}${http}`,
  ].filter(Boolean);
  const permanent = PERMANENT_ERRORS.some((pattern) => pattern.test(reason));
  return failed(`${SERVICE}: ${mask(reason)} (${details.join(", ")})`, {
    cause: /password/i.test(reason) ? "credentials" : "refused",
    stopRetrying: permanent,
  });
}

/** The text of the first `<name>…</name>`, undefined when absent. */
function element(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(xml);
  return match ? decodeXml(match[1] ?? "").trim() : undefined;
}

function decodeXml(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}
