// Cloudflare API v4 (docs/services/cloudflare.md): the zone service primitives over its JSON
// envelope (`{success, errors, messages, result}`). The reconciler decides what to write; this
// module only knows how Cloudflare names zones and records and how it says no.

import { asObject, isObject, objectsIn } from "../../util/json";
import { failed, requestJson, type ServiceError } from "../answers";
import { paginate } from "../paging";
import type { Step } from "../provider";
import { type DesiredSettings, type RecordSet, recordSetOf, type TxtApi, type ZoneApi, zoneClient } from "../reconcile";
import { type ClientContext, defineService } from "../service";
import { CHALLENGE_TTL, quotedTxt, txtRecords, unquotedTxt } from "../txt";
import { candidateZones, failedCheck, sameAddress } from "../zones";

const SERVICE = "Cloudflare";
/** Codes meaning the token itself is refused (an invalid, expired or revoked token). */
const CREDENTIAL_CODES = [9103, 9106, 9109, 10000];
/** An id in the path names nothing: under a zone id from the config, the zone is gone. */
const UNROUTABLE_ID = 7003;

export function createCloudflareApi(
  credentials: { api_token: string },
  context: ClientContext,
): ZoneApi & { txt: TxtApi } {
  /** One call's `result`; a 2xx whose envelope says `success: false` is a refusal too. */
  async function call(method: string, path: string, body?: unknown): Promise<Step<unknown>> {
    const answer = await envelope(method, path, body);
    return answer.ok ? { ok: true, value: answer.value.result } : answer;
  }

  async function envelope(method: string, path: string, body?: unknown): Promise<Step<Record<string, unknown>>> {
    const answer = await requestJson(
      context,
      SERVICE,
      { method, path, headers: { Authorization: `Bearer ${credentials.api_token}` }, body },
      readError,
    );
    if (!answer.ok) return answer;
    const envelope = answer.value.body;
    if (isObject(envelope) && envelope.success === true) return { ok: true, value: envelope };
    const error = readError(envelope, answer.value.status);
    return failed(
      `${SERVICE}: ${error?.words ?? "the answer did not say it succeeded"} (HTTP ${answer.value.status})`,
      { cause: error?.cause ?? "refused" },
    );
  }

  const recordsPath = (zoneId: string) => `/zones/${encodeURIComponent(zoneId)}/dns_records`;

  function recordSet(records: Record<string, unknown>[]): RecordSet {
    return { ...recordSetOf(records, "content"), members: records };
  }

  /** Only what the config decides is sent besides the address, so comment, tags and the rest stay. */
  function changes(settings: DesiredSettings): Record<string, unknown> {
    return {
      ...(settings.ttl === undefined ? {} : { ttl: settings.ttl }),
      ...(settings.proxied === undefined ? {} : { proxied: settings.proxied }),
    };
  }

  // One record per value: adding creates one, removing deletes exactly the one holding the value.
  const txt = txtRecords({
    async list(zone, name) {
      const listed = await call(
        "GET",
        `${recordsPath(zone.id)}?${new URLSearchParams({ type: "TXT", name, per_page: "100" })}`,
      );
      if (!listed.ok) return listed;
      const records = listOf(listed.value).filter(
        (r) => r.name === name && r.type === "TXT" && typeof r.id === "string",
      );
      return { ok: true, value: records.map((r) => ({ id: String(r.id), value: unquotedTxt(r.content) })) };
    },
    create: (zone, name, value) =>
      call("POST", recordsPath(zone.id), { type: "TXT", name, content: quotedTxt(value), ttl: CHALLENGE_TTL }),
    delete: (zone, record) => call("DELETE", `${recordsPath(zone.id)}/${encodeURIComponent(record.id)}`),
  });

  return {
    service: SERVICE,
    txt,

    async verify() {
      const answer = await envelope("GET", "/user/tokens/verify");
      if (!answer.ok) return failedCheck(answer);
      const { result, messages } = answer.value;
      const status = isObject(result) ? result.status : undefined;
      if (status !== "active") return { ok: false, detail: `${SERVICE}: the token is ${String(status)}, not active` };
      const said = listOf(messages)
        .map((m) => m.message)
        .find((m) => typeof m === "string");
      return { ok: true, detail: typeof said === "string" ? said : "The API token is active" };
    },

    async findZone(hostname, configured) {
      // A configured id is used as it is; were the zone gone, the records call says so (staleZone).
      if (configured !== undefined) return { ok: true, value: { id: configured, name: null } };
      // Longest first: a delegated `b.example.com` zone holds `a.b.example.com`, not `example.com`.
      for (const name of candidateZones(hostname)) {
        const zones = await call("GET", `/zones?${new URLSearchParams({ name, per_page: "50" })}`);
        if (!zones.ok) return zones;
        const zone = listOf(zones.value).find(
          (z) => z.name === name && typeof z.id === "string" && (z.status === "active" || z.status === "pending"),
        );
        if (zone) {
          const note =
            zone.status === "pending"
              ? `zone ${name} is still pending at Cloudflare (its name servers are not switched yet), so the record is not served until it is active`
              : undefined;
          return { ok: true, value: { id: zone.id as string, name, ...(note ? { note } : {}) } };
        }
      }
      return failed(`${SERVICE}: no active zone found for ${hostname}`, { cause: "refused" });
    },

    // Every zone of the account, 50 a page: the domain form's choices for the hostname. A record's own
    // zone is found by findZone, one name at a time, which asks for less.
    async listZones() {
      return paginate(async (page) => {
        const query = new URLSearchParams({ page: String(page ?? 1), per_page: "50" });
        const answer = await envelope("GET", `/zones?${query}`);
        if (!answer.ok) return answer;
        const zones = listOf(answer.value.result).filter(
          (z) =>
            typeof z.id === "string" && typeof z.name === "string" && (z.status === "active" || z.status === "pending"),
        );
        const info = asObject(answer.value.result_info);
        const current = Number(info.page ?? page ?? 1);
        return {
          ok: true,
          value: {
            items: zones.map((z) => ({ id: z.id as string, name: (z.name as string).toLowerCase() })),
            next: current < Number(info.total_pages ?? 1) ? current + 1 : undefined,
          },
        };
      });
    },

    async zoneName(zoneId) {
      const zone = await call("GET", `/zones/${encodeURIComponent(zoneId)}`);
      if (!zone.ok) return zone;
      return {
        ok: true,
        value: isObject(zone.value) && typeof zone.value.name === "string" ? zone.value.name.toLowerCase() : "",
      };
    },

    async readRecordSet(zone, hostname, type) {
      const query = new URLSearchParams({ type, name: hostname, per_page: "100" });
      const listed = await call("GET", `${recordsPath(zone.id)}?${query}`);
      if (!listed.ok) return listed;
      const records = listOf(listed.value).filter(
        (r) => r.name === hostname && r.type === type && typeof r.id === "string",
      );
      return { ok: true, value: records.length === 0 ? null : recordSet(records) };
    },

    async updateRecordSet(zone, hostname, type, current, address, settings) {
      const patched = await call("PATCH", `${recordsPath(zone.id)}/${encodeURIComponent(current.id)}`, {
        type,
        name: hostname,
        content: address,
        ...changes(settings),
      });
      return patched.ok && isObject(patched.value) ? { ok: true, value: recordSet([patched.value]) } : written(patched);
    },

    async createRecordSet(zone, hostname, type, address, settings) {
      const created = await call("POST", recordsPath(zone.id), {
        type,
        name: hostname,
        content: address,
        ttl: settings.ttl ?? 1,
        proxied: settings.proxied ?? false,
      });
      if (created.ok && isObject(created.value) && typeof created.value.id === "string")
        return { ok: true, value: recordSet([created.value]) };
      return written(created);
    },

    // One record per address: a record whose address stays is kept (patched only when the config
    // asks for another TTL or proxying), one whose address goes is reused for a new address (its
    // comment and tags stay) or deleted, and a new address left over gets a record of its own with
    // the set's TTL and proxying.
    async writeAddressSet(zone, hostname, type, current, addresses, settings) {
      const records = current?.members ?? [];
      const first = asObject(records[0]);
      const kept: Record<string, unknown>[] = [];
      const spare = records.filter(
        (record) => !addresses.some((address) => sameAddress(String(record.content), address)),
      );
      for (const address of addresses) {
        const holding = records.find((record) => sameAddress(String(record.content), address));
        const path = (record: Record<string, unknown>) =>
          `${recordsPath(zone.id)}/${encodeURIComponent(String(record.id))}`;
        if (holding !== undefined && settingsHold(holding, settings) && ttlHolds(holding, settings)) {
          kept.push(holding);
          continue;
        }
        const reused = holding ?? spare.shift();
        const answer =
          reused === undefined
            ? await call("POST", recordsPath(zone.id), {
                type,
                name: hostname,
                content: address,
                ttl: settings.ttl ?? (typeof first.ttl === "number" ? first.ttl : 1),
                proxied: settings.proxied ?? first.proxied === true,
              })
            : await call("PATCH", path(reused), { type, name: hostname, content: address, ...changes(settings) });
        if (!answer.ok || !isObject(answer.value) || typeof answer.value.id !== "string") return written(answer);
        kept.push(answer.value);
      }
      for (const record of spare) {
        const deleted = await call("DELETE", `${recordsPath(zone.id)}/${encodeURIComponent(String(record.id))}`);
        if (!deleted.ok) return deleted;
      }
      return { ok: true, value: recordSet(kept) };
    },

    describe(set) {
      const record = asObject(set.raw);
      const facts: string[] = [];
      if (typeof record.ttl === "number") facts.push(record.ttl === 1 ? "ttl auto" : `ttl ${record.ttl}`);
      if (typeof record.proxied === "boolean") facts.push(record.proxied ? "proxied" : "not proxied");
      return facts;
    },

    settingsHold(set, settings) {
      return !isObject(set.raw) || settingsHold(set.raw, settings);
    },
  };
}

