// Request and response schemas of /api/v1/update-keys (docs/router-push.md).

import { t } from "elysia";
import { Int, OptionalTimestamp } from "../shared";

export const UpdateKeyCreate = t.Object({
  name: t.String({
    minLength: 1,
    maxLength: 100,
    description: "What the key is for, e.g. the router's name",
    error: "must be 1 to 100 characters",
  }),
  domain_ids: t.Optional(
    t.Nullable(
      t.Array(t.Integer({ minimum: 1 }), {
        description: "The domains the key may update; null or absent: all domains",
        error: "must be a list of domain ids, or null",
      }),
    ),
  ),
});

export const UpdateKey = t.Object({
  id: Int(),
  name: t.String(),
  key: t.String({ description: "The whole key only in the answer that created it; `••••<last 4>` everywhere else" }),
  domain_ids: t.Nullable(t.Array(Int())),
  created_at: t.String({ format: "date-time" }),
  last_used_at: OptionalTimestamp,
});
