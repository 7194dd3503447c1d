// Address sources (DDNS_IPV4_SOURCE / DDNS_IPV6_SOURCE) and the IPv6 of a LAN host: the
// /proc/net/if_inet6 parsing from a fixture, the choice of a stable address, the suffix math as a
// table, the settings, and `interface:lo` end to end through a forced update.

import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadSettings } from "../../src/config";
import { interfaceAddress, parseIfInet6, pickIpv6 } from "../../src/ip/interface";
import { addressForRecord, ipv6SuffixProblem } from "../../src/ip/suffix";
import { createProvider } from "../api/helpers";
import { makeTestApp } from "../support";
import { addDomain, addProvider, startRig } from "../updater/harness";

const FIXTURE = join(import.meta.dir, "fixtures/if_inet6");
const entries = parseIfInet6(await Bun.file(FIXTURE).text());

describe("/proc/net/if_inet6", () => {
  test("each line: the address in canonical form, prefix length, scope, flags and interface", () => {
    expect(entries).toHaveLength(10);
    expect(entries[0]).toEqual({
      address: "2a01:4f8:c17:b8f::99",
      prefixLength: 64,
      scope: 0,
      flags: 0x80,
      name: "eth0",
    });
    expect(entries[5]).toMatchObject({ address: "fe80::211:22ff:fe33:4455", scope: 0x20 });
    expect(entries[6]).toMatchObject({ address: "::1", name: "lo" });
  });

  test("lines of another shape are skipped", () => {
    expect(parseIfInet6("garbage\n\n2a01 02 40 00 80 eth0\n")).toEqual([]);
  });

  test.each([
    [
      "eth0: the permanent address wins over the SLAAC one; temporary, deprecated, tentative and link-local never",
      "eth0",
      false,
      "2a01:4f8:c17:b8f::99",
    ],
    ["ppp0: only a temporary and a deprecated address → none", "ppp0", false, null],
    ["wg0: a unique-local address is not global", "wg0", false, null],
    ["wg0 with private addresses allowed", "wg0", true, "fd00::2"],
    ["lo with private addresses allowed", "lo", true, "::1"],
    ["an interface not in the table", "eth9", true, null],
  ])("%s", (_, name, allowPrivate, expected) => {
    expect(pickIpv6(entries, name as string, allowPrivate as boolean)).toBe(expected as string | null);
  });

  test("without a permanent address the first stable one is taken", () => {
    expect(pickIpv6(entries.slice(1), "eth0", false)).toBe("2a01:4f8:c17:b8f:5c3a:1e2f:fe4b:9d01");
  });

  test("a detection from the fixture, and the failures say what is wrong", () => {
    expect(interfaceAddress(6, "eth0", { allowPrivate: false, ifInet6Path: FIXTURE })).toEqual({
      ok: true,
      ip: "2a01:4f8:c17:b8f::99",
      source: "interface:eth0",
    });
    const missing = interfaceAddress(6, "eth9", { allowPrivate: false, ifInet6Path: FIXTURE });
    expect(missing).toEqual({
      ok: false,
      error: "IPv6 detection failed: interface:eth9: no such interface, or it has no IPv6 address",
    });
    const unstable = interfaceAddress(6, "ppp0", { allowPrivate: false, ifInet6Path: FIXTURE });
    expect(unstable.ok ? "" : unstable.error).toContain("no stable global IPv6 address");
    const unreadable = interfaceAddress(6, "eth0", { allowPrivate: false, ifInet6Path: "/nonexistent/if_inet6" });
    expect(unreadable.ok ? "" : unreadable.error).toContain("cannot read /nonexistent/if_inet6 (ENOENT)");
  });

  test("IPv4 from the interface list: a global address, or a failure naming the interface", () => {
    const interfaces = () =>
      ({
        ppp0: [
          {
            address: "81.2.69.160",
            netmask: "255.255.255.255",
            family: "IPv4",
            mac: "00:00:00:00:00:00",
            internal: false,
            cidr: "81.2.69.160/32",
          },
        ],
        eth0: [
          {
            address: "192.168.1.2",
            netmask: "255.255.255.0",
            family: "IPv4",
            mac: "00:00:00:00:00:00",
            internal: false,
            cidr: "192.168.1.2/24",
          },
        ],
      }) as unknown as ReturnType<typeof import("node:os").networkInterfaces>;
    expect(interfaceAddress(4, "ppp0", { allowPrivate: false, interfaces })).toEqual({
      ok: true,
      ip: "81.2.69.160",
      source: "interface:ppp0",
    });
    expect(interfaceAddress(4, "eth0", { allowPrivate: false, interfaces })).toEqual({
      ok: false,
      error: "IPv4 detection failed: interface:eth0: no global IPv4 address",
    });
    expect(interfaceAddress(4, "eth1", { allowPrivate: false, interfaces })).toEqual({
      ok: false,
      error: "IPv4 detection failed: interface:eth1: no such interface",
    });
  });
});

