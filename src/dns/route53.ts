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
// then returned as retryAfterSeconds; `PriorRequestNotComplete` (a change to the zone still being
// applied) is returned at once with a longer wait.
//
// Sources: PROVIDERS.md §8; Route 53 API reference (ListHostedZonesByName, ListResourceRecordSets,
// ChangeResourceRecordSets, GetHostedZoneCount, Common Errors); DeveloperGuide "throttling-api-requests",
// "DNSDomainNameFormat" (octal escapes); qdm12/ddns-updater providers/route53/{api,provider,signer}.go.

import {
  exchange,
  notCreatedMessage,
  pauseSeconds,
  pausing,
  unreadableAnswer,
  writeOutcome,
  writtenDetails,
} from "./http";
import type { DnsProvider, RecordTarget, WriteOutcome } from "./provider";
import { defineService, type ClientContext } from "./service";
import { signRequest } from "./sigv4";
import { type XmlElement, child, childrenNamed, escapeXml, parseXml, textAt } from "./xml";
import { candidateZones, multipleValuesMessage, sameAddress, zoneHolds } from "./zones";

const SERVICE = "Route 53";
const SIGNING_SCOPE = { region: "us-east-1", service: "route53" };
const XMLNS = "https://route53.amazonaws.com/doc/2013-04-01/";
/** TTL of a record set this client creates when the domain's config names none. */
const NEW_RECORD_TTL = 300;
/** Zones of one name (a public zone and its private twins) seen in one answer. */
const ZONES_PER_NAME = 10;
/** After the in-call retries were throttled too, the account is busy: a longer pause. */
const THROTTLED_RETRY_AFTER_SECONDS = 30;
/** A change to this zone is still being applied; Route 53 applies changes within about a minute. */
const PRIOR_REQUEST_RETRY_AFTER_SECONDS = 60;
/** Answers after which only new keys or permissions help. */
const FINAL_ERROR_CODES = new Set(["InvalidClientTokenId", "SignatureDoesNotMatch", "AccessDenied", "OptInRequired"]);

export interface ThrottleBackoff {
  /** Wait before the first retry of a throttled request; doubled for each further one. */
  firstDelayMs: number;
  retries: number;
}

/** 0.5 s then 1 s: Route 53's token bucket refills 5–10 requests a second. */
const DEFAULT_BACKOFF: ThrottleBackoff = { firstDelayMs: 500, retries: 2 };

/** `staleZone`: the hosted zone named in config does not exist (any more), so it is worth finding afresh. */
type Failure = {
  ok: false;
  message: string;
  code?: string;
  retryAfterSeconds?: number;
  stopRetrying?: boolean;
  staleZone?: boolean;
};
type Call = { ok: true; root: XmlElement } | Failure;
type Attempt = Extract<WriteOutcome, { ok: true }> | Failure;

