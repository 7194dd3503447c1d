// The size of a domain's `config` (docs/api.md, limits): each value within the value size, then the
// whole. The sizes themselves are src/limits.ts's, shared with the checks below the services.

import { invalidField } from "../errors";
import { MAX_CONFIG_BYTES, MAX_VALUE_CHARS } from "../limits";

/** A value's size as stored: a string's length, anything else's JSON length. */
function size(value: unknown): number {
  return typeof value === "string" ? value.length : (JSON.stringify(value)?.length ?? 0);
}

/** Each value of `config` within MAX_VALUE_CHARS (credentials and options: dns/rules.ts), then the whole. */
export function checkConfigSize(config: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(config)) {
    if (size(value) > MAX_VALUE_CHARS)
      throw invalidField(`config.${key}`, `must be at most ${MAX_VALUE_CHARS} characters`);
  }
  if (new TextEncoder().encode(JSON.stringify(config)).length > MAX_CONFIG_BYTES) {
    throw invalidField("config", `must be at most ${MAX_CONFIG_BYTES / 1024} KiB as JSON`);
  }
}
