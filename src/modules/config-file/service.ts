// Configuration as a file: export what this ddnsd is set up to do (providers, domains, update keys,
// notifications — not their state or history), and apply such a file by name: what the file names
// and the data dir lacks is created, what differs is updated, what the data dir has beyond the file
// stays unless pruning. The whole file is applied in one transaction through the same services as
// the API (the same checks, the same 422s), so a file with one bad value changes nothing; a dry run
// is the same transaction, rolled back.
//
// Secrets leave sealed (the stored AES-GCM text, which opens only with this encryption key) unless
// asked for in clear; a sealed secret that is imported is stored as it is, so exporting again gives
// the same file.

import { isDeepStrictEqual } from "node:util";
import { DomainError, Invalid } from "../../errors";
import { shownSources } from "../../ip/source";
import type { LogFields, Logger } from "../../log";
import { openCredentials, openSecretOptions } from "../../security/secrets";
import type { Store } from "../../store";
import {
  checkDomainLimit,
  createDomain,
  type DomainDeps,
  deleteDomain,
  normaliseHostname,
  updateDomain,
} from "../domains/service";
import {
  createNotification,
  deleteNotification,
  type NotificationDeps,
  updateNotification,
} from "../notifications/service";
import { createProvider, deleteProvider, type ProviderDeps, updateProvider } from "../providers/service";
import { checkDisplayName } from "../shared";
import { deleteUpdateKey, type UpdateKeyDeps } from "../update-keys/service";
import {
  type ConfigFile,
  ConfigFileError,
  type DomainEntry,
  type DomainRef,
  type FilePath,
  type NotificationEntry,
  type ParsedConfigFile,
  type ProviderEntry,
  parseConfigFile,
  renderConfigFile,
  type UpdateKeyEntry,
} from "./document";

/** What an export reads: the rows it lists, and the key that opens their secrets (for `includeSecrets`, and to compare). */
export interface ExportDeps {
  store: Pick<Store, "providers" | "domains" | "updateKeys" | "notifications">;
  keys: { readonly encryptionKey: string };
}

/**
 * What an import uses: the parts of the services the API calls, since the file is applied through
 * their rules, in one transaction over their store (which holds the export's rows, and the key).
 */
export type ConfigFileDeps = ProviderDeps & DomainDeps & NotificationDeps & UpdateKeyDeps;

/** Names compare as the API compares them: NFC, ignoring case in any script. */
const nameKey = (name: string) => name.normalize("NFC").trim().toLocaleLowerCase("und");
const byName =
  <T>(name: (item: T) => string) =>
  (a: T, b: T) =>
    nameKey(name(a)).localeCompare(nameKey(name(b))) || name(a).localeCompare(name(b));