describe("IPv6 suffix", () => {
  test.each([
    ["2a01:4f8:c17:b8f::2", "::1234:5678:9abc:def0", undefined, "2a01:4f8:c17:b8f:1234:5678:9abc:def0"],
    ["2a01:4f8:c17:b8f:ffff:ffff:ffff:ffff", "::1", undefined, "2a01:4f8:c17:b8f::1"],
    ["2a01:4f8:c17:b8f::2", "::ab:0:0:0:1", 56, "2a01:4f8:c17:bab::1"],
    ["2a01:4f8:c17:b8f::2", "::2a", 112, "2a01:4f8:c17:b8f::2a"],
    ["2a01:4f8:c17:b8f::2", "::1", 127, "2a01:4f8:c17:b8f::3"],
  ])("%s + %s /%s → %s", (prefix, suffix, length, expected) => {
    expect(
      addressForRecord(prefix, {
        ipv6_suffix: suffix,
        ...(length === undefined ? {} : { ipv6_prefix_length: length }),
      }),
    ).toBe(expected);
  });

  test("without a suffix the address stays", () => {
    expect(addressForRecord("81.2.69.160", {})).toBe("81.2.69.160");
  });

  test.each([
    [{ ipv6_suffix: "::1" }, "A", "config.ipv6_suffix", "applies to AAAA records only"],
    [{ ipv6_prefix_length: 64 }, "A", "config.ipv6_prefix_length", "applies to AAAA records only"],
    [{ ipv6_suffix: "1234" }, "AAAA", "config.ipv6_suffix", "must be an IPv6 address such as ::1234:5678:9abc:def0"],
    [{ ipv6_suffix: 5 }, "AAAA", "config.ipv6_suffix", "must be an IPv6 address such as ::1234:5678:9abc:def0"],
    [{ ipv6_suffix: "2001:db8::1" }, "AAAA", "config.ipv6_suffix", "must leave the first 64 bits (the prefix) zero"],
    [
      { ipv6_suffix: "::1", ipv6_prefix_length: 0 },
      "AAAA",
      "config.ipv6_prefix_length",
      "must be a whole number of bits from 1 to 127",
    ],
    [
      { ipv6_suffix: "::1", ipv6_prefix_length: 128 },
      "AAAA",
      "config.ipv6_prefix_length",
      "must be a whole number of bits from 1 to 127",
    ],
    [
      { ipv6_suffix: "::1", ipv6_prefix_length: 64.5 },
      "AAAA",
      "config.ipv6_prefix_length",
      "must be a whole number of bits from 1 to 127",
    ],
    [{ ipv6_prefix_length: 56 }, "AAAA", "config.ipv6_suffix", "is required with config.ipv6_prefix_length"],
  ])("%j on %s → %s %s", (config, recordType, field, message) => {
    expect(ipv6SuffixProblem(config, recordType as "A" | "AAAA")).toEqual({ field, message });
  });

  test("a suffix that fits → no problem", () => {
    expect(ipv6SuffixProblem({ ipv6_suffix: "::ab:0:0:1", ipv6_prefix_length: 56 }, "AAAA")).toBeNull();
  });
});

