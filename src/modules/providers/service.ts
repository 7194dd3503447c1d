// Provider rules (docs/api.md, providers; docs/services/README.md): the type one of the registered services, credentials and
// options as its description demands, unique names, sealed credentials, the 409s, and checking
// the credentials with the provider's DNS service (through the updater's client of a provider row).

import type { ServiceRegistry } from "../../dns/registry";
import { normaliseCredentials, normaliseOptions } from "../../dns/rules";
import type { ServiceDescription } from "../../dns/service";
import { conflict, invalidField, notFound } from "../../errors";
import type { Logger } from "../../log";
import {
  keepMaskedHeaders,
  maskCredentials,
  maskSecretOptions,
  openCredentials,
  openSecretOptions,
  sealCredentials,
  sealSecretOptions,
} from "../../security/secrets";
import type { Store } from "../../store";
import type { ProviderChanges, ProviderWithCount, Verification } from "../../store/providers";
import type { ProviderRow } from "../../store/rows";
import { type ClientParts, providerClient } from "../../updater/provider-client";
import { plural } from "../../util/plural";
import { iso } from "../../util/time";
import { checkDisplayName } from "../shared";
import type { Provider, ProviderCreate, ProviderUpdate, VerifyResult } from "./model";

/**
 * What the providers' rules use: the rows (a provider deleted with its domains and their history),
 * the registered services, the key that seals credentials, and the provider client's parts, to
 * check credentials and to forget a deleted provider's pacing; the log.
 */
export interface ProviderDeps extends ClientParts {
  log: Logger;
}

/** Reading one provider's row: all another service needs to check a provider exists. */
export interface ProviderRows {
  store: Pick<Store, "providers">;
}

/** Showing providers: their rows, their services (which credentials are secret) and the key that opens them to mask. */
export interface ProviderReader extends ProviderRows {
  services: ServiceRegistry;
  keys: { readonly encryptionKey: string };
}

export type ProviderView = typeof Provider.static;
export type ProviderInput = typeof ProviderUpdate.static;

export interface UpdateProviderOptions {
  /**
   * Credentials the input leaves out keep their stored values (the admin form, where a secret is
   * never shown and an empty input means "unchanged"). The API replaces all credentials (docs/api.md, providers).
   */
  keepStoredCredentials?: boolean;
}

/** The registered service of that type, or a 422 listing the types there are. */
function serviceOfType(ctx: Pick<ProviderDeps, "services">, type: string): ServiceDescription {
  const service = ctx.services.find(type);
  if (!service) throw invalidField("type", `must be one of: ${ctx.services.types.join(", ")}`);
  return service;
}

/**
 * Names are unique ignoring case in any script. Compared here rather than in SQL, whose lower()
 * folds ASCII only (the unique index on lower(name) remains as a backstop); providers are few.
 */
function ensureNameFree(ctx: ProviderDeps, name: string, exceptId?: number): void {
  const key = name.toLocaleLowerCase("und");
  const clash = ctx.store.providers
    .names()
    .find((row) => row.id !== exceptId && row.name.normalize("NFC").toLocaleLowerCase("und") === key);
  if (clash) throw conflict(`A provider named "${clash.name}" already exists`);
}

