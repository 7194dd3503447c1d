// The domain form over HTTP, without JavaScript: the provider's zones offered for the hostname and a
// hostname in none of them refused before saving, the schedule's presets filling the cron field,
// and the provider's edit form showing its service as text rather than a select of every service.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createDomain, createProvider, resetData } from "../api/helpers";
import { CLOUDFLARE_FAKE_TOKEN, type CloudflareFake, startCloudflareFake } from "../fakes/cloudflare";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, domainForm, elementCount, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;
let cloudflare: CloudflareFake;

beforeAll(async () => {
  cloudflare = startCloudflareFake();
  cloudflare.addZone("example.com");
  cloudflare.addZone("example.net");
  t = await makeTestApp({ DDNS_CLOUDFLARE_API_URL: cloudflare.url });
  cookie = await signIn(t);
});
afterAll(async () => {
  await cloudflare.stop();
});
beforeEach(() => resetData(t));

const cloudflareProvider = () => createProvider(t, { name: "Home", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } });

describe("the provider's zones", () => {
  test("the form offers them for the hostname, as choices and in words", async () => {
    const provider = await cloudflareProvider();
    const html = (await page(t, `/domains/new?provider=${provider.id}`, { cookie })).text;
    expect(attributeValues(html, "#f-domain_name", "list")).toEqual(["provider-zones"]);
    expect(attributeValues(html, "datalist#provider-zones option", "value")).toEqual(["example.com", "example.net"]);
    expect(html).toContain("zones: <code>example.com</code>, <code>example.net</code>");
  });

  test("a hostname in none of them is refused before saving, saying which zones there are", async () => {
    const provider = await cloudflareProvider();
    const response = await page(t, "/domains/new", {
      cookie,
      form: domainForm(provider.id, { domain_name: "shop.example.org" }),
    });
    expect(response.status).toBe(200);
    expect(response.text).toContain(
      "shop.example.org is in none of this provider&#x27;s zones (example.com, example.net): check its spelling",
    );
    expect(attributeValues(response.text, "#f-domain_name", "aria-invalid")).toEqual(["true"]);
    expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);
    // In a zone: saved.
    const saved = await page(t, "/domains/new", {
      cookie,
      form: domainForm(provider.id, { domain_name: "shop.example.net" }),
    });
    expect(saved.status).toBe(303);
  });

  test("a service that cannot be asked leaves the field free: the first update says what is wrong", async () => {
    const provider = await createProvider(t, { name: "Elsewhere" }); // the test app's unreachable Cloudflare token
    cloudflare.fault({ status: 503 });
    try {
      const html = (await page(t, `/domains/new?provider=${provider.id}`, { cookie })).text;
      expect(elementCount(html, "datalist")).toBe(0);
      const saved = await page(t, "/domains/new", {
        cookie,
        form: domainForm(provider.id, { domain_name: "shop.example.org" }),
      });
      expect(saved.status).toBe(303);
    } finally {
      cloudflare.clearFaults();
    }
  });
});

describe("the schedule", () => {
  test("a preset's button fills the cron field and saves nothing", async () => {
    const provider = await cloudflareProvider();
    const presets = (await page(t, `/domains/new?provider=${provider.id}`, { cookie })).text;
    expect(attributeValues(presets, "button[data-cron-preset]", "value")).toEqual([
      "*/5 * * * *",
      "*/15 * * * *",
      "0 * * * *",
      "0 4 * * *",
    ]);
    const chosen = await page(t, "/domains/new", {
      cookie,
      form: { ...domainForm(provider.id, { domain_name: "" }), cron_preset: "*/15 * * * *" },
    });
    expect(chosen.status).toBe(200);
    expect(attributeValues(chosen.text, "#f-cron_schedule", "value")).toEqual(["*/15 * * * *"]);
    expect(attributeValues(chosen.text, 'button[value="*/15 * * * *"]', "aria-pressed")).toEqual(["true"]);
    expect(chosen.text).not.toContain("field-error");
    expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);
  });
});

describe("the provider's edit form", () => {
  test("its service is text: with domains it cannot change, without them the choice waits behind a disclosure", async () => {
    const provider = await cloudflareProvider();
    const free = (await page(t, `/providers/${provider.id}/edit`, { cookie })).text;
    expect(elementCount(free, ".chosen-service strong")).toBe(1);
    expect(elementCount(free, "details.change-service select[name=type]")).toBe(1);
    expect(attributeValues(free, "details.change-service", "open")).toEqual([]);
    await createDomain(t, provider.id, { domain_name: "home.example.com" });
    const locked = (await page(t, `/providers/${provider.id}/edit`, { cookie })).text;
    expect(elementCount(locked, "#provider-form select")).toBe(0);
    expect(locked).toContain("t change while it has 1 domain.");
    expect(locked).toContain('<input type="hidden" name="type" value="cloudflare"/>');
  });
});
