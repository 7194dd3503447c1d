// What one DNS service module exports: everything ddnsd knows about that service, in one object.
// The registry (registry.ts) lists these; the provider type union, the API schemas and OpenAPI
// enums, validation, masking, the `DDNS_<TYPE>_API_URL` settings, the admin forms' fields and help,
// and the labels are all derived from it, so adding a service touches only its own module, its
// fake, its tests and one registry line.

import type { FetchLike } from "../net/outbound";
import type { DnsProvider, RecordType } from "./provider";

/** One key of a provider's `credentials` object. Every credential is sealed at rest. */
export interface CredentialField {
  /** The key in `credentials`, e.g. `api_token`. */
  key: string;
  /** What the form calls it, e.g. "API token". */
  label: string;
  /** Where in the service's own control panel it is made, with the least permissions that work. Plain text. */
  help: string;
  /** The service's page where it is made (the form links it beside the help). */
  url?: string;
  /** Other keys accepted for it on input (`token` for Cloudflare's `api_token`); stored under `key`. */
  aliases?: readonly string[];
  /**
   * Whether the value is a secret: masked in answers (`••••3f9a`) and never rendered in a form. A
   * non-secret credential (a dyndns2 username, an AWS access key id) is still sealed, but shown as is.
   */
  secret: boolean;
  /**
   * The longest value accepted, where a service's credential cannot fit the usual 1,024 characters
   * (a Google Cloud service account's JSON key holds a 2048-bit RSA key); absent: 1,024.
   */
  maxChars?: number;
  /** A missing or empty optional key is simply left out (`custom`'s `secret`). */
  optional?: boolean;
  /** What is wrong with a given value (the 422's message, e.g. "must be base64"); undefined when it is fine. */
  validate?(value: string): string | undefined;
}

/** One key of a provider's `options` object (docs/services/README.md): non-secret settings, returned as stored. */
export interface OptionField {
  key: string;
  label: string;
  help: string;
  /**
   * `url`: an http(s) URL; `host`: a host name or IP address with an optional `:port` (a name
   * server); `text`: one line; `choice`: one of `choices`; `template`: free text with placeholders;
   * `headers`: an object of header name → value.
   */
  kind: "url" | "host" | "text" | "choice" | "template" | "headers";
  required?: boolean;
  choices?: readonly string[];
  /** Used when the option is absent. */
  default?: string;
  /** Well-known values the form offers to fill in (dyndns2 update servers). */
  presets?: readonly { label: string; value: string }[];
  /** For `text`: what is wrong with a value beyond its kind (the 422's message); undefined when it is fine. */
  validate?(value: string): string | undefined;
}

/** The TTLs a service accepts; `null` on the description when the service sets the TTL itself. */
export interface TtlRule {
  min: number;
  max: number;
  /** A value meaning "the service decides" (Cloudflare's `1`), accepted besides `min`–`max`. */
  automatic?: number;
  /** For the form, e.g. "1 (automatic) or 60–86400 seconds; empty keeps the record's TTL". */
  help: string;
}

/** A constraint on the hostname beyond "a fully qualified name" (DuckDNS: under `duckdns.org`). */
export interface HostnameRule {
  /** The name must end in this, e.g. `.duckdns.org`. */
  suffix: string;
  /** The 422's message and the form's help, e.g. "must end in .duckdns.org". */
  message: string;
}

/**
 * One window of a service's documented request limits; the registry paces each provider's requests
 * under every window of its service at once, so a large change never bursts past any of them. E.g.
 * Cloudflare 1200 per 300 s, Porkbun about 1 per second, deSEC per second, per hour and per day.
 */
export interface RateLimit {
  requests: number;
  perSeconds: number;
}

/** What a client factory is handed besides the credentials and options. */
export interface ClientContext {
  /**
   * API base without a trailing slash: the `DDNS_<TYPE>_API_URL` setting (or its default); empty for a
   * service without one (its options name the address).
   */
  baseUrl: string;
  fetch: FetchLike;
  /** Applied to every single request (`AbortSignal.timeout`). */
  timeoutMs: number;
  /** `ddnsd/<version>`: services such as No-IP block clients without an identifying User-Agent. */
  userAgent: string;
}

