// Amazon Route 53 client: checks an access key and points one simple A/AAAA record set at an
// address. Requests are signed with SigV4 (sigv4.ts; region us-east-1, service route53) and speak
// XML (xml.ts). Record sets have no ids: a set is read by name and type before anything is written,
// so an external id (saved as `<name>./<type>`) is only reported, never written through.
//
// Requests per write, with the hosted zone known (config.zone_id) — the steady state:
//   GET rrset?name=&type=&maxitems=1 + POST rrset (UPSERT) = 2 (1 when the address is already there)
// Without it, `GET hostedzonesbyname?dnsname=` is asked for the hostname and each parent, longest
// first; the answer starts AT that name in Route 53's order (not an exact match), so a zone counts
// only when its Name is exactly the candidate, and private zones are skipped.
//
// The read also starts at the name: the first set returned is this one only if its Name (trailing
// dot, `*` as `\052`) and Type match. UPSERT replaces the whole set, so the TTL read (and a health
// check id) are sent back. Decided here: a set with several addresses, an alias, or a set with a
// routing policy (SetIdentifier: weighted, latency, failover, geolocation …) or from a traffic
// policy is left alone with stopRetrying — ddnsd keeps one name on one address and would otherwise
// delete records it never made. A missing set is made with CREATE, which fails rather than
// overwrite a set someone else created in the meantime.
//
// Throttling is HTTP 400 `Throttling` (no Retry-After): retried here twice with exponential backoff,
// then returned as "slow down" (the updater pauses the provider); so is `PriorRequestNotComplete`
// (a change to the zone still being applied), at once.
//
// Sources: docs/services/route53.md; Route 53 API reference (ListHostedZonesByName, ListResourceRecordSets,
// ChangeResourceRecordSets, GetHostedZoneCount, Common Errors); DeveloperGuide "throttling-api-requests",
// "DNSDomainNameFormat" (octal escapes); qdm12/ddns-updater providers/route53/{api,provider,signer}.go.

