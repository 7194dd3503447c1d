// The drizzle tables. Times are integer milliseconds since the epoch (compact, fast to compare
// in the metrics queries); the API turns them into ISO 8601 strings.

import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  /** Tokens issued at or before this second (JWT `iat`) are refused: set when the password is set. */
  tokensValidAfter: integer("tokens_valid_after"),
  /** The pages' language the user chose (`de`, `zh-CN` …); null: the browser's. Notifications speak the first user's. */
  language: text("language"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** Signed-out tokens, refused until they expire; then pruned (they would be refused as expired anyway). */
export const revokedTokens = sqliteTable(
  "revoked_tokens",
  {
    jti: text("jti").primaryKey(),
    /** The token's own expiry, ms since the epoch. */
    expiresAt: integer("expires_at").notNull(),
  },
  (table) => [index("revoked_tokens_expires_at").on(table.expiresAt)],
);

export const providers = sqliteTable(
  "providers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    /** A registered service's type (dns/registry.ts); checked there, not by the database. */
    type: text("type").notNull(),
    /** AES-256-GCM sealed JSON of the credentials (see security/secrets.ts). */
    credentials: text("credentials").notNull(),
    /** The service's non-secret options (docs/services/README.md), as validated by dns/rules.ts. */
    options: text("options", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    isEnabled: integer("is_enabled", { mode: "boolean" }).notNull().default(true),
    /** No call to this provider before this time (a 429's Retry-After). */
    pausedUntil: integer("paused_until"),
    /** The newest credential check (POST …/verify, or the admin pages' save): when, and its answer. */
    lastVerifiedAt: integer("last_verified_at"),
    lastVerifyOk: integer("last_verify_ok", { mode: "boolean" }),
    lastVerifyDetail: text("last_verify_detail"),
    /** A failed check's cause (`unreachable`, `credentials`, `refused`, `throttled`), for the pages' wording; null otherwise. */
    lastVerifyCause: text("last_verify_cause", { enum: ["unreachable", "credentials", "refused", "throttled"] }),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [uniqueIndex("providers_name_nocase").on(sql`lower(${table.name})`)],
);

export const domains = sqliteTable(
  "domains",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    providerId: integer("provider_id")
      .notNull()
      .references(() => providers.id),
    domainName: text("domain_name").notNull(),
    recordType: text("record_type", { enum: ["A", "AAAA"] }).notNull(),
    externalId: text("external_id"),
    config: text("config", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    cronSchedule: text("cron_schedule"),
    isEnabled: integer("is_enabled", { mode: "boolean" }).notNull().default(true),
    lastKnownIp: text("last_known_ip"),
    /**
     * The addresses ddnsd last wrote to the record (its own: the first `last_known_ip`), for a domain
     * with several sources: a later write removes only these, never one someone else added. Null
     * until such a domain is first written (the record's addresses then are taken as ddnsd's).
     */
    addresses: text("addresses", { mode: "json" }).$type<string[]>(),
    lastUpdateStatus: text("last_update_status", { enum: ["SUCCESS", "FAILED"] }),
    lastCheckedAt: integer("last_checked_at"),
    lastChangedAt: integer("last_changed_at"),
    nextRunAt: integer("next_run_at"),
    /** Failed attempts in a row; drives the retry backoff and resets on success. */
    failureCount: integer("failure_count").notNull().default(0),
    /**
     * Where this record's address comes from (ip/source.ts `DomainSource` as written: `web`, `dns`,
     * `interface:<name>`, `push`, `fixed:<address>`); null for the system's source of its family.
     */
    addressSource: text("address_source"),
    /** The newest address a router pushed for this record, and when: a forced update of a push-only record re-sends it. */
    pushedIp: text("pushed_ip"),
    pushedAt: integer("pushed_at"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [
    uniqueIndex("domains_provider_name_type").on(table.providerId, table.domainName, table.recordType),
    index("domains_next_run_at").on(table.nextRunAt),
  ],
);

/**
 * What started an attempt, as a history row keeps it: the forced update, the schedule, a router's
 * push, a repair of a record changed outside ddnsd, or a keep-alive resend (`config.refresh_every`).
 */
export const HISTORY_TRIGGERS = ["manual", "schedule", "push", "repair", "refresh"] as const;
export type HistoryTrigger = (typeof HISTORY_TRIGGERS)[number];

/** Why an update failed, as a history row keeps it. */
export const HISTORY_FAILURE_CAUSES = [
  "detection",
  "disabled",
  "unreachable",
  "credentials",
  "refused",
  "throttled",
] as const;
export type HistoryFailureCause = (typeof HISTORY_FAILURE_CAUSES)[number];

export const history = sqliteTable(
  "history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    domainId: integer("domain_id")
      .notNull()
      .references(() => domains.id),
    ipAddress: text("ip_address"),
    previousIp: text("previous_ip"),
    /** Every address the write meant the record to hold (`ip_address` is the first); null for one address. */
    addresses: text("addresses", { mode: "json" }).$type<string[]>(),
    status: text("status", { enum: ["SUCCESS", "FAILED"] }).notNull(),
    message: text("message").notNull(),
    trigger: text("trigger", { enum: HISTORY_TRIGGERS }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    timestamp: integer("timestamp").notNull(),
    /**
     * A FAILED row's cause, for the pages' wording: the address not detected, the domain or its
     * provider disabled, or the service's failure (src/dns/provider.ts FailureCause). Null on success
     * and on rows written before causes were kept.
     */
    failureCause: text("failure_cause", { enum: HISTORY_FAILURE_CAUSES }),
    /**
     * How many attempts in a row this row stands for: a failure that repeats the newest row exactly
     * (status, cause, message, addresses, trigger) within the clock hour of its first attempt is
     * folded into it, `timestamp` becoming the last one's, rather than written again every pass.
     */
    repeatCount: integer("repeat_count").notNull().default(1),
    /** When the first of the folded attempts happened; null for a row that stands for one attempt. */
    firstTimestamp: integer("first_timestamp"),
  },
  (table) => [
    // A domain's newest rows (history reads, retention) and its rows of the last day (provider-stats,
    // which leaves out rows without an address: failed detections are no provider's updates).
    index("history_domain_timestamp").on(
      table.domainId,
      table.timestamp,
      table.status,
      table.durationMs,
      table.ipAddress,
      table.repeatCount,
    ),
    // Everything of the last day (dashboard), covering so the counts never touch the table.
    index("history_timestamp").on(table.timestamp, table.status, table.ipAddress, table.repeatCount),
  ],
);

/** Keys a router sends with its dyndns2 push (docs/api.md, events in and out); only a hash of each key is kept. */
export const updateKeys = sqliteTable("update_keys", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /**
   * SHA-256 (hex) of the key. The key is 256 random bits, so a slow password hash would add nothing
   * against guessing, and a fast one lets every push find its key with one indexed lookup.
   */
  keyHash: text("key_hash").notNull().unique(),
  /** The key's last four characters, for the masked `••••abcd` (4 of 43 random characters give nothing away). */
  keyTail: text("key_tail").notNull(),
  /** The domains the key may push to; null for all of them. */
  domainIds: text("domain_ids", { mode: "json" }).$type<number[] | null>(),
  lastUsedAt: integer("last_used_at"),
  createdAt: integer("created_at").notNull(),
});

/**
 * Keys a certificate client on the LAN sets the ACME DNS-01 challenge of chosen domains with
 * (docs/certificates.md): a username and a password hashed as update keys are (SHA-256 of 256 random bits).
 */
export const acmeKeys = sqliteTable("acme_keys", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** Random, not secret: the acme-dns `X-Api-User` and the httpreq Basic username. */
  username: text("username").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  /** The domains whose `_acme-challenge` name the key may write; never empty. */
  domainIds: text("domain_ids", { mode: "json" }).$type<number[]>().notNull(),
  lastUsedAt: integer("last_used_at"),
  createdAt: integer("created_at").notNull(),
});

/**
 * The challenge values ddnsd holds in DNS for a key, so that cleanup removes exactly its value and
 * acme-dns's "latest two per name" can drop the oldest; kept here so a restart forgets none.
 */
export const acmeValues = sqliteTable("acme_values", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  domainId: integer("domain_id")
    .notNull()
    .references(() => domains.id, { onDelete: "cascade" }),
  /** `_acme-challenge.<hostname>`, lowercase without a trailing dot. */
  name: text("name").notNull(),
  value: text("value").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const API_TOKEN_SCOPES = ["read", "update", "admin"] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

/** Tokens scripts and home automation send as `Authorization: Bearer ddnsd_…` (docs/api.md, API tokens); only a hash of each is kept. */
export const apiTokens = sqliteTable("api_tokens", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** `read` (every GET), `update` (its domains' GETs and forced updates) or `admin` (all but managing tokens). */
  scope: text("scope").$type<ApiTokenScope>().notNull(),
  /** SHA-256 (hex) of the token: 256 random bits, so one indexed lookup finds it and no slow hash is needed. */
  tokenHash: text("token_hash").notNull().unique(),
  /** The token's last four characters, for the masked `ddnsd_••••abcd`. */
  tokenTail: text("token_tail").notNull(),
  /** The domains an `update` token reaches; null for all of them (and for the other scopes). */
  domainIds: text("domain_ids", { mode: "json" }).$type<number[] | null>(),
  /** ms since the epoch; null: never expires. */
  expiresAt: integer("expires_at"),
  /** Written at most once a minute per token, so a polling client does not write on every request. */
  lastUsedAt: integer("last_used_at"),
  createdAt: integer("created_at").notNull(),
});

export const NOTIFICATION_EVENTS = [
  "ip_changed",
  "update_failed",
  "update_recovered",
  "detection_failed",
  "not_served",
  "push_stale",
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

/** Where ddnsd tells a person about address changes and failures (docs/api.md, events in and out). */
export const notifications = sqliteTable("notifications", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  /** A channel's type (notify/registry.ts lists them). */
  type: text("type").notNull(),
  /** The options that are not secret, as given. */
  options: text("options", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  /** AES-256-GCM sealed JSON of the secret options (those the channel marks secret). */
  secrets: text("secrets").notNull(),
  events: text("events", { mode: "json" }).$type<NotificationEvent[]>().notNull(),
  isEnabled: integer("is_enabled", { mode: "boolean" }).notNull().default(true),
  lastSentAt: integer("last_sent_at"),
  lastError: text("last_error"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Where a family's public address comes from, when chosen in the admin pages: it wins over
 * DDNS_IPV4_SOURCE / DDNS_IPV6_SOURCE and their URL lists. No row: the environment's setting.
 */
export const addressSources = sqliteTable("address_sources", {
  /** 4 or 6. */
  family: integer("family").primaryKey(),
  /** `web` (the echo services in `urls`), `dns` (DDNS_IPV4_DNS / DDNS_IPV6_DNS) or `interface` (the interface `interface_name`). */
  kind: text("kind").$type<"web" | "dns" | "interface">().notNull(),
  interfaceName: text("interface_name"),
  /** The echo services asked, in order; null with an interface. */
  urls: text("urls", { mode: "json" }).$type<string[]>(),
  updatedAt: integer("updated_at").notNull(),
});