/** Whether one record has the proxying the config asks for (or the config asks for none). */
function settingsHold(record: Record<string, unknown>, settings: DesiredSettings): boolean {
  return settings.proxied === undefined || record.proxied === settings.proxied;
}

/** Whether one record has the TTL the config asks for (or the config asks for none). */
function ttlHolds(record: Record<string, unknown>, settings: DesiredSettings): boolean {
  return settings.ttl === undefined || record.ttl === settings.ttl;
}

/** A write's answer that is not a record: its failure, or a failure saying what was missing. */
function written(answer: Step<unknown>): Step<RecordSet> {
  return answer.ok ? failed(`${SERVICE}: the written record came back without an id`, { cause: "refused" }) : answer;
}

/** Cloudflare's error envelope: its messages and codes, and what the codes mean. */
function readError(body: unknown, status: number): ServiceError | undefined {
  if (!isObject(body)) return undefined;
  const errors = objectsIn(body.errors);
  const codes = errors.map((e) => e.code).filter((c): c is number => typeof c === "number");
  const words =
    errors
      .map((e) => String(e.message ?? ""))
      .filter(Boolean)
      .join("; ") || "request failed";
  return {
    words,
    ...(codes.length > 0 ? { code: `code ${codes.join(", ")}` } : {}),
    ...(status < 500 && codes.some((code) => CREDENTIAL_CODES.includes(code)) ? { cause: "credentials" as const } : {}),
    ...(status < 500 && codes.includes(UNROUTABLE_ID) ? { staleZone: true } : {}),
  };
}

