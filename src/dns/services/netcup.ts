// Netcup CCP DNS API (docs/services/netcup.md): the zone service primitives. One endpoint takes every
// action as `POST …/endpoint.php?JSON` with `{"action", "param"}`; `login` trades the customer number,
// API key and API password for a session id that every other action carries. Answers are HTTP 200
// whatever happened: the envelope's `status` ("success" or "error") and `statuscode` say. Records
// carry no TTL of their own (the zone's TTL applies to all of them), so ddnsd changes only the
// destination. A domain's name is its id; Netcup lists domains only to resellers, so the domain that
// holds a name is found by asking for each of its parents' zones, longest first.
//
// The session id is kept in memory only, with the time it stops working, and never logged: a client
// logs in before its first request, again when the session is older than SESSION_MS, and once more
// when Netcup says the session is no longer valid.
//
// Requests per write, with the domain known (config.zone_id) and a live session — the steady state:
//   infoDnsRecords + updateDnsRecords = 2 (1 when the address is already there), + 1 login per session
//
// Sources: ccp.netcup.net/run/webservice/servers/endpoint.php (the web service's description) and the
// netcup-wiki DNS API page; qdm12/ddns-updater providers/netcup and lego providers/dns/netcup.

import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, requestJson, type ServiceError } from "../answers";
import type { Step } from "../provider";
import { namedZone, type RecordSet, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService } from "../service";
import { txtRecords, unquotedTxt } from "../txt";
import { candidateZones, failedCheck, noZoneMessage, relativeName, sameAddress } from "../zones";

const SERVICE = "Netcup";
/**
 * Netcup ends a session 15 minutes after its login; a client logs in again after 10, so a session
 * never runs out between a read and its write.
 */
const SESSION_MS = 10 * 60 * 1000;
/** Netcup's statuscode for a session id it no longer knows (UNSURE: see the fake's header). */
const SESSION_INVALID = 4001;
/** Netcup's statuscode for "no records" on an empty zone, as some clients report it (UNSURE); read as no records. */
const NO_RECORDS = 5029;
/**
 * Netcup's statuscode for "The zone … could not be found", which the CCP API answers for a domain on
 * the CloudDNS backend (acme.sh issue 7188, lego issue 3226): such a domain needs the REST API.
 */
const CLOUDDNS_ZONE = 5028;
const CLOUDDNS_HINT =
  "the domain is on Netcup CloudDNS, which this API does not reach: use the Netcup CloudDNS type (netcupcloud) with a CloudDNS API key";

interface Credentials {
  customer_number: string;
  api_key: string;
  api_password: string;
}

/** What Netcup answered to one action: its envelope's responsedata, or why it refused. */
type Envelope = { ok: true; data: unknown } | { ok: false; statuscode: number; words: string };

