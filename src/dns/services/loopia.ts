// Loopia API (docs/services/loopia.md): the zone service primitives over XML-RPC. Every call is a
// `POST` of a `<methodCall>` to one address, its first parameters the API user's name and password
// (and, for a reseller working in a customer's account, the customer number). Loopia keeps a
// domain's names as "subdomains", each with its own zone records (`@` is the apex); a record is
// `{type, ttl, priority, rdata, record_id}`. A method that changes something answers a status
// string (`OK`, `AUTH_ERROR`, `RATE_LIMITED`, `UNKNOWN_ERROR`, `BAD_INDATA` …); a listing answers its
// array, or the status alone (bare, or as the array's only element) when it was refused.
//
// Requests per write, with the domain known (config.zone_id) — the steady state:
//   getZoneRecords + updateZoneRecord = 2 (1 when the address is already there)
// A new record costs getSubdomains (+ addSubdomain for a name Loopia does not know yet) +
// addZoneRecord + getZoneRecords (Loopia answers no id to an add: the record is read back).
//
// Sources: support.loopia.se/wiki (LoopiaAPI – Innan du börjar, getDomains, getZoneRecords,
// updateZoneRecord, addZoneRecord, addSubdomain, getSubdomains, record_obj, Felkoder); lego
// providers/dns/loopia/internal and DNSControl providers/loopia (client.go).

