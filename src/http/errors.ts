// The one error → response mapping: every non-2xx answer on every path is `{"detail": "..."}`
// (422 may add `errors`), never a stack trace, never HTML. The core's domain errors (src/errors.ts)
// get their status codes here and nowhere else.

import { Elysia } from "elysia";
import { DISK_FULL_DETAIL, type DiskState, isDiskFull } from "../db/disk";
import {
  Conflict,
  DetectionFailed,
  DomainError,
  Invalid,
  Malformed,
  NotFound,
  ProviderFailed,
  StorageFull,
} from "../errors";
import type { Logger } from "../log";
import { throttledMessage } from "../security/throttle";

export interface FieldError {
  field: string;
  message: string;
}

/** An error the API means to show: its status, its sentence, and for a 422 the fields at fault. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
  }
}

/** Each kind of domain error's status code (docs/api.md, conventions); a 422 for one field names it in `errors`. */
const STATUSES: [new (...args: never[]) => DomainError, number][] = [
  [NotFound, 404],
  [Conflict, 409],
  [Malformed, 422],
  [ProviderFailed, 502],
  [DetectionFailed, 503],
  [StorageFull, 507],
];

function statusOf(error: DomainError): number {
  // Every refusal is one of the kinds above; an unlisted kind is still the request's fault.
  return STATUSES.find(([kind]) => error instanceof kind)?.[1] ?? 400;
}

function domainErrorResponse(error: DomainError): Response {
  if (error instanceof Invalid) {
    return jsonResponse(422, { detail: error.message, errors: [{ field: error.field, message: error.reason }] });
  }
  return jsonResponse(statusOf(error), { detail: error.message });
}

/** A caller known but not allowed this call (an API token outside its scope). */
export function forbidden(detail: string): HttpError {
  return new HttpError(403, detail);
}

/** The 429 a paused client gets (a wrong password, a wrong API token). */
export function throttled(seconds: number): HttpError {
  return new HttpError(429, throttledMessage(seconds), undefined, { "Retry-After": String(seconds) });
}

export function unauthorized(detail: string): HttpError {
  return new HttpError(401, detail, undefined, { "WWW-Authenticate": "Bearer" });
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

interface TypeboxIssue {
  path?: string;
  message?: string;
  summary?: string;
  schema?: { error?: string; title?: string };
  value?: unknown;
}

/** Elysia's validation issues as `{field, message}`, with JSON-pointer paths made dotted. */
function fieldErrors(issues: TypeboxIssue[]): FieldError[] {
  const seen = new Set<string>();
  const result: FieldError[] = [];
  for (const issue of issues) {
    // Elysia checks query parameters one by one and reports them without a path; their schemas
    // carry the parameter's name as `title` for that reason.
    const field = (issue.path ?? "").replace(/^\//, "").replaceAll("/", ".") || issue.schema?.title || "body";
    if (seen.has(field)) continue;
    seen.add(field);
    result.push({ field, message: isMissing(issue) ? "is required" : (issue.schema?.error ?? describeIssue(issue)) });
  }
  return result;
}

/** An absent field, whatever its schema's own error text says about a wrong value. */
function isMissing(issue: TypeboxIssue): boolean {
  return (
    issue.value === undefined && /is missing|required|found: undefined/i.test(issue.summary ?? issue.message ?? "")
  );
}

/** Elysia's sentence, without the value that was sent (it may be a secret). */
function describeIssue(issue: TypeboxIssue): string {
  const text = issue.summary ?? issue.message ?? "is invalid";
  return text
    .replace(/\s*but found: .*$/s, "")
    .replace(/^Expected property '[^']*' to be /, "must be ")
    .replace(/^Expected /, "expected ")
    .replace(/^Property '[^']*' /, "");
}

function validationResponse(error: unknown): Response {
  const all = (error as { all?: TypeboxIssue[] }).all ?? [];
  const errors = fieldErrors(all);
  const first = errors[0];
  const detail = first ? `${first.field}: ${first.message}` : "The request is invalid";
  return jsonResponse(422, { detail, errors });
}

/**
 * A named plugin holding the mapping, registered on the root app before any route so it applies
 * to all of them.
 */
export function errorHandling(log: Logger, disk: DiskState) {
  return new Elysia({ name: "error-handling" }).onError({ as: "global" }, ({ code, error, request }) => {
    if (isDiskFull(error)) {
      disk.noteFull(`${request.method} ${requestPath(request)}`);
      return jsonResponse(507, { detail: DISK_FULL_DETAIL });
    }
    if (error instanceof DomainError) return domainErrorResponse(error);
    if (error instanceof HttpError) {
      const body = error.errors ? { detail: error.detail, errors: error.errors } : { detail: error.detail };
      return jsonResponse(error.status, body, error.headers);
    }
    // The client stopped sending before its body was complete (a cut-off upload, a dropped
    // connection): a refusal like any malformed request, not a fault of ddnsd's to log.
    if (error instanceof Error && error.name === "AbortError")
      return jsonResponse(400, { detail: "The request body was cut off" });
    switch (code) {
      case "VALIDATION":
        return validationResponse(error);
      case "PARSE":
        return jsonResponse(422, { detail: "The request body is not valid JSON" });
      case "NOT_FOUND":
        return jsonResponse(404, { detail: "Not Found" });
    }
    // Elysia's own status errors (e.g. 405) keep their status with a plain sentence.
    // (A number that is no HTTP status, such as a DOMException's code, is not one of them.)
    const status = typeof code === "number" && code >= 400 && code < 600 ? code : 500;
    if (status < 500) return jsonResponse(status, { detail: (error as Error).message || "Request failed" });
    return internalError(log, request, error);
  });
}

/** The path, for the log, even of a request whose URL does not parse. */
export function requestPath(request: Request): string {
  return URL.canParse(request.url) ? new URL(request.url).pathname : request.url.split("?")[0]!.slice(0, 200);
}

/** A logged 500 whose body names the request id to look for in the log, and nothing else. */
export function internalError(log: Logger, request: Request | null, error: unknown): Response {
  const requestId = crypto.randomUUID().slice(0, 8);
  log.error("unexpected error", {
    request_id: requestId,
    method: request?.method,
    path: request ? requestPath(request) : undefined,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    stack: error instanceof Error ? error.stack?.split("\n").slice(1, 4).join(" | ").trim() : undefined,
  });
  return jsonResponse(500, { detail: `Internal server error (request id ${requestId})` });
}