/** The file of this data dir's configuration; secrets sealed unless `includeSecrets`. */
export function exportConfig(ctx: ExportDeps, options: { includeSecrets?: boolean } = {}): string {
  const includeSecrets = options.includeSecrets ?? false;
  const key = ctx.keys.encryptionKey;
  const providerRows = ctx.store.providers.all().sort(byName((row) => row.name));
  const providerName = new Map(providerRows.map((row) => [row.id, row.name]));
  const providerEntries: ProviderEntry[] = providerRows.map((row) => {
    // Secret options (a custom URL's headers) are stored sealed: written so, or opened with the credentials.
    const entry: ProviderEntry = {
      name: row.name,
      type: row.type,
      enabled: row.isEnabled,
      options: includeSecrets ? openSecretOptions(row.options, key) : row.options,
    };
    if (includeSecrets) entry.credentials = openCredentials(row.credentials, key);
    else entry.credentials_sealed = row.credentials;
    // Listed in this order in the file: name, type, enabled, credentials, options.
    return {
      name: entry.name,
      type: entry.type,
      enabled: entry.enabled,
      ...withoutUndefined({ credentials: entry.credentials, credentials_sealed: entry.credentials_sealed }),
      options: entry.options,
    };
  });
  const domainRows = ctx.store.domains.list();
  const refOf = new Map(
    domainRows.map((row) => [
      row.id,
      { provider: providerName.get(row.providerId)!, name: row.domainName, record_type: row.recordType },
    ]),
  );
  const domainEntries: DomainEntry[] = domainRows
    // address_source only where a domain has its own: a file of domains that follow the system's source reads as before.
    .map((row) => ({
      ...refOf.get(row.id)!,
      enabled: row.isEnabled,
      cron_schedule: row.cronSchedule,
      ...(row.addressSource === null ? {} : { address_source: shownSources(row.addressSource) }),
      config: row.config,
    }))
    .sort(
      (a, b) =>
        byName<DomainEntry>((entry) => entry.provider)(a, b) ||
        a.name.localeCompare(b.name) ||
        a.record_type.localeCompare(b.record_type),
    );
  const keyEntries: UpdateKeyEntry[] = ctx.store.updateKeys
    .list()
    .sort(byName((row) => row.name))
    .map((row) => ({
      name: row.name,
      key_sha256: row.keyHash,
      key_tail: row.keyTail,
      domains: row.domainIds === null ? null : row.domainIds.map((id) => refOf.get(id)!).filter(Boolean),
    }));
  const notificationEntries: NotificationEntry[] = ctx.store.notifications
    .list()
    .sort(byName((row) => row.name))
    .map((row) => {
      const entry: NotificationEntry = {
        name: row.name,
        type: row.type,
        enabled: row.isEnabled,
        events: row.events,
        options: row.options,
      };
      if (includeSecrets) return { ...entry, options: { ...row.options, ...openCredentials(row.secrets, key) } };
      // A channel without secret options stores an empty sealed object: nothing to write.
      if (!holdsSecrets(row.secrets, key)) return entry;
      return { ...entry, secrets_sealed: row.secrets };
    });
  const file: ConfigFile = {
    version: 1,
    providers: providerEntries,
    domains: domainEntries,
    update_keys: keyEntries,
    notifications: notificationEntries,
  };
  return renderConfigFile(file);
}

/** Whether sealed secrets hold anything; when they do not open (another key), the sealed text is kept as it is. */
function holdsSecrets(sealed: string, key: string): boolean {
  try {
    return Object.keys(openCredentials(sealed, key)).length > 0;
  } catch {
    return true;
  }
}

/**
 * After a create or update from a sealed secret: the stored text becomes the file's own when it holds
 * exactly what the service stored, so exporting again writes the same file.
 */
function keepSealed(
  ctx: Pick<ExportDeps, "keys">,
  storedNow: string,
  sealed: string,
  store: (text: string) => void,
): void {
  if (same(openCredentials(storedNow, ctx.keys.encryptionKey), openCredentials(sealed, ctx.keys.encryptionKey)))
    store(sealed);
}

function withoutUndefined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as Partial<T>;
}

export interface ImportResult {
  dry_run: boolean;
  /** One line per change, e.g. `create provider "Cloudflare"`; empty when the data dir already matches. */
  changes: string[];
}

/** Thrown inside a dry run's transaction to roll it back. */
class RolledBack extends Error {}

/**
 * Applies the file's text: all or nothing. A refusal (a ConfigFileError, a 422) names the line.
 * `prune` also deletes what the file does not name.
 */
