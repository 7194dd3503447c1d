// Schemas and helpers every resource module uses: path ids, error answers, booleans in queries.

import { t } from "elysia";

export const IdParams = t.Object({
  id: t.Integer({ minimum: 1, description: "Positive integer id", error: "must be a positive integer" }),
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
