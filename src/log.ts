// One line per event, as text or JSON (DDNS_LOG_FORMAT). Callers pass facts as fields; nothing
// here ever receives a password, token or credential, and `redact` guards the fields that could.
// The message and each text field are cut to 2,000 characters (util/message.ts), whatever they quote.

import { bounded } from "./util/message";

/** DDNS_LOG_LEVEL and DDNS_LOG_FORMAT (read by config.ts). */
export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFormat = "text" | "json";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_FIELD = /pass|secret|token|key|authorization|credential|cookie/i;

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** The newest lines written (at most RECENT_LINES), oldest first: the admin pages show them. */
  recent(): readonly string[];
}

/** How many of the newest lines are kept in memory for the About page. */
const RECENT_LINES = 100;

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
  /** Where lines go; stderr by default, a collecting function in tests. */
  write?: (line: string) => void;
  now?: () => Date;
}

export function createLogger({ level, format, write, now = () => new Date() }: LoggerOptions): Logger {
  const output = write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const recent: string[] = [];
  const emit = (line: string) => {
    recent.push(line);
    if (recent.length > RECENT_LINES) recent.shift();
    output(line);
  };
  const log = (at: LogLevel, message: string, fields: LogFields = {}) => {
    if (RANK[at] < RANK[level]) return;
    const time = now().toISOString();
    const safe = redact(fields);
    if (format === "json") {
      emit(JSON.stringify({ time, level: at, msg: bounded(message), ...safe }));
      return;
    }
    const pairs = Object.entries(safe)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `${key}=${formatValue(value)}`);
    emit([time, at.toUpperCase().padEnd(5), bounded(message), ...pairs].join(" "));
  };
  return {
    debug: (message, fields) => log("debug", message, fields),
    info: (message, fields) => log("info", message, fields),
    warn: (message, fields) => log("warn", message, fields),
    error: (message, fields) => log("error", message, fields),
    recent: () => [...recent],
  };
}

function redact(fields: LogFields): LogFields {
  const safe: LogFields = {};
  for (const [key, value] of Object.entries(fields))
    safe[key] = SECRET_FIELD.test(key) ? "[redacted]" : typeof value === "string" ? bounded(value) : value;
  return safe;
}

function formatValue(value: string | number | boolean | null | undefined): string {
  const text = String(value);
  return /[\s"=]/.test(text) || text === "" ? JSON.stringify(text) : text;
}
