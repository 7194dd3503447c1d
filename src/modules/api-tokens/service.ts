// API tokens (docs/api.md, API tokens): random tokens scripts and home automation send as
// `Authorization: Bearer ddnsd_…`, shown once and stored as a SHA-256 hash like the update keys
// (256 random bits: no guess walks the hash, and one indexed lookup finds the token). Each has a
// scope; what a scope lets through is the HTTP edge's to decide (http/api-tokens.ts).

import { randomBytes } from "node:crypto";
import { invalidField, notFound } from "../../errors";
import type { Logger } from "../../log";
import type { Store } from "../../store";
import type { ApiTokenRow, ApiTokenScope } from "../../store/rows";
import { iso } from "../../util/time";
import { checkDisplayName } from "../shared";
import { checkDomainIds, hashKey } from "../update-keys/service";

/** What every API token starts with, so a token is told from a sign-in token (a JWT) at a glance. */
export const API_TOKEN_PREFIX = "ddnsd_";
/** A token's last use is written once a minute at most. */
const LAST_USED_EVERY_MS = 60_000;

export interface ApiTokenDeps {
  store: Pick<Store, "apiTokens" | "domains">;
  log: Logger;
}

export interface ApiTokenView {
  id: number;
  name: string;
  scope: ApiTokenScope;
  token: string;
  domain_ids: number[] | null;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface ApiTokenInput {
  name: string;
  scope: ApiTokenScope;
  domain_ids?: number[] | null;
  expires_at?: string | null;
}

function toView(row: ApiTokenRow, token?: string): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    token: token ?? `${API_TOKEN_PREFIX}••••${row.tokenTail}`,
    domain_ids: row.domainIds,
    expires_at: iso(row.expiresAt),
    created_at: iso(row.createdAt),
    last_used_at: iso(row.lastUsedAt),
  };
}

function checkExpiry(expiresAt: string | null | undefined, now: number): number | null {
  if (expiresAt === null || expiresAt === undefined) return null;
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(expiresAt)
    ? Date.parse(expiresAt)
    : NaN;
  if (Number.isNaN(ms))
    throw invalidField("expires_at", "must be an ISO 8601 time with its offset, e.g. 2027-12-31T00:00:00Z");
  if (ms <= now) throw invalidField("expires_at", "must be in the future");
  return ms;
}

export function createApiToken(ctx: ApiTokenDeps, input: ApiTokenInput, now = Date.now()): ApiTokenView {
  const name = checkDisplayName(input.name);
  if (input.scope !== "update" && input.domain_ids !== null && input.domain_ids !== undefined)
    throw invalidField("domain_ids", "only an update token is limited to domains; leave it null");
  const domainIds = input.scope === "update" ? checkDomainIds(ctx, input.domain_ids) : null;
  const expiresAt = checkExpiry(input.expires_at, now);
  // 32 random bytes as base64url: 43 characters that survive a header, a YAML file and a URL as they are.
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row = ctx.store.apiTokens.create({
    name,
    scope: input.scope,
    tokenHash: hashKey(token),
    tokenTail: token.slice(-4),
    domainIds,
    expiresAt,
    createdAt: now,
  });
  ctx.log.info("API token created", { api_token_id: row.id, scope: row.scope });
  return toView(row, token);
}

export function listApiTokens(ctx: ApiTokenDeps): ApiTokenView[] {
  return ctx.store.apiTokens.list().map((row) => toView(row));
}

function findRow(ctx: ApiTokenDeps, id: number): ApiTokenRow {
  const row = ctx.store.apiTokens.find(id);
  if (!row) throw notFound("API token not found");
  return row;
}

export function getApiToken(ctx: ApiTokenDeps, id: number): ApiTokenView {
  return toView(findRow(ctx, id));
}

export function deleteApiToken(ctx: ApiTokenDeps, id: number): void {
  findRow(ctx, id);
  ctx.store.apiTokens.delete(id);
  ctx.log.info("API token revoked", { api_token_id: id });
}

/** The token a request presented, marked as used: null for an unknown token, "expired" past its time. */
export function useApiToken(ctx: ApiTokenDeps, token: string, now = Date.now()): ApiTokenRow | "expired" | null {
  const row = ctx.store.apiTokens.findByHash(hashKey(token));
  if (!row) return null;
  if (row.expiresAt !== null && row.expiresAt <= now) return "expired";
  ctx.store.apiTokens.markUsed(row.id, now, now - LAST_USED_EVERY_MS);
  return row;
}
