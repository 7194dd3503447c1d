// When a domain runs next: its croner expression, or every DDNS_UPDATE_INTERVAL (on the interval's
// grid); and the retry backoff after failures (30 s, 1 m, 2 m … capped at the domain's own interval).

import { Cron } from "croner";

/** Why an expression can't be used, or null when it is a valid 5- or 6-field croner schedule. */
export function cronScheduleProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    const words = /^every\s+(\d+)?\s*(minute|hour)s?$/i.exec(expression.trim());
    if (words) {
      // Plain words ("every 10 minutes"): the expression that says it.
      const n = words[1] ?? "1";
      const cron =
        words[2]!.toLowerCase() === "minute"
          ? n === "1"
            ? "* * * * *"
            : `*/${n} * * * *`
          : n === "1"
            ? "0 * * * *"
            : `0 */${n} * * *`;
      return `write the schedule as a cron expression: "${cron}" runs ${expression.trim().toLowerCase()} (5 fields: minute hour day month weekday)`;
    }
    return `expected 5 fields (minute hour day month weekday) or 6 with seconds first, got ${fields.length}; e.g. "*/10 * * * *" for every 10 minutes`;
  }
  let cron: Cron;
  try {
    cron = new Cron(expression.trim(), { paused: true });
  } catch (error) {
    return `not a valid cron expression: ${(error as Error).message}`;
  }
  return cron.nextRun() === null ? "the schedule never runs again" : null;
}

/**
 * The next scheduled time after `now` (ms). Without a cron expression, the next multiple of the
 * interval (counted from the epoch): domains on the default interval fall due together, however
 * their earlier checks were spread, so one detection per family serves them all (echo services
 * throttle clients that ask often).
 */
export function nextScheduledRun(cronSchedule: string | null, now: number, intervalSeconds: number): number {
  if (cronSchedule !== null) {
    const next = new Cron(cronSchedule, { paused: true }).nextRun(new Date(now));
    if (next !== null) return next.getTime();
  }
  const intervalMs = intervalSeconds * 1000;
  return (Math.floor(now / intervalMs) + 1) * intervalMs;
}

/** The next few scheduled times, for showing a schedule to a person. */
export function upcomingRuns(
  cronSchedule: string | null,
  now: number,
  intervalSeconds: number,
  count: number,
): number[] {
  const runs: number[] = [];
  let from = now;
  for (let i = 0; i < count; i++) {
    from = nextScheduledRun(cronSchedule, from, intervalSeconds);
    runs.push(from);
  }
  return runs;
}

const FIRST_RETRY_SECONDS = 30;

/**
 * The gap between a domain's runs: its interval, or for a cron schedule the gap between its
 * next two runs (the backoff cap).
 */
export function scheduleGapSeconds(cronSchedule: string | null, now: number, intervalSeconds: number): number {
  if (cronSchedule === null) return intervalSeconds;
  const [first, second] = upcomingRuns(cronSchedule, now, intervalSeconds, 2);
  return Math.max(1, Math.round((second! - first!) / 1000));
}

/** Seconds to wait after `failures` failed attempts in a row (1 → 30 s, 2 → 60 s, 3 → 120 s …). */
export function retryDelaySeconds(failures: number, capSeconds: number): number {
  const delay = FIRST_RETRY_SECONDS * 2 ** Math.max(0, failures - 1);
  return Math.min(delay, capSeconds);
}
