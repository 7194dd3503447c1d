// A faithful stand-in for Amazon Route 53 (docs/services/route53.md): every request's SigV4 signature is
// checked for real (a wrong secret gets 403 SignatureDoesNotMatch, an unknown key 403
// InvalidClientTokenId), XML in and out, hosted zones listed by name in Route 53's reversed-label
// order starting AT the name asked (not an exact match), public and private zones, record sets
// listed starting at a name and type, names with a trailing dot and `*` written `\052`,
// alias and weighted sets, CREATE/UPSERT/DELETE change batches with the real refusals
// (`<InvalidChangeBatch>`), and throttling as HTTP 400 `Throttling` without Retry-After.
//
// TXT values are quoted strings (a bare one is refused, InvalidCharacterString), and a DELETE must
// name the set exactly as it is, TTL and values, or it is refused (Route 53 API reference,
// ChangeResourceRecordSets: "the values provided do not match the current values"; lego's
// route53 provider deletes the TXT set with the values it read).
//
// Sources: docs/services/route53.md; Route 53 API reference (ListHostedZonesByName, ListResourceRecordSets,
// ChangeResourceRecordSets, GetHostedZone, GetHostedZoneCount, Common Errors); DeveloperGuide
// "DNSDomainNameFormat"; qdm12/ddns-updater providers/route53/api.go (answer documents).
//
// Checked against Route 53's botocore model (test/conformance/descriptions/route53.json): every
// request's operation, URI, query and XML body are checked against its shapes; a forbidden one gets
// 400 InvalidInput (MalformedInput for broken XML) and is recorded.
//
// Quirk switches: faults `{status, code, message}` (`{status: 400, code: "Throttling"}` is Route 53's
// throttle: HTTP 400, no Retry-After), private zones (`addZone(name, {private: true})`), `keys`.

import { isIPv4, isIPv6 } from "node:net";
import { child, childrenNamed, escapeXml, parseXml, textAt } from "../../src/dns/protocols/xml";
import { sha256Hex } from "../../src/dns/signing/digest";
import { canonicalRequest, signature } from "../../src/dns/signing/sigv4";
import { botocoreDescription } from "./descriptions";
import { type FakeServer, htmlErrorPage, type LoggedRequest, startFakeServer } from "./server";

/** The service's own published description, checked against every request (compiled once, at import, so no request waits for it). */
const DESCRIPTION = botocoreDescription("route53", {
  title: "Route 53 model (botocore)",
  // Route 53's answer to input its model refuses: 400 InvalidInput (or MalformedInput for broken XML).
  refuse: (_request, problems) =>
    errorResponse(
      400,
      problems.some((p) => p.includes("XML")) ? "MalformedInput" : "InvalidInput",
      problems.join("; "),
    ),
});

export const ROUTE53_FAKE_ACCESS_KEY_ID = "AKIAFAKE0123456789AB";
export const ROUTE53_FAKE_SECRET = "fake/Secret+Key0123456789abcdefghijklmnop";

const XMLNS = "https://route53.amazonaws.com/doc/2013-04-01/";
const SIGNATURE_MISMATCH =
  "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.";

export interface Route53RecordSet {
  /** Fully qualified with the trailing dot, lowercase, `*` as `\052`, as Route 53 writes it. */
  name: string;
  type: string;
  ttl?: number;
  values: string[];
  setIdentifier?: string;
  weight?: number;
  aliasTarget?: { hostedZoneId: string; dnsName: string };
  healthCheckId?: string;
}

export interface Route53Zone {
  /** Without the `/hostedzone/` prefix. */
  id: string;
  /** With the trailing dot. */
  name: string;
  private: boolean;
  sets: Route53RecordSet[];
}

/**
 * `{status, code}` answers with an `<ErrorResponse>` (e.g. `{status: 400, code: "Throttling",
 * message: "Rate exceeded"}`); `"malformed"` is a 200 with a cut-off document; `"html"` a 502 page.
 */
export type Route53Fault = { status: number; code: string; message?: string } | "malformed" | "html";