import { exchange, unreadableAnswer } from "../../net/http";
import { plural } from "../../util/plural";
import { causeOfAnswer, failed, throttleWait } from "../answers";
import { decodeMethodResponse, encodeMethodCall, isStruct, type XmlRpcValue } from "../protocols/xmlrpc";
import type { FailureCause, Step } from "../provider";
import { type RecordSet, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { type ClientContext, defineService, ttlRange } from "../service";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "Loopia";
/** A new record's TTL when the domain's config names none: LoopiaDNS's own default (record_obj). */
const NEW_RECORD_TTL = 3600;
/** DNSControl reports Loopia's rate limit as an XML-RPC fault with this code. */
const FAULT_RATE_LIMITED = 429;

interface Credentials {
  username: string;
  password: string;
  /** Only for a reseller working in a customer's account; empty otherwise. */
  customer_number: string;
}

/** What one status word means; an unknown word is a refusal that may pass. */
const STATUSES: Record<string, { cause: FailureCause; stopRetrying?: boolean; why: string }> = {
  AUTH_ERROR: {
    cause: "credentials",
    stopRetrying: true,
    why: "the API user's name or password is wrong, or it lacks the permission for this method",
  },
  RATE_LIMITED: { cause: "throttled", why: "more than 60 calls a minute" },
  BAD_INDATA: { cause: "refused", why: "a value was refused" },
  UNKNOWN_ERROR: { cause: "refused", why: "Loopia could not do it" },
  DOMAIN_OCCUPIED: { cause: "refused", why: "the name is taken" },
  INSUFFICIENT_FUNDS: { cause: "refused", why: "not enough credit" },
};

export function createLoopiaApi(credentials: Credentials, context: ClientContext): ZoneApi {
  /** The method's answer, or why there is none; a status word in place of a listing is a failure too. */
  async function call(method: string, params: XmlRpcValue[]): Promise<Step<XmlRpcValue>> {
    const account = credentials.customer_number === "" ? [] : [credentials.customer_number];
    const answer = await exchange(
      context.fetch,
      context.baseUrl,
      {
        method: "POST",
        headers: { "Content-Type": "text/xml; charset=utf-8", Accept: "text/xml", "User-Agent": context.userAgent },
        body: encodeMethodCall(method, [credentials.username, credentials.password, ...account, ...params]),
      },
      context.timeoutMs,
    );
    if (!answer.ok) return failed(`${SERVICE}: ${answer.reason}`, { cause: answer.cause });
    if (answer.status !== 200) {
      const cause = causeOfAnswer(answer.status, answer.headers);
      return failed(`${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`, {
        cause,
        ...(cause === "throttled" ? throttleWait(answer.headers) : {}),
      });
    }
    const decoded = decodeMethodResponse(answer.text);
    if (!decoded)
      return failed(`${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`, { cause: "unreachable" });
    if (!decoded.ok) {
      const cause = decoded.faultCode === FAULT_RATE_LIMITED ? "throttled" : "refused";
      return failed(`${SERVICE}: ${method}: ${decoded.faultString.trim() || "fault"} (fault ${decoded.faultCode})`, {
        cause,
      });
    }
    const value = decoded.value;
    // A bare word is a status; a listing of one word is a refusal only when the word is a status
    // (getSubdomains lists names, and a domain may have just one).
    if (typeof value === "string" && value.trim() !== "OK") return refusal(method, value.trim());
    const [only] = Array.isArray(value) && value.length === 1 ? value : [];
    if (typeof only === "string" && STATUSES[only.trim()] !== undefined) return refusal(method, only.trim());
    return { ok: true, value };
  }

  /** A method that answers a status: OK, or its refusal. */
  async function change(method: string, params: XmlRpcValue[]): Promise<Step<true>> {
    const answer = await call(method, params);
    if (!answer.ok) return answer;
    return typeof answer.value === "string"
      ? { ok: true, value: true }
      : failed(`${SERVICE}: ${method}: unexpected answer`, { cause: "unreachable" });
  }

  /** The name's records of one type, as Loopia lists them. */
  async function records(zone: string, hostname: string, type: string): Promise<Step<Record<string, XmlRpcValue>[]>> {
    const answer = await call("getZoneRecords", [zone, subdomainOf(hostname, zone)]);
    if (!answer.ok) return answer;
    if (!Array.isArray(answer.value))
      return failed(`${SERVICE}: getZoneRecords: unexpected answer`, { cause: "unreachable" });
    return { ok: true, value: answer.value.filter(isStruct).filter((r) => String(r.type).toUpperCase() === type) };
  }

  function recordSet(found: Record<string, XmlRpcValue>[]): RecordSet {
    const [first] = found;
    return {
      id: String(first!.record_id),
      values: found.map((r) => String(r.rdata)),
      ...(typeof first!.ttl === "number" ? { ttl: first!.ttl } : {}),
      raw: first,
    };
  }

  return {
    service: SERVICE,

    async verify() {
      // A listing checks the name, the password and the permission for getDomains; it changes nothing.
      const answer = await call("getDomains", []);
      if (!answer.ok) return failedCheck(answer);
      const count = Array.isArray(answer.value) ? answer.value.length : 0;
      return { ok: true, detail: `API user accepted (${plural(count, "domain")})` };
    },

    async listZones() {
      const answer = await call("getDomains", []);
      if (!answer.ok) return answer;
      const names = (Array.isArray(answer.value) ? answer.value : [])
        .filter(isStruct)
        .map((d) => String(d.domain ?? ""));
      return { ok: true, value: zonesNamed(names) };
    },

    async readRecordSet(zone, hostname, type) {
      const found = await records(zone.id, hostname, type);
      if (!found.ok) return found;
      return { ok: true, value: found.value.length === 0 ? null : recordSet(found.value) };
    },

    async updateRecordSet(zone, hostname, _type, current, address, settings) {
      const record = isStruct(current.raw as XmlRpcValue) ? (current.raw as Record<string, XmlRpcValue>) : {};
      // The record as read (its type, priority and id), with the new address and the TTL asked for.
      const ttl = settings.ttl ?? (typeof record.ttl === "number" ? record.ttl : NEW_RECORD_TTL);
      const written = { ...record, rdata: address, ttl, record_id: Number(current.id) };
      const updated = await change("updateZoneRecord", [zone.id, subdomainOf(hostname, zone.id), written]);
      return updated.ok ? { ok: true, value: { id: current.id, values: [address], ttl, raw: written } } : updated;
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const subdomain = subdomainOf(hostname, zone.id);
      // Records live under a subdomain Loopia knows; a name it does not know yet is added first.
      if (subdomain !== "@") {
        const known = await call("getSubdomains", [zone.id]);
        if (!known.ok) return known;
        const names = Array.isArray(known.value) ? known.value.map((n) => String(n).toLowerCase()) : [];
        if (!names.includes(subdomain)) {
          const added = await change("addSubdomain", [zone.id, subdomain]);
          if (!added.ok) return added;
        }
      }
      const ttl = settings.ttl ?? NEW_RECORD_TTL;
      const added = await change("addZoneRecord", [
        zone.id,
        subdomain,
        { type, ttl, priority: 0, rdata: address, record_id: 0 },
      ]);
      if (!added.ok) return added;
      // Loopia answers no id to an add: the record is found by reading the name back.
      const found = await records(zone.id, hostname, type);
      if (!found.ok) return found;
      const written = found.value.filter((r) => String(r.rdata) === address);
      return written.length === 0
        ? failed(`${SERVICE}: the added record is not listed`, { cause: "refused" })
        : { ok: true, value: recordSet(written) };
    },
  };
}

/** Loopia's name for a hostname in its domain: the relative name, `@` for the apex. */
function subdomainOf(hostname: string, zone: string): string {
  return relativeName(hostname, zone, "@");
}

function refusal(method: string, word: string): Step<never> {
  const known = STATUSES[word];
  return failed(`${SERVICE}: ${method}: ${word}${known ? ` (${known.why})` : ""}`, {
    cause: known?.cause ?? "refused",
    stopRetrying: known?.stopRetrying,
  });
}

/** Everything ddnsd knows about Loopia (docs/services/loopia.md). */
export const loopia = defineService({
  type: "loopia",
  label: "Loopia",
  summary:
    "Domains whose DNS is at Loopia, through the Loopia API (XML-RPC) with an API user: ddnsd changes the address and keeps the rest of the record.",
  credentials: [
    {
      key: "username",
      label: "API user",
      help: "In Loopia's customer zone: Account settings → LoopiaAPI → create an API user (its name ends in @loopiaapi). Give it only getDomains, getZoneRecords and updateZoneRecord; add getSubdomains, addSubdomain and addZoneRecord only if ddnsd should create records.",
      url: "https://customerzone.loopia.com/",
      secret: false,
      validate: (value) => (value.includes("@") ? undefined : "must be the API user's full name, e.g. name@loopiaapi"),
    },
    {
      key: "password",
      label: "API password",
      help: "The password chosen for that API user (not the customer zone's password).",
      url: "https://customerzone.loopia.com/",
      secret: true,
    },
    {
      key: "customer_number",
      label: "Customer number (resellers only)",
      help: "Only for a reseller's API user working in a customer's account: that customer's number. Leave empty for your own account.",
      secret: false,
      optional: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(300, 86400, 3600),
  canVerify: true,
  defaultApiUrl: "https://api.loopia.se/RPCSERV",
  // Loopia allows 60 calls a minute; ddnsd stays a little under it.
  rateLimits: [{ requests: 50, perSeconds: 60 }],
  createClient: (credentials, _options, context) =>
    zoneClient(
      createLoopiaApi(
        {
          username: (credentials.username ?? "").trim(),
          password: credentials.password ?? "",
          customer_number: (credentials.customer_number ?? "").trim(),
        },
        context,
      ),
    ),
});
