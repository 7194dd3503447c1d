// Schemas and hooks the resource modules share: path ids, error answers, whole numbers in answers,
// body shapes, and answers served again while the database is unwritten.

import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { invalidField, Malformed } from "../errors";
import { isObject } from "../util/json";

// `title` names the field in a 422: Elysia reports some path-parameter issues without a path.
const positiveId = (name: string) =>
  t.Integer({ title: name, minimum: 1, description: "Positive integer id", error: "must be a positive integer" });

/** `{provider_id}`, `{domain_id}` … in paths, named as in the specification. */
export const ProviderIdParams = t.Object({ provider_id: positiveId("provider_id") });
export const DomainIdParams = t.Object({ domain_id: positiveId("domain_id") });
export const UpdateKeyIdParams = t.Object({ update_key_id: positiveId("update_key_id") });
export const AcmeKeyIdParams = t.Object({ acme_key_id: positiveId("acme_key_id") });
export const NotificationIdParams = t.Object({ notification_id: positiveId("notification_id") });
export const ApiTokenIdParams = t.Object({ api_token_id: positiveId("api_token_id") });
/**
 * A transform hook: every path id is written as a plain positive integer. Elysia's numeric
 * coercion would also take `0x1`, `1e0`, `+1`, `1.0` or ` 1` for 1.
 */
export function plainIds({ params }: { params?: Record<string, string | undefined> }): void {
  for (const [name, value] of Object.entries(params ?? {})) {
    if (value !== undefined && !/^[1-9][0-9]{0,15}$/.test(value))
      throw invalidField(name, "must be a positive integer");
  }
}

/**
 * Control characters (C0, DEL, C1) and the Unicode line and paragraph separators: a name holding one
 * could break a log line, a Prometheus label or a notification's text into lines of its own.
 */
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;

/**
 * A display name (a provider's, an update key's, a notification's, an API token's): trimmed, 1 to 100
 * characters, no control characters; else a 422 naming `field`. Every resource's name goes through it.
 */
export function checkDisplayName(name: string, field = "name"): string {
  const trimmed = name.normalize("NFC").trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw invalidField(field, "must be 1 to 100 characters");
  if (CONTROL_CHARACTERS.test(trimmed))
    throw invalidField(field, "must not contain control characters (a line break, a tab, an escape …)");
  return trimmed;
}

/**
 * A transform hook: the named query parameters, when present, are written in decimal digits only
 * (`?limit=0x10` would otherwise be 16; `1e3`, `+5`, ` 5` and `5.0` likewise). Their range is the
 * schema's to check.
 */
export function plainQueryNumbers(...names: string[]) {
  return ({ query }: { query?: Record<string, unknown> }): void => {
    for (const name of names) {
      const value = query?.[name];
      if (value !== undefined && !(typeof value === "string" && /^[0-9]{1,15}$/.test(value))) {
        throw invalidField(name, "must be written in decimal digits only");
      }
    }
  };
}

/** `:id` in the admin pages' paths. */
export const IdParams = t.Object({ id: positiveId("id") });

/** A time that may be absent: ISO 8601 in UTC, or null. */
export const OptionalTimestamp = t.Nullable(t.String({ format: "date-time" }));

const ErrorBody = t.Object({ detail: t.String() }, { description: "What went wrong, in a sentence" });

const ValidationErrorBody = t.Object(
  {
    detail: t.String(),
    errors: t.Optional(t.Array(t.Object({ field: t.String(), message: t.String() }))),
  },
  { description: "The request is invalid; `errors` names each field at fault" },
);

/**
 * A whole number in a response. Elysia's `t.Integer` also accepts numeric strings through a
 * transform, which is right for paths, queries and bodies but makes every response carrying one go
 * through TypeBox's slow dynamic Encode instead of the compiled check (~1.4 ms of a 100-domain list).
 */
export const Int = Type.Integer;

export const DeletedBody = t.Object({ message: t.String(), id: Int() });

/** The error answers a route can give, for the OpenAPI document. */
export function errorResponses(...statuses: (401 | 403 | 404 | 409 | 422 | 429 | 502 | 503 | 507)[]) {
  return Object.fromEntries(statuses.map((status) => [status, status === 422 ? ValidationErrorBody : ErrorBody]));
}

/** The database connection's count of writes (db/writes.ts): what tells an answer may have changed. */
export type WriteCount = { sqlite: { readonly writes: number } };

/**
 * A handler answering JSON computed from the database, serialised once and served again until
 * the database is written: the connection counts its writes (db/writes.ts), and the server is the
 * only writer of its data dir (the CLI's write commands go through it while it runs). A write only
 * ever causes a recomputation, so the answer is never stale (a rolled-back write still counts;
 * transactions are synchronous, so no request reads in the middle of one), and serving it again
 * reads nothing from SQLite. Figures over a moving window ("the last 24 hours") also pass
 * `windowMs`, the longest they may be served unchanged. Returning a Response also spares
 * re-checking our own output against the route's response schema, which stays for the OpenAPI
 * document.
 */
export function whileUnchanged(ctx: WriteCount, compute: () => unknown, windowMs = Infinity): () => Response {
  let servedFor = "";
  // A Blob, not bytes: Bun copies a Uint8Array body into every Response (a 50 KB list cost more
  // than the rest of the request), while a Blob is immutable and shared.
  let body = new Blob();
  return () => {
    const now = `${ctx.sqlite.writes}:${Number.isFinite(windowMs) ? Math.floor(Date.now() / windowMs) : 0}`;
    if (now !== servedFor) {
      body = new Blob([JSON.stringify(compute())]);
      servedFor = now;
    }
    return new Response(body, { headers: { "content-type": "application/json" } });
  };
}

export interface BodyShape {
  /** Fields that must be JSON objects when present. */
  objects?: string[];
  /** Fields (dotted paths) that must be JSON numbers when present; a numeric string is refused. */
  numbers?: string[];
}

/**
 * A transform hook checking what Elysia's normaliser would otherwise blur before validation: it
 * copies a string, number or array body into an object (`"ab"` → `{"0": "a", "1": "b"}`, `42` →
 * `{}`) that an object schema then accepts, and it turns numeric strings into numbers.
 */
export function bodyShape({ objects = [], numbers = [] }: BodyShape) {
  return ({ body }: { body: unknown }) => {
    if (!isObject(body)) throw new Malformed("The request body must be a JSON object");
    for (const field of objects) {
      if (body[field] !== undefined && !isObject(body[field])) throw invalidField(field, "must be an object");
    }
    for (const path of numbers) {
      const value = path.split(".").reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), body);
      if (value !== undefined && value !== null && typeof value !== "number")
        throw invalidField(path, "must be a number");
    }
  };
}
