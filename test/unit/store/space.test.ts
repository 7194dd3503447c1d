import { describe, expect, test } from "bun:test";
import { memoryStore } from "./support";

describe("store: space", () => {
  test("probe writes and leaves nothing behind", () => {
    const { store, database } = memoryStore();
    const tables = () =>
      database.sqlite
        .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all();
    const before = tables();
    store.space.probe();
    expect(tables()).toEqual(before);
  });

  test("probe throws while the database refuses writes", () => {
    const { store, database } = memoryStore();
    database.sqlite.exec("PRAGMA query_only = ON");
    expect(() => store.space.probe()).toThrow();
    database.sqlite.exec("PRAGMA query_only = OFF");
    expect(() => store.space.probe()).not.toThrow();
  });
});
