import { describe, expect, test } from "bun:test";
import { memoryStore } from "./support";

describe("store: domains", () => {
  test("withProvider: a domain with its provider, undefined for an unknown id", () => {
    const { store, provider, domain } = memoryStore();
    const p = provider("home");
    const a = domain(p, "home.example.com", "AAAA");
    const loaded = store.domains.withProvider(a);
    expect(loaded?.domain).toMatchObject({ id: a, providerId: p, domainName: "home.example.com", recordType: "AAAA" });
    expect(loaded?.provider).toMatchObject({ id: p, name: "home", type: "duckdns" });
    expect(store.domains.withProvider(a + 1)).toBeUndefined();
  });

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
