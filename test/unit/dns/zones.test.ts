// Splitting a hostname into zone and relative name (the longest zone at a label boundary, never the
// last two labels), and comparing addresses however they are written.

import { describe, expect, test } from "bun:test";
import { candidateZones, configuredZone, longestZone, relativeName, sameAddress } from "../../../src/dns/zones";

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

describe("candidate zones and the apex", () => {
  test("candidates run from the hostname to its registrable parent, never the bare TLD", () => {
    expect(candidateZones("a.b.example.co.uk")).toEqual([
      "a.b.example.co.uk",
      "b.example.co.uk",
      "example.co.uk",
      "co.uk",
    ]);
    expect(candidateZones("example.com")).toEqual(["example.com"]);
  });

  const longest: { hostname: string; zones: string[]; zone: string | undefined }[] = [
    { hostname: "a.b.example.com", zones: ["example.com", "b.example.com"], zone: "b.example.com" },
    { hostname: "home.example.com", zones: ["ample.com", "Example.COM."], zone: "example.com" },
    { hostname: "example.com", zones: ["example.com"], zone: "example.com" },
    { hostname: "home.myexample.com", zones: ["example.com"], zone: undefined },
  ];
  for (const { hostname, zones, zone } of longest) {
    test(`longest zone of ${hostname} among ${zones.join(", ")} → ${zone}`, () => {
      expect(longestZone(hostname, zones)).toBe(zone);
    });
  }

  test("relative names, with the apex spelled as the service wants", () => {
    expect(relativeName("x.a.b.example.com", "b.example.com", "@")).toBe("x.a");
    expect(relativeName("example.com", "example.com", "@")).toBe("@");
  });
});

describe("sameAddress", () => {
  const cases: [string, string, boolean][] = [
    ["203.0.113.7", "203.0.113.7", true],
    ["203.0.113.7", "203.0.113.8", false],
    ["2001:db8::1", "2001:DB8:0:0:0:0:0:1", true],
    ["2001:db8::1", "2001:db8::1:0", false],
    ["::ffff:192.0.2.1", "::ffff:c000:201", true],
    ["::", "0:0:0:0:0:0:0:0", true],
  ];
  for (const [a, b, same] of cases) {
    test(`${a} ${same ? "=" : "≠"} ${b}`, () => {
      expect(sameAddress(a, b)).toBe(same);
    });
  }
});
