// What a DNS service's HTTP answer means to ddnsd: a request to a JSON API as a step, a refusal
// read into a failure with its cause (credentials, refused, "slow down", no usable answer), the
// wait a "slow down" names, and a 404 under a zone's id read as a stale zone.

import { exchangeJson, type JsonApi, retryAfterSeconds, secondsUntilReset, unreadableAnswer } from "../net/http";
import { objectsIn, parseJson } from "../util/json";
import type { FailureCause, Step, StepFailure } from "./provider";

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

/**
 * The requests of a JSON API whose credentials are fixed headers, each a step as `requestJson`
 * makes it: `call(method, path, body?)`.
 */
export function jsonCalls(
  api: JsonApi,
  service: string,
  headers: Record<string, string>,
  readError: (body: unknown, status: number) => ServiceError | undefined,
): (method: string, path: string, body?: unknown) => Promise<Step<JsonAnswer>> {
  return (method, path, body) => requestJson(api, service, { method, path, headers, body }, readError);
}

/** A short-lived bearer token, and until when (ms since the epoch) it may be used. */
export interface BearerToken {
  value: string;
  until: number;
}

/**
 * The requests of a JSON API that takes a short-lived bearer token: `obtain` gets one (a login, a
 * signed assertion). It is kept in memory until its time is up, and obtained afresh once when a
 * request is refused with 401 (revoked, or ended early at the service).
 */
export function bearerCalls(
  api: JsonApi,
  service: string,
  obtain: () => Promise<Step<BearerToken>>,
  readError: (body: unknown, status: number) => ServiceError | undefined,
  now: () => number,
): (method: string, path: string, body?: unknown) => Promise<Step<JsonAnswer>> {
  let held: BearerToken | undefined;
  return async (method, path, body) => {
    for (let attempt = 0; ; attempt++) {
      if (held === undefined || held.until <= now()) {
        const obtained = await obtain();
        if (!obtained.ok) return obtained;
        held = obtained.value;
      }
      const headers = { Authorization: `Bearer ${held.value}` };
      const answer = await requestJson(api, service, { method, path, headers, body }, readError);
      if (answer.ok || answer.status !== 401 || attempt > 0) return answer;
      held = undefined;
    }
  };
}

/** The objects of a JSON answer whose body is a list (none when it is not one), or the answer's failure. */
export function listedObjects(answer: Step<JsonAnswer>): Step<Record<string, unknown>[]> {
  return answer.ok ? { ok: true, value: objectsIn(answer.value.body) } : answer;
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
