// The one interface every DNS service client implements. Outcomes are values, not exceptions:
// the updater turns them into history rows, and a thrown error would lose the provider's reason.

export type RecordType = "A" | "AAAA";

/** A domain's settings as they matter to the provider (docs/api.md, domains `config`). */
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
  /**
   * The provider's id of the record (or Dynu domain): saved by an earlier write, or set by the user
   * (the API and the form accept it), who may name any record of the account, even another one. So
   * it is never written through: at most a hint of where to look first (`ZoneApi.readRecordSet`).
   */
  externalId: string | null;
  config: RecordConfig;
  /**
   * The address each other family's domain of the same hostname at the same provider holds now (its
   * last written address, else the one detected for it): a one-shot service that treats a hostname as
   * one thing is told both, so that updating one family does not delete the other. Absent: none.
   */
  siblings?: Addresses;
  /**
   * A domain with several sources (docs/operations.md, "Several addresses for one name"): every
   * address the record is to hold (`wanted`, the written `ip` first), and the ones ddnsd wrote for it
   * before (`published`; null when never written, so the record's addresses are taken as its own).
   * Only those may be removed; any other address the name holds is left alone. Absent: one address.
   */
  addressSet?: { wanted: readonly string[]; published: readonly string[] | null };
}

/** A hostname's addresses, one per family; a family ddnsd does not manage is absent. */
export interface Addresses {
  ipv4?: string;
  ipv6?: string;
}

/**
 * Why a write failed, as a person acting on it needs to know: the pages word each differently, and
 * only `throttled` pauses the provider.
 * - `unreachable`: no usable answer (network, DNS, TLS, timeout, the service's own server error);
 * - `credentials`: the service refused the credentials (HTTP 401/403, a bad TSIG key …);
 * - `refused`: the service refused the request, in its own words;
 * - `throttled`: the service asked to slow down (a 429, a quota answer).
 */
export type FailureCause = "unreachable" | "credentials" | "refused" | "throttled";

export type WriteOutcome =
  | {
      ok: true;
      /**
       * What was done: "updated", "created" when the record did not exist yet, or "unchanged" when
       * the service already held the address (and the settings asked for): nothing was written.
       */
      action: "updated" | "created" | "unchanged";
      /** The record's id at the provider, to save as the domain's `external_id`. */
      externalId: string;
      /** The zone/domain id discovered or confirmed, to save as `config.zone_id`; "" for a service without zones. */
      zoneId: string;
      /**
       * Only what the updater's own sentence ("Updated home.example.com A → 203.0.113.7") does not
       * already say: the record as the service now holds it, e.g. "Cloudflare record 3f9a…, ttl auto,
       * proxied". Never repeats the hostname, type, address or action.
       */
      message: string;
      /**
       * The addresses the record held before this call, as the service was read ([] when the name had
       * none); absent where the service cannot be read (the one-shot services). A record changed
       * outside ddnsd shows here: the updater's `previous_ip` and `changed` follow it.
       */
      held?: readonly string[];
      /** With `addressSet`: addresses the name holds that someone else added, left alone beside ddnsd's. */
      foreign?: readonly string[];
      /** With `addressSet`: addresses ddnsd published before and removed now. */
      removed?: readonly string[];
    }
  | {
      ok: false;
      /** The provider's own reason, e.g. "Cloudflare: Invalid access token (code 9109, HTTP 403)". */
      message: string;
      cause: FailureCause;
      /**
       * With `throttled`: the wait the service named (a `Retry-After`, a reset time), in seconds. A
       * client never invents one; the updater decides the pause (updater/pauses.ts).
       */
      retryAfterSeconds?: number;
      /**
       * The service said retrying cannot succeed (dyndns2 `badauth`, `nohost`, `abuse` …): no further
       * attempt until the domain or its provider is edited. Services ban clients that keep trying.
       */
      stopRetrying?: boolean;
    };

type WriteFailure = Extract<WriteOutcome, { ok: false }>;

/**
 * One step of a client's work (find the zone, read a record set …): its value, or why it failed, as
 * the write's outcome would say it. `staleZone`: the zone id used names nothing (any more), so the
 * zone is looked up afresh once. Neither mark reaches the updater.
 */
export type Step<T> = { ok: true; value: T } | StepFailure;
export type StepFailure = WriteFailure & {
  staleZone?: boolean;
  /** The HTTP status of the answer that failed, for the service's own reading (a 404 that means "none"). */
  status?: number;
};

export interface VerifyOutcome {
  ok: boolean;
  detail: string;
  /**
   * Why a check failed, as a write's failure would say it: the service could not be reached, it
   * refused the credentials, or it refused the request. Absent on a failed check: the credentials.
   */
  cause?: FailureCause;
}

/**
 * One ACME DNS-01 challenge value added to or removed from a name's TXT record set
 * (docs/certificates.md); the name's other TXT values are never touched.
 */
export interface TxtChange {
  /** The domain's hostname, whose zone holds `name`. */
  hostname: string;
  /** `_acme-challenge.<hostname>`, lowercase without a trailing dot. */
  name: string;
  value: string;
  action: "add" | "remove";
  config: RecordConfig;
  /**
   * The values ddnsd wrote at `name` and has not removed since, oldest first. A service that holds
   * one TXT value per name, each write replacing it (DuckDNS), holds the newest of them.
   */
  written: readonly string[];
}

export interface DnsProvider {
  /** Checks the credentials; never changes anything. */
  verify(): Promise<VerifyOutcome>;
  /**
   * Adds or removes one TXT value, leaving the name's other values as they are: present exactly on
   * the services whose description says `holdsTxt`. "unchanged" when the value already was (or was not) there.
   */
  writeTxt?(change: TxtChange): Promise<WriteOutcome>;
  /** Points the record at `ip`, creating it when missing unless `create_if_missing` is false. Never deletes. */
  writeRecord(target: RecordTarget, ip: string): Promise<WriteOutcome>;
  /**
   * The names of the account's zones, where the service lists them (a zone service with
   * `listZones`): the domain form offers them for the hostname and catches a zone typed wrong.
   */
  listZones?(): Promise<Step<string[]>>;
  /**
   * Every call is a write: the service cannot be read (the one-shot services), so asking whether it
   * holds an address means sending the address again, which such services may count as abuse.
   */
  writesBlind?: true;
  /**
   * The client writes several addresses for one name as one set (`RecordTarget.addressSet` with more
   * than one address): exactly the services whose description says `holdsAddressSets`.
   */
  writesAddressSets?: true;
}