export function importConfig(
  ctx: ConfigFileDeps,
  text: string,
  options: { dryRun?: boolean; prune?: boolean; force?: boolean } = {},
): ImportResult {
  const parsed = parseConfigFile(text);
  // A file holding only `version: 1` (an empty export, a truncated copy) would delete everything.
  if (options.prune && !options.force && parsed.file.providers.length === 0 && parsed.file.domains.length === 0) {
    throw parsed.error(
      [],
      "names no providers and no domains: pruning with it would delete every one; add --force (?force=true) if that is what you want",
    );
  }
  // What the services log is kept until the transaction commits: a file refused halfway (or a dry
  // run) changed nothing, so nothing it "created" may be logged.
  const held: (() => void)[] = [];
  const holding = (level: "debug" | "info" | "warn" | "error") => (message: string, fields?: LogFields) =>
    void held.push(() => ctx.log[level](message, fields));
  const log: Logger = {
    debug: holding("debug"),
    info: holding("info"),
    warn: holding("warn"),
    error: holding("error"),
    recent: () => ctx.log.recent(),
  };
  const changes: string[] = [];
  try {
    // Every service called below queries through the transaction's store, so all of it is one transaction.
    ctx.store.transaction((store) => {
      const before = store.domains.count();
      applyFile({ ...ctx, log, store }, parsed, options.prune ?? false, changes);
      // The count the file ends with, so a pruned file may replace domains at the limit; a file that
      // adds none is not refused for a limit lowered since.
      const after = store.domains.count();
      if (after > before) checkDomainLimit(ctx, after);
      if (options.dryRun) throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  if (!options.dryRun) for (const line of held) line();
  if (!options.dryRun && changes.length > 0) ctx.log.info("configuration imported", { changes: changes.length });
  return { dry_run: options.dryRun ?? false, changes };
}

/** Runs a service call for the entry at `path`; its refusal is placed on the line of the field it names. */
function at<T>(
  parsed: ParsedConfigFile,
  path: FilePath,
  call: () => T,
  fieldPath: (field: string) => FilePath = (field) => [...path, ...field.split(".")],
): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof ConfigFileError) throw error;
    if (error instanceof Invalid) throw parsed.error(fieldPath(error.field), error.reason);
    if (error instanceof DomainError) throw parsed.error(path, error.message);
    throw error;
  }
}

const isSealedText = (value: unknown): value is string =>
  typeof value === "string" && /^v1:[A-Za-z0-9+/=]+$/.test(value);

/** A provider's stored options with the sealed ones opened; as stored when they do not open (another key). */
function openedOptions(ctx: Pick<ExportDeps, "keys">, options: Record<string, unknown>): Record<string, unknown> {
  try {
    return openSecretOptions(options, ctx.keys.encryptionKey);
  } catch {
    return options;
  }
}

function openSealed(
  ctx: ConfigFileDeps,
  parsed: ParsedConfigFile,
  sealed: string,
  path: FilePath,
): Record<string, string> {
  try {
    return openCredentials(sealed, ctx.keys.encryptionKey);
  } catch {
    throw parsed.error(
      path,
      "cannot be opened with this ddnsd's encryption key (export with the same DDNS_ENCRYPTION_KEY, or with --include-secrets)",
    );
  }
}

function ensureUniqueNames<T>(parsed: ParsedConfigFile, section: string, list: T[], key: (item: T) => string): void {
  const seen = new Map<string, number>();
  list.forEach((item, index) => {
    const name = key(item);
    if (seen.has(name))
      throw parsed.error(
        [section, index],
        `${section.replace(/s$/, "").replace("_", " ")} ${JSON.stringify(name)} is already listed above (line ${parsed.lineOf([section, seen.get(name)!])})`,
      );
    seen.set(name, index);
  });
}

/** Credentials or options as the file compares them: same keys and values, in any order. */
const same = (a: unknown, b: unknown) => isDeepStrictEqual(sortKeys(a), sortKeys(b));
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, item]) => [key, sortKeys(item)]),
  );
}

function applyFile(ctx: ConfigFileDeps, parsed: ParsedConfigFile, prune: boolean, changes: string[]): void {
  const { file } = parsed;
  ensureUniqueNames(parsed, "providers", file.providers, (entry) => nameKey(entry.name));
  ensureUniqueNames(
    parsed,
    "domains",
    file.domains,
    (entry) =>
      `${nameKey(entry.provider)} ${entry.name.toLowerCase().replace(/\.$/, "")} ${entry.record_type.toUpperCase()}`,
  );
  ensureUniqueNames(parsed, "update_keys", file.update_keys, (entry) => nameKey(entry.name));
  ensureUniqueNames(parsed, "notifications", file.notifications, (entry) => nameKey(entry.name));

  const providerIds = applyProviders(ctx, parsed, changes);
  const domainIds = applyDomains(ctx, parsed, providerIds, changes);
  applyUpdateKeys(ctx, parsed, domainIds, changes);
  applyNotifications(ctx, parsed, changes);
  if (prune) pruneUnlisted(ctx, parsed, providerIds, domainIds, changes);
}