function listOf(result: unknown): Record<string, unknown>[] {
  return objectsIn(result);
}

/** Everything ddnsd knows about Cloudflare (docs/services/cloudflare.md). */
export const cloudflare = defineService({
  type: "cloudflare",
  label: "Cloudflare",
  summary: "Records in a zone hosted at Cloudflare, changed through its API v4 with a scoped API token.",
  credentials: [
    {
      key: "api_token",
      url: "https://dash.cloudflare.com/profile/api-tokens",
      label: "API token",
      help:
        "In the Cloudflare dashboard: My Profile → API Tokens → Create Token. Give the token Zone : DNS : Edit " +
        "(and Zone : Zone : Read) for the zones of your domains.",
      aliases: ["token"],
      secret: true,
    },
  ],
  options: [],
  recordTypes: ["A", "AAAA"],
  ttl: {
    min: 60,
    max: 86400,
    automatic: 1,
    help: "Seconds (60–86400), or 1 for automatic. Empty keeps the record's TTL (automatic for a new record).",
  },
  proxy: { label: "Cloudflare proxy", help: "Proxied traffic goes through Cloudflare (orange cloud)." },
  canVerify: true,
  defaultApiUrl: "https://api.cloudflare.com/client/v4",
  // 1200 requests per 5 minutes per token; beyond it every call is refused for 5 minutes.
  rateLimits: [{ requests: 1200, perSeconds: 300 }],
  holdsTxt: true,
  holdsAddressSets: true,
  createClient: (credentials, _options, context) => {
    const api = createCloudflareApi({ api_token: credentials.api_token ?? "" }, context);
    return zoneClient(api, api.txt);
  },
});
