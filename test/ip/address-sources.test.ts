// The address source chosen through the API (and the pages): stored, winning over the environment's
// DDNS_IPV4_SOURCE / DDNS_IPV4_URLS, back to them on reset, checked like them, asked again at once;
// and the list of this host's interfaces offered to choose from.

import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { listInterfaces } from "../../src/ip/interface";
import type { TestApp } from "../support";
import { addDomain, addProvider, domainState, startRig } from "../updater/harness";

/** Runs due passes until `done` holds (a check already under way holds its domain for a moment), failing after 5 s. */
async function passesUntil(t: TestApp, done: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 5_000; !done(); await Bun.sleep(20)) {
    if (Date.now() > deadline) throw new Error("not done within 5 s");
    await t.ctx.scheduler.runPass();
  }
}

const FIXTURE = join(import.meta.dir, "fixtures/if_inet6");

describe("the interface list", () => {
  const interfaces = () =>
    ({
      eth0: [
        { address: "81.2.69.142", family: "IPv4", netmask: "255.255.255.0", mac: "", internal: false, cidr: null },
        { address: "192.168.1.2", family: "IPv4", netmask: "255.255.255.0", mac: "", internal: false, cidr: null },
      ],
      lo: [{ address: "127.0.0.1", family: "IPv4", netmask: "255.0.0.0", mac: "", internal: true, cidr: null }],
    }) as unknown as ReturnType<typeof import("node:os").networkInterfaces>;

  test("each interface of either table, by name, with its global addresses (stable IPv6 ones only)", () => {
    const list = listInterfaces({ allowPrivate: false, ifInet6Path: FIXTURE, interfaces });
    expect(list.map((item) => item.name)).toEqual(["eth0", "lo", "ppp0", "wg0"]);
    expect(list[0]).toEqual({
      name: "eth0",
      ipv4: ["81.2.69.142"],
      ipv6: ["2a01:4f8:c17:b8f::99", "2a01:4f8:c17:b8f:5c3a:1e2f:fe4b:9d01"],
    });
    expect(list.find((item) => item.name === "ppp0")!.ipv6).toEqual([]);
  });

  test("private addresses are listed when allowed; an unreadable IPv6 table leaves IPv6 empty", () => {
    const list = listInterfaces({ allowPrivate: true, ifInet6Path: "/nonexistent/if_inet6", interfaces });
    expect(list).toEqual([
      { name: "eth0", ipv4: ["81.2.69.142", "192.168.1.2"], ipv6: [] },
      { name: "lo", ipv4: ["127.0.0.1"], ipv6: [] },
    ]);
  });
});

