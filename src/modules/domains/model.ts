// Request and response schemas of /api/v1/domains (docs/api.md, domains).

import { t } from "elysia";
import { HISTORY_TRIGGERS } from "../../store/rows";
import { Int, OptionalTimestamp } from "../shared";

const DomainConfig = t.Object(
  {
    zone_id: t.Optional(
      t.String({ description: "The zone (or domain) at the service that holds the record; discovered when absent" }),
    ),
    proxied: t.Optional(
      t.Boolean({
        description: "Proxying, where the service has a proxy (Cloudflare); default: keep the record's current value",
      }),
    ),
    ttl: t.Optional(
      t.Integer({
        description:
          "Seconds, in the range the provider's service accepts (Cloudflare: 1 = automatic); default: keep the current value",
        error: "must be a whole number of seconds",
      }),
    ),
    create_if_missing: t.Optional(
      t.Boolean({ description: "Create the record when it does not exist (default true)" }),
    ),
    ipv6_suffix: t.Optional(
      t.String({
        description:
          "AAAA only: the host part of a LAN host's address, e.g. `::1234:5678:9abc:def0`; the record gets the detected prefix followed by it",
      }),
    ),
    addresses: t.Optional(
      t.String({
        enum: ["all", "first"],
        description:
          "With a list of sources: `all` (the default) publishes every source's address in the record; `first` only the first source in order that has a usable address (failover)",
        error: 'must be "all" or "first"',
      }),
    ),
    ipv6_prefix_length: t.Optional(
      t.Integer({
        description: "AAAA only: bits of the detected address kept as the prefix (default 64)",
        error: "must be a whole number of bits from 1 to 127",
      }),
    ),
  },
  { additionalProperties: true, description: "Provider options; unknown keys are kept as given" },
);

/** One source as written: `web`, `dns`, `interface:<name>`, `push`, `fixed:<address>`. */
const SourceText = t.String({ examples: ["web", "interface:wan1"] });

const fields = {
  provider_id: t.Integer({ minimum: 1, error: "must be a positive integer" }),
  domain_name: t.String({ description: "Fully qualified hostname; IDN accepted", examples: ["home.example.com"] }),
  record_type: t.String({
    enum: ["A", "AAAA"],
    description: "`A` (IPv4) or `AAAA` (IPv6), any case; `A` when a new domain leaves it out",
  }),
  external_id: t.Nullable(t.String({ description: "The provider's id of the record; discovered on first update" })),
  config: DomainConfig,
  cron_schedule: t.Nullable(
    t.String({ description: "croner syntax, 5 fields or 6 with seconds first; null = every DDNS_UPDATE_INTERVAL" }),
  ),
  is_enabled: t.Boolean({ error: "must be true or false" }),
  address_source: t.Nullable(
    t.Union(
      [SourceText, t.Array(SourceText, { minItems: 1, maxItems: 8, error: "must be a list of 1 to 8 sources" })],
      {
        description:
          "Where this record's address comes from: null (the default) for the system's source of its family, `web` (the echo services), `dns` (resolvers asked over DNS), `interface:<name>`, `push` (only a router's /nic/update; the schedule never writes it) or `fixed:<address>`; or a list of sources (not `push`), each asked at every check, whose addresses `config.addresses` puts in the record",
        examples: ["interface:ppp0", "push", "fixed:81.2.69.160", ["interface:wan1", "interface:wan2"]],
        error: "must be a source, a list of sources, or null",
      },
    ),
  ),
};

export const DomainCreate = t.Object({
  provider_id: fields.provider_id,
  domain_name: fields.domain_name,
  record_type: t.Optional(fields.record_type),
  external_id: t.Optional(fields.external_id),
  config: t.Optional(fields.config),
  cron_schedule: t.Optional(fields.cron_schedule),
  is_enabled: t.Optional(fields.is_enabled),
  address_source: t.Optional(fields.address_source),
});

export const DomainUpdate = t.Partial(t.Object(fields), { description: "Any subset of the create fields" });

const RecordTypeName = t.UnionEnum(["A", "AAAA"]);
const Status = t.UnionEnum(["SUCCESS", "FAILED"]);

