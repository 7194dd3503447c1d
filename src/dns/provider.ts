// The one interface every DNS service client implements. Outcomes are values, not exceptions:
// the updater turns them into history rows, and a thrown error would lose the provider's reason.

export type RecordType = "A" | "AAAA";
export type ProviderType = "cloudflare" | "dynu";

/** The `fetch` a client uses; tests hand in the global one pointed at a fake on 127.0.0.1. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface ProviderClientOptions {
  /** API base without a trailing slash, e.g. `https://api.cloudflare.com/client/v4`. */
  baseUrl: string;
  fetch: FetchLike;
  /** Applied to every single request (`AbortSignal.timeout`). */
  timeoutMs: number;
}

/** A domain's settings as they matter to the provider (CONTRACT §4 `config`). */
export interface RecordConfig {
  /** Cloudflare zone id, or the id of the Dynu domain that holds the record. */
  zone_id?: string;
  proxied?: boolean;
  ttl?: number;
  create_if_missing?: boolean;
  [key: string]: unknown;
}

export interface RecordTarget {
  /** Lowercase, punycode, no trailing dot. */
  hostname: string;
  recordType: RecordType;
  /** The provider's id of the record (or Dynu domain), when known from an earlier write. */
  externalId: string | null;
  config: RecordConfig;
}

export type WriteOutcome =
  | {
      ok: true;
      /** What was done: "updated", or "created" when the record did not exist yet. */
      action: "updated" | "created";
      /** The record's id at the provider, to save as the domain's `external_id`. */
      externalId: string;
      /** The zone/domain id discovered or confirmed, to save as `config.zone_id`. */
      zoneId: string;
      message: string;
    }
  | {
      ok: false;
      /** The provider's own reason, e.g. "Cloudflare: Invalid access token (code 9109, HTTP 403)". */
      message: string;
      /** Seconds to wait before calling this provider again (HTTP 429 `Retry-After`). */
      retryAfterSeconds?: number;
    };

export interface VerifyOutcome {
  ok: boolean;
  detail: string;
}

export interface DnsProvider {
  /** Checks the credentials; never changes anything. */
  verify(): Promise<VerifyOutcome>;
  /** Points the record at `ip`, creating it when missing unless `create_if_missing` is false. Never deletes. */
  writeRecord(target: RecordTarget, ip: string): Promise<WriteOutcome>;
}
