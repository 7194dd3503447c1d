// Request and response schemas of /api/v1/providers (CONTRACT §3).

import { t } from "elysia";
import { Int } from "../shared";

export const PROVIDER_TYPES = ["cloudflare", "dynu"] as const;

const Name = t.String({ minLength: 1, maxLength: 100, description: "Display name, unique ignoring case", error: "must be 1 to 100 characters" });
const Type = t.String({ description: "`cloudflare` or `dynu`", examples: ["cloudflare"] });
const Credentials = t.Record(t.String(), t.Unknown(), {
  description: 'cloudflare: `{"api_token": "..."}`; dynu: `{"api_key": "..."}` (`token` is accepted for either)',
  error: "must be an object",
});
const Enabled = t.Boolean({ error: "must be true or false" });

export const ProviderCreate = t.Object({
  name: Name,
  type: Type,
  credentials: Credentials,
  is_enabled: t.Optional(Enabled),
});

export const ProviderUpdate = t.Object(
  {
    name: t.Optional(Name),
    type: t.Optional(Type),
    credentials: t.Optional(Credentials),
    is_enabled: t.Optional(Enabled),
  },
  { description: "Any subset of the fields; `credentials` replaces all credentials" },
);

export const Provider = t.Object({
  id: Int(),
  name: t.String(),
  type: t.String(),
  is_enabled: t.Boolean(),
  credentials: t.Record(t.String(), t.String(), { description: "Masked, e.g. `••••3f9a`" }),
  domain_count: Int(),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});

export const VerifyResult = t.Object({ ok: t.Boolean(), detail: t.String() });

export const DeleteQuery = t.Object({
  cascade: t.Optional(t.Boolean({ title: "cascade", description: "Also delete the provider's domains and their history", error: "must be true or false" })),
});
