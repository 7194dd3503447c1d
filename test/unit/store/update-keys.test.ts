import { describe, expect, test } from "bun:test";
import { memoryStore } from "./support";

describe("store: update keys", () => {
  test("create, list oldest first, find, delete", () => {
    const { store } = memoryStore();
    const first = store.updateKeys.create({ name: "router", keyHash: "h1", keyTail: "abcd", domainIds: null, createdAt: 10 });
    const second = store.updateKeys.create({ name: "nas", keyHash: "h2", keyTail: "wxyz", domainIds: [3, 7], createdAt: 20 });
    expect(first).toMatchObject({ name: "router", keyHash: "h1", keyTail: "abcd", domainIds: null, createdAt: 10, lastUsedAt: null });
    expect(store.updateKeys.list().map((key) => key.id)).toEqual([first.id, second.id]);
    expect(store.updateKeys.find(second.id)?.domainIds).toEqual([3, 7]);
    store.updateKeys.delete(first.id);
    expect(store.updateKeys.find(first.id)).toBeUndefined();
    expect(store.updateKeys.list().map((key) => key.name)).toEqual(["nas"]);
  });

  test("use marks the key with that hash as used; an unknown hash finds nothing", () => {
    const { store } = memoryStore();
    const key = store.updateKeys.create({ name: "router", keyHash: "h1", keyTail: "abcd", domainIds: null, createdAt: 10 });
    expect(store.updateKeys.use("h1", 99)).toMatchObject({ id: key.id, lastUsedAt: 99 });
    expect(store.updateKeys.find(key.id)?.lastUsedAt).toBe(99);
    expect(store.updateKeys.use("nope", 100)).toBeUndefined();
  });
});

describe("store: domains", () => {
  test("existingIds keeps only the ids of domains", () => {
    const { store, provider, domain } = memoryStore();
    const a = domain(provider());
    expect(store.domains.existingIds([a, a + 100])).toEqual(new Set([a]));
    expect(store.domains.existingIds([])).toEqual(new Set());
  });

  test("enabledNamed: the enabled records of enabled providers with that name, A first", () => {
    const { store, database, provider, domain } = memoryStore();
    const home = provider("home");
    const off = provider("off");
    const other = provider("other");
    const aaaa = domain(home, "home.example.com", "AAAA");
    const a = domain(home, "home.example.com", "A");
    domain(home, "other.example.com", "A");
    domain(off, "home.example.com", "A");
    const disabled = domain(other, "home.example.com", "A");
    database.sqlite.run("UPDATE providers SET is_enabled = 0 WHERE id = ?", [off]);
    database.sqlite.run("UPDATE domains SET is_enabled = 0 WHERE id = ?", [disabled]);
    expect(store.domains.enabledNamed("home.example.com")).toEqual([
      { id: a, recordType: "A" },
      { id: aaaa, recordType: "AAAA" },
    ]);
  });
});
