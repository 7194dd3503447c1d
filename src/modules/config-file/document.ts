// The configuration file's shape: providers, domains, update keys and notifications, each known by
// its name, as YAML (JSON, a subset of YAML, is read the same way). Reading it checks the shape and
// keeps where each value was written, so a refusal names the line (`Line 12: providers[1].type: …`).
// What a value must be beyond its shape (a provider's credentials, a TTL …) is the services' to
// check, as for the API; their refusals are placed on the line of the field they name.
//
// The `yaml` library (eemeli/yaml): YAML 1.2 with positions for every node and comments kept, no
// dependencies, maintained; hand-written YAML would be the larger and riskier code.

import type { Node } from "yaml";

/**
 * The YAML library, loaded on the first export or import: only those use it, and evaluating it at
 * start cost every appliance its memory (docs/performance.md, memory on the user's path).
 */
const yaml = (): typeof import("yaml") => require("yaml");

import { Malformed } from "../../errors";
import { NOTIFICATION_EVENTS } from "../../store/rows";

/** A path into the file: keys and list positions, e.g. `["providers", 1, "credentials", "api_token"]`. */
export type FilePath = (string | number)[];

export interface ProviderEntry {
  name: string;
  type: string;
  enabled: boolean;
  /** In clear (`--include-secrets`, or written by hand), or sealed with the encryption key. */
  credentials?: Record<string, string>;
  credentials_sealed?: string;
  options: Record<string, unknown>;
}

export interface DomainRef {
  provider: string;
  name: string;
  record_type: string;
}

export interface DomainEntry extends DomainRef {
  enabled: boolean;
  cron_schedule: string | null;
  /** Where the record's address comes from (one source, or a list); absent (or null) for the system's source. */
  address_source?: string | string[] | null;
  config: Record<string, unknown>;
}

export interface UpdateKeyEntry {
  name: string;
  /** The key itself is never stored: its SHA-256 (what a push is checked against) and its last four characters. */
  key_sha256: string;
  key_tail: string;
  /** null: every domain. */
  domains: DomainRef[] | null;
}

export interface NotificationEntry {
  name: string;
  type: string;
  enabled: boolean;
  events: string[];
  /** The options that are not secret; with `--include-secrets` the secret ones too. */
  options: Record<string, unknown>;
  secrets_sealed?: string;
}

export interface ConfigFile {
  version: 1;
  providers: ProviderEntry[];
  domains: DomainEntry[];
  update_keys: UpdateKeyEntry[];
  notifications: NotificationEntry[];
}

const HEADER = [
  " ddnsd configuration: providers, domains, update keys and notifications, each known by its name.",
  " Apply it with `ddnsd import <file>` or POST /api/v1/config/import (see /help/operations#configuration-as-a-file on ddnsd).",
  " Sealed secrets open only with the encryption key of the ddnsd that wrote them (DDNS_ENCRYPTION_KEY",
  " or <data dir>/encryption.key).",
].join("\n");

/** The file's text: the header, then the entries in the order given. */
export function renderConfigFile(file: ConfigFile): string {
  const document = new (yaml().Document)(file);
  document.commentBefore = HEADER;
  return document.toString({ lineWidth: 0 });
}

