// OVHcloud API v1 (docs/services/ovh.md): the zone service primitives. Every call is signed with the
// application key, application secret and consumer key: "$1$" + SHA-1 hex of secret, consumer key,
// method, full URL, body and timestamp joined with "+", the timestamp being OVH's clock (learnt once
// per client from the unsigned `GET /auth/time`). A zone's name is its id. A record set is read as
// the ids `GET …/record?fieldType=&subDomain=` names, then each record; a change is a `PUT` of the
// target alone (so the TTL stays) followed by `POST …/refresh`, without which OVH does not publish it.
//
// A refresh that fails leaves a change written but unpublished, and the next pass would find the
// record already holding the address and never refresh: so the zone is remembered (in memory, for
// the life of the process) and refreshed before anything else is read in it, until a refresh
// succeeds.
//
// Requests per write, with the zone known (config.zone_id) — the steady state:
//   auth/time + record ids + the record + PUT + refresh = 5 (3 when the address is already there)
//
// Sources: the OVHcloud API guide ("First steps with the OVHcloud APIs") and console; the official
// SDK ovh/go-ovh (the signer and its test vectors); qdm12/ddns-updater providers/ovh; lego ovh.

import { createHash } from "node:crypto";
import { sentJson } from "../../net/http";
import { isObject } from "../../util/json";
import { plural } from "../../util/plural";
import { failed, type JsonAnswer, requestJson, type ServiceError } from "../answers";
import type { Step } from "../provider";
import { type RecordSet, recordSetOf, type TxtApi, type ZoneApi, zoneClient, zonesNamed } from "../reconcile";
import { writePerAddress } from "../record-per-address";
import { type ClientContext, defineService, ttlRange } from "../service";
import { CHALLENGE_TTL, txtRecords, unquotedTxt } from "../txt";
import { failedCheck, relativeName } from "../zones";

const SERVICE = "OVH";

interface Credentials {
  application_key: string;
  application_secret: string;
  consumer_key: string;
}

/** OVH's request signature (the official SDKs' algorithm). */
export function ovhSignature(
  secret: string,
  consumerKey: string,
  method: string,
  url: string,
  body: string,
  timestamp: number,
): string {
  return `$1$${createHash("sha1")
    .update([secret, consumerKey, method, url, body, String(timestamp)].join("+"))
    .digest("hex")}`;
}

/**
 * The zones holding a change OVH has not published (its refresh failed), by account and zone. A
 * client is built for each write, so this outlives them; the key holds a digest, never a key itself.
 */
const unpublished = new Set<string>();