describe("settings", () => {
  test("web by default; interface:<name>; anything else stops the start naming the variable", () => {
    expect(loadSettings({}).ipv4Source).toEqual({ kind: "web" });
    expect(loadSettings({ DDNS_IPV6_SOURCE: "interface:ppp0" }).ipv6Source).toEqual({
      kind: "interface",
      name: "ppp0",
    });
    for (const bad of ["interface:", "iface:eth0", "interface:a/b", "interface:averyveryverylongname"]) {
      expect(() => loadSettings({ DDNS_IPV4_SOURCE: bad })).toThrow(
        /^Invalid setting DDNS_IPV4_SOURCE: expected web, dns or interface:<name>/,
      );
    }
    expect(() => loadSettings({ DDNS_METRICS_TOKEN: "short" })).toThrow(
      "Invalid setting DDNS_METRICS_TOKEN: must be at least 32 characters long",
    );
  });
});

describe("interface:lo end to end", () => {
  test("a forced update writes lo's address (private allowed), asks no echo service; a missing interface is a 503 without a write", async () => {
    const rig = await startRig({ env: { DDNS_IPV4_SOURCE: "interface:lo", DDNS_ALLOW_PRIVATE_IPS: "true" } });
    try {
      rig.cf.addZone("example.com");
      rig.cf.addRecord("example.com", { type: "A", name: "lab", content: "81.2.69.142" });
      const domain = await addDomain(rig.t, (await addProvider(rig.t, "cloudflare")).id, "lab.example.com");
      const response = await rig.t.request("POST", `/api/v1/domains/${domain.id}/update_ip`);
      expect(response).toMatchObject({ status: 200, body: { ip_address: "127.0.0.1" } });
      expect(rig.cf.record("lab.example.com", "A")!.content).toBe("127.0.0.1");
      expect(rig.echo.requests).toHaveLength(0);

      rig.t.ctx.settings.ipv4Source = { kind: "interface", name: "nosuch0" };
      rig.cf.clearRequests();
      const missing = await rig.t.request("POST", `/api/v1/domains/${domain.id}/update_ip`);
      expect(missing).toMatchObject({
        status: 503,
        body: { detail: "IPv4 detection failed: interface:nosuch0: no such interface" },
      });
      expect(rig.cf.requests).toHaveLength(0);
    } finally {
      await rig.stop();
    }
  });
});

describe("ipv6_suffix through the domains API", () => {
  test("422 naming the field for a bad suffix or length and on an A record, on create and on edit; a good one is kept", async () => {
    const t = await makeTestApp();
    try {
      const provider = await createProvider(t);
      const post = (fields: Record<string, unknown>) =>
        t.request("POST", "/api/v1/domains", {
          body: { provider_id: provider.id, domain_name: "nas.example.com", ...fields },
        });
      const bad = [
        [{ record_type: "AAAA", config: { ipv6_suffix: "not-an-address" } }, "config.ipv6_suffix"],
        [{ record_type: "AAAA", config: { ipv6_suffix: "::1", ipv6_prefix_length: 200 } }, "config.ipv6_prefix_length"],
        [
          { record_type: "AAAA", config: { ipv6_suffix: "::1", ipv6_prefix_length: "64" } },
          "config.ipv6_prefix_length",
        ],
        [{ record_type: "A", config: { ipv6_suffix: "::1" } }, "config.ipv6_suffix"],
      ] as const;
      for (const [fields, field] of bad) {
        const response = await post(fields);
        expect(response.status).toBe(422);
        expect(response.body.errors[0].field).toBe(field);
      }
      const created = await post({
        record_type: "AAAA",
        config: { ipv6_suffix: "::1234:5678:9abc:def0", ipv6_prefix_length: 56 },
      });
      expect(created.status).toBe(200);
      expect(created.body.config).toEqual({ ipv6_suffix: "::1234:5678:9abc:def0", ipv6_prefix_length: 56 });
      const retyped = await t.request("PUT", `/api/v1/domains/${created.body.id}`, { body: { record_type: "A" } });
      expect(retyped.status).toBe(422);
      expect(retyped.body.errors[0].field).toBe("config.ipv6_suffix");
    } finally {
      t.ctx.sqlite.close();
    }
  });
});
