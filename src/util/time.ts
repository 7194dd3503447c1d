// Times are stored as milliseconds since the epoch and shown as ISO 8601 UTC with a `Z`.

export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Seconds → the shortest exact `<n><unit>` form the duration settings accept, for showing settings back to people. */
export function formatDuration(seconds: number): string {
  for (const [unit, size] of [
    ["d", 86400],
    ["h", 3600],
    ["m", 60],
  ] as const) {
    if (seconds >= size && seconds % size === 0) return `${seconds / size}${unit}`;
  }
  return `${seconds}s`;
}
