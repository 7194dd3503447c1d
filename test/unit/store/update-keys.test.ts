import { describe, expect, test } from "bun:test";
import { memoryStore } from "./support";

describe("store: update keys", () => {
  test("create, list oldest first, find, delete", () => {
    const { store } = memoryStore();
    const first = store.updateKeys.create({
      name: "router",
      keyHash: "h1",
      keyTail: "abcd",
      domainIds: null,
      createdAt: 10,
    });
    const second = store.updateKeys.create({
      name: "nas",
      keyHash: "h2",
      keyTail: "wxyz",
      domainIds: [3, 7],
      createdAt: 20,
    });
    expect(first).toMatchObject({
      name: "router",
      keyHash: "h1",
      keyTail: "abcd",
      domainIds: null,
      createdAt: 10,
      lastUsedAt: null,
    });
    expect(store.updateKeys.list().map((key) => key.id)).toEqual([first.id, second.id]);
    expect(store.updateKeys.find(second.id)?.domainIds).toEqual([3, 7]);
    store.updateKeys.delete(first.id);
    expect(store.updateKeys.find(first.id)).toBeUndefined();
    expect(store.updateKeys.list().map((key) => key.name)).toEqual(["nas"]);
  });

  test("use marks the key with that hash as used; an unknown hash finds nothing", () => {
    const { store } = memoryStore();
    const key = store.updateKeys.create({
      name: "router",
      keyHash: "h1",
      keyTail: "abcd",
      domainIds: null,
      createdAt: 10,
    });
    expect(store.updateKeys.use("h1", 99)).toMatchObject({ id: key.id, lastUsedAt: 99 });
    expect(store.updateKeys.find(key.id)?.lastUsedAt).toBe(99);
    expect(store.updateKeys.use("nope", 100)).toBeUndefined();
  });

  test("findByHash finds the key with that hash; update changes only the fields given", () => {
    const { store } = memoryStore();
    const key = store.updateKeys.create({
      name: "router",
      keyHash: "h1",
      keyTail: "abcd",
      domainIds: null,
      createdAt: 10,
    });
    expect(store.updateKeys.findByHash("h1")?.id).toBe(key.id);
    expect(store.updateKeys.findByHash("h2")).toBeUndefined();
    store.updateKeys.update(key.id, { name: "gateway", keyHash: "h2", domainIds: [4] });
    expect(store.updateKeys.find(key.id)).toMatchObject({
      name: "gateway",
      keyHash: "h2",
      keyTail: "abcd",
      domainIds: [4],
      createdAt: 10,
    });
    expect(store.updateKeys.findByHash("h1")).toBeUndefined();
  });
});
