// Splitting a hostname into zone and name, and comparing addresses however they are written.

import { describe, expect, test } from "bun:test";
import { candidateZones, longestZone, relativeName, sameAddress } from "../../src/dns/zones";

describe("zones", () => {
  test("candidates run from the hostname to its registrable parent, never the bare TLD", () => {
    expect(candidateZones("a.b.example.co.uk")).toEqual(["a.b.example.co.uk", "b.example.co.uk", "example.co.uk", "co.uk"]);
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
