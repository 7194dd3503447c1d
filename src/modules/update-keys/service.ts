// Update keys (docs/router-push.md): random keys a router sends with its push, shown once and stored as a
// SHA-256 hash. The key carries 256 random bits, so no guess can walk the hash and a slow password
// hash would only cost every push time; one indexed lookup of the hash finds the key.

import { createHash, randomBytes } from "node:crypto";
import { invalidField, notFound } from "../../errors";
import type { Logger } from "../../log";
import type { Store } from "../../store";
import type { UpdateKeyRow } from "../../store/rows";
import { iso } from "../../util/time";
import { checkDisplayName } from "../shared";

/** What the keys' rules use: the keys, the domains a key may name, the log. */
export interface UpdateKeyDeps {
  store: Pick<Store, "updateKeys" | "domains">;
  log: Logger;
}

export interface UpdateKeyView {
  id: number;
  name: string;
  key: string;
  domain_ids: number[] | null;
  created_at: string;
  last_used_at: string | null;
}

/** A random key's SHA-256 (hex): how update keys and API tokens are stored. */
export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function toView(row: UpdateKeyRow, key?: string): UpdateKeyView {
  return {
    id: row.id,
    name: row.name,
    // Only the tail is stored; shown as maskSecret shows any secret this long.
    key: key ?? `••••${row.keyTail}`,
    domain_ids: row.domainIds,
    created_at: iso(row.createdAt),
    last_used_at: iso(row.lastUsedAt),
  };
}

/** A key's or token's list of domains: sorted, without repeats, each existing; null for all domains. */
export function checkDomainIds(
  ctx: { store: Pick<Store, "domains"> },
  ids: number[] | null | undefined,
): number[] | null {
  if (ids === null || ids === undefined) return null;
  // An empty list would make a key that updates nothing, which reads like "no limit".
  if (ids.length === 0) throw invalidField("domain_ids", "must name at least one domain; null means all domains");
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const known = ctx.store.domains.existingIds(unique);
  const missing = unique.find((id) => !known.has(id));
  if (missing !== undefined) throw invalidField("domain_ids", `domain ${missing} does not exist`);
  return unique;
}

export function createUpdateKey(
  ctx: UpdateKeyDeps,
  input: { name: string; domain_ids?: number[] | null },
): UpdateKeyView {
  const name = checkDisplayName(input.name);
  const domainIds = checkDomainIds(ctx, input.domain_ids);
  // 32 random bytes as base64url: 43 characters that survive a URL, a form field and Basic auth as they are.
  const key = randomBytes(32).toString("base64url");
  const row = ctx.store.updateKeys.create({
    name,
    keyHash: hashKey(key),
    keyTail: key.slice(-4),
    domainIds,
    createdAt: Date.now(),
  });
  ctx.log.info("update key created", {
    update_key_id: row.id,
    domains: domainIds === null ? "all" : domainIds.join(","),
  });
  return toView(row, key);
}

export function listUpdateKeys(ctx: UpdateKeyDeps): UpdateKeyView[] {
  return ctx.store.updateKeys.list().map((row) => toView(row));
}

function findUpdateKeyRow(ctx: UpdateKeyDeps, id: number): UpdateKeyRow {
  const row = ctx.store.updateKeys.find(id);
  if (!row) throw notFound("Update key not found");
  return row;
}

export function getUpdateKey(ctx: UpdateKeyDeps, id: number): UpdateKeyView {
  return toView(findUpdateKeyRow(ctx, id));
}

export function deleteUpdateKey(ctx: UpdateKeyDeps, id: number): void {
  findUpdateKeyRow(ctx, id);
  ctx.store.updateKeys.delete(id);
  ctx.log.info("update key deleted", { update_key_id: id });
}

/** The key a push presented, marked as used now; null for an unknown key. */
export function useUpdateKey(ctx: UpdateKeyDeps, key: string): UpdateKeyRow | null {
  return ctx.store.updateKeys.use(hashKey(key), Date.now()) ?? null;
}