function applyProviders(ctx: ConfigFileDeps, parsed: ParsedConfigFile, changes: string[]): Map<string, number> {
  const ids = new Map<string, number>();
  const rows = ctx.store.providers.all();
  for (const row of rows) ids.set(nameKey(row.name), row.id);
  parsed.file.providers.forEach((entry, index) => {
    const path: FilePath = ["providers", index];
    const credentials =
      entry.credentials ??
      (entry.credentials_sealed !== undefined
        ? openSealed(ctx, parsed, entry.credentials_sealed, [...path, "credentials_sealed"])
        : {});
    const credentialPath = (field: string): FilePath =>
      field.startsWith("credentials.") && entry.credentials === undefined
        ? [...path, "credentials_sealed"]
        : [...path, ...field.split(".")];
    const row = rows.find((candidate) => nameKey(candidate.name) === nameKey(entry.name));
    // A sealed option (a custom URL's headers, as an export writes them) is opened like sealed credentials.
    const headerKeys = new Set(
      ctx.services
        .find(entry.type)
        ?.options.filter((option) => option.kind === "headers")
        .map((option) => option.key),
    );
    const options = Object.fromEntries(
      Object.entries(entry.options ?? {}).map(([key, value]) => [
        key,
        headerKeys.has(key) && isSealedText(value) ? openSealed(ctx, parsed, value, [...path, "options", key]) : value,
      ]),
    );
    const input = { name: entry.name, type: entry.type, credentials, options, is_enabled: entry.enabled };
    let id: number;
    if (row === undefined) {
      id = at(parsed, path, () => createProvider(ctx, input).id, credentialPath);
      changes.push(`create provider ${JSON.stringify(entry.name)} (${entry.type})`);
    } else {
      id = row.id;
      let stored: Record<string, string> = {};
      try {
        stored = openCredentials(row.credentials, ctx.keys.encryptionKey);
      } catch {
        // Unreadable under this key (another DDNS_ENCRYPTION_KEY): the file's credentials replace them,
        // which is how such a provider is mended.
      }
      const differs = [
        row.name !== entry.name.normalize("NFC").trim() && "name",
        row.type !== entry.type && "type",
        row.isEnabled !== entry.enabled && "enabled",
        !same(stored, credentials) && "credentials",
        !same(openedOptions(ctx, row.options), options) && "options",
      ].filter((field): field is string => field !== false);
      if (differs.length === 0) {
        ids.set(nameKey(entry.name), id);
        return;
      }
      at(parsed, path, () => updateProvider(ctx, row.id, input), credentialPath);
      changes.push(`update provider ${JSON.stringify(entry.name)}: ${differs.join(", ")}`);
    }
    if (entry.credentials_sealed !== undefined) {
      const storedNow = ctx.store.providers.find(id)!.credentials;
      keepSealed(ctx, storedNow, entry.credentials_sealed, (text) =>
        ctx.store.providers.update(id, { credentials: text }),
      );
    }
    for (const [key, value] of Object.entries(entry.options ?? {})) {
      const storedNow = ctx.store.providers.find(id)!.options;
      if (!isSealedText(value) || !isSealedText(storedNow[key])) continue;
      keepSealed(ctx, storedNow[key], value, (text) =>
        ctx.store.providers.update(id, { options: { ...storedNow, [key]: text } }),
      );
    }
    ids.set(nameKey(entry.name), id);
  });
  return ids;
}

function domainKey(providerId: number, name: string, recordType: string): string {
  return `${providerId} ${name} ${recordType}`;
}

/** The key of the domain a reference names: its provider's id, hostname and record type. */
function resolveRef(
  parsed: ParsedConfigFile,
  providerIds: Map<string, number>,
  ref: DomainRef,
  path: FilePath,
): { providerId: number; key: string } {
  const providerId = providerIds.get(nameKey(ref.provider));
  if (providerId === undefined)
    throw parsed.error([...path, "provider"], `no provider is named ${JSON.stringify(ref.provider)}`);
  const name = at(
    parsed,
    path,
    () => normaliseHostname(ref.name),
    () => [...path, "name"],
  );
  return { providerId, key: domainKey(providerId, name, ref.record_type.trim().toUpperCase()) };
}

