// Turning times, durations and sizes into short words for people, in the request's language where
// they hold words. Times are the server's local time, the same clock cron schedules run on, except
// `utcTime`: what a <time> shows until the browser puts it in its own zone (components.tsx,
// LocalTime). Every function takes `now` so tests are exact.

import { msg } from "./i18n";

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

const two = (n: number) => String(n).padStart(2, "0");

/** Milliseconds from an ISO string or a number; null stays null. */
export function toMs(at: string | number | null): number | null {
  if (at === null) return null;
  return typeof at === "number" ? at : Date.parse(at);
}

/** "14:05", or "14:05:30" with `seconds`. */
export function clock(ms: number, seconds = false): string {
  const d = new Date(ms);
  return `${two(d.getHours())}:${two(d.getMinutes())}${seconds ? `:${two(d.getSeconds())}` : ""}`;
}

/** "14:05" today, "Sat 14:05" within a week either way, else "21 Nov 2026 14:05". */
export function shortTime(ms: number, now: number, seconds = false): string {
  const d = new Date(ms);
  const time = clock(ms, seconds);
  if (d.toDateString() === new Date(now).toDateString()) return time;
  if (Math.abs(ms - now) < 6 * 86_400_000) return `${WEEKDAYS[d.getDay()]} ${time}`;
  return `${d.getDate()} ${MONTHS[d.getMonth()]} ${d.getFullYear()} ${time}`;
}

/** "2026-11-21 14:05 UTC" (with `seconds`, "14:05:09"): a time as the page says it before the browser's zone is known. */
export function utcTime(ms: number, seconds = false): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, seconds ? 19 : 16)} ${msg().time.utc}`;
}

/** "42 s", "5 min", "3 h 20 min", "2 d 5 h": the two largest units. */
export function duration(seconds: number): string {
  const words = msg().time;
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return words.seconds(s);
  const units: [number, (n: number) => string][] = [
    [86_400, words.days],
    [3_600, words.hours],
    [60, words.minutes],
  ];
  const parts: string[] = [];
  let rest = s;
  for (const [size, name] of units) {
    if (rest >= size && parts.length < 2) {
      parts.push(name(Math.floor(rest / size)));
      rest %= size;
    } else if (parts.length > 0) break;
  }
  return parts.join(" ");
}

/** "just now", "3 min ago", "in 4 min". */
export function relative(ms: number, now: number): string {
  const words = msg().time;
  const seconds = (ms - now) / 1000;
  if (Math.abs(seconds) < 5) return words.justNow;
  return seconds < 0 ? words.ago(duration(-seconds)) : words.in(duration(seconds));
}

/** "every 5 minutes", "every second", "every 90 seconds", in the request's language. */
export function every(seconds: number): string {
  for (const [size, unit] of [
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
    [1, "second"],
  ] as const) {
    if (seconds % size === 0) return msg().time.every(seconds / size, unit);
  }
  return msg().time.every(seconds, "second");
}

/** "12 ms", "1.4 s". */
export function millis(ms: number): string {
  const words = msg().time;
  return ms < 1000 ? words.milliseconds(ms) : words.decimalSeconds(ms / 1000);
}

/** "118 KB", "2.4 MB". */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KB", "MB", "GB"];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** "1 domain", "3 domains". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
