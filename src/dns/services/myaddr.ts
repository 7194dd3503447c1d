// myaddr.tools: one POST per write, `<base>/update` with the form `key=<the name's private key>&ip=<address>`
// (docs/services/myaddr.md; sources: myaddr.tools, ddns-updater `providers/myaddr/provider.go`, lego
// `providers/dns/myaddr`). The key belongs to one claimed name and is all the request names: the
// hostname only tells ddnsd which name's key this is, so a name outside myaddr's zones is refused
// before any request.
//
// The API cannot read a record, so "never write what is already there" is the updater's job; each
// write is exactly one request. `ip` takes either family and sets only that family's record, so an A
// and an AAAA are written independently. The address is always sent: `ip=self` would publish the
// address the request came from.
//
// A 200 is done. 404 means no name has this key, and a 400 naming the key a malformed one: neither
// changes by asking again. Any other 400 refuses what was sent, which would be refused again.

import { failed } from "../answers";
import { failedAnswerText, maskSecrets, type OneShotAnswer, oneShotRequest } from "../one-shot";
import { described, oneShotClient, oneShotService, type Sent } from "../one-shot-policy";
import type { DnsProvider, RecordTarget, Step } from "../provider";
import { type ClientContext, defineService } from "../service";

const SERVICE = "myaddr";
/** The zones every claimed name resolves under, alike. */
const ZONES = [".myaddr.tools", ".myaddr.dev", ".myaddr.io"];
const CANNOT_VERIFY =
  "myaddr cannot check a key without updating the name's address; the first update shows whether it works.";

export const myaddr = defineService({
  type: "myaddr",
  label: "myaddr.tools",
  summary:
    "Free names under myaddr.tools (also resolving under myaddr.dev and myaddr.io), no account needed. ddnsd sets the A or AAAA address of one claimed name with that name's private key.",
  credentials: [
    {
      key: "key",
      url: "https://myaddr.tools/",
      label: "Private key",
      help: "Claim a name at myaddr.tools: the private key is shown once the name is claimed. It belongs to that one name (and the names below it) and can only update its records; a provider holds the key of one name.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  // myaddr sets the TTL itself and the update cannot change it.
  ttl: null,
  ...oneShotService(CANNOT_VERIFY),
  defaultApiUrl: "https://myaddr.tools",
  // No documented request limit: the updater's own pacing (one write per changed address) is all it asks.
  createClient: (credentials, _options, context) => createMyaddrClient(credentials.key ?? "", context),
});

export function createMyaddrClient(key: string, context: ClientContext): DnsProvider {
  const mask = (text: string) => maskSecrets(text, [key]);
  return oneShotClient({
    ...described(myaddr),
    service: SERVICE,
    // `ip` sets the record of its own family and leaves the other as it is.
    carries: "one",
    async send(target, { ipv4, ipv6 }) {
      const name = claimedName(target);
      if (name === undefined) {
        return failed(`${SERVICE}: ${target.hostname} is not a name under myaddr.tools, myaddr.dev or myaddr.io`, {
          cause: "refused",
          stopRetrying: true,
        });
      }
      const answer = await oneShotRequest(context, SERVICE, mask, `${context.baseUrl}/update`, {
        method: "POST",
        headers: { "User-Agent": context.userAgent, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ key, ip: ipv4 ?? ipv6 ?? "" }).toString(),
      });
      return answer.ok ? readAnswer(answer.value, name, mask) : answer;
    },
  });
}

/** The claimed name that holds the hostname: `home` for `home.myaddr.tools` and for `www.home.myaddr.dev`. */
function claimedName(target: RecordTarget): string | undefined {
  const hostname = target.hostname.toLowerCase();
  const zone = ZONES.find((z) => hostname.endsWith(z));
  if (zone === undefined) return undefined;
  const name = hostname.slice(0, -zone.length).split(".").at(-1);
  return name === undefined || name === "" ? undefined : name;
}

function readAnswer(
  { status, headers, text }: OneShotAnswer,
  name: string,
  mask: (text: string) => string,
): Step<Sent> {
  const words = mask(text.trim().split(/\r?\n/)[0] ?? "").trim();
  // The answer names no address: what was sent is what myaddr now publishes.
  if (status === 200) return { ok: true, value: { held: [], externalId: name, detail: `${SERVICE} name ${name}` } };
  if (status === 404 || (status === 400 && /\bkey\b/i.test(words))) {
    return failed(
      `${SERVICE}: ${words || "not found"} — the key is wrong or ${name}'s claim is gone (HTTP ${status})`,
      {
        cause: "credentials",
        stopRetrying: true,
      },
    );
  }
  if (status === 400 && words !== "")
    return failed(`${SERVICE}: ${words} (HTTP 400)`, { cause: "refused", stopRetrying: true });
  return failedAnswerText(SERVICE, status, headers, mask(text));
}
