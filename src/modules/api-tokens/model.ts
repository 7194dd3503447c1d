// Request and response schemas of /api/v1/api-tokens (docs/api.md, API tokens).

import { t } from "elysia";
import { API_TOKEN_SCOPES } from "../../store/rows";
import { Int, OptionalTimestamp } from "../shared";

export const ApiTokenCreate = t.Object({
  name: t.String({
    minLength: 1,
    maxLength: 100,
    description: "What the token is for, e.g. `Home Assistant`",
    error: "must be 1 to 100 characters",
  }),
  scope: t.UnionEnum([...API_TOKEN_SCOPES], {
    description:
      "`read`: every GET and /metrics; `update`: its domains' GETs and their forced update; `admin`: everything but managing API tokens",
    error: "must be read, update or admin",
  }),
  domain_ids: t.Optional(
    t.Nullable(
      t.Array(t.Integer({ minimum: 1 }), {
        description: "For an `update` token, the domains it reaches; null or absent: all domains",
        error: "must be a list of domain ids, or null",
      }),
    ),
  ),
  expires_at: t.Optional(
    t.Nullable(
      t.String({
        description: "When the token stops working (ISO 8601, in the future); null or absent: never",
        error: "must be an ISO 8601 time, or null",
      }),
    ),
  ),
});

export const ApiToken = t.Object({
  id: Int(),
  name: t.String(),
  scope: t.UnionEnum([...API_TOKEN_SCOPES]),
  token: t.String({
    description: "The whole token (`ddnsd_…`) only in the answer that created it; `ddnsd_••••<last 4>` everywhere else",
  }),
  domain_ids: t.Nullable(t.Array(Int())),
  expires_at: OptionalTimestamp,
  created_at: t.String({ format: "date-time" }),
  last_used_at: t.Nullable(
    t.String({ format: "date-time", description: "To the minute: written once a minute at most" }),
  ),
});
