import { describe, expect, test } from "bun:test";
import { memoryStore } from "./support";

describe("store: users and signed-out tokens", () => {
  test("create, find, count", () => {
    const { store } = memoryStore();
    expect(store.users.count()).toBe(0);
    expect(store.users.find("admin")).toBeUndefined();
    store.users.create("admin", "hash-1", 1_000);
    expect(store.users.count()).toBe(1);
    expect(store.users.find("admin")).toMatchObject({
      username: "admin",
      passwordHash: "hash-1",
      tokensValidAfter: null,
      createdAt: 1_000,
    });
  });

  test("a re-hash keeps the tokens valid; a password replaced refuses those of its second and before", () => {
    const { store } = memoryStore();
    store.users.create("admin", "hash-1", 1_000);
    const id = store.users.find("admin")!.id;
    store.users.rehash(id, "hash-2");
    expect(store.users.find("admin")).toMatchObject({ passwordHash: "hash-2", tokensValidAfter: null });
    store.users.replacePassword(id, "hash-3", 5_999);
    expect(store.users.find("admin")).toMatchObject({ passwordHash: "hash-3", tokensValidAfter: 5, updatedAt: 5_999 });
    expect(store.users.validAfter()).toEqual([{ username: "admin", validAfter: 5 }]);
  });

  test("a user's language: none until chosen; what notifications speak is the first user's who chose one", () => {
    const { store } = memoryStore();
    store.users.create("admin", "hash-1", 1_000);
    store.users.create("second", "hash-2", 2_000);
    expect(store.users.language("admin")).toBeNull();
    expect(store.users.firstLanguage()).toBeNull();
    store.users.setLanguage("second", "zh-CN");
    expect(store.users.firstLanguage()).toBe("zh-CN");
    store.users.setLanguage("admin", "de");
    expect([store.users.language("admin"), store.users.firstLanguage()]).toEqual(["de", "de"]);
    // A name with no row (a sign-in proxy's user) changes nothing.
    store.users.setLanguage("nobody", "en");
    expect(store.users.count()).toBe(2);
  });

  test("revoked tokens are kept until they expire, pruned at the next sign-out, and revoking twice is harmless", () => {
    const { store, database } = memoryStore();
    store.users.revokeToken("old", 1_000, 500);
    store.users.revokeToken("new", 9_000, 500);
    store.users.revokeToken("new", 9_000, 600);
    expect(store.users.revokedTokens(900).sort()).toEqual(["new", "old"]);
    expect(store.users.revokedTokens(2_000)).toEqual(["new"]);
    store.users.revokeToken("later", 10_000, 2_000);
    expect(
      database.sqlite
        .query<{ jti: string }, []>("SELECT jti FROM revoked_tokens ORDER BY jti")
        .all()
        .map((r) => r.jti),
    ).toEqual(["later", "new"]);
  });
});
