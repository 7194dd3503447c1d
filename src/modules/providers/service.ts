// Provider rules (CONTRACT §3): credential keys per type, unique names, sealed credentials,
// the 409s, and the client that talks to the provider's DNS service.

import { asc, eq, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { domains, history, providers, type ProviderRow } from "../../db/schema";
import { createProviderClient } from "../../dns";
import type { DnsProvider, ProviderType, VerifyOutcome } from "../../dns/provider";
import { conflict, invalidField, notFound } from "../../http/errors";
import { maskCredentials, openCredentials, sealCredentials } from "../../security/secrets";
import { iso } from "../../util/time";
import { PROVIDER_TYPES } from "./model";

/** The one credential key each type needs; `token` is accepted as an alias of it. */
export const CREDENTIAL_KEY: Record<ProviderType, string> = { cloudflare: "api_token", dynu: "api_key" };

export interface ProviderInput {
  name?: string;
  type?: string;
  credentials?: Record<string, unknown>;
  is_enabled?: boolean;
}

export interface ProviderView {
  id: number;
  name: string;
  type: ProviderType;
  is_enabled: boolean;
  credentials: Record<string, string>;
  domain_count: number;
  created_at: string;
  updated_at: string;
}

export function checkProviderType(type: string): ProviderType {
  if (!(PROVIDER_TYPES as readonly string[]).includes(type)) {
    throw invalidField("type", `must be one of: ${PROVIDER_TYPES.join(", ")}`);
  }
  return type as ProviderType;
}

/** Keeps only the type's credential key, taken from its own name or the `token` alias. */
export function normaliseCredentials(type: ProviderType, credentials: Record<string, unknown>): Record<string, string> {
  const key = CREDENTIAL_KEY[type];
  const value = credentials[key] ?? credentials.token;
  if (typeof value !== "string" || value.trim() === "") {
    throw invalidField(`credentials.${key}`, `is required for a ${type} provider`);
  }
  return { [key]: value.trim() };
}

function checkName(name: string): string {
  const trimmed = name.normalize("NFC").trim();
  if (trimmed.length < 1 || trimmed.length > 100) throw invalidField("name", "must be 1 to 100 characters");
  return trimmed;
}

/**
 * Names are unique ignoring case in any script. Compared here rather than in SQL, whose lower()
 * folds ASCII only (the unique index on lower(name) remains as a backstop); providers are few.
 */
function ensureNameFree(ctx: AppContext, name: string, exceptId?: number): void {
  const key = name.toLocaleLowerCase("und");
  const clash = ctx.db
    .select({ id: providers.id, name: providers.name })
    .from(providers)
    .all()
    .find((row) => row.id !== exceptId && row.name.normalize("NFC").toLocaleLowerCase("und") === key);
  if (clash) throw conflict(`A provider named "${clash.name}" already exists`);
}

// Written out: in a one-table select drizzle leaves `${providers.id}` unqualified, and inside the
// subquery a bare "id" would be the domain's.
const domainCount = sql<number>`(SELECT count(*) FROM domains WHERE domains.provider_id = providers.id)`;

function toView(ctx: AppContext, row: Omit<ProviderRow, "lastVerifiedAt" | "lastVerifyOk" | "lastVerifyDetail"> & { domainCount: number }): ProviderView {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    is_enabled: row.isEnabled,
    credentials: maskCredentials(openCredentials(row.credentials, ctx.keys.encryptionKey)),
    domain_count: row.domainCount,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

function selectProviders(ctx: AppContext) {
  return ctx.db
    .select({
      id: providers.id,
      name: providers.name,
      type: providers.type,
      credentials: providers.credentials,
      isEnabled: providers.isEnabled,
      pausedUntil: providers.pausedUntil,
      createdAt: providers.createdAt,
      updatedAt: providers.updatedAt,
      domainCount: domainCount,
    })
    .from(providers);
}

export function listProviders(ctx: AppContext): ProviderView[] {
  return selectProviders(ctx).orderBy(asc(providers.id)).all().map((row) => toView(ctx, row));
}

export function findProviderRow(ctx: AppContext, id: number): ProviderRow {
  const row = ctx.db.select().from(providers).where(eq(providers.id, id)).get();
  if (!row) throw notFound("Provider not found");
  return row;
}

export function getProvider(ctx: AppContext, id: number): ProviderView {
  const row = selectProviders(ctx).where(eq(providers.id, id)).get();
  if (!row) throw notFound("Provider not found");
  return toView(ctx, row);
}

export function createProvider(ctx: AppContext, input: Required<Pick<ProviderInput, "name" | "type" | "credentials">> & ProviderInput): ProviderView {
  const name = checkName(input.name);
  const type = checkProviderType(input.type);
  const credentials = normaliseCredentials(type, input.credentials);
  ensureNameFree(ctx, name);
  const now = Date.now();
  const created = ctx.db
    .insert(providers)
    .values({
      name,
      type,
      credentials: sealCredentials(credentials, ctx.keys.encryptionKey),
      isEnabled: input.is_enabled ?? true,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: providers.id })
    .get();
  ctx.log.info("provider created", { provider_id: created.id, type });
  return getProvider(ctx, created.id);
}

export function updateProvider(ctx: AppContext, id: number, input: ProviderInput): ProviderView {
  const row = findProviderRow(ctx, id);
  const changes: Partial<typeof providers.$inferInsert> = {};
  if (input.name !== undefined) {
    changes.name = checkName(input.name);
    ensureNameFree(ctx, changes.name, id);
  }
  const type = input.type === undefined ? row.type : checkProviderType(input.type);
  if (type !== row.type) {
    if (domainCountOf(ctx, id) > 0) throw conflict("The provider's type cannot change while it has domains");
    if (input.credentials === undefined) {
      throw invalidField(`credentials.${CREDENTIAL_KEY[type]}`, `is required when changing the type to ${type}`);
    }
    changes.type = type;
  }
  if (input.credentials !== undefined) {
    changes.credentials = sealCredentials(normaliseCredentials(type, input.credentials), ctx.keys.encryptionKey);
  }
  if (input.is_enabled !== undefined) changes.isEnabled = input.is_enabled;
  if (Object.keys(changes).length > 0) {
    ctx.db.update(providers).set({ ...changes, updatedAt: Date.now() }).where(eq(providers.id, id)).run();
  }
  return getProvider(ctx, id);
}

function domainCountOf(ctx: AppContext, providerId: number): number {
  return ctx.db.select({ n: sql<number>`count(*)` }).from(domains).where(eq(domains.providerId, providerId)).get()!.n;
}

/** Removes the provider; with `cascade`, its domains and their history go in the same transaction. */
export function deleteProvider(ctx: AppContext, id: number, cascade: boolean): void {
  findProviderRow(ctx, id);
  const count = domainCountOf(ctx, id);
  if (count > 0 && !cascade) {
    throw conflict(`The provider still has ${count} domain${count === 1 ? "" : "s"}; delete them first or use ?cascade=true`);
  }
  ctx.db.transaction((tx) => {
    const ids = tx.select({ id: domains.id }).from(domains).where(eq(domains.providerId, id)).all().map((d) => d.id);
    if (ids.length > 0) {
      tx.delete(history).where(inArray(history.domainId, ids)).run();
      tx.delete(domains).where(eq(domains.providerId, id)).run();
    }
    tx.delete(providers).where(eq(providers.id, id)).run();
  });
  ctx.log.info("provider deleted", { provider_id: id, domains_deleted: count });
}

/** False when the encryption key cannot open stored credentials (a replaced key); checked at start. */
export function storedCredentialsReadable(ctx: AppContext): boolean {
  const row = ctx.db.select({ credentials: providers.credentials }).from(providers).limit(1).get();
  if (!row) return true;
  try {
    openCredentials(row.credentials, ctx.keys.encryptionKey);
    return true;
  } catch {
    return false;
  }
}

/** The DNS service client for a provider, with its credentials opened for this call only. */
export function providerClient(ctx: AppContext, row: ProviderRow): DnsProvider {
  return createProviderClient(row.type, openCredentials(row.credentials, ctx.keys.encryptionKey), {
    cloudflareApiUrl: ctx.settings.cloudflareApiUrl,
    dynuApiUrl: ctx.settings.dynuApiUrl,
    fetch: ctx.fetch,
    timeoutMs: ctx.settings.httpTimeoutMs,
  });
}

/** Checks the stored credentials with the service, and keeps the answer for the admin pages. */
export async function verifyProvider(ctx: AppContext, id: number): Promise<VerifyOutcome> {
  const outcome = await providerClient(ctx, findProviderRow(ctx, id)).verify();
  ctx.log.info("provider verified", { provider_id: id, ok: outcome.ok });
  ctx.db
    .update(providers)
    .set({ lastVerifiedAt: Date.now(), lastVerifyOk: outcome.ok, lastVerifyDetail: outcome.detail })
    .where(eq(providers.id, id))
    .run();
  return outcome;
}

export interface LastVerification {
  at: number;
  ok: boolean | null;
  detail: string;
}

/** Each provider's newest credential check, by provider id (absent: never checked). */
export function lastVerifications(ctx: AppContext): Map<number, LastVerification> {
  const rows = ctx.db
    .select({ id: providers.id, at: providers.lastVerifiedAt, ok: providers.lastVerifyOk, detail: providers.lastVerifyDetail })
    .from(providers)
    .all();
  return new Map(rows.flatMap((row) => (row.at === null ? [] : [[row.id, { at: row.at, ok: row.ok, detail: row.detail ?? "" }] as const])));
}
