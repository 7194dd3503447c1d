import { describe, expect, test } from "bun:test";
import { memoryStore } from "./support";

describe("store: address sources", () => {
  test("none stored: undefined, the environment decides", () => {
    const { store } = memoryStore();
    expect(store.addressSources.find(4)).toBeUndefined();
  });

  test("choose stores a family's choice and replaces it; the other family is untouched", () => {
    const { store } = memoryStore();
    store.addressSources.choose(4, { kind: "web", interfaceName: null, urls: ["http://127.0.0.1:9/ip"], updatedAt: 1 });
    store.addressSources.choose(4, { kind: "interface", interfaceName: "eth0", urls: null, updatedAt: 2 });
    expect(store.addressSources.find(4)).toEqual({
      family: 4,
      kind: "interface",
      interfaceName: "eth0",
      urls: null,
      updatedAt: 2,
    });
    expect(store.addressSources.find(6)).toBeUndefined();
  });

  test("reset forgets only that family's choice", () => {
    const { store } = memoryStore();
    store.addressSources.choose(4, { kind: "interface", interfaceName: "eth0", urls: null, updatedAt: 1 });
    store.addressSources.choose(6, { kind: "web", interfaceName: null, urls: ["http://[::1]:9/ip"], updatedAt: 1 });
    store.addressSources.reset(4);
    expect(store.addressSources.find(4)).toBeUndefined();
    expect(store.addressSources.find(6)?.urls).toEqual(["http://[::1]:9/ip"]);
  });
});
