// A list of sources in "first" mode (failover) at a service that takes one address per name
// (DuckDNS, through the appliance): the first source with a usable address is sent, the next only
// while the first has none, and a forced update of an address already sent says nothing changed.

import { afterAll, expect, test } from "bun:test";
import { DUCKDNS_FAKE_TOKEN, startDuckDnsFake } from "../fakes/duckdns";
import { addDomain, forceUpdate, historyOf, useRig } from "./harness";

const duck = startDuckDnsFake();
const rig = useRig({ env: { DDNS_DUCKDNS_API_URL: duck.url } });
afterAll(() => duck.stop());

test("failover at DuckDNS: the first source's address, the next while the first fails, back again; no change reported twice", async () => {
  const { t } = rig();
  duck.addDomain("home");
  const provider = await t.request("POST", "/api/v1/providers", {
    body: { name: "duck", type: "duckdns", credentials: { token: DUCKDNS_FAKE_TOKEN } },
  });
  const domain = await addDomain(t, provider.body.id, "home.duckdns.org", {
    address_source: ["fixed:81.2.69.160", "fixed:81.2.69.161"],
    config: { addresses: "first" },
  });
  // The first source is an interface that had its address when chosen and has none now (a PPPoE
  // link gone down): it fails until it is replaced. Stored directly, as the API refuses it today.
  t.ctx.sqlite
    .query("UPDATE domains SET address_source = ? WHERE id = ?")
    .run(["interface:ddnsdnone0", "fixed:81.2.69.161"].join(","), domain.id);
  const first = await forceUpdate(t, domain.id);
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ ip_address: "81.2.69.161", changed: true });
  expect(first.body.message).toContain("interface:ddnsdnone0 gave no address");
  expect(duck.domains.get("home")!.ipv4).toBe("81.2.69.161");

  // The same address forced again: sent (DuckDNS cannot be read), but nothing changed.
  const again = await forceUpdate(t, domain.id);
  expect(again.body).toMatchObject({ ip_address: "81.2.69.161", changed: false });

  // The first source answers now (a fixed address in its place): it takes the name back.
  const edited = await t.request("PUT", `/api/v1/domains/${domain.id}`, {
    body: { address_source: ["fixed:81.2.69.160", "fixed:81.2.69.161"] },
  });
  expect(edited.status).toBe(200);
  expect((await forceUpdate(t, domain.id)).body).toMatchObject({ ip_address: "81.2.69.160", changed: true });
  expect(duck.domains.get("home")!.ipv4).toBe("81.2.69.160");
  const [row] = await historyOf(t, domain.id);
  expect(row.addresses).toEqual(["81.2.69.160"]);
});
