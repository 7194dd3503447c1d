// Schemas and helpers every resource module uses: path ids, error answers, booleans in queries.

import { t } from "elysia";
import { HttpError, invalidField } from "../http/errors";

export const IdParams = t.Object({
  // `title` names the field in a 422: Elysia reports some path-parameter issues without a path.
  id: t.Integer({ title: "id", minimum: 1, description: "Positive integer id", error: "must be a positive integer" }),
});

export const ErrorBody = t.Object({ detail: t.String() }, { description: "What went wrong, in a sentence" });

export const ValidationErrorBody = t.Object(
  {
    detail: t.String(),
    errors: t.Optional(t.Array(t.Object({ field: t.String(), message: t.String() }))),
  },
  { description: "The request is invalid; `errors` names each field at fault" },
);

export const DeletedBody = t.Object({ message: t.String(), id: t.Integer() });

/** The error answers a route can give, for the OpenAPI document. */
export function errorResponses(...statuses: (401 | 404 | 409 | 422 | 502 | 503)[]) {
  return Object.fromEntries(statuses.map((status) => [status, status === 422 ? ValidationErrorBody : ErrorBody]));
}

/**
 * A transform hook: the body must be a JSON object, and so must each named field when present.
 * Elysia normalises a body before validating it, and its normaliser copies a string, a number or
 * an array into an object (`"ab"` → `{"0": "a", "1": "b"}`, `42` → `{}`) that an object schema
 * then accepts.
 */
export function objectBody(...fields: string[]) {
  return ({ body }: { body: unknown }) => {
    if (!isObject(body)) throw new HttpError(422, "The request body must be a JSON object");
    for (const field of fields) {
      if (body[field] !== undefined && !isObject(body[field])) throw invalidField(field, "must be an object");
    }
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
