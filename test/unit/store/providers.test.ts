import { describe, expect, test } from "bun:test";
import { memoryStore } from "./support";

const NEW = { type: "duckdns", credentials: "sealed", options: { a: 1 }, isEnabled: true, createdAt: 1, updatedAt: 1 };

describe("store: providers", () => {
  test("nameOf a provider, undefined once it is gone", () => {
    const { store, provider } = memoryStore();
    const id = provider("home");
    expect(store.providers.nameOf(id)).toBe("home");
    expect(store.providers.nameOf(id + 1)).toBeUndefined();
  });

  test("create, find, update, names, all, delete", () => {
    const { store } = memoryStore();
    const id = store.providers.create({ ...NEW, name: "home" });
    expect(store.providers.find(id)).toMatchObject({
      id,
      name: "home",
      type: "duckdns",
      options: { a: 1 },
      isEnabled: true,
      pausedUntil: null,
    });
    store.providers.update(id, { name: "Home", isEnabled: false, updatedAt: 2 });
    expect(store.providers.find(id)).toMatchObject({ name: "Home", isEnabled: false, updatedAt: 2, options: { a: 1 } });
    const other = store.providers.create({ ...NEW, name: "other" });
    expect(store.providers.names().sort((a, b) => a.id - b.id)).toEqual([
      { id, name: "Home" },
      { id: other, name: "other" },
    ]);
    expect(store.providers.all()).toHaveLength(2);
    store.providers.delete(id);
    expect(store.providers.find(id)).toBeUndefined();
    expect(store.providers.all().map((row) => row.id)).toEqual([other]);
  });

  test("listWithDomainCount: oldest first, each with its own domain count", () => {
    const { store, provider, domain } = memoryStore();
    const a = provider("a");
    const b = provider("b");
    domain(b, "one.example.com");
    domain(b, "two.example.com");
    expect(store.providers.listWithDomainCount().map((row) => [row.id, row.domainCount])).toEqual([
      [a, 0],
      [b, 2],
    ]);
    expect(store.providers.findWithDomainCount(b)).toMatchObject({ id: b, name: "b", domainCount: 2 });
    expect(store.providers.findWithDomainCount(b + 1)).toBeUndefined();
    expect(store.providers.domainCount(b)).toBe(2);
    expect(store.providers.domainCount(a)).toBe(0);
  });

  test("anyCredentials: undefined without providers, else some provider's sealed text", () => {
    const { store, provider } = memoryStore();
    expect(store.providers.anyCredentials()).toBeUndefined();
    provider();
    expect(store.providers.anyCredentials()).toBe("sealed");
  });

  test("pause never shortens a longer pause; pausedUntil reads it; cutPauses bounds them all", () => {
    const { store, provider } = memoryStore();
    const a = provider("a");
    const b = provider("b");
    expect(store.providers.pausedUntil(a)).toBeNull();
    expect(store.providers.pause(a, 5000)).toBe(5000);
    expect(store.providers.pause(a, 3000)).toBe(5000);
    expect(store.providers.pausedUntil(a)).toBe(5000);
    expect(store.providers.pause(b, 2000)).toBe(2000);
    expect(store.providers.pause(b + 1, 2000)).toBeUndefined();
    store.providers.cutPauses(4000);
    expect(store.providers.pausedUntil(a)).toBe(4000);
    expect(store.providers.pausedUntil(b)).toBe(2000);
  });

  test("verifications: only the providers checked, with the newest check", () => {
    const { store, provider } = memoryStore();
    const a = provider("a");
    provider("b");
    store.providers.noteVerification(a, { at: 1, ok: false, detail: "bad key", cause: "credentials" });
    expect(store.providers.verifications().get(a)?.cause).toBe("credentials");
    store.providers.noteVerification(a, { at: 2, ok: null, detail: "cannot check", cause: null });
    expect(store.providers.verifications()).toEqual(
      new Map([[a, { at: 2, ok: null, detail: "cannot check", cause: null }]]),
    );
  });
});