/** `providers[1].credentials.api_token` */
function describePath(path: FilePath): string {
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`)).join("");
}

/** A file that cannot be applied: the message names the line and the field. */
export class ConfigFileError extends Malformed {}

export interface ParsedConfigFile {
  file: ConfigFile;
  /** The line (from 1) where the value at a path was written, or the nearest written parent's. */
  lineOf(path: FilePath): number;
  /** The error for a value of the file, placed on its line. */
  error(path: FilePath, why: string): ConfigFileError;
}

type Plain = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Plain =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The largest file read, and how deep its `[`/`{` collections may nest: it is parsed on the server's
 * event loop (an import through the API or the control socket), and the YAML parser takes seconds
 * over a megabyte, or a deeply nested line, during which the server would answer nobody. A real
 * configuration of hundreds of domains is a few dozen KiB and nests four levels.
 */
export const MAX_CONFIG_FILE_BYTES = 256 * 1024;
const MAX_FLOW_DEPTH = 32;

/** Whether `[`/`{` nest deeper than `limit` outside quoted text (one pass, before the parser sees it). */
function flowDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote !== null) {
      if (char === "\\" && quote === '"') i++;
      else if (char === quote) quote = null;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "#") i = text.indexOf("\n", i) === -1 ? text.length : text.indexOf("\n", i);
    else if (char === "[" || char === "{") {
      if (++depth > limit) return true;
    } else if (char === "]" || char === "}") depth = Math.max(0, depth - 1);
  }
  return false;
}

/** Reads the file's text; a syntax error or a shape that is not the file's is refused with its line. */
export function parseConfigFile(text: string): ParsedConfigFile {
  if (Buffer.byteLength(text) > MAX_CONFIG_FILE_BYTES)
    throw new ConfigFileError(`Line 1: the file is larger than ${MAX_CONFIG_FILE_BYTES / 1024} KiB`);
  if (flowDeeperThan(text, MAX_FLOW_DEPTH))
    throw new ConfigFileError(`Line 1: the file nests deeper than ${MAX_FLOW_DEPTH} levels`);
  const { isMap, isScalar, LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const lineAt = (offset: number) => lines.linePos(offset).line;
  if (document.errors.length > 0) {
    const first = document.errors[0]!;
    throw new ConfigFileError(`Line ${lineAt(first.pos[0])}: ${first.message.split("\n")[0]}`);
  }
  const lineOf = (path: FilePath): number => {
    for (let length = path.length; length >= 0; length--) {
      const node = length === 0 ? document.contents : document.getIn(path.slice(0, length), true);
      const range = (node as Node | undefined)?.range;
      if (range) return lineAt(range[0]);
      // A key that is present but null has a scalar node; a missing one is looked for in its parent.
      if (length > 0 && isMap(document.getIn(path.slice(0, length - 1), true))) {
        const pair = (document.getIn(path.slice(0, length - 1), true) as { items: { key: unknown }[] }).items.find(
          (item) => isScalar(item.key) && item.key.value === path[length - 1],
        );
        const keyRange = (pair?.key as Node | undefined)?.range;
        if (keyRange) return lineAt(keyRange[0]);
      }
    }
    return 1;
  };
  const error = (path: FilePath, why: string) =>
    new ConfigFileError(`Line ${lineOf(path)}: ${path.length > 0 ? `${describePath(path)}: ` : ""}${why}`);
  let contents: unknown;
  try {
    // No aliases (`&a` … `*a`): the file has no use for them, and they are how a small file expands into a huge one.
    contents = document.toJS({ maxAliasCount: 0 });
  } catch (cause) {
    const alias = /alias/i.test((cause as Error).message);
    throw new ConfigFileError(
      `Line 1: ${alias ? "aliases (&name … *name) are not allowed" : `the file cannot be read: ${(cause as Error).message}`}`,
    );
  }
  return { file: readFile(contents, error), lineOf, error };
}

type ErrorAt = (path: FilePath, why: string) => ConfigFileError;

/** A checker of one entry's fields: an unknown (misspelt) key is refused first; each read names its path when it is wrong. */
class Entry {
  constructor(
    private readonly value: Plain,
    private readonly path: FilePath,
    private readonly error: ErrorAt,
    fields: readonly string[],
  ) {
    const unknown = Object.keys(value).find((key) => !fields.includes(key));
    if (unknown !== undefined) throw error([...path, unknown], `is not a field here (use ${fields.join(", ")})`);
  }

  private take(key: string): unknown {
    return this.value[key];
  }

  string(key: string, fallback?: string): string {
    const value = this.take(key);
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value !== "string" || value.trim() === "")
      throw this.error([...this.path, key], value === undefined ? "is required" : "must be a non-empty string");
    return value;
  }

  optionalString(key: string): string | null {
    const value = this.take(key);
    if (value === undefined || value === null) return null;
    if (typeof value !== "string") throw this.error([...this.path, key], "must be a string or null");
    return value;
  }

  /** One source as a string, or a list of them; null when absent. */
  sources(key: string): string | string[] | null {
    const value = this.take(key);
    if (value === undefined || value === null) return null;
    if (typeof value === "string") return value;
    if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
    throw this.error([...this.path, key], "must be a source, a list of sources, or null");
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.take(key);
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") throw this.error([...this.path, key], "must be true or false");
    return value;
  }

  object(key: string): Plain | undefined {
    const value = this.take(key);
    if (value === undefined || value === null) return undefined;
    if (!isPlainObject(value)) throw this.error([...this.path, key], "must be a mapping of keys to values");
    return value;
  }

  strings(key: string): Record<string, string> | undefined {
    const value = this.object(key);
    if (value === undefined) return undefined;
    for (const [name, item] of Object.entries(value)) {
      if (typeof item !== "string") throw this.error([...this.path, key, name], "must be a string");
    }
    return value as Record<string, string>;
  }

  list(key: string): unknown[] | null | undefined {
    const value = this.take(key);
    if (value === undefined || value === null) return value as null | undefined;
    if (!Array.isArray(value)) throw this.error([...this.path, key], "must be a list");
    return value;
  }
}

function entries(top: Plain, key: string, error: ErrorAt): { value: Plain; path: FilePath }[] {
  const list = top[key];
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw error([key], "must be a list");
  return list.map((value, index) => {
    if (!isPlainObject(value)) throw error([key, index], "must be a mapping of fields");
    return { value, path: [key, index] };
  });
}

function domainRef(value: unknown, path: FilePath, error: ErrorAt): DomainRef {
  if (!isPlainObject(value)) throw error(path, "must be a mapping with provider, name and record_type");
  const entry = new Entry(value, path, error, ["provider", "name", "record_type"]);
  const ref = {
    provider: entry.string("provider"),
    name: entry.string("name"),
    record_type: entry.string("record_type", "A"),
  };
  return ref;
}

const SECTIONS = ["version", "providers", "domains", "update_keys", "notifications"];

function readFile(top: unknown, error: ErrorAt): ConfigFile {
  if (top === null || top === undefined) throw error([], "the file is empty");
  if (!isPlainObject(top))
    throw error([], "must be a mapping with version, providers, domains, update_keys and notifications");
  const unknown = Object.keys(top).find((key) => !SECTIONS.includes(key));
  if (unknown !== undefined) throw error([unknown], `is not a section of the file (use ${SECTIONS.join(", ")})`);
  const version = top.version;
  if (version !== 1)
    throw error(
      ["version"],
      version === undefined ? "is required (version: 1)" : "must be 1, the only version there is",
    );

  const providers = entries(top, "providers", error).map(({ value, path }) => {
    const entry = new Entry(value, path, error, [
      "name",
      "type",
      "enabled",
      "credentials",
      "credentials_sealed",
      "options",
    ]);
    const provider: ProviderEntry = {
      name: entry.string("name"),
      type: entry.string("type"),
      enabled: entry.boolean("enabled", true),
      options: entry.object("options") ?? {},
    };
    const credentials = entry.strings("credentials");
    const sealed = entry.optionalString("credentials_sealed");
    if (credentials !== undefined && sealed !== null)
      throw error([...path, "credentials_sealed"], "give credentials or credentials_sealed, not both");
    if (credentials !== undefined) provider.credentials = credentials;
    if (sealed !== null) provider.credentials_sealed = sealed;
    return provider;
  });

  const domains = entries(top, "domains", error).map(({ value, path }) => {
    const entry = new Entry(value, path, error, [
      "provider",
      "name",
      "record_type",
      "enabled",
      "cron_schedule",
      "address_source",
      "config",
    ]);
    const domain: DomainEntry = {
      provider: entry.string("provider"),
      name: entry.string("name"),
      record_type: entry.string("record_type", "A"),
      enabled: entry.boolean("enabled", true),
      cron_schedule: entry.optionalString("cron_schedule"),
      address_source: entry.sources("address_source"),
      config: entry.object("config") ?? {},
    };
    return domain;
  });

  const updateKeys = entries(top, "update_keys", error).map(({ value, path }) => {
    const entry = new Entry(value, path, error, ["name", "key_sha256", "key_tail", "domains"]);
    const key: UpdateKeyEntry = {
      name: entry.string("name"),
      key_sha256: entry.string("key_sha256"),
      key_tail: entry.string("key_tail"),
      domains: null,
    };
    if (!/^[0-9a-f]{64}$/.test(key.key_sha256))
      throw error([...path, "key_sha256"], "must be 64 lowercase hexadecimal digits");
    if (!/^[A-Za-z0-9_-]{4}$/.test(key.key_tail))
      throw error([...path, "key_tail"], "must be the key's last 4 characters");
    const scope = entry.list("domains");
    if (scope !== undefined && scope !== null)
      key.domains = scope.map((ref, index) => domainRef(ref, [...path, "domains", index], error));
    return key;
  });

  const notifications = entries(top, "notifications", error).map(({ value, path }) => {
    const entry = new Entry(value, path, error, ["name", "type", "enabled", "events", "options", "secrets_sealed"]);
    const notification: NotificationEntry = {
      name: entry.string("name"),
      type: entry.string("type"),
      enabled: entry.boolean("enabled", true),
      events: [],
      options: entry.object("options") ?? {},
    };
    const events = entry.list("events");
    if (events === undefined || events === null) notification.events = [...NOTIFICATION_EVENTS];
    else {
      events.forEach((event, index) => {
        if (typeof event !== "string") throw error([...path, "events", index], "must be an event name");
      });
      notification.events = events as string[];
    }
    const sealed = entry.optionalString("secrets_sealed");
    if (sealed !== null) notification.secrets_sealed = sealed;
    return notification;
  });

  return { version: 1, providers, domains, update_keys: updateKeys, notifications };
}
