import { describe, expect, test } from "bun:test";
import { memoryStore } from "./support";

const token = (name: string, tokenHash: string) => ({
  name,
  scope: "update" as const,
  tokenHash,
  tokenTail: "abcd",
  domainIds: [2, 5],
  expiresAt: null,
  createdAt: 10,
});

describe("store: API tokens", () => {
  test("create, list oldest first, find by id and by hash, delete", () => {
    const { store } = memoryStore();
    const first = store.apiTokens.create(token("ha", "h1"));
    const second = store.apiTokens.create({ ...token("grafana", "h2"), scope: "read", domainIds: null });
    expect(first).toMatchObject({ name: "ha", scope: "update", domainIds: [2, 5], lastUsedAt: null });
    expect(store.apiTokens.list().map((row) => row.id)).toEqual([first.id, second.id]);
    expect(store.apiTokens.findByHash("h2")?.id).toBe(second.id);
    expect(store.apiTokens.findByHash("nope")).toBeUndefined();
    store.apiTokens.delete(first.id);
    expect(store.apiTokens.find(first.id)).toBeUndefined();
    expect(store.apiTokens.list()).toHaveLength(1);
  });

  test("markUsed writes only when the last use is older than `since`", () => {
    const { store } = memoryStore();
    const row = store.apiTokens.create(token("ha", "h1"));
    store.apiTokens.markUsed(row.id, 1_000, 0);
    expect(store.apiTokens.find(row.id)?.lastUsedAt).toBe(1_000);
    store.apiTokens.markUsed(row.id, 30_000, 1_000 - 1);
    expect(store.apiTokens.find(row.id)?.lastUsedAt).toBe(1_000);
    store.apiTokens.markUsed(row.id, 70_000, 10_000);
    expect(store.apiTokens.find(row.id)?.lastUsedAt).toBe(70_000);
  });
});
