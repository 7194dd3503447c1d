// Splitting a hostname into zone and relative name: the longest zone at a label boundary, never the
// last two labels.

import { describe, expect, test } from "bun:test";
import { configuredZone, longestZone, relativeName } from "../../src/dns/zones";

describe("longestZone", () => {
  const zones = ["example.co.uk", "b.example.co.uk", "xample.co.uk", "co.uk.example.net", "example.com"];
  const cases: { hostname: string; zone: string | undefined }[] = [
    { hostname: "a.b.example.co.uk", zone: "b.example.co.uk" },
    { hostname: "b.example.co.uk", zone: "b.example.co.uk" },
    { hostname: "c.example.co.uk", zone: "example.co.uk" },
    { hostname: "example.co.uk", zone: "example.co.uk" },
    { hostname: "ab.example.co.uk", zone: "example.co.uk" },
    { hostname: "home.xample.co.uk", zone: "xample.co.uk" },
    { hostname: "home.other.co.uk", zone: undefined },
    { hostname: "notexample.com", zone: undefined },
    { hostname: "*.example.com", zone: "example.com" },
  ];
  for (const { hostname, zone } of cases) {
    test(`${hostname} → ${zone ?? "none"}`, () => {
      expect(longestZone(hostname, zones)).toBe(zone);
    });
  }
});

describe("relativeName and configuredZone", () => {
  const cases: [string, string, string][] = [
    ["example.com", "example.com", ""],
    ["home.example.com", "example.com", "home"],
    ["a.b.example.co.uk", "example.co.uk", "a.b"],
    ["*.example.com", "example.com", "*"],
  ];
  for (const [hostname, zone, relative] of cases) {
    test(`${hostname} in ${zone} → "${relative}"`, () => {
      expect(relativeName(hostname, zone)).toBe(relative);
    });
  }

  test("a configured zone is read lowercase without a trailing dot; empty means none", () => {
    expect(configuredZone(" Example.COM. ")).toBe("example.com");
    expect(configuredZone("")).toBeUndefined();
    expect(configuredZone(42)).toBeUndefined();
  });
});
