// DuckDNS: one GET per write, `<base>/update?domains=<name>&token=<token>&ip=<ipv4>` (`ipv6=` for
// AAAA), answered `OK` or `KO` (docs/services/duckdns.md; duckdns.org/spec.jsp, ddns-updater's and ddclient's
// DuckDNS clients). The API cannot read a record, so "never write what is already there" is the
// updater's job (it writes only when the address changed); each write here is exactly one request.
//
// The addresses are always sent explicitly, each in the parameter of its family: without `ip` or
// `ipv6`, DuckDNS publishes the address the request came from (wrong behind a proxy or on a v6-only
// link). One request sets both records ("if you want to update BOTH … use the optional parameter
// ipv6", duckdns.org/spec.jsp), so when the hostname has an A and an AAAA domain at the provider,
// every update names both and the subdomain's two addresses are always set together (the one-shot
// policy, one-shot-policy.ts); `ipv6=` alone leaves the A record as it is. `clear=true` empties both records, so it is never sent. `verbose=true`
// makes the answer say whether anything changed (`UPDATED`/`NOCHANGE`) and which addresses the
// records hold now, which must be the ones sent; a bare `OK` is accepted too.
//
// The ACME challenge (docs/certificates.md): `txt=<value>` sets the subdomain's one TXT record,
// which DuckDNS answers for the subdomain and every name under it (`_acme-challenge.home…` too);
// `txt=&clear=true` empties it and leaves the addresses alone (lego's DuckDNS provider, Posh-ACME's
// DuckDNS plugin, Home Assistant's duckdns `set_txt`). One value at a time: each `txt=` replaces the
// one before. So a value is written unless it is the newest ddnsd wrote there (which DuckDNS holds),
// and a removal clears the record only when the value is that newest one: an older value was
// replaced already, and clearing would take away the newer one (a wildcard's challenge written
// after the name's).

import { isIP } from "node:net";
import { failed } from "../answers";
import { failedAnswerText, maskSecrets, oneShotRequest } from "../one-shot";
import { described, oneShotClient, oneShotService, type Sent } from "../one-shot-policy";
import type { DnsProvider, RecordTarget, Step, TxtChange, WriteOutcome } from "../provider";
import { type ClientContext, defineService } from "../service";

const SERVICE = "DuckDNS";
const SUFFIX = ".duckdns.org";
const CANNOT_VERIFY =
  "DuckDNS cannot check a token without updating a record; the first update shows whether the token works.";