export function createNetcupApi(
  credentials: Credentials,
  context: ClientContext,
  now: () => number = Date.now,
): ZoneApi & { txt: TxtApi } {
  let session: { id: string; until: number } | undefined;

  /** One action, as it came back; a failure only when no envelope came back at all. */
  async function post(action: string, param: Record<string, unknown>): Promise<Step<Envelope>> {
    const answer = await requestJson(
      context,
      SERVICE,
      { method: "POST", path: "?JSON", headers: {}, body: { action, param } },
      readError,
    );
    if (!answer.ok) return answer;
    const body = answer.value.body;
    if (!isObject(body) || typeof body.status !== "string")
      return failed(`${SERVICE}: unreadable answer to ${action} (HTTP ${answer.value.status})`, {
        cause: "unreachable",
      });
    if (body.status === "success") return { ok: true, value: { ok: true, data: body.responsedata } };
    const words = [body.shortmessage, body.longmessage]
      .filter((w): w is string => typeof w === "string" && w.trim() !== "")
      .join(" ");
    return {
      ok: true,
      value: { ok: false, statuscode: Number(body.statuscode), words: words || `status ${String(body.status)}` },
    };
  }

  const refusal = (envelope: { statuscode: number; words: string }) =>
    `${SERVICE}: ${envelope.words} (statuscode ${envelope.statuscode})${envelope.statuscode === CLOUDDNS_ZONE ? ` — ${CLOUDDNS_HINT}` : ""}`;

  async function login(): Promise<Step<string>> {
    const answer = await post("login", {
      customernumber: credentials.customer_number,
      apikey: credentials.api_key,
      apipassword: credentials.api_password,
    });
    if (!answer.ok) return answer;
    // Every refused login is about the three credentials; only an edit of the provider changes them.
    if (!answer.value.ok) return failed(refusal(answer.value), { cause: "credentials", stopRetrying: true });
    const data = answer.value.data;
    if (!isObject(data) || typeof data.apisessionid !== "string" || data.apisessionid === "") {
      return failed(`${SERVICE}: the login answered no session id`, { cause: "unreachable" });
    }
    session = { id: data.apisessionid, until: now() + SESSION_MS };
    return { ok: true, value: data.apisessionid };
  }

  /** An action in a session: logs in when there is no live session, and once more when Netcup has ended it. */
  async function call(action: string, param: Record<string, unknown>): Promise<Step<Envelope>> {
    for (let attempt = 0; ; attempt++) {
      const id =
        session !== undefined && session.until > now() ? { ok: true as const, value: session.id } : await login();
      if (!id.ok) return id;
      const answer = await post(action, {
        customernumber: credentials.customer_number,
        apikey: credentials.api_key,
        apisessionid: id.value,
        ...param,
      });
      if (!answer.ok || answer.value.ok || attempt > 0 || !sessionEnded(answer.value)) return answer;
      session = undefined;
    }
  }

  /** The action's data, or its refusal as a failure. */
  async function succeed(action: string, param: Record<string, unknown>): Promise<Step<unknown>> {
    const answer = await call(action, param);
    if (!answer.ok) return answer;
    if (!answer.value.ok) return failed(refusal(answer.value), { cause: "refused" });
    return { ok: true, value: answer.value.data };
  }

  function recordsOf(data: unknown): Record<string, unknown>[] {
    return isObject(data) ? objectsIn(data.dnsrecords) : [];
  }

  const hostnameIn = (hostname: string, zone: string) => relativeName(hostname, zone, "@");
  const matches = (record: Record<string, unknown>, host: string, type: string) =>
    record.type === type && String(record.hostname ?? "").toLowerCase() === host && record.deleterecord !== true;

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return {
      id: String(records[0]!.id),
      values: records.map((r) => String(r.destination)),
      raw: records[0],
      members: records,
    };
  }

  async function write(
    zone: string,
    record: Record<string, unknown>,
    find: (written: Record<string, unknown>) => boolean,
  ): Promise<Step<RecordSet>> {
    const answer = await succeed("updateDnsRecords", { domainname: zone, dnsrecordset: { dnsrecords: [record] } });
    if (!answer.ok) return answer;
    const found = recordsOf(answer.value).find(find);
    return found === undefined
      ? failed(`${SERVICE}: the written record is not in the answer`, { cause: "refused" })
      : { ok: true, value: recordSet([found]) };
  }

  // One record per value, its destination the text itself: one is created by an updateDnsRecords
  // record without an id, and deleted by sending it back as read with `deleterecord: true`.
  const txt = txtRecords({
    async list(zone, name) {
      const answer = await call("infoDnsRecords", { domainname: zone.id });
      if (!answer.ok) return answer;
      if (!answer.value.ok)
        return answer.value.statuscode === NO_RECORDS
          ? { ok: true, value: [] }
          : failed(refusal(answer.value), { cause: "refused" });
      const host = hostnameIn(name, zone.id);
      const records = recordsOf(answer.value.data).filter((r) => matches(r, host, "TXT") && r.id !== undefined);
      return { ok: true, value: records.map((r) => ({ id: JSON.stringify(r), value: unquotedTxt(r.destination) })) };
    },
    create: (zone, name, value) =>
      succeed("updateDnsRecords", {
        domainname: zone.id,
        dnsrecordset: {
          dnsrecords: [{ hostname: hostnameIn(name, zone.id), type: "TXT", destination: value, deleterecord: false }],
        },
      }),
    delete: (zone, record) =>
      succeed("updateDnsRecords", {
        domainname: zone.id,
        dnsrecordset: { dnsrecords: [{ ...JSON.parse(record.id), deleterecord: true }] },
      }),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      // A login checks all three credentials and changes nothing.
      const answer = await login();
      return answer.ok
        ? { ok: true, detail: `API key accepted for customer ${credentials.customer_number}` }
        : failedCheck(answer);
    },

    async findZone(hostname, configured) {
      const named = namedZone(SERVICE, configured, hostname);
      if (named) return named;
      // A 5028 is kept: when no parent is a domain here, it says why (the domain is on CloudDNS).
      let cloudZone: { statuscode: number; words: string } | undefined;
      for (const candidate of candidateZones(hostname)) {
        const answer = await call("infoDnsZone", { domainname: candidate });
        if (!answer.ok) return answer;
        if (answer.value.ok) return { ok: true, value: { id: candidate, name: candidate } };
        if (answer.value.statuscode === CLOUDDNS_ZONE) cloudZone ??= answer.value;
        // Any other refusal: this name is not one of the account's domains; its parent may be.
      }
      if (cloudZone !== undefined) return failed(refusal(cloudZone), { cause: "refused", stopRetrying: true });
      return failed(noZoneMessage(SERVICE, hostname), { cause: "refused" });
    },

    async readRecordSet(zone, hostname, type) {
      const answer = await call("infoDnsRecords", { domainname: zone.id });
      if (!answer.ok) return answer;
      if (!answer.value.ok) {
        if (answer.value.statuscode === NO_RECORDS) return { ok: true, value: null };
        // A domain on CloudDNS stays there: retrying through this API cannot succeed.
        return failed(refusal(answer.value), {
          cause: "refused",
          ...(answer.value.statuscode === CLOUDDNS_ZONE ? { stopRetrying: true } : {}),
        });
      }
      const host = hostnameIn(hostname, zone.id);
      const records = recordsOf(answer.value.data).filter((r) => matches(r, host, type) && r.id !== undefined);
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
    },

    async updateRecordSet(zone, _hostname, _type, current, address) {
      const record = asObject(current.raw);
      // The record as read, with only its destination changed (its priority and hostname kept).
      return write(
        zone.id,
        { ...record, id: current.id, destination: address, deleterecord: false },
        (r) => String(r.id) === current.id,
      );
    },

    async createRecordSet(zone, hostname, type, address) {
      const host = hostnameIn(hostname, zone.id);
      return write(
        zone.id,
        { hostname: host, type, destination: address, deleterecord: false },
        (r) => matches(r, host, type) && r.destination === address,
      );
    },

    // One record per address, and one updateDnsRecords takes every change of the set together: a
    // record whose address goes is sent back with a new destination (its id and priority kept) or
    // with `deleterecord: true`, a new address left over goes without an id. Records that stay are
    // not sent; Netcup keeps the zone's TTL for all of them.
    async writeAddressSet(zone, hostname, type, current, addresses) {
      const host = hostnameIn(hostname, zone.id);
      const records = current?.members ?? [];
      const spare = records.filter((r) => !addresses.some((address) => sameAddress(String(r.destination), address)));
      const changes: Record<string, unknown>[] = [];
      for (const address of addresses) {
        if (records.some((r) => sameAddress(String(r.destination), address))) continue;
        const reused = spare.shift();
        changes.push(
          reused === undefined
            ? { hostname: host, type, destination: address, deleterecord: false }
            : { ...reused, destination: address, deleterecord: false },
        );
      }
      for (const record of spare) changes.push({ ...record, deleterecord: true });
      if (changes.length === 0 && current !== null) return { ok: true, value: current };
      const answer = await succeed("updateDnsRecords", { domainname: zone.id, dnsrecordset: { dnsrecords: changes } });
      if (!answer.ok) return answer;
      const written = recordsOf(answer.value).filter(
        (r) => matches(r, host, type) && addresses.some((address) => sameAddress(String(r.destination), address)),
      );
      return written.length === addresses.length
        ? { ok: true, value: recordSet(written) }
        : failed(`${SERVICE}: the written records are not all in the answer`, { cause: "refused" });
    },
  };
}