export function createOvhApi(credentials: Credentials, context: ClientContext): ZoneApi & { txt: TxtApi } {
  const account = createHash("sha256")
    .update([context.baseUrl, credentials.application_key, credentials.consumer_key].join("\n"))
    .digest("hex");
  const pendingKey = (zone: string) => `${account} ${zone}`;
  /** OVH's clock minus this machine's, in seconds: signatures carry OVH's time. */
  let clockDelta: number | undefined;

  async function serverClock(): Promise<Step<number>> {
    if (clockDelta !== undefined) return { ok: true, value: clockDelta };
    const answer = await requestJson(context, SERVICE, { method: "GET", path: "/auth/time", headers: {} }, readError);
    if (!answer.ok) return answer;
    if (typeof answer.value.body !== "number")
      return failed(`${SERVICE}: /auth/time answered no time`, { cause: "unreachable" });
    clockDelta = answer.value.body - Math.floor(Date.now() / 1000);
    return { ok: true, value: clockDelta };
  }

  async function call(method: string, path: string, body?: unknown): Promise<Step<JsonAnswer>> {
    const delta = await serverClock();
    if (!delta.ok) return delta;
    const timestamp = Math.floor(Date.now() / 1000) + delta.value;
    const signature = ovhSignature(
      credentials.application_secret,
      credentials.consumer_key,
      method,
      context.baseUrl + path,
      sentJson(body),
      timestamp,
    );
    const headers = {
      "X-Ovh-Application": credentials.application_key,
      "X-Ovh-Consumer": credentials.consumer_key,
      "X-Ovh-Timestamp": String(timestamp),
      "X-Ovh-Signature": signature,
    };
    return requestJson(context, SERVICE, { method, path, headers, body }, readError);
  }

  const zonePath = (zone: string) => `/domain/zone/${encodeURIComponent(zone)}`;

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "target"), members: records };
  }

  /** Publishes the zone's changes; a change not refreshed is not served, so a failed refresh is remembered. */
  async function refresh(zone: string): Promise<Step<null>> {
    const answer = await call("POST", `${zonePath(zone)}/refresh`);
    if (!answer.ok) {
      unpublished.add(pendingKey(zone));
      return {
        ...answer,
        message: `${answer.message}; the change is written but not published: the zone is refreshed again on the next attempt`,
      };
    }
    unpublished.delete(pendingKey(zone));
    return { ok: true, value: null };
  }

  /** The records of one name and type, each read by id (OVH lists ids only). */
  async function recordsOf(zone: string, hostname: string, type: string): Promise<Step<Record<string, unknown>[]>> {
    // A change an earlier refresh left unpublished is published first, whatever this write finds.
    if (unpublished.has(pendingKey(zone))) {
      const published = await refresh(zone);
      if (!published.ok) return published;
    }
    const subDomain = relativeName(hostname, zone);
    const query = new URLSearchParams({ fieldType: type, subDomain }).toString();
    const ids = await call("GET", `${zonePath(zone)}/record?${query}`);
    // A zone in the config that left the account: looked up afresh, once.
    if (!ids.ok) return ids.status === 404 ? { ...ids, staleZone: true } : ids;
    const records: Record<string, unknown>[] = [];
    for (const id of Array.isArray(ids.value.body) ? ids.value.body : []) {
      const read = await call("GET", `${zonePath(zone)}/record/${encodeURIComponent(String(id))}`);
      if (!read.ok) return read;
      const record = read.value.body;
      // Checked here too: whether OVH filters `subDomain=` for the apex is not documented.
      if (isObject(record) && record.fieldType === type && String(record.subDomain ?? "").toLowerCase() === subDomain)
        records.push(record);
    }
    return { ok: true, value: records };
  }

  /** A record created or deleted, then the zone refreshed so that the change is served. */
  async function published(zone: string, written: Step<JsonAnswer>): Promise<Step<null>> {
    return written.ok ? refresh(zone) : written;
  }

  // One record per value, its target the text itself; each change is published by a refresh.
  const txt = txtRecords({
    async list(zone, name) {
      const records = await recordsOf(zone.id, name, "TXT");
      if (!records.ok) return records;
      return { ok: true, value: records.value.map((r) => ({ id: String(r.id), value: unquotedTxt(r.target) })) };
    },
    create: async (zone, name, value) =>
      published(
        zone.id,
        await call("POST", `${zonePath(zone.id)}/record`, {
          fieldType: "TXT",
          subDomain: relativeName(name, zone.id),
          target: value,
          ttl: CHALLENGE_TTL,
        }),
      ),
    delete: async (zone, record) =>
      published(zone.id, await call("DELETE", `${zonePath(zone.id)}/record/${encodeURIComponent(record.id)}`)),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await call("GET", "/domain/zone");
      if (!answer.ok) return failedCheck(answer);
      const count = Array.isArray(answer.value.body) ? answer.value.body.length : 0;
      return { ok: true, detail: `Keys accepted (${plural(count, "zone")})` };
    },

    async listZones() {
      const listed = await call("GET", "/domain/zone");
      if (!listed.ok) return listed;
      const names = Array.isArray(listed.value.body)
        ? listed.value.body.filter((n): n is string => typeof n === "string")
        : [];
      return { ok: true, value: zonesNamed(names) };
    },

    async readRecordSet(zone, hostname, type) {
      const records = await recordsOf(zone.id, hostname, type);
      if (!records.ok) return records;
      return { ok: true, value: records.value.length === 0 ? null : recordSet(records.value) };
    },

    async updateRecordSet(zone, _hostname, _type, current, address, settings) {
      // Only what changes is sent: OVH keeps the rest (the TTL, unless the config names one).
      const put = await call("PUT", `${zonePath(zone.id)}/record/${encodeURIComponent(current.id)}`, {
        target: address,
        ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
      });
      if (!put.ok) return put;
      const published = await refresh(zone.id);
      if (!published.ok) return published;
      const ttl = settings.ttl ?? current.ttl;
      return { ok: true, value: { id: current.id, values: [address], ...(ttl === undefined ? {} : { ttl }) } };
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const created = await call("POST", `${zonePath(zone.id)}/record`, {
        fieldType: type,
        subDomain: relativeName(hostname, zone.id),
        target: address,
        ttl: settings.ttl ?? 0,
      });
      if (!created.ok) return created;
      const record = created.value.body;
      if (!isObject(record) || record.id === undefined)
        return failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
      const published = await refresh(zone.id);
      return published.ok ? { ok: true, value: recordSet([record]) } : published;
    },

    // One record per address: only the difference is sent (a record whose address goes PUT to hold
    // a new one, its TTL kept), then one refresh publishes every change of the set together. A
    // failure midway leaves the changes before it written: the zone is refreshed on the next attempt.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      let changed = false;
      const changing = async (answer: Step<JsonAnswer>): Promise<Step<JsonAnswer>> => {
        if (answer.ok) changed = true;
        return answer;
      };
      const result = await writePerAddress(current?.members ?? [], addresses, {
        address: (record) => String(record.target),
        stale: (record) => settings.ttl !== undefined && record.ttl !== settings.ttl,
        async edit(record, address) {
          const ttl = settings.ttl === undefined ? {} : { ttl: settings.ttl };
          const put = await changing(
            await call("PUT", `${zonePath(zone.id)}/record/${encodeURIComponent(String(record.id))}`, {
              target: address,
              ...ttl,
            }),
          );
          return put.ok ? { ok: true, value: { ...record, target: address, ...ttl } } : put;
        },
        async create(address) {
          const created = await changing(
            await call("POST", `${zonePath(zone.id)}/record`, {
              fieldType: type,
              subDomain: relativeName(hostname, zone.id),
              target: address,
              ttl: settings.ttl ?? current?.ttl ?? 0,
            }),
          );
          if (!created.ok) return created;
          const record = created.value.body;
          return isObject(record) && record.id !== undefined
            ? { ok: true, value: record }
            : failed(`${SERVICE}: the created record came back without an id`, { cause: "refused" });
        },
        delete: async (record) =>
          changing(await call("DELETE", `${zonePath(zone.id)}/record/${encodeURIComponent(String(record.id))}`)),
      });
      if (!result.ok) {
        if (changed) unpublished.add(pendingKey(zone.id));
        return result;
      }
      const published = changed ? await refresh(zone.id) : ({ ok: true, value: null } as const);
      return published.ok ? { ok: true, value: recordSet(result.value) } : published;
    },

    describe(set) {
      return set.ttl === undefined ? [] : [set.ttl === 0 ? "ttl zone default" : `ttl ${set.ttl}`];
    },
  };
}

