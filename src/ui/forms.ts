// Between HTML forms and the services: what a submitted form says (every value as typed, so a
// form that comes back with an error loses nothing), what the services are asked to do with it,
// and the services' own errors turned into messages next to the fields. No rule lives here: the
// services check everything, exactly as for the API.

import type { FormErrors } from "../../views/components";
import { credentialInput, optionInput, serviceFor } from "../../views/fragments/credential-field";
import { notificationType } from "../../views/fragments/notification-fields";
import type { ApiTokenFormValues } from "../../views/pages/api-tokens";
import type { DomainFormValues } from "../../views/pages/domain-form";
import type { NotificationFormValues } from "../../views/pages/notification-form";
import type { ProviderFormValues } from "../../views/pages/provider-form";
import type { UpdateKeyFormValues } from "../../views/pages/update-keys";
import type { ServiceDescription } from "../dns/service";
import { Conflict, Invalid, NotFound } from "../errors";
import type { ApiTokenInput } from "../modules/api-tokens/service";
import type { DomainInput, DomainView } from "../modules/domains/service";
import type { NotificationInput, NotificationView } from "../modules/notifications/service";
import type { ProviderView } from "../modules/providers/service";
import { channelOf, isSecretOption } from "../notify/registry";
import { NOTIFICATION_EVENTS } from "../store/rows";

/** A submitted form or a query string, as Elysia parsed it. */
export type Submitted = unknown;

/** One value as text; the last one when a name repeats, "" when absent. */
export function field(form: Submitted, name: string): string {
  const raw = typeof form === "object" && form !== null ? (form as Record<string, unknown>)[name] : undefined;
  const value = Array.isArray(raw) ? raw.at(-1) : raw;
  return value === undefined || value === null ? "" : String(value);
}

/** Every value of a name that may repeat (a group of checkboxes), in order. */
function fields(form: Submitted, name: string): string[] {
  const raw = typeof form === "object" && form !== null ? (form as Record<string, unknown>)[name] : undefined;
  if (raw === undefined || raw === null) return [];
  return (Array.isArray(raw) ? raw : [raw]).map(String);
}

/** A checkbox: present (whatever its value) means ticked. */
export function checkbox(form: Submitted, name: string): boolean {
  return field(form, name) !== "";
}

/**
 * The form input an error field belongs to (`credentials.api_token` → `credential_api_token`,
 * `options.headers.X-Key` → `option_headers`, `config.ttl` → `ttl`).
 */
function inputName(errorField: string): string {
  const [head, key] = errorField.split(".");
  if (head === "credentials" && key !== undefined) return credentialInput(key);
  if (head === "options" && key !== undefined) return optionInput(key);
  if (head === "config" && key !== undefined) return key;
  return errorField;
}

/**
 * A service's refusal as form errors: an invalid field is shown next to its input; a vanished
 * provider or a duplicate is about the whole form. Anything else is not the user's to fix and propagates.
 */
/** The API's reasons that speak of its own JSON (a null, an id), as a form's words. */
const FORM_WORDS: Record<string, string> = {
  "must name at least one domain; null means all domains": "tick at least one domain, or choose “All domains”",
  "must be a positive integer": "choose one from the list",
};

/** A conflict that is about one field (a name already taken): the field it belongs to. */
const CONFLICT_FIELDS: [RegExp, string][] = [
  [/^A provider named .* already exists$/, "name"],
  [/is already configured on this provider/, "domain_name"],
];

export function formErrors(error: unknown): FormErrors {
  if (error instanceof Invalid)
    return { fields: { [inputName(error.field)]: FORM_WORDS[error.reason] ?? error.reason } };
  if (error instanceof Conflict) {
    const field = CONFLICT_FIELDS.find(([pattern]) => pattern.test(error.message))?.[1];
    if (field !== undefined) return { fields: { [field]: error.message } };
  }
  if (error instanceof NotFound || error instanceof Conflict) return { fields: {}, form: error.message };
  throw error;
}

// Providers

/** The inputs named `<prefix><key>`, by key. */
function prefixed(form: Submitted, prefix: string): Record<string, string> {
  const names = typeof form === "object" && form !== null ? Object.keys(form) : [];
  return Object.fromEntries(
    names.filter((name) => name.startsWith(prefix)).map((name) => [name.slice(prefix.length), field(form, name)]),
  );
}

