// Cloudflare API v4 client: checks a token and points one A/AAAA record at an address with as few
// requests as it can (a single PATCH once zone and record id are known and the id is trusted, i.e.
// saved by this appliance's own write; an id a person typed in is read and checked first). It never
// deletes a record. The one write that is not checked first is the steady-state PATCH through a
// trusted id: should that record have been renamed at Cloudflare since, it gets the address once,
// and the answer (another name) sends the client to find this hostname's record by name.

import {
  exchange,
  isObject,
  notCreatedMessage,
  parseJson,
  retryAfterSeconds,
  unreadableAnswer,
  writeOutcome,
  writtenDetails,
} from "./http";
import type { DnsProvider, ProviderClientOptions, RecordTarget, WriteOutcome } from "./provider";
import { defineService } from "./service";

const SERVICE = "Cloudflare";
/** Cloudflare's limit window is five minutes; when a 429 names no wait, a minute is a polite first pause. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;
/** Code 7003: an id in the path names nothing (a deleted zone or record, or a malformed id). */
const UNROUTABLE_ID = 7003;
/** Answers meaning "the record id we remember is no longer that record". */
const STALE_RECORD_CODES = [UNROUTABLE_ID, 81044];

type Failure = { ok: false; message: string; codes: number[]; retryAfterSeconds?: number };
type Call = { ok: true; result: unknown; messages: string[] } | Failure;
type Attempt = Extract<WriteOutcome, { ok: true }> | Failure;

