// Reading JSON that came from elsewhere (a service's answer, a stored document, a request's body)
// without trusting its shape.

/** The parsed text, or `undefined` when it is not JSON (an HTML error page, a truncated answer). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether a parsed value is a plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value when it is a plain object, else an empty one: a field of anything else reads as absent. */
export function asObject(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}

/** The objects of a parsed list (what is not an object left out); none when the value is not a list. */
export function objectsIn(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}
