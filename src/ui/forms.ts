// Between HTML forms and the services: what a submitted form says (every value as typed, so a
// form that comes back with an error loses nothing), what the services are asked to do with it,
// and the services' own errors turned into messages next to the fields. No rule lives here: the
// services check everything, exactly as for the API.

import type { DomainInput, DomainView } from "../modules/domains/service";
import type { ProviderView } from "../modules/providers/service";
import { HttpError } from "../http/errors";
import type { FormErrors } from "../../views/components";
import type { DomainFormValues } from "../../views/pages/domain-form";
import type { ProviderFormValues } from "../../views/pages/provider-form";

/** A submitted form or a query string, as Elysia parsed it. */
export type Submitted = unknown;

/** One value as text; the last one when a name repeats, "" when absent. */
export function field(form: Submitted, name: string): string {
  const raw = typeof form === "object" && form !== null ? (form as Record<string, unknown>)[name] : undefined;
  const value = Array.isArray(raw) ? raw.at(-1) : raw;
  return value === undefined || value === null ? "" : String(value);
}

/** A checkbox: present (whatever its value) means ticked. */
export function checkbox(form: Submitted, name: string): boolean {
  return field(form, name) !== "";
}

/** The form input an error field belongs to (`credentials.api_token` → `credential`, `config.ttl` → `ttl`). */
function inputName(errorField: string): string {
  if (errorField.startsWith("credentials.")) return "credential";
  if (errorField.startsWith("config.")) return errorField.slice("config.".length);
  return errorField;
}

/**
 * A service's refusal as form errors: a 422 names its fields; a 404 or 409 (a vanished provider,
 * a duplicate) is about the whole form. Anything else is not the user's to fix and propagates.
 */
export function formErrors(error: unknown): FormErrors {
  if (!(error instanceof HttpError) || ![404, 409, 422].includes(error.status)) throw error;
  if (error.errors && error.errors.length > 0) {
    return { fields: Object.fromEntries(error.errors.map((e) => [inputName(e.field), e.message])) };
  }
  return { fields: {}, form: error.detail };
}

// Providers

export function providerValues(form: Submitted): ProviderFormValues {
  return {
    name: field(form, "name"),
    type: field(form, "type"),
    credential: field(form, "credential"),
    is_enabled: checkbox(form, "is_enabled"),
  };
}

export function providerValuesOf(provider: ProviderView): ProviderFormValues {
  return { name: provider.name, type: provider.type, credential: "", is_enabled: provider.is_enabled };
}

/**
 * The service input. The credential goes under `token`, the alias both types accept, so the
 * service alone decides which key the chosen type needs. An empty credential is left out: on
 * edit that keeps the stored one; on create the service says it is required.
 */
export function providerInput(values: ProviderFormValues): { name: string; type: string; is_enabled: boolean; credentials?: Record<string, unknown> } {
  return {
    name: values.name,
    type: values.type,
    is_enabled: values.is_enabled,
    ...(values.credential.trim() === "" ? {} : { credentials: { token: values.credential } }),
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
  };
}

export function domainValuesOf(domain: DomainView): DomainFormValues {
  const { ttl, proxied, create_if_missing, zone_id } = domain.config;
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
  };
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
export function domainInput(values: DomainFormValues, currentConfig: Record<string, unknown> = {}): DomainInput & { provider_id: number; domain_name: string } {
  const config = { ...currentConfig };
  const ttl = values.ttl.trim();
  setOrRemove(config, "ttl", ttl === "" ? undefined : /^\d+$/.test(ttl) ? Number(ttl) : ttl);
  setOrRemove(config, "proxied", values.proxied === "" ? undefined : values.proxied === "true" ? true : values.proxied === "false" ? false : values.proxied);
  setOrRemove(config, "zone_id", values.zone_id.trim() === "" ? undefined : values.zone_id.trim());
  config.create_if_missing = values.create_if_missing;
  return {
    provider_id: Number(values.provider_id),
    domain_name: values.domain_name,
    record_type: values.record_type,
    cron_schedule: values.cron_schedule,
    config,
    external_id: values.external_id,
    is_enabled: values.is_enabled,
  };
}
