// The address arithmetic (src/net/address.ts): the parser, the global-address filter that public IP
// detection applies and the internal-address check, as tables (detection itself, against the echo
// fake, is in test/ip/detect.test.ts).

import { describe, expect, test } from "bun:test";
import { isGlobalAddress, isInternalAddress, parseIpAddress } from "../../../src/net/address";

describe("parseIpAddress", () => {
  const cases: { text: string; family: 4 | 6; parsed: string | null }[] = [
    { text: "185.103.110.182", family: 4, parsed: "185.103.110.182" },
    { text: "  8.8.8.8\n", family: 4, parsed: "8.8.8.8" },
    { text: "0.0.0.0", family: 4, parsed: "0.0.0.0" },
    { text: "256.1.1.1", family: 4, parsed: null },
    { text: "01.2.3.4", family: 4, parsed: null },
    { text: "1.2.3", family: 4, parsed: null },
    { text: "1.2.3.4.5", family: 4, parsed: null },
    { text: "2001:db8::1", family: 4, parsed: null },
    { text: "1.2.3.4", family: 6, parsed: null },
    { text: "2001:0DB8:0000:0000:0000:0000:0000:0001", family: 6, parsed: "2001:db8::1" },
    { text: "2001:db8:0:1:0:0:0:1", family: 6, parsed: "2001:db8:0:1::1" },
    { text: "2001:db8:0:0:1:0:0:0", family: 6, parsed: "2001:db8:0:0:1::" },
    { text: "2001:db8:0:1:1:1:1:1", family: 6, parsed: "2001:db8:0:1:1:1:1:1" },
    { text: "::", family: 6, parsed: "::" },
    { text: "::1", family: 6, parsed: "::1" },
    { text: "::ffff:192.0.2.1", family: 6, parsed: "::ffff:c000:201" },
    { text: "1:2:3:4:5:6:7:8:9", family: 6, parsed: null },
    { text: "1::2::3", family: 6, parsed: null },
    { text: "fe80::1%eth0", family: 6, parsed: null },
    { text: "12345::1", family: 6, parsed: null },
    { text: "garbage", family: 6, parsed: null },
  ];
  for (const { text, family, parsed } of cases) {
    test(`${JSON.stringify(text)} as IPv${family} → ${parsed}`, () => {
      expect(parseIpAddress(text, family)).toBe(parsed);
    });
  }
});

describe("isGlobalAddress", () => {
  const cases: { ip: string; global: boolean; why: string }[] = [
    { ip: "185.103.110.182", global: true, why: "public IPv4" },
    { ip: "8.8.8.8", global: true, why: "public IPv4" },
    { ip: "0.1.2.3", global: false, why: "this network" },
    { ip: "10.0.0.1", global: false, why: "private" },
    { ip: "100.64.0.1", global: false, why: "CGNAT" },
    { ip: "100.127.255.255", global: false, why: "CGNAT, last" },
    { ip: "100.128.0.1", global: true, why: "just past CGNAT" },
    { ip: "127.0.0.1", global: false, why: "loopback" },
    { ip: "169.254.1.1", global: false, why: "link-local" },
    { ip: "172.16.0.1", global: false, why: "private" },
    { ip: "172.31.255.255", global: false, why: "private, last" },
    { ip: "172.32.0.1", global: true, why: "just past private" },
    { ip: "192.0.0.8", global: false, why: "IETF protocol assignments" },
    { ip: "192.0.2.1", global: false, why: "TEST-NET-1" },
    { ip: "192.168.1.1", global: false, why: "private" },
    { ip: "198.18.0.1", global: false, why: "benchmarking" },
    { ip: "198.19.255.255", global: false, why: "benchmarking, last" },
    { ip: "198.51.100.1", global: false, why: "TEST-NET-2" },
    { ip: "203.0.113.1", global: false, why: "TEST-NET-3" },
    { ip: "224.0.0.1", global: false, why: "multicast" },
    { ip: "240.0.0.1", global: false, why: "reserved" },
    { ip: "255.255.255.255", global: false, why: "broadcast" },
    { ip: "2a01:4f8:c17:b8f::2", global: true, why: "public IPv6" },
    { ip: "2606:4700:4700::1111", global: true, why: "public IPv6" },
    { ip: "::", global: false, why: "unspecified" },
    { ip: "::1", global: false, why: "loopback" },
    { ip: "::ffff:8.8.8.8", global: false, why: "IPv4-mapped" },
    { ip: "64:ff9b::808:808", global: false, why: "NAT64" },
    { ip: "100::1", global: false, why: "discard" },
    { ip: "2001::1", global: false, why: "Teredo (2001::/23)" },
    { ip: "2001:1ff::1", global: false, why: "end of 2001::/23" },
    { ip: "2001:200::1", global: true, why: "just past 2001::/23" },
    { ip: "2001:db8::1", global: false, why: "documentation" },
    { ip: "3fff::1", global: false, why: "documentation (RFC 9637)" },
    { ip: "fc00::1", global: false, why: "unique local" },
    { ip: "fd12:3456::1", global: false, why: "unique local" },
    { ip: "fe80::1", global: false, why: "link-local" },
    { ip: "ff02::1", global: false, why: "multicast" },
    { ip: "4000::1", global: false, why: "outside 2000::/3" },
    { ip: "2002:c0a8:0101::1", global: false, why: "6to4 of 192.168.1.1 (private)" },
    { ip: "2002:0a00:0001::1", global: false, why: "6to4 of 10.0.0.1 (private)" },
    { ip: "2002:7f00:0001::1", global: false, why: "6to4 of 127.0.0.1 (loopback)" },
    { ip: "2002:6440:0001::1", global: false, why: "6to4 of 100.64.0.1 (CGNAT)" },
    { ip: "2002:5967:6eb6::1", global: true, why: "6to4 of 89.103.110.182 (public)" },
    { ip: "not an ip", global: false, why: "not an address" },
  ];
  for (const { ip, global, why } of cases) {
    test(`${ip} (${why}) → ${global ? "global" : "not global"}`, () => {
      expect(isGlobalAddress(ip)).toBe(global);
    });
  }
});

describe("isInternalAddress: where a name server of somebody else's zone is never asked", () => {
  test.each([
    ["127.0.0.1", true],
    ["127.31.41.7", true],
    ["10.1.2.3", true],
    ["172.31.255.1", true],
    ["192.168.0.53", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["100.127.255.254", true],
    ["0.0.0.0", true],
    ["::1", true],
    ["::", true],
    ["fd12:3456::53", true],
    ["fe80::1", true],
    ["fe80::1%eth0", true],
    ["::ffff:10.0.0.1", true],
    ["::ffff:127.0.0.1", true],
    ["172.32.0.1", false],
    ["100.128.0.1", false],
    ["192.0.2.53", false],
    ["81.2.69.160", false],
    ["2001:db8::53", false],
    ["2a01:4f8::1", false],
    ["::ffff:81.2.69.160", false],
    ["not an ip", false],
  ])("%s → %p", (ip, internal) => {
    expect(isInternalAddress(ip)).toBe(internal);
  });
});