/**
 * OVH's error body: `{"message"}`. Refused keys (401, 403: an unknown or expired consumer key, a
 * call its access rules do not grant) and a bad signature (400 "Invalid signature") only come right
 * when the provider is edited.
 */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body) || typeof body.message !== "string" || body.message === "") return undefined;
  const keys =
    status === 401 || status === 403 || /invalid signature|invalid application key|credential/i.test(body.message);
  return { words: body.message, ...(keys ? { cause: "credentials" as const, stopRetrying: true } : {}) };
}

/** Everything ddnsd knows about OVH (docs/services/ovh.md). */
export const ovh = defineService({
  type: "ovh",
  label: "OVHcloud",
  summary:
    "Zones in OVHcloud's DNS, through the OVHcloud API v1 with an application key and secret and a consumer key.",
  credentials: [
    {
      key: "application_key",
      label: "Application key",
      help:
        "Make all three keys at once at eu.api.ovh.com/createToken (ca.api.ovh.com or api.us.ovhcloud.com for those accounts), with only these rights: " +
        "GET /domain/zone, GET /domain/zone/*, PUT /domain/zone/*, POST /domain/zone/*. Validity: Unlimited.",
      url: "https://eu.api.ovh.com/createToken/",
      secret: false,
    },
    {
      key: "application_secret",
      label: "Application secret",
      help: "Shown beside the application key when the keys are made.",
      url: "https://eu.api.ovh.com/createToken/",
      secret: true,
    },
    {
      key: "consumer_key",
      label: "Consumer key",
      help: "Shown with the other two; it carries the rights chosen for it.",
      url: "https://eu.api.ovh.com/createToken/",
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: ttlRange(60, 86400, undefined, { automatic: { value: 0, meaning: "the zone's default" } }),
  canVerify: true,
  defaultApiUrl: "https://eu.api.ovh.com/1.0",
  // OVH documents no request limit for these calls; ddnsd keeps to a gentle pace of its own.
  rateLimits: [{ requests: 5, perSeconds: 1 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient(credentials, _options, context) {
    const api = createOvhApi(
      {
        application_key: credentials.application_key ?? "",
        application_secret: credentials.application_secret ?? "",
        consumer_key: credentials.consumer_key ?? "",
      },
      context,
    );
    return zoneClient(api, api.txt);
  },
});
