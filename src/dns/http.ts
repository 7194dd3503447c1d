// What the provider clients (and IP detection) share: one request with a deadline, read to text, with
// every way it can fail turned into a sentence — callers report reasons, they never throw — and the
// wording of their outcomes.

import type { FetchLike, RecordTarget, WriteOutcome } from "./provider";

export type Exchange =
  | { ok: true; status: number; headers: Headers; text: string }
  | { ok: false; reason: string };

/** Sends one request and reads its whole body before `timeoutMs` runs out. */
export async function exchange(
  fetch: FetchLike,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<Exchange> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    // The deadline covers the body too: a server that sends headers and then stalls is as dead as a silent one.
    const text = await response.text();
    return { ok: true, status: response.status, headers: response.headers, text };
  } catch (error) {
    return { ok: false, reason: describeFetchError(error, timeoutMs) };
  }
}

/** Where a client sends its requests: its `ClientContext` (the first wave's clients name no User-Agent). */
export interface JsonApi {
  fetch: FetchLike;
  baseUrl: string;
  timeoutMs: number;
  userAgent?: string;
}

/**
 * One request to a JSON API, `path` below its base: `headers` (the credentials) with `Accept`, the
 * client's `User-Agent` and, when there is a body, the body as JSON with its `Content-Type`.
 */
export function exchangeJson(api: JsonApi, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Exchange> {
  return exchange(
    api.fetch,
    api.baseUrl + path,
    {
      method,
      headers: {
        ...headers,
        Accept: "application/json",
        ...(api.userAgent === undefined ? {} : { "User-Agent": api.userAgent }),
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    api.timeoutMs,
  );
}

/**
 * Thrown by a `fetch` that decided not to send the request at all (its provider was paused while it
 * waited its turn); its message is the whole reason.
 */
export class NotSent extends Error {}

function describeFetchError(error: unknown, timeoutMs: number): string {
  if (error instanceof NotSent) return error.message;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${formatMs(timeoutMs)}`;
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `request failed: ${error.message}${typeof code === "string" ? ` (${code})` : ""}`;
  }
  return `request failed: ${String(error)}`;
}

/** Milliseconds for a person: `10000` → "10s", `1500` → "1.5s", `200` → "200ms". */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Number((ms / 1000).toFixed(1))}s`;
}

/** The parsed body, or `undefined` when it is not JSON (an HTML error page, a truncated answer). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The start of a body on one line, quoted, for messages about answers that made no sense. */
export function excerpt(text: string, max = 60): string {
  const line = text.replace(/\s+/g, " ").trim();
  return `"${line.length > max ? `${line.slice(0, max)}…` : line}"`;
}

export function unreadableAnswer(status: number, text: string): string {
  return text.trim() === ""
    ? `empty answer (HTTP ${status})`
    : `unreadable answer (HTTP ${status}): ${excerpt(text)}`;
}

/** `Retry-After` in seconds (the header holds seconds or an HTTP date); `undefined` when absent or unreadable. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * A successful outcome's message: which object at the service holds the address now and what it
 * kept, e.g. "Cloudflare record 3f9a…, ttl auto, proxied". The updater puts it after its own
 * "Updated home.example.com A → 203.0.113.7", so it never repeats the name, type, address or action.
 */
export function writtenDetails(service: string, object: string, facts: string[]): string {
  return [`${service} ${object}`, ...facts].join(", ");
}

/** Why a missing record was left missing. */
export function notCreatedMessage(service: string, target: RecordTarget): string {
  return `${service}: record ${target.hostname} ${target.recordType} does not exist and create_if_missing is false`;
}

/**
 * The longest pause a "slow down" answer can impose: a daily quota's wait can be hours, and a garbled
 * or hostile `Retry-After` must not stop updates for days; one early request after the cap costs nothing.
 */
export const MAX_PAUSE_SECONDS = 3600;
/** A "slow down" that names no wait: a minute is a polite first pause. */
export const DEFAULT_PAUSE_SECONDS = 60;

/** What a failure's message adds when the provider is paused for it: the history says how long. */
export function pausing(seconds: number): string {
  return `; pausing ${seconds} s`;
}

/**
 * How long to pause a provider that said "slow down": the wait it named (`Retry-After`, a reset
 * time), else `fallback`, at least a second and never more than the cap.
 */
export function pauseSeconds(named: number | undefined, fallback = DEFAULT_PAUSE_SECONDS): number {
  return Math.min(Math.max(named ?? fallback, 1), MAX_PAUSE_SECONDS);
}

/**
 * Seconds until a `RateLimit-Reset` header's Unix time (DigitalOcean, Hetzner), for a "slow down"
 * that names no `Retry-After`; undefined when the header is absent.
 */
export function secondsUntilReset(headers: Headers): number | undefined {
  const reset = Number(headers.get("ratelimit-reset") ?? Number.NaN);
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, Math.ceil(reset - Date.now() / 1000)) : undefined;
}

type Failed = Extract<WriteOutcome, { ok: false }>;

/** A failed outcome, with the optional fields present only when they say something. */
export function failed(message: string, extra: { retryAfterSeconds?: number; stopRetrying?: boolean } = {}): Failed {
  return {
    ok: false,
    message,
    ...(extra.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: extra.retryAfterSeconds }),
    ...(extra.stopRetrying ? { stopRetrying: true } : {}),
  };
}

/**
 * What a client hands the updater: a success as it is, a failure as exactly a `WriteOutcome`, without
 * the client's own bookkeeping (HTTP status, error codes, a stale zone's mark).
 */
export function writeOutcome(attempt: Extract<WriteOutcome, { ok: true }> | (Failed & Record<string, unknown>)): WriteOutcome {
  return attempt.ok ? attempt : failed(attempt.message, attempt);
}