export const duckdns = defineService({
  type: "duckdns",
  label: "DuckDNS",
  summary:
    "Free hostnames under duckdns.org. ddnsd sets the A or AAAA address of one of your DuckDNS subdomains; the subdomain must already exist in your DuckDNS account.",
  credentials: [
    {
      key: "token",
      url: "https://www.duckdns.org/",
      label: "Token",
      help: "Sign in at duckdns.org: your account's token is shown at the top of the page. It can update every subdomain of the account and nothing else.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  // DuckDNS sets the TTL itself (60 s, undocumented) and has no way to change it.
  ttl: null,
  hostname: { suffix: SUFFIX, message: "must end in .duckdns.org" },
  ...oneShotService(CANNOT_VERIFY),
  holdsTxt: true,
  defaultApiUrl: "https://www.duckdns.org",
  // No documented request limit: the updater's own pacing (one write per changed address) is all it asks.
  createClient: (credentials, _options, context) => createDuckDnsClient(credentials.token ?? "", context),
});

export function createDuckDnsClient(token: string, context: ClientContext): DnsProvider {
  const mask = (text: string) => maskSecrets(text, [token]);

  /** The one TXT record set to `value`, or emptied (null). */
  async function setTxt(name: string, value: string | null): Promise<Step<void>> {
    const query = new URLSearchParams({ domains: name, token, txt: value ?? "" });
    if (value === null) query.set("clear", "true");
    const answer = await oneShotRequest(context, SERVICE, mask, `${context.baseUrl}/update?${query}`, {
      method: "GET",
      headers: { "User-Agent": context.userAgent },
    });
    if (!answer.ok) return answer;
    const { status, headers, text } = answer.value;
    const read = readAnswer(status, headers, text, name, mask);
    return read.ok ? { ok: true, value: undefined } : read;
  }

  async function writeTxt(change: TxtChange): Promise<WriteOutcome> {
    const name = subdomainOf(change);
    if (name === undefined) return notUnderDuckDns(change.hostname);
    const held = change.written.at(-1) === change.value;
    const done = (action: "updated" | "unchanged"): WriteOutcome => ({
      ok: true,
      action,
      externalId: name,
      zoneId: "",
      message: `${SERVICE} domain ${name}, which holds one TXT value`,
    });
    if (held === (change.action === "add")) return done("unchanged");
    const set = await setTxt(name, change.action === "add" ? change.value : null);
    if (set.ok) return done("updated");
    const { message, cause, retryAfterSeconds, stopRetrying } = set;
    return failed(message, { cause, retryAfterSeconds, stopRetrying });
  }

  const client = oneShotClient({
    ...described(duckdns),
    service: SERVICE,
    // One request sets both records: a subdomain's two addresses go together.
    carries: "both",
    async send(target, addresses) {
      const name = subdomainOf(target);
      if (name === undefined) return notUnderDuckDns(target.hostname);
      const query = new URLSearchParams({ domains: name, token });
      if (addresses.ipv4 !== undefined) query.set("ip", addresses.ipv4);
      if (addresses.ipv6 !== undefined) query.set("ipv6", addresses.ipv6);
      query.set("verbose", "true");
      const answer = await oneShotRequest(context, SERVICE, mask, `${context.baseUrl}/update?${query}`, {
        method: "GET",
        headers: { "User-Agent": context.userAgent },
      });
      return answer.ok ? readAnswer(answer.value.status, answer.value.headers, answer.value.text, name, mask) : answer;
    },
  });
  return { ...client, writeTxt };
}

function notUnderDuckDns(hostname: string) {
  return failed(`${SERVICE}: ${hostname} is not a name under duckdns.org`, { cause: "refused", stopRetrying: true });
}

/**
 * The DuckDNS subdomain that holds the hostname: `home` for `home.duckdns.org`. A deeper name
 * (`www.home.duckdns.org`) is answered by DuckDNS from the same records, so it is `home` too.
 */
function subdomainOf(target: Pick<RecordTarget, "hostname">): string | undefined {
  if (!target.hostname.endsWith(SUFFIX)) return undefined;
  const labels = target.hostname.slice(0, -SUFFIX.length).split(".");
  const name = labels.at(-1);
  return name === undefined || name === "" ? undefined : name;
}

function readAnswer(
  status: number,
  headers: Headers,
  text: string,
  name: string,
  mask: (text: string) => string,
): Step<Sent> {
  const lines = text.split(/\r?\n/).map((line) => line.trim());
  const verdict = lines[0] ?? "";
  const http = `HTTP ${status}`;
  if (status >= 200 && status < 300 && verdict === "OK") {
    // Verbose: OK, the IPv4 line, the IPv6 line, UPDATED or NOCHANGE; either address line may be
    // empty. The addresses are what the records hold now: the policy checks them against those sent.
    const held = [lines[1] ?? "", lines[2] ?? ""].filter((a) => isIP(a) !== 0);
    const change = lines[3] === "NOCHANGE" ? "unchanged" : lines[3] === "UPDATED" ? "changed" : undefined;
    const facts = change === "unchanged" ? ["it already held this address"] : [];
    return {
      ok: true,
      value: {
        held,
        ...(change ? { change } : {}),
        externalId: name,
        detail: [`${SERVICE} domain ${name}`, ...facts].join(", "),
      },
    };
  }
  if (verdict === "KO") {
    // A wrong token and a subdomain that is not the account's get the same answer; neither
    // changes by asking again, and DuckDNS blocks clients that keep sending bad updates.
    return failed(
      `${SERVICE}: KO — the token is wrong or ${name}.duckdns.org is not a subdomain of its account (${http})`,
      {
        cause: "credentials",
        stopRetrying: true,
      },
    );
  }
  return failedAnswerText(SERVICE, status, headers, mask(text));
}
