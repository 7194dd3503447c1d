// The drizzle tables. Times are integer milliseconds since the epoch (compact, fast to compare
// in the metrics queries); the API turns them into ISO 8601 strings.

import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const providers = sqliteTable(
  "providers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    type: text("type", { enum: ["cloudflare", "dynu"] }).notNull(),
    /** AES-256-GCM sealed JSON of the credentials (see security/secrets.ts). */
    credentials: text("credentials").notNull(),
    isEnabled: integer("is_enabled", { mode: "boolean" }).notNull().default(true),
    /** No call to this provider before this time (a 429's Retry-After). */
    pausedUntil: integer("paused_until"),
    /** The newest credential check (POST …/verify, or the admin pages' save): when, and its answer. */
    lastVerifiedAt: integer("last_verified_at"),
    lastVerifyOk: integer("last_verify_ok", { mode: "boolean" }),
    lastVerifyDetail: text("last_verify_detail"),
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
    lastUpdateStatus: text("last_update_status", { enum: ["SUCCESS", "FAILED"] }),
    lastCheckedAt: integer("last_checked_at"),
    lastChangedAt: integer("last_changed_at"),
    nextRunAt: integer("next_run_at"),
    /** Failed attempts in a row; drives the retry backoff and resets on success. */
    failureCount: integer("failure_count").notNull().default(0),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (table) => [
    uniqueIndex("domains_provider_name_type").on(table.providerId, table.domainName, table.recordType),
    index("domains_next_run_at").on(table.nextRunAt),
  ],
);

export const history = sqliteTable(
  "history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    domainId: integer("domain_id")
      .notNull()
      .references(() => domains.id),
    ipAddress: text("ip_address"),
    previousIp: text("previous_ip"),
    status: text("status", { enum: ["SUCCESS", "FAILED"] }).notNull(),
    message: text("message").notNull(),
    trigger: text("trigger", { enum: ["manual", "schedule"] }).notNull(),
    durationMs: integer("duration_ms").notNull(),
    timestamp: integer("timestamp").notNull(),
  },
  (table) => [
    // A domain's newest rows (history reads, retention) and its rows of the last day (provider-stats).
    index("history_domain_timestamp").on(table.domainId, table.timestamp, table.status, table.durationMs),
    // Everything of the last day (dashboard), covering so the counts never touch the table.
    index("history_timestamp").on(table.timestamp, table.status, table.ipAddress),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type ProviderRow = typeof providers.$inferSelect;
export type DomainRow = typeof domains.$inferSelect;
export type HistoryRow = typeof history.$inferSelect;
