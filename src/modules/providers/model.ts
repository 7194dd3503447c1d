// Request and response schemas of /api/v1/providers (docs/api.md, providers; docs/services/README.md). The type enum and the
// descriptions of credentials and options come from the service registry; the per-type rules are
// checked by dns/rules.ts, which knows the registry an app was built with.

import { t } from "elysia";
import { PROVIDER_TYPES, SERVICES } from "../../dns/registry";
import { Int } from "../shared";

const Name = t.String({
  minLength: 1,
  maxLength: 100,
  description: "Display name, unique ignoring case",
  error: "must be 1 to 100 characters",
});

const Type = t.String({
  enum: [...PROVIDER_TYPES],
  description: "The DNS service: " + SERVICES.map((service) => `\`${service.type}\` (${service.label})`).join(", "),
  examples: [PROVIDER_TYPES[0]],
});

function keyList(keys: { key: string; aliases?: readonly string[]; optional?: boolean; required?: boolean }[]): string {
  if (keys.length === 0) return "none";
  return keys
    .map(({ key, aliases, optional, required }) => {
      const notes = [
        ...(aliases?.length ? [`alias ${aliases.map((a) => `\`${a}\``).join(", ")}`] : []),
        ...(optional || required === false ? ["optional"] : []),
      ];
      return `\`${key}\`${notes.length > 0 ? ` (${notes.join("; ")})` : ""}`;
    })
    .join(", ");
}

const Credentials = t.Record(t.String(), t.Unknown(), {
  description:
    "Per type: " +
    SERVICES.map((service) => `${service.type}: ${keyList([...service.credentials])}`).join("; ") +
    ". Other keys are dropped.",
  error: "must be an object",
});

const Options = t.Record(t.String(), t.Unknown(), {
  description:
    "Non-secret settings, per type: " +
    SERVICES.map(
      (service) => `${service.type}: ${keyList(service.options.map((o) => ({ ...o, required: o.required ?? false })))}`,
    ).join("; ") +
    ". An unknown key is refused.",
  error: "must be an object",
});

const Enabled = t.Boolean({ error: "must be true or false" });

export const ProviderCreate = t.Object({
  name: Name,
  type: Type,
  credentials: Credentials,
  options: t.Optional(Options),
  is_enabled: t.Optional(Enabled),
});

export const ProviderUpdate = t.Object(
  {
    name: t.Optional(Name),
    type: t.Optional(Type),
    credentials: t.Optional(Credentials),
    options: t.Optional(Options),
    is_enabled: t.Optional(Enabled),
  },
  { description: "Any subset of the fields; `credentials` and `options` replace all stored ones" },
);

export const Provider = t.Object({
  id: Int(),
  name: t.String(),
  type: t.String({ enum: [...PROVIDER_TYPES] }),
  is_enabled: t.Boolean(),
  credentials: t.Record(t.String(), t.String(), {
    description: "Secrets masked, e.g. `••••3f9a`; a username or key id shown as is",
  }),
  options: t.Record(t.String(), t.Unknown(), { description: "As stored" }),
  domain_count: Int(),
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
});

export const VerifyResult = t.Object({
  ok: t.Nullable(t.Boolean(), { description: "null: the service cannot check credentials without writing a record" }),
  detail: t.String(),
  cause: t.Nullable(t.UnionEnum(["unreachable", "credentials", "refused", "throttled"]), {
    description:
      "Why a check failed: `unreachable` (the service could not be reached), `credentials` (it refused them), `refused` (it refused the request), `throttled`; null when it passed or could not be made",
  }),
});

export const DeleteQuery = t.Object({
  cascade: t.Optional(
    t.Boolean({
      title: "cascade",
      description: "Also delete the provider's domains and their history",
      error: "must be true or false",
    }),
  ),
});