export function providerValues(form: Submitted): ProviderFormValues {
  return {
    name: field(form, "name"),
    type: field(form, "type"),
    credentials: prefixed(form, credentialInput("")),
    options: prefixed(form, optionInput("")),
    is_enabled: checkbox(form, "is_enabled"),
  };
}

/** "Continue" was pressed: the form is shown again for the chosen type, and nothing is saved. */
export function onlyChangesType(form: Submitted): boolean {
  return field(form, "continue") !== "";
}

/** Header options are edited as "Name: value" lines. */
function headersText(value: unknown): string {
  if (typeof value !== "object" || value === null) return String(value ?? "");
  return Object.entries(value)
    .map(([name, text]) => `${name}: ${String(text)}`)
    .join("\n");
}

/** "Name: value" lines as an object; a line without a colon is passed on as it is, for the service to refuse. */
function headersObject(text: string): Record<string, string> | string {
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/).filter((l) => l.trim() !== "")) {
    const colon = line.indexOf(":");
    if (colon < 1) return text;
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function kindOf(type: string, key: string): string | undefined {
  return serviceFor(type).options.find((option) => option.key === key)?.kind;
}

export function providerValuesOf(provider: ProviderView): ProviderFormValues {
  return {
    name: provider.name,
    type: provider.type,
    credentials: {},
    options: Object.fromEntries(Object.entries(provider.options).map(([key, value]) => [key, headersText(value)])),
    is_enabled: provider.is_enabled,
  };
}

/**
 * The service input. Empty credentials are left out: on edit that keeps the stored ones (the
 * caller asks the service to); on create the service says which are required. Every option of the
 * form is sent (an empty one means "absent"), so an option emptied in the form is removed.
 */
export function providerInput(values: ProviderFormValues): {
  name: string;
  type: string;
  is_enabled: boolean;
  credentials?: Record<string, string>;
  options: Record<string, unknown>;
} {
  const credentials = Object.fromEntries(Object.entries(values.credentials).filter(([, value]) => value.trim() !== ""));
  const options = Object.fromEntries(
    Object.entries(values.options)
      .filter(([, value]) => value.trim() !== "")
      .map(([key, value]) => [key, kindOf(values.type, key) === "headers" ? headersObject(value) : value]),
  );
  return {
    name: values.name,
    type: values.type,
    is_enabled: values.is_enabled,
    ...(Object.keys(credentials).length === 0 ? {} : { credentials }),
    options,
  };
}

// Domains

export function domainValues(form: Submitted): DomainFormValues {
  return {
    provider_id: field(form, "provider_id"),
    domain_name: field(form, "domain_name"),
    record_type: field(form, "record_type") || "A",
    cron_schedule: field(form, "cron_schedule"),
    ttl: field(form, "ttl"),
    proxied: field(form, "proxied"),
    create_if_missing: checkbox(form, "create_if_missing"),
    is_enabled: checkbox(form, "is_enabled"),
    zone_id: field(form, "zone_id"),
    external_id: field(form, "external_id"),
    ipv6_suffix: field(form, "ipv6_suffix"),
    ipv6_prefix_length: field(form, "ipv6_prefix_length"),
    address_source: field(form, "address_source"),
    fixed_address: field(form, "fixed_address"),
    more_sources: field(form, "more_sources"),
    addresses_mode: field(form, "addresses_mode"),
  };
}

export function domainValuesOf(domain: DomainView): DomainFormValues {
  const { ttl, proxied, create_if_missing, zone_id, ipv6_suffix, ipv6_prefix_length } = domain.config;
  const [first, ...more] =
    typeof domain.address_source === "string" ? [domain.address_source] : (domain.address_source ?? []);
  return {
    provider_id: String(domain.provider_id),
    domain_name: domain.domain_name,
    record_type: domain.record_type,
    cron_schedule: domain.cron_schedule ?? "",
    ttl: ttl === undefined ? "" : String(ttl),
    proxied: proxied === undefined ? "" : String(proxied),
    create_if_missing: create_if_missing !== false,
    is_enabled: domain.is_enabled,
    zone_id: typeof zone_id === "string" ? zone_id : "",
    external_id: domain.external_id ?? "",
    ipv6_suffix: typeof ipv6_suffix === "string" ? ipv6_suffix : "",
    ipv6_prefix_length: ipv6_prefix_length === undefined ? "" : String(ipv6_prefix_length),
    // A fixed address is shown as the "fixed" choice with its address in the field below it; a
    // list's first source there too, and the others one a line below.
    address_source: first?.startsWith("fixed:") ? "fixed" : (first ?? ""),
    fixed_address: first?.startsWith("fixed:") ? first.slice("fixed:".length) : "",
    more_sources: more.join("\n"),
    addresses_mode: domain.config.addresses === "first" ? "first" : "all",
  };
}

/** The form's sources as the API takes them: the chosen one, followed by each further line; null for the system's. */
function sourcesOf(values: DomainFormValues): string | string[] | null {
  const chosen =
    values.address_source === "fixed"
      ? `fixed:${values.fixed_address.trim()}`
      : values.address_source === ""
        ? null
        : values.address_source;
  const more = values.more_sources
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (more.length === 0) return chosen;
  return chosen === null ? more : [chosen, ...more];
}

/** Sets a config key, or removes it when the form left it empty (meaning: the default). */
function setOrRemove(config: Record<string, unknown>, key: string, value: unknown): void {
  if (value === undefined) delete config[key];
  else config[key] = value;
}

/**
 * The service input: the whole form, as a full update. The form's config keys are laid over the
 * domain's current config, so keys the form doesn't show are kept. Text that isn't a number or
 * a boolean is passed on as it is, for the service to refuse with its own message.
 */
export function domainInput(
  values: DomainFormValues,
  currentConfig: Record<string, unknown> = {},
  /** The chosen provider's service: the options it has not (a TTL, a proxy) are neither shown nor stored. */
  service?: ServiceDescription,
): DomainInput & { provider_id: number; domain_name: string } {
  const config = { ...currentConfig };
  const ttl = values.ttl.trim();
  const hasTtl = service === undefined || service.ttl !== null;
  const hasProxy = service === undefined || service.proxy !== undefined;
  setOrRemove(config, "ttl", ttl === "" || !hasTtl ? undefined : /^\d+$/.test(ttl) ? Number(ttl) : ttl);
  setOrRemove(
    config,
    "proxied",
    values.proxied === "" || !hasProxy
      ? undefined
      : values.proxied === "true"
        ? true
        : values.proxied === "false"
          ? false
          : values.proxied,
  );
  setOrRemove(config, "zone_id", values.zone_id.trim() === "" ? undefined : values.zone_id.trim());
  // The mode means something only beside further sources: a form with one source keeps the config as it was.
  setOrRemove(
    config,
    "addresses",
    values.more_sources.trim() === "" ? undefined : values.addresses_mode === "first" ? "first" : "all",
  );
  // Offered only where the service can create a record: elsewhere it is neither shown nor stored.
  setOrRemove(config, "create_if_missing", service?.createsRecords === false ? undefined : values.create_if_missing);
  // Set through the API or the config file; a domain moved to a service that keeps its records drops it.
  if (service !== undefined && service.keepAlive === undefined) delete config.refresh_every;
  // The suffix fields only apply to an AAAA record; for an A record they are hidden and ignored
  // (a domain changed from AAAA to A loses them rather than being refused).
  const aaaa = values.record_type === "AAAA";
  const suffix = values.ipv6_suffix.trim();
  const prefixLength = values.ipv6_prefix_length.trim();
  setOrRemove(config, "ipv6_suffix", aaaa && suffix !== "" ? suffix : undefined);
  setOrRemove(
    config,
    "ipv6_prefix_length",
    aaaa && prefixLength !== "" ? (/^\d+$/.test(prefixLength) ? Number(prefixLength) : prefixLength) : undefined,
  );
  return {
    provider_id: Number(values.provider_id),
    domain_name: values.domain_name,
    record_type: values.record_type,
    cron_schedule: values.cron_schedule,
    config,
    external_id: values.external_id,
    is_enabled: values.is_enabled,
    address_source: sourcesOf(values),
  };
}

// Update keys

export function updateKeyValues(form: Submitted): UpdateKeyFormValues {
  return {
    name: field(form, "name"),
    scope: field(form, "scope") === "chosen" ? "chosen" : "all",
    domain_ids: fields(form, "domain_ids"),
  };
}

/**
 * The service input: `null` for all domains; the ticked ones otherwise (none ticked is sent as an
 * empty list, which the service refuses with its own words; a value that is no id, only a
 * tampered form sends, counts as not ticked).
 */
export function updateKeyInput(values: UpdateKeyFormValues): { name: string; domain_ids: number[] | null } {
  return {
    name: values.name,
    domain_ids:
      values.scope === "all"
        ? null
        : values.domain_ids
            // One tick box a name sends its records' ids together ("3,4").
            .flatMap((ids) => ids.split(","))
            .filter((id) => /^[1-9]\d{0,15}$/.test(id))
            .map(Number),
  };
}

// API tokens

export function apiTokenValues(form: Submitted): ApiTokenFormValues {
  const scope = field(form, "scope");
  return {
    name: field(form, "name"),
    scope: scope === "update" || scope === "admin" ? scope : "read",
    domains: field(form, "domains") === "chosen" ? "chosen" : "all",
    domain_ids: fields(form, "domain_ids"),
    expires_on: field(form, "expires_at").trim(),
  };
}

/** The service input: the domains as an update key's; a day of expiry as its start in UTC (a wrong one is the service's to refuse). */
export function apiTokenInput(values: ApiTokenFormValues): ApiTokenInput {
  const { domain_ids } = updateKeyInput({ name: values.name, scope: values.domains, domain_ids: values.domain_ids });
  return {
    name: values.name,
    scope: values.scope,
    domain_ids: values.scope === "update" ? domain_ids : null,
    expires_at: values.expires_on === "" ? null : `${values.expires_on}T00:00:00Z`,
  };
}

// Notifications

export function notificationValues(form: Submitted): NotificationFormValues {
  return {
    name: field(form, "name"),
    type: field(form, "type"),
    options: prefixed(form, optionInput("")),
    events: fields(form, "events"),
    is_enabled: checkbox(form, "is_enabled"),
  };
}

/**
 * A new notification's type: ntfy, a push to the phone through its free app, with one field (the
 * topic's URL) and no account or server of one's own, which is what a home user most likely wants;
 * a webhook needs something that receives it.
 */
export const DEFAULT_NOTIFICATION_TYPE = "ntfy";

/** A new notification's form: every event, enabled, of the type asked for (else the default). */
export function newNotificationValues(type: string): NotificationFormValues {
  const chosen = type !== "" && notificationType(type) === type ? type : DEFAULT_NOTIFICATION_TYPE;
  return { name: "", type: chosen, options: {}, events: [...NOTIFICATION_EVENTS], is_enabled: true };
}

/** The stored notification as form values: its plain options; its secrets stay out (only their masks are shown). */
export function notificationValuesOf(notification: NotificationView): NotificationFormValues {
  const plain = Object.entries(notification.options).filter(([key]) => !isSecretOption(notification.type, key));
  return {
    name: notification.name,
    type: notification.type,
    options: Object.fromEntries(plain.map(([key, value]) => [key, headersText(value)])),
    events: notification.events,
    is_enabled: notification.is_enabled,
  };
}

/**
 * The service input. Only the chosen type's options are sent (a field the form no longer shows
 * can't be at fault); an empty one is left out, except an empty secret on edit, which is sent as
 * its stored mask so the service keeps the stored value.
 */
export function notificationInput(
  values: NotificationFormValues,
  stored?: NotificationView,
): Required<Omit<NotificationInput, "type">> & { type: string } {
  const type = notificationType(values.type);
  const options: Record<string, unknown> = {};
  for (const { key, kind, secret } of channelOf(type).options) {
    const typed = (values.options[key] ?? "").trim();
    if (typed !== "") options[key] = kind === "headers" ? headersObject(typed) : typed;
    else if (secret && stored?.type === values.type && stored.options[key] !== undefined)
      options[key] = stored.options[key];
  }
  return { name: values.name, type: values.type, options, events: values.events, is_enabled: values.is_enabled };
}
