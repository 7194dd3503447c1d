// What the core (services, the updater, the registry) throws when it refuses: errors that say what
// went wrong in the appliance's terms, not in HTTP's. Only http/errors.ts turns them into status
// codes, and only the pages (ui/forms.ts `formErrors`) turn them into messages next to a field.

/** A refusal meant for the person who asked: its message is shown as it is. */
export abstract class DomainError extends Error {}

/** The thing named does not exist ("Provider not found"). */
export class NotFound extends DomainError {}

/** The request clashes with what is stored: a duplicate, a provider still in use, a disabled domain. */
export class Conflict extends DomainError {}

/** One field of the input is wrong; `field` is its dotted path (`credentials.api_token`, `config.ttl`). */
export class Invalid extends DomainError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** The input as a whole is unusable (not an object, not JSON): no single field is at fault. */
export class Malformed extends DomainError {}

/** A DNS service refused a write or could not be reached; the message is the service's reason. */
export class ProviderFailed extends DomainError {}

/** The public IP address could not be detected; the message says what the echo services answered. */
export class DetectionFailed extends DomainError {}

/**
 * The data disk is full: what was asked happened (a provider was called) but its outcome waits in
 * memory until there is space again (db/disk.ts). A write refused outright is answered by the error
 * mapping, which sees SQLite's own "database or disk is full".
 */
export class StorageFull extends DomainError {}

export const notFound = (what: string) => new NotFound(what);
export const conflict = (detail: string) => new Conflict(detail);
export const invalidField = (field: string, reason: string) => new Invalid(field, reason);
