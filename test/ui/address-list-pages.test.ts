// A domain with several address sources in the admin pages, without JavaScript: the domain form's
// further sources and mode saved as a list, shown again on the edit page, a service that takes one
// address per name refusing "every address" beside the field, and the dashboard listing each source.

import { beforeAll, beforeEach, expect, test } from "bun:test";
import { createProvider, resetData } from "../api/helpers";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, domainForm, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await makeTestApp();
  cookie = await signIn(t);
});
beforeEach(() => {
  resetData(t);
});

test("further sources one a line and failover are saved as a list, and the edit page shows them again", async () => {
  const provider = await createProvider(t, { name: "Home" });
  const saved = await page(t, "/domains/new", {
    cookie,
    form: domainForm(provider.id, {
      address_source: "fixed",
      fixed_address: "81.2.69.160",
      more_sources: "fixed:81.2.69.161\r\n",
      addresses_mode: "first",
    }),
  });
  expect(saved.status).toBe(303);
  const [domain] = (await t.request("GET", "/api/v1/domains")).body;
  expect(domain.address_source).toEqual(["fixed:81.2.69.160", "fixed:81.2.69.161"]);
  expect(domain.config.addresses).toBe("first");
  const edit = await page(t, `/domains/${domain.id}/edit`, { cookie });
  expect(edit.text).toContain(">fixed:81.2.69.161</textarea>");
  expect(attributeValues(edit.text, "#f-addresses_mode option[selected]", "value")).toEqual(["first"]);

  // The dashboard names both sources, each with what it gives.
  await t.ctx.scheduler.runPass({ all: true });
  const dashboard = await page(t, "/", { cookie });
  expect(dashboard.text).toContain("from fixed address, else fixed address");
  expect(dashboard.text).toContain('data-source="fixed:81.2.69.160"');
  expect(dashboard.text).toContain('data-source="fixed:81.2.69.161"');
});

test("every address at a service that takes one per name: refused beside the field, nothing saved", async () => {
  const duck = await t.request("POST", "/api/v1/providers", {
    body: { name: "duck", type: "duckdns", credentials: { token: "a7c4d0ad-114e-40ef-ba1d-d217904a50f2" } },
  });
  const refused = await page(t, "/domains/new", {
    cookie,
    form: domainForm(duck.body.id, {
      domain_name: "home.duckdns.org",
      address_source: "web",
      more_sources: "dns",
      addresses_mode: "all",
    }),
  });
  expect(refused.status).toBe(200);
  expect(refused.text).toContain('id="f-address_source-error">DuckDNS cannot publish several addresses for one name');
  expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);
});