export interface Route53Fake extends FakeServer<Route53Fault> {
  /** Access key id → secret access key. */
  keys: Map<string, string>;
  zones: Map<string, Route53Zone>;
  /** Change id → status. */
  changes: Map<string, "PENDING" | "INSYNC">;
  /** `name` as the zone's name, without the trailing dot. */
  addZone(name: string, options?: { private?: boolean }): Route53Zone;
  /** `name` fully qualified, with or without the trailing dot. */
  addSet(zoneId: string, set: Omit<Route53RecordSet, "name"> & { name: string }): Route53RecordSet;
  /** The simple (no SetIdentifier) set of that name and type, in any zone. */
  set(name: string, type: string): Route53RecordSet | undefined;
  reset(): void;
}

export function startRoute53Fake(): Route53Fake {
  const keys = new Map<string, string>();
  const zones = new Map<string, Route53Zone>();
  const changes = new Map<string, "PENDING" | "INSYNC">();
  let nextId = 1;
  const PREFIX = "/2013-04-01";

  function addZone(name: string, options: { private?: boolean } = {}): Route53Zone {
    const zone: Route53Zone = {
      id: `Z${String(nextId++).padStart(4, "0")}FAKE${name.length}`,
      name: `${name.toLowerCase().replace(/\.$/, "")}.`,
      private: options.private ?? false,
      sets: [],
    };
    zone.sets.push({
      name: zone.name,
      type: "NS",
      ttl: 172800,
      values: ["ns-1.awsdns-01.org.", "ns-2.awsdns-02.com."],
    });
    zone.sets.push({
      name: zone.name,
      type: "SOA",
      ttl: 900,
      values: ["ns-1.awsdns-01.org. awsdns-hostmaster.amazon.com. 1 7200 900 1209600 86400"],
    });
    zones.set(zone.id, zone);
    return zone;
  }

  function addSet(zoneId: string, init: Route53RecordSet): Route53RecordSet {
    const zone = zones.get(zoneId);
    if (!zone) throw new Error(`fake Route 53: no zone ${zoneId}`);
    const set = { ...init, name: wireName(init.name) };
    zone.sets.push(set);
    return set;
  }

  /** Null when the request is signed with a known key and the right secret; else AWS's 403. */
  function authenticate(request: LoggedRequest): Response | null {
    const header = request.headers.authorization ?? "";
    const match =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
        header,
      );
    if (!match) return errorResponse(403, "MissingAuthenticationToken", "Missing Authentication Token");
    const [, keyId = "", date = "", region, service, signedHeaders = "", given] = match;
    const secret = keys.get(keyId);
    if (secret === undefined)
      return errorResponse(403, "InvalidClientTokenId", "The security token included in the request is invalid.");
    const amzDate = request.headers["x-amz-date"] ?? "";
    const names = signedHeaders.split(";");
    if (!names.includes("host") || !names.includes("x-amz-date") || !amzDate.startsWith(date)) {
      return errorResponse(
        403,
        "IncompleteSignature",
        "Authorization header requires existence of host and x-amz-date headers.",
      );
    }
    if (region !== "us-east-1" || service !== "route53")
      return errorResponse(403, "SignatureDoesNotMatch", SIGNATURE_MISMATCH);
    const headers = Object.fromEntries(names.map((name) => [name, request.headers[name] ?? ""]));
    const query = new URLSearchParams(request.query).toString();
    const url = new URL(`http://${request.headers.host}${PREFIX}${request.path}${query ? `?${query}` : ""}`);
    const body =
      typeof request.body === "string" ? request.body : request.body === undefined ? "" : JSON.stringify(request.body);
    const canonical = canonicalRequest(request.method, url, headers, sha256Hex(body));
    const expected = signature(secret, amzDate, `${date}/${region}/${service}/aws4_request`, canonical.text);
    return expected === given ? null : errorResponse(403, "SignatureDoesNotMatch", SIGNATURE_MISMATCH);
  }

  function route(request: LoggedRequest): Response {
    const refused = authenticate(request);
    if (refused) return refused;
    const segments = request.path.split("/").filter(Boolean);

    if (request.method === "GET" && request.path === "/hostedzonecount") {
      return xml(
        200,
        `<GetHostedZoneCountResponse xmlns="${XMLNS}"><HostedZoneCount>${zones.size}</HostedZoneCount></GetHostedZoneCountResponse>`,
      );
    }
    if (request.method === "GET" && request.path === "/hostedzonesbyname") return listZonesByName(request.query);
    if (segments[0] !== "hostedzone" || segments.length < 2) return errorResponse(404, "UnknownOperationException", "");
    const zone = zones.get(segments[1] ?? "");
    if (!zone) return errorResponse(404, "NoSuchHostedZone", `No hosted zone found with ID: ${segments[1]}`);
    if (segments.length === 2 && request.method === "GET") {
      return xml(
        200,
        `<GetHostedZoneResponse xmlns="${XMLNS}">${zoneXml(zone)}<DelegationSet><NameServers><NameServer>ns-1.awsdns-01.org</NameServer></NameServers></DelegationSet></GetHostedZoneResponse>`,
      );
    }
    if (segments.length === 3 && segments[2] === "rrset") {
      if (request.method === "GET") return listSets(zone, request.query);
      if (request.method === "POST") return changeSets(zone, typeof request.body === "string" ? request.body : "");
    }
    return errorResponse(404, "UnknownOperationException", "");
  }

  function listZonesByName(query: Record<string, string>): Response {
    const max = Math.min(Number(query.maxitems) || 100, 100);
    const start = query.dnsname === undefined ? "" : order(wireName(query.dnsname));
    const sorted = [...zones.values()].sort((a, b) => compare(order(a.name), order(b.name)) || compare(a.id, b.id));
    const from = sorted.filter((z) => order(z.name) >= start);
    const page = from.slice(0, max);
    const next = from[max];
    return xml(
      200,
      `<ListHostedZonesByNameResponse xmlns="${XMLNS}"><HostedZones>${page.map(zoneXml).join("")}</HostedZones>` +
        (query.dnsname === undefined ? "" : `<DNSName>${escapeXml(wireName(query.dnsname))}</DNSName>`) +
        `<IsTruncated>${next ? "true" : "false"}</IsTruncated>` +
        (next
          ? `<NextDNSName>${escapeXml(next.name)}</NextDNSName><NextHostedZoneId>${next.id}</NextHostedZoneId>`
          : "") +
        `<MaxItems>${max}</MaxItems></ListHostedZonesByNameResponse>`,
    );
  }

  function listSets(zone: Route53Zone, query: Record<string, string>): Response {
    if (query.type !== undefined && query.name === undefined) {
      return errorResponse(400, "InvalidInput", "The input is not valid: type requires name");
    }
    const max = Math.min(Number(query.maxitems) || 300, 300);
    const sorted = [...zone.sets].sort((a, b) => compare(order(a.name), order(b.name)) || compare(a.type, b.type));
    const startName = query.name === undefined ? "" : order(wireName(query.name));
    const from = sorted.filter((s) => {
      const byName = compare(order(s.name), startName);
      return byName > 0 || (byName === 0 && (query.type === undefined || s.type >= query.type));
    });
    const page = from.slice(0, max);
    const next = from[max];
    return xml(
      200,
      `<ListResourceRecordSetsResponse xmlns="${XMLNS}"><ResourceRecordSets>${page.map(setXml).join("")}</ResourceRecordSets>` +
        `<IsTruncated>${next ? "true" : "false"}</IsTruncated>` +
        (next
          ? `<NextRecordName>${escapeXml(next.name)}</NextRecordName><NextRecordType>${next.type}</NextRecordType>`
          : "") +
        `<MaxItems>${max}</MaxItems></ListResourceRecordSetsResponse>`,
    );
  }

  function changeSets(zone: Route53Zone, body: string): Response {
    const root = parseXml(body);
    const changeList = childrenNamed(child(child(root, "ChangeBatch"), "Changes"), "Change");
    if (root?.name !== "ChangeResourceRecordSetsRequest" || changeList.length === 0) {
      return errorResponse(
        400,
        "InvalidInput",
        "Invalid XML ; cvc-complex-type.2.4.b: The content of element 'ChangeBatch' is not complete.",
      );
    }
    const problems: string[] = [];
    const applied: (() => void)[] = [];
    for (const change of changeList) {
      const action = textAt(change, "Action");
      const element = child(change, "ResourceRecordSet");
      const name = wireName(textAt(element, "Name") ?? "");
      const type = textAt(element, "Type") ?? "";
      const ttlText = textAt(element, "TTL");
      const values = childrenNamed(child(element, "ResourceRecords"), "ResourceRecord").map(
        (r) => textAt(r, "Value") ?? "",
      );
      const setIdentifier = textAt(element, "SetIdentifier");
      const label = `[name='${name}', type='${type}'${setIdentifier ? `, set-identifier='${setIdentifier}'` : ""}]`;
      if (name !== zone.name && !name.endsWith(`.${zone.name}`)) {
        problems.push(`RRSet with DNS name ${name} is not permitted in zone ${zone.name}`);
        continue;
      }
      if (ttlText === undefined || !/^\d+$/.test(ttlText)) {
        return errorResponse(
          400,
          "InvalidInput",
          "Invalid request: Expected exactly one of [AliasTarget, all of [TTL, and ResourceRecords], or TrafficPolicyInstanceId], but found none in Change with [Action=" +
            action +
            ", Name=" +
            name +
            ", Type=" +
            type +
            "]",
        );
      }
      for (const value of values) {
        if (type === "TXT" && !/^".*"$/.test(value)) {
          problems.push(
            `Invalid Resource Record: 'FATAL problem: InvalidCharacterString (Value should be enclosed in quotation marks) encountered with '${value}''`,
          );
        }
        if ((type === "A" && !isIPv4(value)) || (type === "AAAA" && !isIPv6(value))) {
          problems.push(
            `Invalid Resource Record: 'FATAL problem: ${type === "A" ? "ARRDATAIllegalIPv4Address (Value is not a valid IPv4 address)" : "AAAARRDATAIllegalIPv6Address (Value is not a valid IPv6 address)"} encountered with '${value}''`,
          );
        }
      }
      const index = zone.sets.findIndex((s) => s.name === name && s.type === type && s.setIdentifier === setIdentifier);
      const next: Route53RecordSet = { name, type, ttl: Number(ttlText), values };
      if (setIdentifier) next.setIdentifier = setIdentifier;
      const healthCheckId = textAt(element, "HealthCheckId");
      if (healthCheckId) next.healthCheckId = healthCheckId;
      if (action === "CREATE") {
        if (index >= 0) problems.push(`Tried to create resource record set ${label} but it already exists`);
        else applied.push(() => zone.sets.push(next));
      } else if (action === "UPSERT") {
        // Replaces the whole set: what the change leaves out is gone.
        applied.push(() => (index >= 0 ? zone.sets.splice(index, 1, next) : zone.sets.push(next)));
      } else if (action === "DELETE") {
        const held = zone.sets[index];
        if (!held) problems.push(`Tried to delete resource record set ${label} but it was not found`);
        else if (held.ttl !== next.ttl || held.values.join("\n") !== values.join("\n"))
          problems.push(
            `Tried to delete resource record set ${label} but the values provided do not match the current values`,
          );
        else applied.push(() => zone.sets.splice(index, 1));
      } else {
        return errorResponse(
          400,
          "InvalidInput",
          `Invalid XML ; Value '${action}' is not facet-valid with respect to enumeration '[CREATE, DELETE, UPSERT]'.`,
        );
      }
    }
    if (problems.length > 0) {
      // The whole batch is refused: nothing of it is applied.
      return xml(
        400,
        `<InvalidChangeBatch xmlns="${XMLNS}"><Messages>${problems.map((p) => `<Message>${escapeXml(p)}</Message>`).join("")}</Messages><RequestId>${crypto.randomUUID()}</RequestId></InvalidChangeBatch>`,
      );
    }
    for (const apply of applied) apply();
    const id = `C${crypto.randomUUID().replaceAll("-", "").slice(0, 20).toUpperCase()}`;
    changes.set(id, "PENDING");
    return xml(
      200,
      `<ChangeResourceRecordSetsResponse xmlns="${XMLNS}"><ChangeInfo><Id>/change/${id}</Id><Status>PENDING</Status><SubmittedAt>${new Date().toISOString()}</SubmittedAt></ChangeInfo></ChangeResourceRecordSetsResponse>`,
    );
  }

  const server = startFakeServer<Route53Fault>({
    prefix: PREFIX,
    route,
    description: DESCRIPTION,
    renderFault(mode) {
      if (mode === "html") return htmlErrorPage();
      if (mode === "malformed")
        return xml(
          200,
          `<?xml version="1.0"?>\n<ListResourceRecordSetsResponse xmlns="${XMLNS}"><ResourceRecordSets><ResourceRecordSet><Name>`,
        );
      return errorResponse(
        mode.status,
        mode.code,
        mode.message ?? (mode.code === "Throttling" ? "Rate exceeded" : mode.code),
      );
    },
  });

  function initialKeys(): void {
    keys.clear();
    keys.set(ROUTE53_FAKE_ACCESS_KEY_ID, ROUTE53_FAKE_SECRET);
  }
  initialKeys();

  return Object.assign(server, {
    keys,
    zones,
    changes,
    addZone,
    addSet,
    set(name: string, type: string) {
      const wanted = wireName(name);
      for (const zone of zones.values()) {
        const found = zone.sets.find((s) => s.name === wanted && s.type === type && !s.setIdentifier);
        if (found) return found;
      }
      return undefined;
    },
    reset() {
      zones.clear();
      changes.clear();
      initialKeys();
      server.clearFaults();
      server.clearRequests();
    },
  });
}