const Propagation = t.Object(
  {
    state: t.UnionEnum(["served", "pending", "unreachable", "unknown"], {
      description:
        "`served`: every name server of the zone answers the record's address; `pending`: one answers something else (it lags); `unreachable`: one refused or did not answer; `unknown`: not asked yet (after a restart, until the next check)",
    }),
    servers: t.Array(
      t.Object({
        name: t.String({
          description: "The name server's name (the zone's NS set), or the service's own server as configured",
        }),
        address: t.Nullable(
          t.String({
            description: "Where it was asked: an address, with `:port` off port 53; null when none was found",
          }),
        ),
        answer: t.Array(t.String(), { description: "The record's addresses it answers with" }),
        ok: t.Boolean({ description: "Whether it answers the record's address" }),
        error: t.Nullable(
          t.String({
            description: "Why it gave no usable answer (refused, timed out, not authoritative); null when it answered",
          }),
        ),
      }),
    ),
    checked_at: OptionalTimestamp,
    served_after_ms: t.Nullable(
      Int({ description: "How long after the write every name server answered the address" }),
    ),
    detail: t.Nullable(
      t.String({
        description:
          "What kept the check short of the zone's whole NS set (resolvers that did not answer), or that the record is proxied (its name servers answer the proxy's addresses)",
      }),
    ),
  },
  {
    description:
      "Whether the zone's own name servers serve the record's address, asked directly after each write and check",
  },
);

export const Domain = t.Object({
  id: Int(),
  provider_id: Int(),
  provider_name: t.String(),
  domain_name: t.String(),
  record_type: RecordTypeName,
  external_id: t.Nullable(t.String()),
  config: t.Record(t.String(), t.Unknown()),
  cron_schedule: t.Nullable(t.String()),
  is_enabled: t.Boolean(),
  address_source: t.Nullable(
    t.Union([t.String(), t.Array(t.String())], {
      description: "null: the system's source of the record's family; a list: several sources",
    }),
  ),
  pushed_ip: t.Nullable(t.String({ description: "The newest address a router pushed for this record" })),
  pushed_at: OptionalTimestamp,
  last_known_ip: t.Nullable(t.String({ description: "The first of `addresses`" })),
  addresses: t.Array(t.String(), {
    description:
      "Every address ddnsd last wrote to the record (one, or several with a list of sources in `all` mode); empty before the first write. Addresses someone else added beside them are not listed",
  }),
  last_update_status: t.Nullable(Status, { description: "`SUCCESS`, `FAILED`, or null when never tried" }),
  last_checked_at: OptionalTimestamp,
  last_changed_at: OptionalTimestamp,
  next_run_at: OptionalTimestamp,
  created_at: t.String({ format: "date-time" }),
  updated_at: t.String({ format: "date-time" }),
  propagation: Propagation,
});

/** `GET /domains?limit=&offset=`: a part of the list, oldest first; without them, every domain. */
export const DomainListQuery = t.Object({
  limit: t.Optional(
    t.Integer({
      title: "limit",
      minimum: 1,
      maximum: 1000,
      description: "Domains to return, 1-1000; without it (and without `offset`) every domain",
      error: "must be a whole number from 1 to 1000",
    }),
  ),
  offset: t.Optional(
    t.Integer({
      title: "offset",
      minimum: 0,
      description: "Domains to skip, oldest first; 0 by default",
      error: "must be a whole number, 0 or more",
    }),
  ),
});

export const HistoryQuery = t.Object({
  limit: t.Optional(
    t.Integer({
      title: "limit",
      minimum: 1,
      maximum: 1000,
      default: 20,
      description: "Rows to return, 1-1000",
      error: "must be a whole number from 1 to 1000",
    }),
  ),
});

export const HistoryRecord = t.Object({
  id: Int(),
  domain_id: Int(),
  ip_address: t.Nullable(t.String({ description: "The first of `addresses`" })),
  addresses: t.Array(t.String(), { description: "Every address the write meant the record to hold" }),
  previous_ip: t.Nullable(t.String()),
  status: Status,
  message: t.String(),
  trigger: t.UnionEnum([...HISTORY_TRIGGERS], {
    description:
      "`push` is a router's /nic/update; `repair` puts back a record changed outside ddnsd; `refresh` sends an unchanged address again to keep the host alive at a one-shot service (`config.refresh_every`)",
  }),
  duration_ms: Int(),
  timestamp: t.String({
    format: "date-time",
    description: "When it happened; for a row standing for repeated failures, when the last of them happened",
  }),
  repeat_count: Int({
    description:
      "How many attempts in a row this row stands for: the same failure again (status, cause, message, addresses, trigger) is counted on the newest row instead of written anew",
  }),
  first_timestamp: t.Nullable(t.String({ format: "date-time" }), {
    description: "When the first of the repeated attempts happened; null when the row stands for one",
  }),
});

export const UpdateResult = t.Object({
  domain_id: Int(),
  success: t.Boolean(),
  ip_address: t.Nullable(t.String()),
  previous_ip: t.Nullable(t.String()),
  changed: t.Boolean(),
  message: t.String(),
  duration_ms: Int(),
  history_id: Int(),
});