function applyDomains(
  ctx: ConfigFileDeps,
  parsed: ParsedConfigFile,
  providerIds: Map<string, number>,
  changes: string[],
): Map<string, number> {
  const ids = new Map<string, number>();
  const rows = ctx.store.domains.list();
  for (const row of rows) ids.set(domainKey(row.providerId, row.domainName, row.recordType), row.id);
  parsed.file.domains.forEach((entry, index) => {
    const path: FilePath = ["domains", index];
    const { providerId, key } = resolveRef(parsed, providerIds, entry, path);
    const given = entry.address_source ?? null;
    const addressSource =
      given === null || (typeof given === "string" && given.trim() === "")
        ? null
        : typeof given === "string"
          ? given.trim()
          : given.map((source) => source.trim());
    const input = {
      provider_id: providerId,
      domain_name: entry.name,
      record_type: entry.record_type,
      cron_schedule: entry.cron_schedule,
      address_source: addressSource,
      config: entry.config,
      is_enabled: entry.enabled,
    };
    const fieldPath = (field: string): FilePath => [
      ...path,
      ...(field === "domain_name" ? ["name"] : field.split(".")),
    ];
    const label = `${entry.name} ${entry.record_type.toUpperCase()} at ${JSON.stringify(entry.provider)}`;
    const existing = ids.get(key);
    if (existing === undefined) {
      const created = at(parsed, path, () => createDomain(ctx, input, "checked by the caller"), fieldPath);
      ids.set(key, created.id);
      changes.push(`create domain ${label}`);
      return;
    }
    const row = rows.find((candidate) => candidate.id === existing)!;
    const cron =
      entry.cron_schedule === null || entry.cron_schedule.trim() === ""
        ? null
        : entry.cron_schedule.trim().replace(/\s+/g, " ");
    const differs = [
      row.isEnabled !== entry.enabled && "enabled",
      row.cronSchedule !== cron && "cron_schedule",
      !same(shownSources(row.addressSource), addressSource) && "address_source",
      !same(row.config, entry.config) && "config",
    ].filter((field): field is string => field !== false);
    if (differs.length === 0) return;
    at(parsed, path, () => updateDomain(ctx, existing, input), fieldPath);
    changes.push(`update domain ${label}: ${differs.join(", ")}`);
  });
  return ids;
}

function applyUpdateKeys(
  ctx: ConfigFileDeps,
  parsed: ParsedConfigFile,
  domainIds: Map<string, number>,
  changes: string[],
): void {
  const rows = ctx.store.updateKeys.list();
  const providerIds = new Map(ctx.store.providers.names().map((row) => [nameKey(row.name), row.id]));
  parsed.file.update_keys.forEach((entry, index) => {
    const path: FilePath = ["update_keys", index];
    const scope =
      entry.domains === null
        ? null
        : [
            ...new Set(
              entry.domains.map((ref, position) => {
                const refPath: FilePath = [...path, "domains", position];
                const id = domainIds.get(resolveRef(parsed, providerIds, ref, refPath).key);
                if (id === undefined)
                  throw parsed.error(
                    refPath,
                    `no domain ${ref.name} ${ref.record_type} at ${JSON.stringify(ref.provider)}`,
                  );
                return id;
              }),
            ),
          ].sort((a, b) => a - b);
    if (scope !== null && scope.length === 0)
      throw parsed.error([...path, "domains"], "must name at least one domain; leave it out (or null) for all domains");
    const name = at(parsed, path, () => checkDisplayName(entry.name));
    const row = rows.find((candidate) => nameKey(candidate.name) === nameKey(entry.name));
    const clash = ctx.store.updateKeys.findByHash(entry.key_sha256);
    if (clash !== undefined && clash.id !== row?.id)
      throw parsed.error([...path, "key_sha256"], `is already the key named ${JSON.stringify(clash.name)}`);
    if (row === undefined) {
      ctx.store.updateKeys.create({
        name,
        keyHash: entry.key_sha256,
        keyTail: entry.key_tail,
        domainIds: scope,
        createdAt: Date.now(),
      });
      changes.push(`create update key ${JSON.stringify(name)}`);
      return;
    }
    const differs = [
      row.name !== name && "name",
      (row.keyHash !== entry.key_sha256 || row.keyTail !== entry.key_tail) && "key",
      !same(row.domainIds, scope) && "domains",
    ].filter((field): field is string => field !== false);
    if (differs.length === 0) return;
    ctx.store.updateKeys.update(row.id, { name, keyHash: entry.key_sha256, keyTail: entry.key_tail, domainIds: scope });
    changes.push(`update update key ${JSON.stringify(name)}: ${differs.join(", ")}`);
  });
}