export interface ServiceDescription<Type extends string = string> {
  /** The provider `type`, e.g. `cloudflare`. */
  type: Type;
  /** The service's name for people, e.g. "Cloudflare". */
  label: string;
  /** One short paragraph for the form: what this type is for (plain text). */
  summary: string;
  credentials: readonly CredentialField[];
  options: readonly OptionField[];
  recordTypes: readonly RecordType[];
  ttl: TtlRule | null;
  hostname?: HostnameRule;
  /**
   * The service can send a record's traffic through its own proxy (a domain's `config.proxied`,
   * docs/api.md, domains): what the domain form calls that switch, and its help.
   */
  proxy?: { label: string; help: string };
  /**
   * Whether `verify` can check the credentials without writing a record. When false, verify answers
   * `{ok: null, detail: verifyUnavailable}` and the client is not called.
   */
  canVerify: boolean;
  /**
   * False for a service that only updates a name it already holds (one request to its update URL:
   * DuckDNS, dyndns2 …): a domain's `create_if_missing` means nothing there, and the form does not
   * offer it. Absent: the service can create a missing record. Never written by hand: a one-shot
   * service's description takes it from its policy (`oneShotService`, one-shot-policy.ts).
   */
  createsRecords?: false;
  /**
   * A one-shot service can be sent a record's unchanged address again, to keep a host that the
   * service retires when nobody updates it (a domain's `config.refresh_every`, updater/refresh.ts).
   * Absent for a zone service: its records stay whether written or not. `byDefault`: the period in
   * seconds used when the domain sets none, for the provider's options, only where the service's
   * own documentation says idle hosts expire (its page in docs/services/ names the source); null
   * where it does not. Never written by hand: a one-shot service's description takes it from its
   * policy (`oneShotService`, one-shot-policy.ts).
   */
  keepAlive?: { byDefault(options: Record<string, unknown>): number | null };
  /**
   * The service can hold TXT records and ddnsd writes one value of them at a time (the client's
   * `writeTxt`): certificate keys may be made for its domains (docs/certificates.md). Absent: it cannot.
   */
  holdsTxt?: true;
  /**
   * The service holds several addresses for one name and ddnsd writes them as one set (the zone
   * client's `writeAddressSet`): a domain with a list of sources may publish them all
   * (`config.addresses` "all"). Absent: one address per name ("first" still works).
   */
  holdsAddressSets?: true;
  /** Why verify cannot check (only when `canVerify` is false). */
  verifyUnavailable?: string;
  /**
   * The `DDNS_<TYPE>_API_URL` default: the real service. Absent for a service whose address is one
   * of its options (dyndns2's `server`, custom's `url`): it has no such setting.
   */
  defaultApiUrl?: string;
  /**
   * The name server the service writes to, from the provider's options (`host` or `host:port`), where
   * it has one (RFC 2136's server, PowerDNS's): asked whether it serves a record written, beside the
   * zone's NS set (updater/propagation.ts).
   */
  nameServer?(options: Record<string, unknown>): string | null;
  /** Every window is enforced at once (deSEC documents four); absent or empty: not paced. */
  rateLimits?: readonly RateLimit[];
  /**
   * The client. `credentials` arrive normalised: every non-optional key present under its own name
   * (aliases resolved); `options` validated, with defaults applied.
   */
  createClient(
    credentials: Record<string, string>,
    options: Record<string, unknown>,
    context: ClientContext,
  ): DnsProvider;
}

/**
 * A TTL rule whose help is worded from its range, the same way for every service: "60–86400
 * seconds; empty keeps the record's TTL (300 for a new record)". `newRecord`: what a record ddnsd
 * creates gets when the domain names no TTL (seconds, or words such as "the zone's default");
 * `note`: what the service does with a TTL inside the range (rounds it, refuses some on a plan);
 * `automatic`: a value beside the range that leaves the TTL to the service, and what it means.
 */
export function ttlRange(
  min: number,
  max: number,
  newRecord?: number | string,
  said: { note?: string; automatic?: { value: number; meaning: string } } = {},
): TtlRule {
  const automatic = said.automatic === undefined ? "" : `${said.automatic.value} (${said.automatic.meaning}) or `;
  const note = said.note === undefined ? "" : `, ${said.note}`;
  const created = newRecord === undefined ? "" : ` (${newRecord} for a new record)`;
  return {
    min,
    max,
    ...(said.automatic === undefined ? {} : { automatic: said.automatic.value }),
    help: `${automatic}${min}–${max} seconds${note}; empty keeps the record's TTL${created}`,
  };
}

/**
 * A description's answer for a service that cannot check credentials without writing a record: the
 * two facts go together (`canVerify` false, and why), so they are written as one.
 */
export function cannotCheck(why: string): { canVerify: false; verifyUnavailable: string } {
  return { canVerify: false, verifyUnavailable: why };
}

/** Keeps `type` as a literal, so the registry can derive the `ProviderType` union from its list. */
export function defineService<const Type extends string>(
  description: ServiceDescription<Type>,
): ServiceDescription<Type> {
  return description;
}