import { exchange, unreadableAnswer } from "../../net/http";
import { plural } from "../../util/plural";
import { failed } from "../answers";
import { child, childrenNamed, escapeXml, parseXml, textAt, type XmlElement } from "../protocols/xml";
import type { Step, StepFailure } from "../provider";
import { type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { signRequest } from "../signing/sigv4";
import { CHALLENGE_TTL, quotedTxt, txtSet, unquotedTxt } from "../txt";
import { candidateZones, failedCheck, noZoneMessage } from "../zones";

const SERVICE = "Route 53";
const SIGNING_SCOPE = { region: "us-east-1", service: "route53" };
const XMLNS = "https://route53.amazonaws.com/doc/2013-04-01/";
/** TTL of a record set this client creates when the domain's config names none. */
const NEW_RECORD_TTL = 300;
/** Zones of one name (a public zone and its private twins) seen in one answer. */
const ZONES_PER_NAME = 10;
/** Answers after which only new keys or permissions help. */
const CREDENTIAL_ERROR_CODES = new Set([
  "InvalidClientTokenId",
  "SignatureDoesNotMatch",
  "AccessDenied",
  "OptInRequired",
]);
/** "Slow down": the account's request rate, or a change to the zone still being applied. */
const SLOW_DOWN_CODES = new Set(["Throttling", "PriorRequestNotComplete"]);

export interface ThrottleBackoff {
  /** Wait before the first retry of a throttled request; doubled for each further one. */
  firstDelayMs: number;
  retries: number;
}

/** 0.5 s then 1 s: Route 53's token bucket refills 5–10 requests a second. */
const DEFAULT_BACKOFF: ThrottleBackoff = { firstDelayMs: 500, retries: 2 };

type Failure = StepFailure & { code?: string };
type Call = { ok: true; root: XmlElement } | Failure;

/** What the history says of a set written: the change Route 53 made of it, and the health check it keeps. */
interface Written {
  name: string;
  healthCheckId?: string;
  change?: string;
}

export function createRoute53Api(
  credentials: { access_key_id: string; secret_access_key: string },
  context: ClientContext,
  backoff: ThrottleBackoff = DEFAULT_BACKOFF,
): ZoneApi & { txt: TxtApi } {
  async function callOnce(method: string, path: string, body?: string): Promise<Call> {
    const url = new URL(context.baseUrl + path);
    const headers = signRequest(
      { method, url, headers: body === undefined ? {} : { "content-type": "text/xml" }, body: body ?? "" },
      { accessKeyId: credentials.access_key_id, secretAccessKey: credentials.secret_access_key },
      SIGNING_SCOPE,
    );
    const answer = await exchange(
      context.fetch,
      url.toString(),
      { method, headers: { ...headers, "user-agent": context.userAgent }, body },
      context.timeoutMs,
    );
    if (!answer.ok) return failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause });
    const root = parseXml(answer.text);
    if (!root) return failed(`${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`, { cause: "unreachable" });
    if (answer.status < 300) return { ok: true, root };

    // `<ErrorResponse><Error><Code/><Message/>`, or for a refused change batch
    // `<InvalidChangeBatch><Messages><Message/>…` with the code as the root's name.
    const code = textAt(root, "Error", "Code") ?? (root.name === "ErrorResponse" ? "" : root.name);
    const messages =
      root.name === "InvalidChangeBatch"
        ? childrenNamed(child(root, "Messages"), "Message").map((m) => m.text.trim())
        : [textAt(root, "Error", "Message") ?? ""];
    const text = messages.filter(Boolean).join("; ") || "request failed";
    const credentialsRefused = CREDENTIAL_ERROR_CODES.has(code);
    const cause = credentialsRefused
      ? "credentials"
      : SLOW_DOWN_CODES.has(code)
        ? "throttled"
        : answer.status >= 500
          ? "unreachable"
          : "refused";
    return {
      ...failed(`${SERVICE}: ${text} (${code ? `${code}, ` : ""}HTTP ${answer.status})`, {
        cause,
        stopRetrying: credentialsRefused,
      }),
      code,
    };
  }

  /** One request, retried (bounded, with exponential backoff) only while Route 53 says "Throttling". */
  async function call(method: string, path: string, body?: string): Promise<Call> {
    for (let retry = 0; ; retry++) {
      const answer = await callOnce(method, path, body);
      if (answer.ok || answer.code !== "Throttling" || retry >= backoff.retries) return answer;
      await Bun.sleep(backoff.firstDelayMs * 2 ** retry);
    }
  }

  /** The hosted zone's name, when it exists; one that does not is a stale configuration. */
  async function zoneName(zoneId: string): Promise<Step<string>> {
    const zone = await call("GET", `/hostedzone/${encodeURIComponent(zoneId)}`);
    if (!zone.ok) return zone.code === "NoSuchHostedZone" ? { ...zone, staleZone: true } : zone;
    return { ok: true, value: dnsName(textAt(zone.root, "HostedZone", "Name")) };
  }

  async function change(
    zoneId: string,
    action: "UPSERT" | "CREATE",
    set: Written & { type: string; ttl: number; values: readonly string[] },
  ): Promise<Step<RecordSet>> {
    const healthCheck = set.healthCheckId ? `<HealthCheckId>${escapeXml(set.healthCheckId)}</HealthCheckId>` : "";
    const changed = await call(
      "POST",
      `/hostedzone/${encodeURIComponent(zoneId)}/rrset`,
      changeXml(action, set.name, set.type, set.ttl, set.values, healthCheck),
    );
    if (!changed.ok) return changed;
    const changeId = textAt(changed.root, "ChangeInfo", "Id")?.replace(/^\/change\//, "") ?? "(no id)";
    const status = textAt(changed.root, "ChangeInfo", "Status")?.toLowerCase() ?? "submitted";
    const written: Written = {
      name: set.name,
      healthCheckId: set.healthCheckId,
      change: `change ${changeId} ${status}`,
    };
    return {
      ok: true,
      value: { id: `${dnsName(set.name)}./${set.type}`, values: [...set.values], ttl: set.ttl, raw: written },
    };
  }

  // A TXT set holds every value of the name, each a quoted string: UPSERT writes it whole with its
  // TTL, and once no value is left it is deleted, which Route 53 allows only with the set as it is.
  const txt = txtSet({
    async read(zone, name) {
      const query = new URLSearchParams({ name: `${name}.`, type: "TXT", maxitems: "1" });
      const read = await call("GET", `/hostedzone/${encodeURIComponent(zone.id)}/rrset?${query}`);
      if (!read.ok) return read.code === "NoSuchHostedZone" ? { ...read, staleZone: true } : read;
      const set = childrenNamed(child(read.root, "ResourceRecordSets"), "ResourceRecordSet").find(
        (s) => dnsName(textAt(s, "Name")) === name && textAt(s, "Type") === "TXT",
      );
      const ttl = Number(textAt(set, "TTL"));
      const values = childrenNamed(child(set, "ResourceRecords"), "ResourceRecord").map((r) =>
        unquotedTxt(textAt(r, "Value") ?? ""),
      );
      return { ok: true, value: { values, ...(Number.isInteger(ttl) ? { ttl } : {}) } };
    },
    async write(zone, name, values, held) {
      const [action, written] =
        values.length === 0 ? (["DELETE", held.values] as const) : (["UPSERT", values] as const);
      const body = changeXml(action, `${name}.`, "TXT", held.ttl ?? CHALLENGE_TTL, written.map(quotedTxt), "");
      const changed = await call("POST", `/hostedzone/${encodeURIComponent(zone.id)}/rrset`, body);
      return changed.ok ? { ok: true, value: undefined } : changed;
    },
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("GET", "/hostedzonecount");
      if (!answer.ok) return failedCheck(answer);
      const count = Number(textAt(answer.root, "HostedZoneCount"));
      return {
        ok: true,
        detail: Number.isInteger(count)
          ? `Access key accepted (${plural(count, "hosted zone")})`
          : "Access key accepted",
      };
    },

    async findZone(hostname, configured) {
      // A configured zone is used by its id; whether it holds the name is asked only before a set
      // is created in it (zoneName), and a zone that is gone shows when its sets are read.
      if (configured !== undefined) return { ok: true, value: { id: bareZoneId(configured), name: null } };
      // Longest first; the answer starts AT the name in Route 53's order, so only an exact Name counts.
      for (const candidate of candidateZones(hostname)) {
        const query = new URLSearchParams({ dnsname: `${candidate}.`, maxitems: String(ZONES_PER_NAME) });
        const listed = await call("GET", `/hostedzonesbyname?${query}`);
        if (!listed.ok) return listed;
        const zone = childrenNamed(child(listed.root, "HostedZones"), "HostedZone").find(
          (z) => dnsName(textAt(z, "Name")) === candidate && textAt(z, "Config", "PrivateZone") !== "true",
        );
        const id = textAt(zone, "Id");
        if (id) return { ok: true, value: { id: bareZoneId(id), name: candidate } };
      }
      return failed(noZoneMessage(SERVICE, hostname), { cause: "refused" });
    },

    zoneName,

    async readRecordSet(zone, hostname, type) {
      const query = new URLSearchParams({ name: `${hostname}.`, type, maxitems: "1" });
      const read = await call("GET", `/hostedzone/${encodeURIComponent(zone.id)}/rrset?${query}`);
      if (!read.ok) return read.code === "NoSuchHostedZone" ? { ...read, staleZone: true } : read;
      // The answer starts at the name: the first set is this one only if its Name and Type match.
      const set = childrenNamed(child(read.root, "ResourceRecordSets"), "ResourceRecordSet").find(
        (s) => dnsName(textAt(s, "Name")) === hostname && textAt(s, "Type") === type,
      );
      if (!set) return { ok: true, value: null };
      // UPSERT replaces the whole set: one that is more than a name and its addresses would lose the rest.
      if (child(set, "AliasTarget") || child(set, "SetIdentifier") || child(set, "TrafficPolicyInstanceId")) {
        return failed(
          `${SERVICE}: ${hostname} ${type} is an alias or has a routing policy (weighted, latency, failover, geolocation…); ddnsd changes only a simple record, so nothing was written`,
          { cause: "refused", stopRetrying: true },
        );
      }
      const ttl = Number(textAt(set, "TTL"));
      const written: Written = {
        name: textAt(set, "Name") ?? `${hostname}.`,
        healthCheckId: textAt(set, "HealthCheckId"),
      };
      return {
        ok: true,
        value: {
          id: `${hostname}./${type}`,
          values: childrenNamed(child(set, "ResourceRecords"), "ResourceRecord").map((r) => textAt(r, "Value") ?? ""),
          ...(Number.isInteger(ttl) ? { ttl } : {}),
          raw: written,
        },
      };
    },

    updateRecordSet(zone, _hostname, type, current, address, settings) {
      const kept = current.raw as Written;
      // The TTL read (and a health check) are sent back: UPSERT replaces the whole set.
      return change(zone.id, "UPSERT", {
        ...kept,
        type,
        ttl: settings.ttl ?? current.ttl ?? NEW_RECORD_TTL,
        values: [address],
      });
    },

    // CREATE fails rather than overwrite a set someone else created in the meantime.
    createRecordSet(zone, hostname, type, address, settings) {
      return change(zone.id, "CREATE", {
        name: `${hostname}.`,
        type,
        ttl: settings.ttl ?? NEW_RECORD_TTL,
        values: [address],
      });
    },

    // The whole set in one change: UPSERT over the set read (its TTL and health check sent back), or
    // CREATE, which fails rather than overwrite a set someone else created in the meantime.
    writeAddressSet(zone, hostname, type, current, addresses, settings) {
      if (current === null)
        return change(zone.id, "CREATE", {
          name: `${hostname}.`,
          type,
          ttl: settings.ttl ?? NEW_RECORD_TTL,
          values: addresses,
        });
      return change(zone.id, "UPSERT", {
        ...(current.raw as Written),
        type,
        ttl: settings.ttl ?? current.ttl ?? NEW_RECORD_TTL,
        values: addresses,
      });
    },

    describe(set) {
      const written = set.raw as Written | undefined;
      return [...(set.ttl === undefined ? [] : [`ttl ${set.ttl}`]), ...(written?.change ? [written.change] : [])];
    },
  };
}