function applyNotifications(ctx: ConfigFileDeps, parsed: ParsedConfigFile, changes: string[]): void {
  const rows = ctx.store.notifications.list();
  parsed.file.notifications.forEach((entry, index) => {
    const path: FilePath = ["notifications", index];
    const secrets =
      entry.secrets_sealed === undefined
        ? {}
        : openSealed(ctx, parsed, entry.secrets_sealed, [...path, "secrets_sealed"]);
    const options = { ...entry.options, ...secrets };
    const input = { name: entry.name, type: entry.type, options, events: entry.events, is_enabled: entry.enabled };
    const row = rows.find((candidate) => nameKey(candidate.name) === nameKey(entry.name));
    let id: number;
    if (row === undefined) {
      id = at(parsed, path, () => createNotification(ctx, input).id);
      changes.push(`create notification ${JSON.stringify(entry.name)} (${entry.type})`);
    } else {
      id = row.id;
      let stored: Record<string, string> = {};
      try {
        stored = openCredentials(row.secrets, ctx.keys.encryptionKey);
      } catch {
        // Unreadable under this key: the file's values replace them.
      }
      const differs = [
        row.name !== entry.name.normalize("NFC").trim() && "name",
        row.type !== entry.type && "type",
        row.isEnabled !== entry.enabled && "enabled",
        !same([...row.events].sort(), [...entry.events].sort()) && "events",
        !same({ ...row.options, ...stored }, options) && "options",
      ].filter((field): field is string => field !== false);
      if (differs.length === 0) return;
      at(parsed, path, () => updateNotification(ctx, row.id, input));
      changes.push(`update notification ${JSON.stringify(entry.name)}: ${differs.join(", ")}`);
    }
    if (entry.secrets_sealed !== undefined) {
      const storedNow = ctx.store.notifications.find(id)!.secrets;
      keepSealed(ctx, storedNow, entry.secrets_sealed, (text) => ctx.store.notifications.update(id, { secrets: text }));
    }
  });
}

function pruneUnlisted(
  ctx: ConfigFileDeps,
  parsed: ParsedConfigFile,
  providerIds: Map<string, number>,
  domainIds: Map<string, number>,
  changes: string[],
): void {
  const { file } = parsed;
  const listedDomains = new Set(
    file.domains.map((entry) => domainIds.get(resolveRef(parsed, providerIds, entry, []).key)),
  );
  for (const row of ctx.store.domains.list()) {
    if (listedDomains.has(row.id)) continue;
    deleteDomain(ctx, row.id);
    changes.push(`delete domain ${row.domainName} ${row.recordType}`);
  }
  const keys = new Set(file.update_keys.map((entry) => nameKey(entry.name)));
  for (const row of ctx.store.updateKeys.list()) {
    if (keys.has(nameKey(row.name))) continue;
    deleteUpdateKey(ctx, row.id);
    changes.push(`delete update key ${JSON.stringify(row.name)}`);
  }
  const names = new Set(file.notifications.map((entry) => nameKey(entry.name)));
  for (const row of ctx.store.notifications.list()) {
    if (names.has(nameKey(row.name))) continue;
    deleteNotification(ctx, row.id);
    changes.push(`delete notification ${JSON.stringify(row.name)}`);
  }
  const providerNames = new Set(file.providers.map((entry) => nameKey(entry.name)));
  for (const row of ctx.store.providers.all()) {
    if (providerNames.has(nameKey(row.name))) continue;
    at(parsed, [], () => deleteProvider(ctx, row.id, false));
    changes.push(`delete provider ${JSON.stringify(row.name)}`);
  }
}
