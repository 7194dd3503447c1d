// Field sizes (docs/api.md, limits), one rule for the API and the admin pages: every credential and option
// value at most 1,024 characters, `config` at most 4 KiB as JSON, `external_id` at most 255.
// Larger → 422 naming the field, before anything is stored (and served in every list after).

import { invalidField } from "../errors";

export const MAX_VALUE_CHARS = 1024;
export const MAX_CONFIG_BYTES = 4096;
export const MAX_EXTERNAL_ID_CHARS = 255;

/** A value's size as stored: a string's length, anything else's JSON length. */
function size(value: unknown): number {
  return typeof value === "string" ? value.length : (JSON.stringify(value)?.length ?? 0);
}

/** Each value of `config` within MAX_VALUE_CHARS (credentials and options: dns/rules.ts), then the whole. */
export function checkConfigSize(config: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(config)) {
    if (size(value) > MAX_VALUE_CHARS) throw invalidField(`config.${key}`, `must be at most ${MAX_VALUE_CHARS} characters`);
  }
  if (new TextEncoder().encode(JSON.stringify(config)).length > MAX_CONFIG_BYTES) {
    throw invalidField("config", `must be at most ${MAX_CONFIG_BYTES / 1024} KiB as JSON`);
  }
}