/** One change of one record set, as ChangeResourceRecordSets takes it; `extra` goes inside the set (a health check). */
function changeXml(
  action: "UPSERT" | "CREATE" | "DELETE",
  name: string,
  type: string,
  ttl: number,
  values: readonly string[],
  extra: string,
): string {
  const records = values.map((value) => `<ResourceRecord><Value>${escapeXml(value)}</Value></ResourceRecord>`).join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<ChangeResourceRecordSetsRequest xmlns="${XMLNS}"><ChangeBatch><Changes><Change>` +
    `<Action>${action}</Action><ResourceRecordSet><Name>${escapeXml(name)}</Name><Type>${type}</Type>` +
    `<TTL>${ttl}</TTL><ResourceRecords>${records}</ResourceRecords>` +
    `${extra}</ResourceRecordSet></Change></Changes></ChangeBatch></ChangeResourceRecordSetsRequest>`
  );
}

/** `Z123` from `/hostedzone/Z123` (as Route 53 writes ids) or `Z123`. */
function bareZoneId(id: string): string {
  return id.trim().replace(/^\/?hostedzone\//, "");
}

/** A name as Route 53 writes it (`\052.example.com.`) → lowercase, octal escapes decoded, no trailing dot. */
function dnsName(name: string | undefined): string {
  return (name ?? "")
    .replace(/\\(\d{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)))
    .toLowerCase()
    .replace(/\.$/, "");
}

export const route53 = defineService({
  type: "route53",
  label: "Amazon Route 53",
  summary:
    "Amazon Route 53 public hosted zones: ddnsd changes the address of a simple record set (UPSERT), keeping its TTL; a missing record is created. Alias and routing-policy records are left alone.",
  credentials: [
    {
      key: "access_key_id",
      url: "https://console.aws.amazon.com/iam/home#/users",
      label: "Access key ID",
      help: 'In the AWS console open IAM → Users → Create user (no console access), attach an inline policy allowing route53:GetHostedZoneCount, route53:ListHostedZonesByName and route53:GetHostedZone on "*", and route53:ListResourceRecordSets and route53:ChangeResourceRecordSets on arn:aws:route53:::hostedzone/<your zone id>; then Security credentials → Create access key ("Application running outside AWS"). The key id (AKIA…) is not a secret.',
      secret: false,
    },
    {
      key: "secret_access_key",
      label: "Secret access key",
      help: "Shown once, beside the access key ID, when the access key is created.",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(0, 2147483647, 300),
  canVerify: true,
  holdsAddressSets: true,
  defaultApiUrl: "https://route53.amazonaws.com/2013-04-01",
  // Route 53 allows 5 API requests a second per account (an UPSERT counts twice); ddnsd stays under it.
  rateLimits: [{ requests: 4, perSeconds: 1 }],
  holdsTxt: true,
  createClient(credentials, _options, context) {
    const api = createRoute53Api(
      { access_key_id: credentials.access_key_id ?? "", secret_access_key: credentials.secret_access_key ?? "" },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
