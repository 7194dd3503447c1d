// FreeDNS (freedns.afraid.org), as ddclient's `freedns` protocol speaks it (docs/services/freedns.md):
// the account's dynamic DNS records are listed with
//   GET <base>/api/?action=getdyndns&v=2&sha=<sha1 of "username|password">
// one line per record, `hostname|current address|update URL` (`NULL` for a record without an
// address; with v=2 AAAA records are listed too), and a record is changed by a GET of its own update
// URL with `&address=<address>` appended, answered `Updated … to <address> …` or `ERROR: …`.
// The listing is the read before the write: a record that already holds the address is never sent
// again, and only the one record of that name and family is ever written. FreeDNS cannot create a
// record through this interface, and nothing here deletes one.
//
// Requests per write: the listing + the record's update URL = 2 (1 when the address is already there).
//
// Each update URL carries a key that updates its record without a login, so it is a secret: it is
// kept in memory for the one write, never stored, and masked (with the login hash) in every message.
//
// Sources: freedns.afraid.org/api (the getdyndns listing) and /dynamic (update URLs); ddclient
// `nic_freedns_update` (v=2 listing, `&address=`, success `Updated … <host> … to … <address>`);
// inadyn plugins/freedns.c; the `ERROR: Address … has not changed.` and `ERROR: Unable to locate this
// record …` answers as public update scripts quote them.

import { createHash } from "node:crypto";
import { isIP, isIPv4, isIPv6 } from "node:net";
import { excerpt, exchange } from "../../net/http";
import { failed } from "../answers";
import { failedAnswerText, maskSecrets } from "../one-shot";
import type { RecordType, Step } from "../provider";
import { type RecordSet, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService } from "../service";
import { acceptedCounting, sameAddress } from "../zones";

const SERVICE = "FreeDNS";

/** One line of the listing: a dynamic DNS record and the URL that updates it. */
interface Listed {
  hostname: string;
  /** The address it holds; "" for `NULL`. */
  address: string;
  updateUrl: string;
}