export function createCloudflareClient(
  credentials: { api_token: string },
  options: ProviderClientOptions,
): DnsProvider {
  async function call(method: string, path: string, body?: unknown): Promise<Call> {
    const headers: Record<string, string> = { Authorization: `Bearer ${credentials.api_token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const answer = await exchange(
      options.fetch,
      options.baseUrl + path,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
      options.timeoutMs,
    );
    if (!answer.ok) return fail(`${SERVICE}: ${answer.reason}`);
    const retryAfter =
      retryAfterSeconds(answer.headers) ??
      (answer.status === 429 ? DEFAULT_RETRY_AFTER_SECONDS : undefined);
    const envelope = parseJson(answer.text);
    if (!isObject(envelope)) {
      return fail(`${SERVICE}: ${unreadableAnswer(answer.status, answer.text)}`, [], retryAfter);
    }
    if (envelope.success === true && answer.status < 400) {
      return { ok: true, result: envelope.result, messages: messagesOf(envelope.messages) };
    }
    const errors = Array.isArray(envelope.errors) ? envelope.errors.filter(isObject) : [];
    const codes = errors.map((e) => e.code).filter((c): c is number => typeof c === "number");
    const text = errors.map((e) => String(e.message ?? "")).filter(Boolean).join("; ") || "request failed";
    const codeText = codes.length > 0 ? `code ${codes.join(", ")}, ` : "";
    return fail(`${SERVICE}: ${text} (${codeText}HTTP ${answer.status})`, codes, retryAfter);
  }

  /** The longest active zone that is the hostname or one of its parents (never the bare TLD). */
  async function findZone(hostname: string): Promise<{ ok: true; zoneId: string } | Failure> {
    const labels = hostname.split(".");
    for (let i = 0; i < labels.length - 1; i++) {
      const suffix = labels.slice(i).join(".");
      const zones = await call("GET", `/zones?${new URLSearchParams({ name: suffix, per_page: "50" })}`);
      if (!zones.ok) return zones;
      const zone = listOf(zones.result).find(
        (z) => z.name === suffix && z.status === "active" && typeof z.id === "string",
      );
      if (zone) return { ok: true, zoneId: zone.id as string };
    }
    return fail(`${SERVICE}: no active zone found for ${hostname}`);
  }

  /** Null when the zone is the hostname or one of its parents; else why it cannot be used. */
  async function zoneHolds(zoneId: string, hostname: string): Promise<Failure | null> {
    const zone = await call("GET", `/zones/${encodeURIComponent(zoneId)}`);
    if (!zone.ok) return zone;
    const name = isObject(zone.result) && typeof zone.result.name === "string" ? zone.result.name : "";
    if (hostname === name || hostname.endsWith(`.${name}`)) return null;
    return fail(`${SERVICE}: zone ${zoneId} is ${name || "unnamed"}, which does not hold ${hostname}; correct config.zone_id or remove it`);
  }

  async function patchRecord(zoneId: string, recordId: string, target: RecordTarget, ip: string): Promise<Call> {
    // Only the content changes; proxied and ttl are sent only when the domain's config decides them,
    // so whatever else the user set on the record (comment, tags, proxying) stays.
    const body: Record<string, unknown> = { content: ip };
    if (typeof target.config.proxied === "boolean") body.proxied = target.config.proxied;
    if (typeof target.config.ttl === "number") body.ttl = target.config.ttl;
    return call("PATCH", `${recordsPath(zoneId)}/${encodeURIComponent(recordId)}`, body);
  }

  async function writeInZone(zoneId: string, target: RecordTarget, ip: string): Promise<Attempt> {
    const success = (action: "updated" | "created", externalId: string, record: unknown): Attempt => ({
      ok: true,
      action,
      externalId,
      zoneId,
      message: recordDetails(externalId, record),
    });

    if (target.externalId) {
      if (target.externalIdTrusted) {
        // Saved by this appliance's own write of this record: a single PATCH, the steady state.
        const patched = await patchRecord(zoneId, target.externalId, target, ip);
        if (patched.ok && isTheRecord(patched.result, target)) return success("updated", target.externalId, patched.result);
        if (!patched.ok && !isStale(patched)) return patched;
        // The id is gone, or (renamed at Cloudflare since) names another record now: find this one by name, once.
      } else {
        // Typed in by a person, or left from before the record's identity changed: it may name any
        // record of the account, so it is read first, and written through only when it is this
        // hostname and type. Anything else is left exactly as it is.
        const read = await call("GET", `${recordsPath(zoneId)}/${encodeURIComponent(target.externalId)}`);
        if (read.ok && isTheRecord(read.result, target)) {
          const patched = await patchRecord(zoneId, target.externalId, target, ip);
          return patched.ok ? success("updated", target.externalId, patched.result) : patched;
        }
        if (!read.ok && !isStale(read)) return read;
        // An unknown id, or another record's: find this one by name instead.
      }
    }

    const query = new URLSearchParams({ type: target.recordType, name: target.hostname, per_page: "100" });
    const listed = await call("GET", `${recordsPath(zoneId)}?${query}`);
    if (!listed.ok) return listed;
    const existing = listOf(listed.result).find(
      (r) => isTheRecord(r, target) && typeof r.id === "string",
    );
    if (existing) {
      const patched = await patchRecord(zoneId, existing.id as string, target, ip);
      return patched.ok ? success("updated", existing.id as string, patched.result) : patched;
    }

    if (target.config.create_if_missing === false) {
      return fail(notCreatedMessage(SERVICE, target));
    }
    // A zone id given in the config (not found by this client) is checked to hold the hostname
    // before a record is created in it: Cloudflare would append that zone's name to a foreign one.
    if (target.config.zone_id === zoneId) {
      const held = await zoneHolds(zoneId, target.hostname);
      if (held !== null) return held;
    }
    const created = await call("POST", recordsPath(zoneId), {
      type: target.recordType,
      name: target.hostname,
      content: ip,
      ttl: typeof target.config.ttl === "number" ? target.config.ttl : 1,
      proxied: typeof target.config.proxied === "boolean" ? target.config.proxied : false,
    });
    if (!created.ok) return created;
    if (!isObject(created.result) || typeof created.result.id !== "string") {
      return fail(`${SERVICE}: the created record came back without an id`);
    }
    return success("created", created.result.id, created.result);
  }

  return {
    async verify() {
      const answer = await call("GET", "/user/tokens/verify");
      if (!answer.ok) return { ok: false, detail: answer.message };
      const status = isObject(answer.result) ? answer.result.status : undefined;
      if (status !== "active") return { ok: false, detail: `${SERVICE}: the token is ${String(status)}, not active` };
      return { ok: true, detail: answer.messages[0] ?? "The API token is active" };
    },

    async writeRecord(target, ip) {
      const configuredZone = typeof target.config.zone_id === "string" && target.config.zone_id !== ""
        ? target.config.zone_id
        : undefined;
      let zoneId = configuredZone;
      if (zoneId === undefined) {
        const found = await findZone(target.hostname);
        if (!found.ok) return writeOutcome(found);
        zoneId = found.zoneId;
      }
      const attempt = await writeInZone(zoneId, target, ip);
      // A record-level 7003 is handled inside writeInZone, so one left over means the zone id itself
      // is stale (the zone was deleted and re-added): rediscover the zone once and start afresh there.
      if (attempt.ok || configuredZone === undefined || !attempt.codes.includes(UNROUTABLE_ID)) {
        return writeOutcome(attempt);
      }
      const found = await findZone(target.hostname);
      if (!found.ok) return writeOutcome(found);
      if (found.zoneId === configuredZone) return writeOutcome(attempt);
      return writeOutcome(await writeInZone(found.zoneId, { ...target, externalId: null }, ip));
    },
  };
}

function recordsPath(zoneId: string): string {
  return `/zones/${encodeURIComponent(zoneId)}/dns_records`;
}

/** A failure meaning "the record id we hold names nothing (any more)". */
function isStale(failure: Failure): boolean {
  return failure.codes.some((code) => STALE_RECORD_CODES.includes(code));
}

/** The success message: the record's id and the proxying and ttl it has now (the updater says the rest). */
function recordDetails(id: string, record: unknown): string {
  const facts: string[] = [];
  if (isObject(record)) {
    if (typeof record.ttl === "number") facts.push(record.ttl === 1 ? "ttl auto" : `ttl ${record.ttl}`);
    if (typeof record.proxied === "boolean") facts.push(record.proxied ? "proxied" : "not proxied");
  }
  return writtenDetails(SERVICE, `record ${id}`, facts);
}

function isTheRecord(record: unknown, target: RecordTarget): record is Record<string, unknown> {
  return isObject(record) && record.name === target.hostname && record.type === target.recordType;
}

function listOf(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? result.filter(isObject) : [];
}

function messagesOf(messages: unknown): string[] {
  return listOf(messages)
    .map((m) => m.message)
    .filter((m): m is string => typeof m === "string");
}

function fail(message: string, codes: number[] = [], retryAfter?: number): Failure {
  return retryAfter === undefined
    ? { ok: false, message, codes }
    : { ok: false, message, codes, retryAfterSeconds: retryAfter };
}

/** Everything ddnsd knows about Cloudflare (PROVIDERS.md "Cloudflare"). */
export const cloudflare = defineService({
  type: "cloudflare",
  label: "Cloudflare",
  summary: "Records in a zone hosted at Cloudflare, changed through its API v4 with a scoped API token.",
  credentials: [
    {
      key: "api_token",
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
  createClient: (credentials, _options, context) => createCloudflareClient({ api_token: credentials.api_token ?? "" }, context),
});
