// What the provider clients (and IP detection) share: one request with a deadline, read to text, with
// every way it can fail turned into a sentence — callers report reasons, they never throw — and the
// wording of their outcomes.

import packageJson from "../../package.json";
import { OutboundRefused } from "../net/outbound";
import { connectionProblem } from "../util/connection-problem";
import type { FailureCause, FetchLike, RecordTarget, Step, StepFailure } from "./provider";

/**
 * Sent with every outbound request (DNS services, echo services, notifications): services such as
 * No-IP block clients that do not say who they are and where their maintainers can be found.
 */
export const USER_AGENT = `ddnsd/${packageJson.version} (+${packageJson.homepage})`;

export type Exchange =
  | { ok: true; status: number; headers: Headers; text: string }
  /** `throttled` when the request was held back because the provider is paused (`NotSent`), else `unreachable`. */
  | { ok: false; reason: string; cause: "unreachable" | "throttled" };

/** Sends one request and reads its whole body before `timeoutMs` runs out. */
export async function exchange(fetch: FetchLike, url: string, init: RequestInit, timeoutMs: number): Promise<Exchange> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    // The deadline covers the body too: a server that sends headers and then stalls is as dead as a silent one.
    const text = await response.text();
    return { ok: true, status: response.status, headers: response.headers, text };
  } catch (error) {
    return {
      ok: false,
      reason: describeFetchError(error, timeoutMs),
      cause: error instanceof NotSent ? "throttled" : "unreachable",
    };
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
export function exchangeJson(
  api: JsonApi,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Exchange> {
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
  if (error instanceof NotSent || error instanceof OutboundRefused) return error.message;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${formatMs(timeoutMs)}`;
  }
  return `request failed: ${connectionProblem(error)}`;
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

const EXCERPT_CHARS = 60;

/** The start of a body on one line, quoted, for messages about answers that made no sense. */
export function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return `"${line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line}"`;
}

export function unreadableAnswer(status: number, text: string): string {
  return text.trim() === "" ? `empty answer (HTTP ${status})` : `unreadable answer (HTTP ${status}): ${excerpt(text)}`;
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
/** A "slow down" that names no wait: a minute is a polite first pause, doubled for each one in a row. */
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
 * The cause an HTTP answer means when its body says nothing more precise: 401/403 the credentials;
 * a 429, or a 503 that names a wait (`Retry-After`), "slow down"; another server error or a
 * gateway's page no usable answer; anything else a refusal.
 */
export function causeOfAnswer(status: number, headers: Headers): FailureCause {
  if (status === 401 || status === 403) return "credentials";
  if (status === 429 || (status === 503 && retryAfterSeconds(headers) !== undefined)) return "throttled";
  if (status >= 500) return "unreachable";
  return "refused";
}

/**
 * Seconds until a `RateLimit-Reset` header's Unix time (DigitalOcean, Hetzner), for a "slow down"
 * that names no `Retry-After`; undefined when the header is absent.
 */
export function secondsUntilReset(headers: Headers): number | undefined {
  const reset = Number(headers.get("ratelimit-reset") ?? Number.NaN);
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, Math.ceil(reset - Date.now() / 1000)) : undefined;
}

interface FailureDetails {
  cause: FailureCause;
  retryAfterSeconds?: number;
  stopRetrying?: boolean;
  staleZone?: boolean;
}

/** A failed outcome, with the optional fields present only when they say something. */
export function failed(message: string, extra: FailureDetails): StepFailure {
  return {
    ok: false,
    message,
    cause: extra.cause,
    ...(extra.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: extra.retryAfterSeconds }),
    ...(extra.stopRetrying ? { stopRetrying: true } : {}),
    ...(extra.staleZone ? { staleZone: true } : {}),
  };
}

/** A JSON API's answer that the client may read: its status, headers and parsed body. */
export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * What a service's error body says: its words, and (where the service says more than the status)
 * its code for the message, and the cause and consequences it means.
 */
export interface ServiceError {
  words: string;
  /** Shown before the status, e.g. `code 9109` → "(code 9109, HTTP 403)". */
  code?: string;
  cause?: FailureCause;
  stopRetrying?: boolean;
  staleZone?: boolean;
}

/**
 * One request to a JSON API as a step: a 2xx answer with a JSON body (or none) is the value; any
 * other answer is a failure with its cause (from the status, unless the service's error says
 * better), the wait a "slow down" named, and the service's own words, which `readError` finds in
 * an error body (`undefined`: the body's start is quoted instead).
 */
export async function requestJson(
  api: JsonApi,
  service: string,
  request: { method: string; path: string; headers: Record<string, string>; body?: unknown },
  readError: (body: unknown, status: number) => ServiceError | undefined,
): Promise<Step<JsonAnswer>> {
  const answer = await exchangeJson(api, request.method, request.path, request.headers, request.body);
  if (!answer.ok) return failed(`${service}: ${answer.reason}`, { cause: answer.cause });
  const body = answer.text.trim() === "" ? null : parseJson(answer.text);
  if (answer.status >= 200 && answer.status < 300) {
    if (body === undefined)
      return failed(`${service}: ${unreadableAnswer(answer.status, answer.text)}`, { cause: "unreachable" });
    return { ok: true, value: { status: answer.status, headers: answer.headers, body } };
  }
  const error = body === undefined || body === null ? undefined : readError(body, answer.status);
  return failedAnswer(service, answer.status, answer.headers, answer.text, error);
}

/** A failure for an answer the service refused: its words, code, status and cause, and a "slow down"'s wait. */
export function failedAnswer(
  service: string,
  status: number,
  headers: Headers,
  text: string,
  error: ServiceError | undefined,
): StepFailure {
  // A success status with a body that makes no sense is no usable answer, not a refusal.
  const cause = error?.cause ?? (status < 300 ? "unreachable" : causeOfAnswer(status, headers));
  const message =
    error === undefined
      ? `${service}: ${unreadableAnswer(status, text)}`
      : `${service}: ${error.words} (${error.code === undefined ? "" : `${error.code}, `}HTTP ${status})`;
  return {
    ...failed(message, {
      cause,
      stopRetrying: error?.stopRetrying,
      staleZone: error?.staleZone,
      ...(cause === "throttled" ? throttleWait(headers) : {}),
    }),
    status,
  };
}

/** A 404 under a zone's id means the zone is gone (deleted, or not this account's): look it up afresh. */
export function staleOn404<T>(step: Step<T>): Step<T> {
  return !step.ok && step.status === 404 ? { ...step, staleZone: true } : step;
}

/** The wait a "slow down" answer names: `Retry-After`, else a `RateLimit-Reset` time; nothing when neither. */
export function throttleWait(headers: Headers): { retryAfterSeconds?: number } {
  const seconds = retryAfterSeconds(headers) ?? secondsUntilReset(headers);
  return seconds === undefined ? {} : { retryAfterSeconds: seconds };
}