export function createRoute53Client(
  credentials: { access_key_id: string; secret_access_key: string },
  context: ClientContext,
  backoff: ThrottleBackoff = DEFAULT_BACKOFF,
): DnsProvider {
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
    if (!answer.ok) return { ok: false, message: `${SERVICE}: ${answer.reason}` };
    const root = parseXml(answer.text);
    if (!root) return { ok: false, message: `${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}` };
    if (answer.status < 300) return { ok: true, root };

    // `<ErrorResponse><Error><Code/><Message/>`, or for a refused change batch
    // `<InvalidChangeBatch><Messages><Message/>…` with the code as the root's name.
    const code = textAt(root, "Error", "Code") ?? (root.name === "ErrorResponse" ? "" : root.name);
    const messages = root.name === "InvalidChangeBatch"
      ? childrenNamed(child(root, "Messages"), "Message").map((m) => m.text.trim())
      : [textAt(root, "Error", "Message") ?? ""];
    const text = messages.filter(Boolean).join("; ") || "request failed";
    const failure: Failure = { ok: false, code, message: `${SERVICE}: ${text} (${code ? `${code}, ` : ""}HTTP ${answer.status})` };
    if (code === "Throttling") failure.retryAfterSeconds = THROTTLED_RETRY_AFTER_SECONDS;
    if (code === "PriorRequestNotComplete") failure.retryAfterSeconds = PRIOR_REQUEST_RETRY_AFTER_SECONDS;
    if (FINAL_ERROR_CODES.has(code)) failure.stopRetrying = true;
    return failure;
  }

  /** One request, retried (bounded, with exponential backoff) only while Route 53 says "Throttling". */
  async function call(method: string, path: string, body?: string): Promise<Call> {
    for (let retry = 0; ; retry++) {
      const answer = await callOnce(method, path, body);
      if (answer.ok || answer.code !== "Throttling" || retry >= backoff.retries) {
        if (answer.ok || answer.retryAfterSeconds === undefined) return answer;
        const pause = pauseSeconds(answer.retryAfterSeconds);
        return { ...answer, message: answer.message + pausing(pause), retryAfterSeconds: pause };
      }
      await Bun.sleep(backoff.firstDelayMs * 2 ** retry);
    }
  }

  /** The longest public hosted zone that is the hostname or one of its parents. */
  async function findZone(hostname: string): Promise<{ ok: true; zoneId: string } | Failure> {
    for (const candidate of candidateZones(hostname)) {
      const query = new URLSearchParams({ dnsname: `${candidate}.`, maxitems: String(ZONES_PER_NAME) });
      const listed = await call("GET", `/hostedzonesbyname?${query}`);
      if (!listed.ok) return listed;
      const zone = childrenNamed(child(listed.root, "HostedZones"), "HostedZone").find(
        (z) => dnsName(textAt(z, "Name")) === candidate && textAt(z, "Config", "PrivateZone") !== "true",
      );
      const id = textAt(zone, "Id");
      if (id) return { ok: true, zoneId: bareZoneId(id) };
    }
    return { ok: false, message: `${SERVICE}: no public hosted zone of this account holds ${hostname}` };
  }

  /** Null when the configured zone exists and holds the hostname; else why it cannot be used. */
  async function configuredZoneHolds(zoneId: string, hostname: string): Promise<Failure | null> {
    const zone = await call("GET", `/hostedzone/${encodeURIComponent(zoneId)}`);
    if (!zone.ok) return zone.code === "NoSuchHostedZone" ? { ...zone, staleZone: true } : zone;
    const name = dnsName(textAt(zone.root, "HostedZone", "Name"));
    if (zoneHolds(name, hostname)) return null;
    return {
      ok: false,
      message: `${SERVICE}: hosted zone ${zoneId} is ${name || "unnamed"}, which does not hold ${hostname}; correct config.zone_id or remove it`,
    };
  }

  function change(zoneId: string, action: "UPSERT" | "CREATE", set: { name: string; type: string; ttl: number; value: string; healthCheckId?: string }): Promise<Call> {
    const healthCheck = set.healthCheckId ? `<HealthCheckId>${escapeXml(set.healthCheckId)}</HealthCheckId>` : "";
    const body =
      `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<ChangeResourceRecordSetsRequest xmlns="${XMLNS}"><ChangeBatch><Changes><Change>` +
      `<Action>${action}</Action><ResourceRecordSet><Name>${escapeXml(set.name)}</Name><Type>${set.type}</Type>` +
      `<TTL>${set.ttl}</TTL><ResourceRecords><ResourceRecord><Value>${escapeXml(set.value)}</Value></ResourceRecord></ResourceRecords>` +
      `${healthCheck}</ResourceRecordSet></Change></Changes></ChangeBatch></ChangeResourceRecordSetsRequest>`;
    return call("POST", `/hostedzone/${encodeURIComponent(zoneId)}/rrset`, body);
  }

  async function writeInZone(zoneId: string, target: RecordTarget, ip: string, configured: boolean): Promise<Attempt> {
    const fqdn = `${target.hostname}.`;
    const success = (action: "updated" | "created", ttl: number, changed: Call | null): Attempt => {
      const changeId = changed?.ok ? textAt(changed.root, "ChangeInfo", "Id")?.replace(/^\/change\//, "") : undefined;
      const status = changed?.ok ? textAt(changed.root, "ChangeInfo", "Status")?.toLowerCase() : undefined;
      return {
        ok: true,
        action,
        externalId: `${fqdn}/${target.recordType}`,
        zoneId,
        message: writtenDetails(SERVICE, `record set in hosted zone ${zoneId}`, [
          `ttl ${ttl}`,
          changed === null ? "already held this address, nothing written" : `change ${changeId ?? "(no id)"} ${status ?? "submitted"}`,
        ]),
      };
    };

    const query = new URLSearchParams({ name: fqdn, type: target.recordType, maxitems: "1" });
    const read = await call("GET", `/hostedzone/${encodeURIComponent(zoneId)}/rrset?${query}`);
    if (!read.ok) return read.code === "NoSuchHostedZone" ? { ...read, staleZone: true } : read;
    const set = childrenNamed(child(read.root, "ResourceRecordSets"), "ResourceRecordSet").find(
      (s) => dnsName(textAt(s, "Name")) === target.hostname && textAt(s, "Type") === target.recordType,
    );
    const configTtl = typeof target.config.ttl === "number" ? target.config.ttl : undefined;

    if (set) {
      if (child(set, "AliasTarget") || child(set, "SetIdentifier") || child(set, "TrafficPolicyInstanceId")) {
        return {
          ok: false,
          message: `${SERVICE}: ${target.hostname} ${target.recordType} is an alias or has a routing policy (weighted, latency, failover, geolocation…); ddnsd changes only a simple record, so nothing was written`,
          stopRetrying: true,
        };
      }
      const values = childrenNamed(child(set, "ResourceRecords"), "ResourceRecord").map((r) => textAt(r, "Value") ?? "");
      if (values.length > 1) {
        return { ok: false, message: multipleValuesMessage(SERVICE, target.hostname, target.recordType, values), stopRetrying: true };
      }
      const readTtl = Number(textAt(set, "TTL"));
      const ttl = configTtl ?? (Number.isInteger(readTtl) ? readTtl : NEW_RECORD_TTL);
      if (values[0] !== undefined && sameAddress(values[0], ip) && ttl === readTtl) return success("updated", ttl, null);
      const upserted = await change(zoneId, "UPSERT", {
        name: textAt(set, "Name") ?? fqdn,
        type: target.recordType,
        ttl,
        value: ip,
        healthCheckId: textAt(set, "HealthCheckId"),
      });
      return upserted.ok ? success("updated", ttl, upserted) : upserted;
    }

    if (target.config.create_if_missing === false) return { ok: false, message: notCreatedMessage(SERVICE, target) };
    if (configured) {
      const refused = await configuredZoneHolds(zoneId, target.hostname);
      if (refused) return refused;
    }
    const ttl = configTtl ?? NEW_RECORD_TTL;
    const created = await change(zoneId, "CREATE", { name: fqdn, type: target.recordType, ttl, value: ip });
    return created.ok ? success("created", ttl, created) : created;
  }

  return {
    async verify() {
      const answer = await call("GET", "/hostedzonecount");
      if (!answer.ok) return { ok: false, detail: answer.message };
      const count = Number(textAt(answer.root, "HostedZoneCount"));
      return {
        ok: true,
        detail: Number.isInteger(count) ? `Access key accepted (${count} hosted ${count === 1 ? "zone" : "zones"})` : "Access key accepted",
      };
    },

    async writeRecord(target, ip) {
      if (typeof target.config.zone_id === "string" && target.config.zone_id !== "") {
        const attempt = await writeInZone(bareZoneId(target.config.zone_id), target, ip, true);
        // A hosted zone deleted and made again (a new id), or a typo: found afresh, once.
        if (attempt.ok || !attempt.staleZone) return writeOutcome(attempt);
      }
      const found = await findZone(target.hostname);
      if (!found.ok) return writeOutcome(found);
      return writeOutcome(await writeInZone(found.zoneId, target, ip, false));
    },
  };
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
      help:
        "In the AWS console open IAM → Users → Create user (no console access), attach an inline policy allowing route53:GetHostedZoneCount, route53:ListHostedZonesByName and route53:GetHostedZone on \"*\", and route53:ListResourceRecordSets and route53:ChangeResourceRecordSets on arn:aws:route53:::hostedzone/<your zone id>; then Security credentials → Create access key (\"Application running outside AWS\"). The key id (AKIA…) is not a secret.",
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
  ttl: { min: 0, max: 2147483647, help: "0–2147483647 seconds; empty keeps the record's TTL (300 for a new record)" },
  canVerify: true,
  defaultApiUrl: "https://route53.amazonaws.com/2013-04-01",
  // Route 53 allows 5 API requests a second per account (an UPSERT counts twice); ddnsd stays under it.
  rateLimits: [{ requests: 4, perSeconds: 1 }],
  createClient: (credentials, _options, context) =>
    createRoute53Client(
      { access_key_id: credentials.access_key_id ?? "", secret_access_key: credentials.secret_access_key ?? "" },
      context,
    ),
});
