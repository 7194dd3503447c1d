// The rows the store hands out, as plain types: what the services, the updater, the notifier and the
// pages see of the database. They are written out here (not drizzle's `$inferSelect`) so that no part
// above the store depends on drizzle's types; the checks at the bottom keep them equal to the tables
// of db/schema.ts, so a column added there fails the type check until it is added here too.

import type {
  ApiTokenScope,
  acmeKeys,
  acmeValues,
  addressSources,
  apiTokens,
  domains,
  HistoryFailureCause,
  HistoryTrigger,
  history,
  NotificationEvent,
  notifications,
  providers,
  updateKeys,
  users,
} from "../db/schema";

export {
  API_TOKEN_SCOPES,
  type ApiTokenScope,
  HISTORY_FAILURE_CAUSES,
  HISTORY_TRIGGERS,
  type HistoryFailureCause,
  type HistoryTrigger,
  NOTIFICATION_EVENTS,
  type NotificationEvent,
} from "../db/schema";

/** An admin. Times are epoch milliseconds throughout. */
export interface UserRow {
  id: number;
  username: string;
  passwordHash: string;
  /** Tokens issued before this are refused (a password change, a sign-out everywhere). */
  tokensValidAfter: number | null;
  /** The pages' language chosen (a BCP 47 tag of ours), or null: the browser's. */
  language: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A DNS service account; `credentials` stay sealed (security/), `options` are the service's plain settings. */
export interface ProviderRow {
  id: number;
  name: string;
  type: string;
  credentials: string;
  options: Record<string, unknown>;
  isEnabled: boolean;
  /** The end of a pause a "slow down" asked for. */
  pausedUntil: number | null;
  lastVerifiedAt: number | null;
  lastVerifyOk: boolean | null;
  lastVerifyDetail: string | null;
  /** A failed check's cause, for the pages' wording; null otherwise. */
  lastVerifyCause: "unreachable" | "credentials" | "refused" | "throttled" | null;
  createdAt: number;
  updatedAt: number;
}

/** One record kept on the public address: a name, its type, at one provider. */
export interface DomainRow {
  id: number;
  providerId: number;
  domainName: string;
  recordType: "A" | "AAAA";
  isEnabled: boolean;
  /** The service's id of the record set last written, a hint of where to look first. */
  externalId: string | null;
  config: Record<string, unknown>;
  cronSchedule: string | null;
  /** Where the record's address comes from (`address_source`): null for the system's source of its family. */
  addressSource: string | null;
  /** The newest address a router pushed for the record, and when. */
  pushedIp: string | null;
  pushedAt: number | null;
  lastKnownIp: string | null;
  /**
   * The addresses ddnsd last wrote for a domain with several sources (`last_known_ip` is the first):
   * the only ones a later write may remove. Null for one source, and until first written.
   */
  addresses: string[] | null;
  lastUpdateStatus: "SUCCESS" | "FAILED" | null;
  lastCheckedAt: number | null;
  lastChangedAt: number | null;
  nextRunAt: number | null;
  failureCount: number;
  createdAt: number;
  updatedAt: number;
}

/** What one update came to. */
export interface HistoryRow {
  id: number;
  timestamp: number;
  domainId: number;
  ipAddress: string | null;
  previousIp: string | null;
  /** Every address the write meant the record to hold (`ipAddress` first); null for one address. */
  addresses: string[] | null;
  status: "SUCCESS" | "FAILED";
  message: string;
  trigger: HistoryTrigger;
  durationMs: number;
  failureCause: HistoryFailureCause | null;
  /** How many attempts in a row this row stands for (an identical failure is folded into it). */
  repeatCount: number;
  /** When the first folded attempt happened; null for a row of one attempt. */
  firstTimestamp: number | null;
}

/** A router's key for `/nic/update`, kept as a hash and its last characters. */
export interface UpdateKeyRow {
  id: number;
  name: string;
  keyHash: string;
  keyTail: string;
  /** The domains it may update; null for all. */
  domainIds: number[] | null;
  lastUsedAt: number | null;
  createdAt: number;
}

/** A certificate client's key (docs/certificates.md): its password kept only as a hash. */
export interface AcmeKeyRow {
  id: number;
  name: string;
  username: string;
  passwordHash: string;
  domainIds: number[];
  lastUsedAt: number | null;
  createdAt: number;
}

/** A challenge value ddnsd holds in DNS for a certificate client. */
export interface AcmeValueRow {
  id: number;
  domainId: number;
  name: string;
  value: string;
  createdAt: number;
}

/** A script's or home automation's API token, kept as a hash and its last characters. */
export interface ApiTokenRow {
  id: number;
  name: string;
  scope: ApiTokenScope;
  tokenHash: string;
  tokenTail: string;
  /** The domains an `update` token reaches; null for all. */
  domainIds: number[] | null;
  expiresAt: number | null;
  lastUsedAt: number | null;
  createdAt: number;
}

/** A notification channel; `secrets` stay sealed. */
export interface NotificationRow {
  id: number;
  name: string;
  type: string;
  options: Record<string, unknown>;
  secrets: string;
  events: NotificationEvent[];
  isEnabled: boolean;
  lastSentAt: number | null;
  lastError: string | null;
  createdAt: number;
  updatedAt: number;
}

/** Where one family's public address comes from, as set in the pages or the API. */
export interface AddressSourceRow {
  /** 4 or 6. */
  family: number;
  kind: "web" | "dns" | "interface";
  interfaceName: string | null;
  urls: string[] | null;
  updatedAt: number;
}

// Each row type is exactly the table's row: these fail to compile when the two drift apart.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const rowsMatchTables: [
  Same<UserRow, typeof users.$inferSelect>,
  Same<ProviderRow, typeof providers.$inferSelect>,
  Same<DomainRow, typeof domains.$inferSelect>,
  Same<HistoryRow, typeof history.$inferSelect>,
  Same<UpdateKeyRow, typeof updateKeys.$inferSelect>,
  Same<ApiTokenRow, typeof apiTokens.$inferSelect>,
  Same<NotificationRow, typeof notifications.$inferSelect>,
  Same<AddressSourceRow, typeof addressSources.$inferSelect>,
  Same<AcmeKeyRow, typeof acmeKeys.$inferSelect>,
  Same<AcmeValueRow, typeof acmeValues.$inferSelect>,
] = [true, true, true, true, true, true, true, true, true, true];
void rowsMatchTables;
