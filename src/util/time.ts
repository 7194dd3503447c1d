// Times are stored as milliseconds since the epoch and shown as ISO 8601 UTC with a `Z`.

export function iso(ms: number): string;
export function iso(ms: number | null): string | null;
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

const DURATION = /^(\d+)\s*(s|m|h|d)?$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/**
 * `<n>s`, `<n>m`, `<n>h`, `<n>d`, or plain seconds → seconds: the one way every duration is written,
 * in the settings (DDNS_UPDATE_INTERVAL …) and in a domain's `config.refresh_every`.
 */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const unit = (match[2] ?? "s") as keyof typeof UNIT_SECONDS;
  return Number(match[1]) * UNIT_SECONDS[unit];
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