describe("/api/v1/system/address-sources", () => {
  test("the stored choice wins over the environment's, a reset goes back to it, and each change is detected at once", async () => {
    const rig = await startRig({ env: { DDNS_IPV4_SOURCE: "interface:nosuch0", DDNS_ALLOW_PRIVATE_IPS: "true" } });
    try {
      rig.cf.addZone("example.com");
      rig.cf.addRecord("example.com", { type: "A", name: "lab", content: "81.2.69.142" });
      const domain = await addDomain(rig.t, (await addProvider(rig.t, "cloudflare")).id, "lab.example.com");
      const update = () => rig.t.request("POST", `/api/v1/domains/${domain.id}/update_ip`);

      const initial = await rig.t.request("GET", "/api/v1/system/address-sources");
      expect(initial.status).toBe(200);
      expect(initial.body.ipv4).toMatchObject({
        from: "environment",
        in_effect: { source: "interface:nosuch0" },
        environment: { source: "interface:nosuch0" },
      });
      expect(initial.body.interfaces.find((item: { name: string }) => item.name === "lo")).toMatchObject({
        ipv4: ["127.0.0.1"],
      });
      expect((await update()).status).toBe(503);

      const chosen = await rig.t.request("PUT", "/api/v1/system/address-sources", {
        body: { ipv4: { source: "interface:lo" } },
      });
      expect(chosen.status).toBe(200);
      expect(chosen.body.ipv4).toMatchObject({
        from: "database",
        in_effect: { source: "interface:lo" },
        environment: { source: "interface:nosuch0" },
      });
      expect(chosen.body.ipv6.from).toBe("environment");
      expect(await update()).toMatchObject({ status: 200, body: { ip_address: "127.0.0.1" } });
      expect(rig.echo.requests).toHaveLength(0);

      const web = await rig.t.request("PUT", "/api/v1/system/address-sources", {
        body: { ipv4: { source: "web", urls: [`${rig.echo.url}/v4`] } },
      });
      expect(web.body.ipv4.in_effect).toEqual({ source: "web", urls: [`${rig.echo.url}/v4`] });
      expect(await update()).toMatchObject({ status: 200, body: { ip_address: "185.103.110.182" } });

      const reset = await rig.t.request("PUT", "/api/v1/system/address-sources", { body: { ipv4: null } });
      expect(reset.body.ipv4).toMatchObject({ from: "environment", in_effect: { source: "interface:nosuch0" } });
      expect(await update()).toMatchObject({
        status: 503,
        body: { detail: "IPv4 detection failed: interface:nosuch0: no such interface" },
      });
    } finally {
      await rig.stop();
    }
  });

  test("a changed source makes the family's domains due at once", async () => {
    const rig = await startRig({ env: { DDNS_ALLOW_PRIVATE_IPS: "true" } });
    try {
      rig.cf.addZone("example.com");
      const domain = await addDomain(rig.t, (await addProvider(rig.t, "cloudflare")).id, "lab.example.com");
      // A new domain is checked at once in the background; passes until its record holds the echo's address.
      const holds = (ip: string) => () =>
        rig.cf.record("lab.example.com", "A")?.content === ip && domainState(rig.t, domain.id).last_known_ip === ip;
      await passesUntil(rig.t, holds("185.103.110.182"));
      // Not due: its next run is on the interval's grid, which may be only seconds away.
      expect(domainState(rig.t, domain.id).next_run_at!).toBeGreaterThan(Date.now());

      await rig.t.request("PUT", "/api/v1/system/address-sources", { body: { ipv4: { source: "interface:lo" } } });
      expect(domainState(rig.t, domain.id).next_run_at!).toBeLessThanOrEqual(Date.now());
      await passesUntil(rig.t, holds("127.0.0.1"));
    } finally {
      await rig.stop();
    }
  });

  test("checked like the environment's values: a 422 naming the field, and nothing stored", async () => {
    const rig = await startRig();
    try {
      const bad = [
        [{ ipv4: { source: "iface:eth0" } }, "ipv4.source"],
        [{ ipv6: { source: "interface:a/b" } }, "ipv6.source"],
        [{ ipv4: { source: "web", urls: [] } }, "ipv4.urls"],
        [{ ipv4: { source: "web", urls: ["ftp://example.net/"] } }, "ipv4.urls"],
        [{ ipv4: { source: "interface:lo" }, ipv6: { source: "nope" } }, "ipv6.source"],
      ] as const;
      for (const [body, field] of bad) {
        const response = await rig.t.request("PUT", "/api/v1/system/address-sources", { body });
        expect(response.status).toBe(422);
        expect(response.body.errors[0].field).toBe(field);
      }
      const after = await rig.t.request("GET", "/api/v1/system/address-sources");
      expect([after.body.ipv4.from, after.body.ipv6.from]).toEqual(["environment", "environment"]);
      expect((await rig.t.request("PUT", "/api/v1/system/address-sources", { body: "web" })).status).toBe(422);
    } finally {
      await rig.stop();
    }
  });

  test("an interface without a usable address of the family is refused, saying what it has; one that is not there too", async () => {
    // lo holds only 127.0.0.1 and ::1, neither of them public: nothing to publish from it.
    const rig = await startRig();
    try {
      const v4 = await rig.t.request("PUT", "/api/v1/system/address-sources", {
        body: { ipv4: { source: "interface:lo" } },
      });
      expect(v4.status).toBe(422);
      expect(v4.body.errors[0]).toMatchObject({ field: "ipv4.source" });
      expect(v4.body.errors[0].message).toStartWith("interface lo has no public (global) IPv4 address now: ");
      const gone = await rig.t.request("PUT", "/api/v1/system/address-sources", {
        body: { ipv6: { source: "interface:nosuch0" } },
      });
      expect(gone.status).toBe(422);
      expect(gone.body.errors[0]).toMatchObject({
        field: "ipv6.source",
        message: "this machine has no interface named nosuch0 now",
      });
      const after = await rig.t.request("GET", "/api/v1/system/address-sources");
      expect([after.body.ipv4.from, after.body.ipv6.from]).toEqual(["environment", "environment"]);
    } finally {
      await rig.stop();
    }
  });
});