/** Netcup names a session it has ended by its statuscode or, where the code differs, in its words. */
function sessionEnded(envelope: { statuscode: number; words: string }): boolean {
  return envelope.statuscode === SESSION_INVALID || /session/i.test(envelope.words);
}

/** An HTTP error (Netcup's own errors come as HTTP 200): a JSON body's `message`, if it has one. */
function readError(body: unknown): ServiceError | undefined {
  return isObject(body) && typeof body.message === "string" && body.message !== ""
    ? { words: body.message }
    : undefined;
}

/** Everything ddnsd knows about Netcup (docs/services/netcup.md). */
export const netcup = defineService({
  type: "netcup",
  label: "Netcup",
  summary:
    "Domains whose DNS is at Netcup, through the CCP DNS API with the customer number, an API key and the API password.",
  credentials: [
    {
      key: "customer_number",
      label: "Customer number",
      help: "Your Netcup customer number (Kundennummer), shown in the customer control panel next to your name.",
      url: "https://www.customercontrolpanel.de/",
      secret: false,
      validate: (value) => (/^\d+$/.test(value.trim()) ? undefined : "must be the customer number: digits only"),
    },
    {
      key: "api_key",
      label: "API key",
      help:
        "In the customer control panel: Master Data (Stammdaten) → API → create an API key. Netcup API keys are not scoped: " +
        "one can change every domain of the account, so make one for ddnsd alone and delete it when you stop using ddnsd.",
      url: "https://www.customercontrolpanel.de/daten_aendern.php?sprung=api",
      secret: true,
    },
    {
      key: "api_password",
      label: "API password",
      help: "Generated on the same API page. It is not the account password, and the account has only one: every API key uses it.",
      url: "https://www.customercontrolpanel.de/daten_aendern.php?sprung=api",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  // Netcup records have no TTL of their own: the zone's TTL (set in the control panel) applies.
  ttl: null,
  canVerify: true,
  defaultApiUrl: "https://ccp.netcup.net/run/webservice/servers/endpoint.php",
  // Netcup documents no request limit; ddnsd keeps to a gentle pace of its own.
  rateLimits: [{ requests: 2, perSeconds: 1 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, _options, context) {
    const api = createNetcupApi(
      {
        customer_number: (credentials.customer_number ?? "").trim(),
        api_key: credentials.api_key ?? "",
        api_password: credentials.api_password ?? "",
      },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
