// docs/api.md, domains: `address_source` as a list of sources and `config.addresses` — the list
// shown as given, each source checked, duplicates and `push` in a list refused, and a service that
// takes one address per name refusing "all" (422, naming it and why) while "first" works there; the
// config file carries lists both ways.

import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../support";
import { createProvider, resetData } from "./helpers";

let t: TestApp;
let cloudflare: { id: number };
let dynu: { id: number };
let duckdns: { id: number };
beforeAll(async () => {
  t = await makeTestApp();
});
beforeEach(async () => {
  resetData(t);
  cloudflare = await createProvider(t, { name: "cf" });
  dynu = await createProvider(t, { name: "dynu", type: "dynu" });
  duckdns = (
    await t.request("POST", "/api/v1/providers", {
      body: { name: "duck", type: "duckdns", credentials: { token: "a7c4d0ad-114e-40ef-ba1d-d217904a50f2" } },
    })
  ).body;
});

const post = (provider: { id: number }, body: Record<string, unknown>) =>
  t.request("POST", "/api/v1/domains", {
    body: { provider_id: provider.id, domain_name: "home.example.com", ...body },
  });

describe("a list of address sources", () => {
  test("is kept and shown as a list; addresses is empty until written; one source stays a string", async () => {
    const created = await post(cloudflare, { address_source: ["web", "fixed:81.2.69.160"] });
    expect(created.status).toBe(200);
    expect(created.body.address_source).toEqual(["web", "fixed:81.2.69.160"]);
    expect(created.body.addresses).toEqual([]);
    const got = await t.request("GET", `/api/v1/domains/${created.body.id}`);
    expect(got.body.address_source).toEqual(["web", "fixed:81.2.69.160"]);
    // A list of one is that source.
    const one = await t.request("PUT", `/api/v1/domains/${created.body.id}`, { body: { address_source: ["web"] } });
    expect(one.body.address_source).toBe("web");
    // Another field edited: the list is kept as it is.
    await t.request("PUT", `/api/v1/domains/${created.body.id}`, { body: { address_source: ["web", "dns"] } });
    const renamed = await t.request("PUT", `/api/v1/domains/${created.body.id}`, {
      body: { domain_name: "other.example.com" },
    });
    expect(renamed.body.address_source).toEqual(["web", "dns"]);
  });

  const refusals: [string, unknown, Record<string, unknown>, RegExp][] = [
    ["a source that does not read", ["web", "ftp"], {}, /expected web, dns, interface:<name>/],
    ["a source named twice", ["web", "web"], {}, /web is named twice/],
    ["the same fixed address written twice", ["fixed:81.2.69.160", "fixed:81.2.69.160"], {}, /named twice/],
    ["push in a list", ["push", "web"], {}, /push cannot be in a list/],
    ["an empty list", [], {}, /address_source/],
    ["an address of the other family", ["web", "fixed:2606:4700::1111"], {}, /needs an IPv4 address/],
    ["a mode that is not all or first", ["web", "dns"], { addresses: "some" }, /config\.addresses/],
  ];
  for (const [name, source, config, words] of refusals)
    test(`${name}: 422, nothing saved`, async () => {
      const refused = await post(cloudflare, { address_source: source, config });
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body.detail)).toMatch(words);
      expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);
    });

  test("a one-shot service refuses all with a 422 naming it and why; first works there", async () => {
    const refused = await post(duckdns, {
      domain_name: "home.duckdns.org",
      address_source: ["web", "dns"],
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain("DuckDNS cannot publish several addresses for one name");
    expect(refused.body.detail).toContain("its update protocol takes one address per name");
    const failover = await post(duckdns, {
      domain_name: "home.duckdns.org",
      address_source: ["web", "dns"],
      config: { addresses: "first" },
    });
    expect(failover.status).toBe(200);
    // Switching it to all later is refused the same way, and changes nothing.
    const patched = await t.request("PUT", `/api/v1/domains/${failover.body.id}`, {
      body: { config: { addresses: "all" } },
    });
    expect(patched.status).toBe(422);
    expect((await t.request("GET", `/api/v1/domains/${failover.body.id}`)).body.config).toEqual({ addresses: "first" });
  });

  test("a zone service that writes one address per name refuses all; a set service takes it", async () => {
    const refused = await post(dynu, { address_source: ["web", "dns"] });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain("ddnsd writes one address per name there");
    expect((await post(cloudflare, { address_source: ["web", "dns"] })).status).toBe(200);
  });

  test("the config file exports a list and imports it back unchanged", async () => {
    await post(cloudflare, { address_source: ["web", "dns"], config: { addresses: "first" } });
    const exported = await t.request("GET", "/api/v1/config/export");
    expect(exported.status).toBe(200);
    const file = exported.body as string;
    expect(file).toMatch(/address_source:\n\s+- web\n\s+- dns/);
    const again = await t.request("POST", "/api/v1/config/import", {
      body: file,
      headers: { "content-type": "application/yaml" },
    });
    expect(again.status).toBe(200);
    expect(JSON.stringify(again.body)).not.toContain("update domain");
    // The file's list is what an import applies.
    const edited = file.replace(/- dns/, "- fixed:81.2.69.170");
    const applied = await t.request("POST", "/api/v1/config/import", {
      body: edited,
      headers: { "content-type": "application/yaml" },
    });
    expect(JSON.stringify(applied.body)).toContain("address_source");
    expect((await t.request("GET", "/api/v1/domains")).body[0].address_source).toEqual(["web", "fixed:81.2.69.170"]);
  });
});
