// One HTTP request as every outbound caller makes it (DNS services, echo services, notification
// channels): sent with a deadline and read to text, every way it can fail turned into a sentence —
// callers report reasons, they never throw — and the words for an answer that made no sense.

import packageJson from "../../package.json";
import { connectionProblem } from "../util/connection-problem";
import { type FetchLike, OutboundRefused } from "./outbound";

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
      body: body === undefined ? undefined : sentJson(body),
    },
    api.timeoutMs,
  );
}

/** The text `exchangeJson` sends for a body ("" for none): what a signature over the body must cover. */
export function sentJson(body: unknown): string {
  return body === undefined ? "" : JSON.stringify(body);
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
function formatMs(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Number((ms / 1000).toFixed(1))}s`;
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
 * Seconds until a `RateLimit-Reset` header's Unix time (DigitalOcean, Hetzner), for a "slow down"
 * that names no `Retry-After`; undefined when the header is absent.
 */
export function secondsUntilReset(headers: Headers): number | undefined {
  const reset = Number(headers.get("ratelimit-reset") ?? Number.NaN);
  return Number.isFinite(reset) && reset > 0 ? Math.max(0, Math.ceil(reset - Date.now() / 1000)) : undefined;
}