/** Lowercase, trailing dot, `*` written `\052`: how Route 53 stores and returns names. */
function wireName(name: string): string {
  const dotted = name.toLowerCase().endsWith(".") ? name.toLowerCase() : `${name.toLowerCase()}.`;
  return dotted.replace(/\*/g, "\\052");
}

/** Route 53's order: labels reversed (`com.example.www`), so a zone's names sort together. */
function order(name: string): string {
  return name.replace(/\.$/, "").split(".").reverse().join(".");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function zoneXml(zone: Route53Zone): string {
  return (
    `<HostedZone><Id>/hostedzone/${zone.id}</Id><Name>${escapeXml(zone.name)}</Name><CallerReference>fake-${zone.id}</CallerReference>` +
    `<Config><PrivateZone>${zone.private}</PrivateZone></Config><ResourceRecordSetCount>${zone.sets.length}</ResourceRecordSetCount></HostedZone>`
  );
}

function setXml(set: Route53RecordSet): string {
  const parts = [`<Name>${escapeXml(set.name)}</Name>`, `<Type>${set.type}</Type>`];
  if (set.setIdentifier) parts.push(`<SetIdentifier>${escapeXml(set.setIdentifier)}</SetIdentifier>`);
  if (set.weight !== undefined) parts.push(`<Weight>${set.weight}</Weight>`);
  if (set.aliasTarget) {
    parts.push(
      `<AliasTarget><HostedZoneId>${set.aliasTarget.hostedZoneId}</HostedZoneId><DNSName>${escapeXml(set.aliasTarget.dnsName)}</DNSName><EvaluateTargetHealth>false</EvaluateTargetHealth></AliasTarget>`,
    );
  } else {
    parts.push(`<TTL>${set.ttl ?? 300}</TTL>`);
    parts.push(
      `<ResourceRecords>${set.values.map((v) => `<ResourceRecord><Value>${escapeXml(v)}</Value></ResourceRecord>`).join("")}</ResourceRecords>`,
    );
  }
  if (set.healthCheckId) parts.push(`<HealthCheckId>${set.healthCheckId}</HealthCheckId>`);
  return `<ResourceRecordSet>${parts.join("")}</ResourceRecordSet>`;
}

function xml(status: number, body: string): Response {
  return new Response(`<?xml version="1.0"?>\n${body}`, { status, headers: { "Content-Type": "text/xml" } });
}

function errorResponse(status: number, code: string, message: string): Response {
  return xml(
    status,
    `<ErrorResponse xmlns="${XMLNS}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${escapeXml(message)}</Message></Error><RequestId>${crypto.randomUUID()}</RequestId></ErrorResponse>`,
  );
}
