// What a service's description demands of the input, checked in one place for the API and the
// pages alike: credentials (required keys, aliases, optional keys, unknown keys dropped), options
// (docs/services/README.md: known keys only, URLs, choices, required ones), record types, TTLs and hostnames.

import { Invalid } from "../errors";
import { MAX_VALUE_CHARS } from "../limits";
import { isObject } from "../util/json";
import { parseServer } from "./protocols/signed-dns";
import type { RecordType } from "./provider";
import type { OptionField, ServiceDescription } from "./service";

function checkLength(field: string, value: string, max = MAX_VALUE_CHARS): string {
  if (value.length > max) throw new Invalid(field, `must be at most ${max} characters`);
  return value;
}

/**
 * Each credential of the service under its own key (taken from an alias when the key itself is
 * absent), trimmed; a missing or empty required one is refused, other keys are dropped. `stored`
 * (an edit in the pages, where secrets are never shown) fills the keys the input leaves out.
 */
export function normaliseCredentials(
  service: ServiceDescription,
  input: Record<string, unknown>,
  stored: Record<string, string> = {},
): Record<string, string> {
  // Keys the service does not use are dropped, but an oversized one is still refused: nothing that
  // large is a credential, and the person should hear that it was not taken.
  const limits = new Map(
    service.credentials.flatMap((field) =>
      [field.key, ...(field.aliases ?? [])].map((key) => [key, field.maxChars] as const),
    ),
  );
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === "string") checkLength(`credentials.${key}`, value, limits.get(key));
  }
  const result: Record<string, string> = {};
  for (const field of service.credentials) {
    const given = [field.key, ...(field.aliases ?? [])].map((key) => input[key]).find((value) => value !== undefined);
    const name = `credentials.${field.key}`;
    if (given !== undefined && typeof given !== "string") throw new Invalid(name, "must be a string");
    const value = given?.trim() || stored[field.key] || "";
    const problem = value === "" ? undefined : field.validate?.(value);
    if (problem !== undefined) throw new Invalid(name, problem);
    if (value !== "") result[field.key] = checkLength(name, value, field.maxChars);
    else if (!field.optional) throw new Invalid(name, `is required for a ${service.label} provider`);
  }
  return result;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

function checkOption(option: OptionField, value: unknown): unknown {
  const name = `options.${option.key}`;
  if (option.kind === "headers") {
    if (!isObject(value)) throw new Invalid(name, "must be an object of header names and values");
    for (const [header, text] of Object.entries(value)) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) throw new Invalid(name, `"${header}" is not a header name`);
      if (typeof text !== "string" || /[\r\n]/.test(text))
        throw new Invalid(`${name}.${header}`, "must be one line of text");
      checkLength(`${name}.${header}`, text);
    }
    return value;
  }
  if (typeof value !== "string") throw new Invalid(name, "must be a string");
  const text = checkLength(name, option.kind === "template" ? value : value.trim());
  if (option.kind === "url" && !isHttpUrl(text)) throw new Invalid(name, "must be an http:// or https:// URL");
  const address = option.kind === "host" ? parseServer(text) : undefined;
  if (typeof address === "string") throw new Invalid(name, address);
  if (option.kind === "choice" && !(option.choices ?? []).includes(text)) {
    throw new Invalid(name, `must be one of: ${(option.choices ?? []).join(", ")}`);
  }
  const problem = option.validate?.(text);
  if (problem !== undefined) throw new Invalid(name, problem);
  return text;
}

/**
 * The options as they are stored: only the service's keys (an unknown one is refused, naming it),
 * each of the right kind; an empty string counts as absent, and a required option must be present.
 */
export function normaliseOptions(service: ServiceDescription, input: Record<string, unknown>): Record<string, unknown> {
  const known = new Map(service.options.map((option) => [option.key, option]));
  const unknown = Object.keys(input).find((key) => !known.has(key));
  if (unknown !== undefined) {
    const allowed =
      service.options.length > 0 ? `; known options: ${service.options.map((o) => o.key).join(", ")}` : "";
    throw new Invalid(`options.${unknown}`, `is not an option of a ${service.label} provider${allowed}`);
  }
  const result: Record<string, unknown> = {};
  for (const option of service.options) {
    const value = input[option.key];
    if (value === undefined || value === null || value === "") {
      if (option.required) throw new Invalid(`options.${option.key}`, `is required for a ${service.label} provider`);
      continue;
    }
    result[option.key] = checkOption(option, value);
  }
  return result;
}

/** The stored options with the description's defaults filled in, as a client receives them. */
export function optionsWithDefaults(
  service: ServiceDescription,
  stored: Record<string, unknown>,
): Record<string, unknown> {
  const defaults = Object.fromEntries(
    service.options.filter((option) => option.default !== undefined).map((option) => [option.key, option.default]),
  );
  return { ...defaults, ...stored };
}

export function checkRecordType(service: ServiceDescription, input: string): RecordType {
  const upper = input.trim().toUpperCase();
  const supported = service.recordTypes as readonly string[];
  if (!supported.includes(upper)) {
    const names = service.recordTypes.map((type) => `"${type}"`).join(" or ");
    throw new Invalid("record_type", `must be ${names} for a ${service.label} provider`);
  }
  return upper as RecordType;
}

/** The TTL a domain's `config.ttl` may hold for this service. */
export function checkTtl(service: ServiceDescription, ttl: unknown): void {
  const rule = service.ttl;
  if (rule === null) throw new Invalid("config.ttl", `cannot be set: ${service.label} sets the TTL itself`);
  const valid =
    typeof ttl === "number" &&
    Number.isInteger(ttl) &&
    (ttl === rule.automatic || (ttl >= rule.min && ttl <= rule.max));
  if (!valid) {
    const automatic = rule.automatic === undefined ? "" : `${rule.automatic} (automatic) or `;
    throw new Invalid("config.ttl", `must be ${automatic}${rule.min} to ${rule.max} seconds for ${service.label}`);
  }
}

/** A normalised hostname against the service's own rule (DuckDNS: under duckdns.org). */
export function checkHostnameRule(service: ServiceDescription, hostname: string): void {
  const rule = service.hostname;
  if (rule && !hostname.endsWith(rule.suffix)) throw new Invalid("domain_name", rule.message);
}
