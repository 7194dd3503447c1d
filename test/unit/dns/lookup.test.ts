// The plain DNS queries' helpers (src/dns/lookup.ts) that need no server: the system's resolvers
// from resolv.conf, the DDNS_RESOLVERS list, an answer's addresses. The queries
// themselves run against real name servers in test/propagation/.

import { expect, test } from "bun:test";
import { addressesIn, parseResolvers, resolvConfServers } from "../../../src/dns/lookup";
import { addressData, message, TYPE } from "../../../src/dns/protocols/wire";

test("resolv.conf: each nameserver line, on port 53; comments, options and other lines are not resolvers", () => {
  const text = [
    "# written by the DHCP client",
    "search lan",
    "nameserver 192.0.2.1",
    "nameserver  2001:db8::1 ",
    "; nameserver 192.0.2.9",
    "nameserver not-an-address",
    "options edns0",
    "nameserver fe80::1%eth0",
  ].join("\n");
  expect(resolvConfServers(text)).toEqual([
    { host: "192.0.2.1", port: 53 },
    { host: "2001:db8::1", port: 53 },
    { host: "fe80::1%eth0", port: 53 },
  ]);
});

test("DDNS_RESOLVERS: addresses with optional ports; a host name or a bad port is named", () => {
  expect(parseResolvers("192.0.2.1, [2001:db8::53]:5353, 2001:db8::1")).toEqual([
    { host: "192.0.2.1", port: 53 },
    { host: "2001:db8::53", port: 5353 },
    { host: "2001:db8::1", port: 53 },
  ]);
  expect(parseResolvers("192.0.2.1,dns.example.net")).toBe("dns.example.net");
  expect(parseResolvers("192.0.2.1:0")).toBe("192.0.2.1:0");
});

test("an answer's addresses for the name and type asked, in their shortest form; other owners and types are not", () => {
  const record = (name: string, type: number, ip: string) => ({ name, type, class: 1, ttl: 60, data: addressData(ip) });
  const answer = message({
    id: 1,
    answers: [
      record("home.example.com", TYPE.AAAA, "2001:0db8:0:0::1"),
      record("other.example.com", TYPE.AAAA, "2001:db8::2"),
      record("home.example.com", TYPE.A, "192.0.2.1"),
    ],
  });
  expect(addressesIn(answer, "Home.Example.com.", TYPE.AAAA)).toEqual(["2001:db8::1"]);
});