function toView(ctx: ProviderReader, row: ProviderWithCount): ProviderView {
  const service = ctx.services.find(row.type);
  // A key the service does not call public (or a service no longer registered) is masked.
  const shownAsIs = new Set(service?.credentials.filter((field) => !field.secret).map((field) => field.key));
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    is_enabled: row.isEnabled,
    credentials: maskCredentials(
      openCredentials(row.credentials, ctx.keys.encryptionKey),
      (key) => !shownAsIs.has(key),
    ),
    options: maskSecretOptions(row.options, ctx.keys.encryptionKey),
    domain_count: row.domainCount,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function listProviders(ctx: ProviderReader): ProviderView[] {
  return ctx.store.providers.listWithDomainCount().map((row) => toView(ctx, row));
}

export function findProviderRow(ctx: ProviderRows, id: number): ProviderRow {
  const row = ctx.store.providers.find(id);
  if (!row) throw notFound("Provider not found");
  return row;
}

export function getProvider(ctx: ProviderReader, id: number): ProviderView {
  const row = ctx.store.providers.findWithDomainCount(id);
  if (!row) throw notFound("Provider not found");
  return toView(ctx, row);
}

export function createProvider(ctx: ProviderDeps, input: typeof ProviderCreate.static): ProviderView {
  const name = checkDisplayName(input.name);
  const service = serviceOfType(ctx, input.type);
  const credentials = normaliseCredentials(service, input.credentials);
  const options = sealSecretOptions(
    service.options,
    normaliseOptions(service, input.options ?? {}),
    ctx.keys.encryptionKey,
  );
  ensureNameFree(ctx, name);
  const now = Date.now();
  const id = ctx.store.providers.create({
    name,
    type: service.type,
    credentials: sealCredentials(credentials, ctx.keys.encryptionKey),
    options,
    isEnabled: input.is_enabled ?? true,
    createdAt: now,
    updatedAt: now,
  });
  ctx.log.info("provider created", { provider_id: id, type: service.type });
  return getProvider(ctx, id);
}

export function updateProvider(
  ctx: ProviderDeps,
  id: number,
  input: ProviderInput,
  how: UpdateProviderOptions = {},
): ProviderView {
  const row = findProviderRow(ctx, id);
  const changes: ProviderChanges = {};
  if (input.name !== undefined) {
    changes.name = checkDisplayName(input.name);
    ensureNameFree(ctx, changes.name, id);
  }
  const service = serviceOfType(ctx, input.type ?? row.type);
  const typeChanged = service.type !== row.type;
  if (typeChanged) {
    if (ctx.store.providers.domainCount(id) > 0)
      throw conflict("The provider's type cannot change while it has domains");
    if (input.credentials === undefined) {
      const first = service.credentials.find((field) => !field.optional)?.key;
      if (first !== undefined)
        throw invalidField(`credentials.${first}`, `is required when changing the type to ${service.type}`);
    }
    changes.type = service.type;
  }
  if (input.credentials !== undefined || typeChanged) {
    const stored =
      how.keepStoredCredentials && !typeChanged ? openCredentials(row.credentials, ctx.keys.encryptionKey) : {};
    changes.credentials = sealCredentials(
      normaliseCredentials(service, input.credentials ?? {}, stored),
      ctx.keys.encryptionKey,
    );
  }
  // Another service's options mean nothing to this one, so a new type starts from the options sent.
  if (input.options !== undefined || typeChanged) {
    // Secret headers sent back as an answer shows them keep their stored values.
    const stored = typeChanged ? {} : openSecretOptions(row.options, ctx.keys.encryptionKey);
    const given = Object.fromEntries(
      Object.entries(input.options ?? {}).map(([key, value]) => [key, keepMaskedHeaders(value, stored[key])]),
    );
    changes.options = sealSecretOptions(service.options, normaliseOptions(service, given), ctx.keys.encryptionKey);
  }
  if (input.is_enabled !== undefined) changes.isEnabled = input.is_enabled;
  if (Object.keys(changes).length > 0) {
    const now = Date.now();
    ctx.store.providers.update(id, { ...changes, updatedAt: now });
    // An edit of the provider may fix what a service said retrying could not (docs/services/README.md:
    // dyndns2 `badauth` …): its domains that were stopped get checked at once.
    ctx.store.domains.resumeStopped(id, now);
  }
  return getProvider(ctx, id);
}

/** Removes the provider; with `cascade`, its domains and their history go in the same transaction. */
export function deleteProvider(ctx: ProviderDeps, id: number, cascade: boolean): void {
  findProviderRow(ctx, id);
  const count = ctx.store.providers.domainCount(id);
  if (count > 0 && !cascade) {
    throw conflict(`The provider still has ${plural(count, "domain")}; delete them first or use ?cascade=true`);
  }
  ctx.store.transaction((store) => {
    for (const domainId of store.domains.idsOfProvider(id)) {
      store.history.deleteForDomain(domainId);
      store.domains.delete(domainId);
    }
    store.providers.delete(id);
  });
  ctx.pacer.forget(id);
  ctx.log.info("provider deleted", { provider_id: id, domains_deleted: count });
}

/** False when the encryption key cannot open stored credentials (a replaced key); checked at start. */
export function storedCredentialsReadable(ctx: ProviderRows & Pick<ProviderDeps, "keys">): boolean {
  const credentials = ctx.store.providers.anyCredentials();
  if (credentials === undefined) return true;
  try {
    openCredentials(credentials, ctx.keys.encryptionKey);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks the stored credentials with the service, and keeps the answer for the admin pages. A
 * service that cannot check credentials without writing a record is not asked (docs/services/README.md).
 */
export async function verifyProvider(ctx: ProviderDeps, id: number): Promise<typeof VerifyResult.static> {
  const row = findProviderRow(ctx, id);
  const service = ctx.services.get(row.type);
  const checked = service.canVerify
    ? await providerClient(ctx, row).verify()
    : {
        ok: null,
        detail: service.verifyUnavailable ?? `${service.label} cannot check credentials without changing a record`,
      };
  // A failed check names its cause; one that names none is about the credentials it checks.
  const cause = checked.ok === false ? (("cause" in checked ? checked.cause : undefined) ?? "credentials") : null;
  const outcome = { ok: checked.ok, detail: checked.detail, cause };
  ctx.log.info("provider verified", { provider_id: id, ok: outcome.ok, cause: cause ?? undefined });
  ctx.store.providers.noteVerification(id, { at: Date.now(), ok: outcome.ok, detail: outcome.detail, cause });
  return outcome;
}

/** The provider's zones by name, for the domain form; `listed: false` where they are not known (`reason`: why, when asked). */
export type ProviderZones = { listed: true; zones: string[] } | { listed: false; reason: string | null };

/**
 * The zones the provider's account holds, asked of its service (one request or a few pages; only
 * for a switched-on provider whose service lists zones): the domain form offers them for the
 * hostname and refuses a name in none of them before it is saved.
 */
export async function providerZones(ctx: ClientParts, id: number): Promise<ProviderZones> {
  const row = findProviderRow(ctx, id);
  if (!row.isEnabled) return { listed: false, reason: null };
  try {
    const client = providerClient(ctx, row);
    if (!client.listZones) return { listed: false, reason: null };
    const listed = await client.listZones();
    return listed.ok ? { listed: true, zones: listed.value } : { listed: false, reason: listed.message };
  } catch (error) {
    // Credentials that no longer open: the form still works, without the list.
    return { listed: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

export type LastVerification = Verification;

/** Each provider's newest credential check, by provider id (absent: never checked). */
export function lastVerifications(ctx: ProviderRows): Map<number, LastVerification> {
  return ctx.store.providers.verifications();
}

/** Header options an older release stored in clear (a custom URL's `headers`): sealed once, at start. */
export function sealProviderOptionsStoredInClear(ctx: Pick<ProviderDeps, "store" | "keys" | "services">): number {
  let sealed = 0;
  for (const row of ctx.store.providers.all()) {
    const service = ctx.services.find(row.type);
    if (service === undefined) continue;
    const options = sealSecretOptions(service.options, row.options, ctx.keys.encryptionKey);
    if (Object.keys(options).every((key) => options[key] === row.options[key])) continue;
    ctx.store.providers.update(row.id, { options });
    sealed++;
  }
  return sealed;
}