export function createFreednsApi(credentials: { username: string; password: string }, context: ClientContext): ZoneApi {
  const sha = createHash("sha1").update(`${credentials.username}|${credentials.password}`).digest("hex");
  /** Every update key seen, so no message can carry one. */
  const keys = new Set<string>([sha, credentials.password]);
  const mask = (text: string) => maskSecrets(text, [...keys]);

  async function get(url: string): Promise<Step<{ status: number; headers: Headers; text: string }>> {
    const answer = await exchange(
      context.fetch,
      url,
      { method: "GET", headers: { "User-Agent": context.userAgent } },
      context.timeoutMs,
    );
    if (!answer.ok) return failed(`${SERVICE}: ${mask(answer.reason)}`, { cause: answer.cause });
    return { ok: true, value: answer };
  }

  async function list(): Promise<Step<Listed[]>> {
    const answer = await get(`${context.baseUrl}/api/?${new URLSearchParams({ action: "getdyndns", v: "2", sha })}`);
    if (!answer.ok) return answer;
    const { status, headers, text } = answer.value;
    if (status < 200 || status >= 300) return failedAnswerText(SERVICE, status, headers, mask(text));
    const records: Listed[] = [];
    for (const line of text.split(/\r?\n/)) {
      const [hostname, address, updateUrl] = line.trim().split("|");
      if (hostname === undefined || address === undefined || updateUrl === undefined || !/^https?:\/\//.test(updateUrl))
        continue;
      records.push({ hostname: hostname.toLowerCase(), address: address === "NULL" ? "" : address, updateUrl });
      keys.add(updateUrl.slice(updateUrl.indexOf("?") + 1));
    }
    if (records.length === 0 && /^\s*ERROR/i.test(text)) {
      // A wrong username or password (the listing is the login): only editing the provider helps.
      return failed(`${SERVICE}: ${mask(text.trim().split(/\r?\n/)[0] ?? "")} — the username or password is wrong`, {
        cause: "credentials",
        stopRetrying: true,
      });
    }
    return { ok: true, value: records };
  }

  /**
   * The listed records of the hostname in the family of `type`. The listing does not say a record's
   * type, so a `NULL` record (no address yet) may be the A record (ddclient gives it an IPv4
   * address) or an empty AAAA: it stands for the A record only when the name has no record with
   * an IPv4 address.
   */
  function recordsOf(records: Listed[], hostname: string, type: RecordType): Listed[] {
    const named = records.filter((r) => r.hostname === hostname);
    if (type === "AAAA") return named.filter((r) => isIPv6(r.address));
    const withAddress = named.filter((r) => isIPv4(r.address));
    return withAddress.length > 0 ? withAddress : named.filter((r) => r.address === "");
  }

  return {
    service: SERVICE,

    verify: () => acceptedCounting(list(), "Login accepted", "dynamic DNS record"),

    // FreeDNS has no zones to find: the listing holds every record of the account.
    async findZone() {
      return { ok: true, value: { id: "", name: null } };
    },

    async readRecordSet(_zone, hostname, type) {
      const listed = await list();
      if (!listed.ok) return listed;
      const found = recordsOf(listed.value, hostname, type);
      if (found.length === 0) return { ok: true, value: null };
      if (found.length > 1 && found.every((r) => r.address === "")) {
        // Which of them is the A record the listing cannot tell; once one holds an address it can.
        return failed(
          `${SERVICE}: ${hostname} has ${found.length} records without an address and FreeDNS's listing does not say which is the ${type} record, so nothing was written — give the ${type} record an address on FreeDNS's site (freedns.afraid.org → Subdomains)`,
          { cause: "refused" },
        );
      }
      // A `NULL` record alone holds nothing yet; several records of the name are shown as they are.
      const values = found.map((r) => r.address).filter((a) => a !== "");
      const set: RecordSet = { id: `${hostname}/${type}`, values, raw: found[0]?.updateUrl };
      return { ok: true, value: set };
    },

    async updateRecordSet(_zone, hostname, type, current, address) {
      const updateUrl = typeof current.raw === "string" ? current.raw : "";
      const answer = await get(
        `${updateUrl}${updateUrl.includes("?") ? "&" : "?"}address=${encodeURIComponent(address)}`,
      );
      if (!answer.ok) return answer;
      const { status, headers, text } = answer.value;
      // Read as FreeDNS sent it; masked only for the messages (a secret that happens to occur in
      // the address, a short numeric password say, would otherwise hide the address the answer names).
      const said = text.trim().split(/\r?\n/)[0] ?? "";
      const line = mask(said);
      if (status >= 200 && status < 300) {
        // The answer names the address as FreeDNS writes it (an IPv6 address perhaps longer or in capitals).
        const named = addressesIn(said).some((a) => sameAddress(a, address));
        const updated = /updated/i.test(said) && named;
        const unchanged = /has not changed/i.test(said) && named;
        if (updated || unchanged) return { ok: true, value: { id: `${hostname}/${type}`, values: [address] } };
        // "Unable to locate this record": the record was deleted and made again (a new key), or the
        // password changed, since the listing. Not final: the next write lists the records afresh
        // and takes the new update URL (and a changed password fails there, as a refused login).
        if (/^ERROR/i.test(said)) return failed(`${SERVICE}: ${line}`, { cause: "refused" });
        return failed(
          `${SERVICE}: the update answered ${excerpt(line)}, which does not say ${hostname} holds ${address}`,
          { cause: "unreachable" },
        );
      }
      return failedAnswerText(SERVICE, status, headers, mask(text));
    },

    async createRecordSet(_zone, hostname, type) {
      return failed(
        `${SERVICE}: ${hostname} has no ${type} record in this account; FreeDNS makes records only on its site (freedns.afraid.org → Subdomains), so add it there first`,
        { cause: "refused", stopRetrying: true },
      );
    },
  };
}

/** The IPv4 and IPv6 addresses a line of text names, e.g. `Updated 1 host(s) h to 2001:db8::7 in 0.1 seconds`. */
function addressesIn(line: string): string[] {
  return line
    .split(/[\s,;()]+/)
    .map((word) => word.replace(/\.$/, ""))
    .filter((word) => isIP(word) !== 0);
}

export const freedns = defineService({
  type: "freedns",
  label: "FreeDNS (afraid.org)",
  summary:
    "Dynamic DNS records at FreeDNS (freedns.afraid.org): ddnsd lists the account's records, and calls a record's own update URL only when its address differs. The A or AAAA record must already exist at FreeDNS.",
  credentials: [
    {
      key: "username",
      url: "https://freedns.afraid.org/profile/",
      label: "Username",
      help: "Your FreeDNS login name (not the e-mail address).",
      secret: false,
    },
    {
      key: "password",
      label: "Password",
      help: "Your FreeDNS password. FreeDNS has no narrower key that can also read the records; ddnsd sends only a SHA-1 hash of username|password, never the password itself.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  // The update URL takes only the address; the TTL is the record's, set on FreeDNS's site.
  ttl: null,
  canVerify: true,
  defaultApiUrl: "https://freedns.afraid.org",
  // FreeDNS documents no request limit; the updater writes only when an address changed.
  createClient: (credentials, _options, context) =>
    zoneClient(
      createFreednsApi({ username: credentials.username ?? "", password: credentials.password ?? "" }, context),
    ),
});
