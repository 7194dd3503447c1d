// Lists scale (a probe put 10,000 domains in through the API in 8 s, and the Domains page became a
// 24.6 MB page): at most DDNS_MAX_DOMAINS domains (default 1000; past it a 409 saying so and nothing
// written, through the API, the config file and the domain form); the API list still answers every
// domain, and pages with `?limit=&offset=`; the Domains page shows 50 a page with next and previous
// links that keep the search and the order, with and without htmx.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { CF_TOKEN, createDomain, createProvider, resetData } from "../api/helpers";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, domainForm, page, signIn } from "../ui/helpers";

const LIMIT_MESSAGE = (max: number, wouldBe: number) =>
  `At most ${max} domains are kept (DDNS_MAX_DOMAINS), and this would make ${wouldBe}: delete some or raise the setting; nothing was saved`;

/** `count` domains `host0001.example.com` … written straight to the store, in one transaction. */
function seedDomains(t: TestApp, providerId: number, count: number, from = 1): void {
  const now = Date.now();
  t.ctx.store.transaction((store) => {
    for (let i = from; i < from + count; i++)
      store.domains.create({
        providerId,
        domainName: `host${String(i).padStart(4, "0")}.example.com`,
        recordType: "A",
        externalId: null,
        config: {},
        cronSchedule: null,
        isEnabled: true,
        nextRunAt: null,
        createdAt: now,
        updatedAt: now,
      });
  });
}

const domainCount = (t: TestApp) => t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM domains").get()!.n;

describe("DDNS_MAX_DOMAINS", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ DDNS_MAX_DOMAINS: "3" });
  });
  afterAll(() => t.ctx.sqlite.close());

  test("the API: past the limit a 409 saying so, nothing written; room again after a delete", async () => {
    resetData(t);
    const provider = await createProvider(t);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createDomain(t, provider.id)).id);
    const refused = await t.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.id, domain_name: "one-more.example.com" },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: LIMIT_MESSAGE(3, 4) });
    expect(domainCount(t)).toBe(3);
    // Editing one at the limit is not adding one.
    expect((await t.request("PUT", `/api/v1/domains/${ids[0]}`, { body: { is_enabled: false } })).status).toBe(200);
    expect((await t.request("DELETE", `/api/v1/domains/${ids[0]}`)).status).toBe(200);
    await createDomain(t, provider.id, { domain_name: "one-more.example.com" });
    // The About page lists the setting.
    expect((await page(t, "/about", { cookie: await signIn(t) })).text).toContain("DDNS_MAX_DOMAINS");
  });

  test("the config file: a file that would pass it is a 409 and imports nothing; a pruned file may replace domains", async () => {
    resetData(t);
    const file = (names: string[]) =>
      JSON.stringify({
        version: 1,
        providers: [{ name: "Home", type: "cloudflare", credentials: { api_token: CF_TOKEN } }],
        domains: names.map((name) => ({ provider: "Home", name })),
      });
    const importing = (text: string, query = "") =>
      t.request("POST", `/api/v1/config/import${query}`, {
        body: text,
        headers: { "content-type": "application/json" },
      });
    const four = file(["a.example.com", "b.example.com", "c.example.com", "d.example.com"]);
    for (const query of ["", "?dry_run=true"]) {
      const refused = await importing(four, query);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ detail: LIMIT_MESSAGE(3, 4) });
    }
    expect(domainCount(t)).toBe(0);
    expect((await t.request("GET", "/api/v1/providers")).body).toEqual([]); // the provider it made went too
    expect((await importing(file(["a.example.com", "b.example.com", "c.example.com"]))).status).toBe(200);
    // Three others in place of the three: more than three at once only halfway through.
    const replaced = await importing(file(["x.example.com", "y.example.com", "z.example.com"]), "?prune=true");
    expect(replaced.status).toBe(200);
    expect(
      ((await t.request("GET", "/api/v1/domains")).body as { domain_name: string }[]).map((d) => d.domain_name),
    ).toEqual(["x.example.com", "y.example.com", "z.example.com"]);
  });

  test("the domain form: the refusal above the form, the form kept, nothing written", async () => {
    resetData(t);
    const cookie = await signIn(t);
    const provider = await createProvider(t);
    for (let i = 0; i < 3; i++) await createDomain(t, provider.id);
    const response = await page(t, "/domains/new", {
      cookie,
      form: domainForm(provider.id, { domain_name: "form.example.com" }),
    });
    expect(response.status).toBe(200);
    expect(response.text).toContain(LIMIT_MESSAGE(3, 4));
    expect(response.text).toContain('value="form.example.com"');
    expect(domainCount(t)).toBe(3);
  });
});

test("by default 1000: the 1001st domain is refused", async () => {
  const t = await makeTestApp();
  try {
    const provider = await createProvider(t);
    seedDomains(t, provider.id, 999);
    await createDomain(t, provider.id, { domain_name: "the-thousandth.example.com" });
    const refused = await t.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.id, domain_name: "one-too-many.example.com" },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: LIMIT_MESSAGE(1000, 1001) });
    expect(domainCount(t)).toBe(1000);
  } finally {
    t.ctx.sqlite.close();
  }
});

describe("GET /api/v1/domains", () => {
  let t: TestApp;
  let all: { id: number; domain_name: string }[];
  beforeAll(async () => {
    t = await makeTestApp();
    const provider = await createProvider(t);
    seedDomains(t, provider.id, 120);
    all = (await t.request("GET", "/api/v1/domains")).body;
  });
  afterAll(() => t.ctx.sqlite.close());

  test("without parameters every domain; ?limit=&offset= a part of them, oldest first", async () => {
    expect(all).toHaveLength(120);
    const names = async (query: string) =>
      ((await t.request("GET", `/api/v1/domains${query}`)).body as { domain_name: string }[]).map((d) => d.domain_name);
    expect(await names("?limit=50")).toEqual(all.slice(0, 50).map((d) => d.domain_name));
    expect(await names("?limit=50&offset=100")).toEqual(all.slice(100).map((d) => d.domain_name));
    expect(await names("?offset=119")).toEqual(["host0120.example.com"]);
    expect(await names("?offset=500")).toEqual([]);
    expect((await t.request("GET", "/api/v1/domains?limit=2")).body[0]).toEqual(all[0]);
  });

  test("bad values are a 422 naming the parameter", async () => {
    for (const query of [
      "limit=0",
      "limit=1001",
      "limit=ten",
      "limit=0x10",
      "limit=1e2",
      "limit=",
      "offset=-1",
      "offset=1.5",
      "offset=+3",
    ]) {
      const response = await t.request("GET", `/api/v1/domains?${query}`);
      expect([query, response.status]).toEqual([query, 422]);
      expect(response.body.detail).toContain(query.split("=")[0]!);
    }
  });

  test("the OpenAPI document describes both parameters", async () => {
    const document = (await t.request("GET", "/docs/json", { token: null })).body;
    const parameters = document.paths["/api/v1/domains"].get.parameters as { name: string; in: string }[];
    expect(parameters.map((p) => `${p.in} ${p.name}`).sort()).toEqual(["query limit", "query offset"]);
  });
});

describe("the Domains page at 1,000 domains", () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await makeTestApp();
    cookie = await signIn(t);
    const provider = await createProvider(t, { name: "Home" });
    seedDomains(t, provider.id, 1000);
  });
  afterAll(() => t.ctx.sqlite.close());

  const names = (html: string) => {
    const found: string[] = [];
    new HTMLRewriter()
      .on("tbody a.domain-link", {
        text(chunk) {
          if (chunk.text.trim() !== "") found.push(chunk.text.trim());
        },
      })
      .transform(html);
    return found;
  };
  const host = (i: number) => `host${String(i).padStart(4, "0")}.example.com`;
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => host(from + i));

  test("50 rows a page; next and previous are plain links that lead on and back", async () => {
    const first = await page(t, "/domains", { cookie });
    expect(first.status).toBe(200);
    expect(names(first.text)).toEqual(range(1, 50));
    expect(first.text).toContain("Showing 1–50 of 1000 domains.");
    expect(first.text).toContain("Page 1 of 20");
    expect(attributeValues(first.text, "nav.pager a[rel=prev]", "href")).toEqual([]);
    const [next] = attributeValues(first.text, "nav.pager a[rel=next]", "href");
    expect(next).toBe("/domains?page=2");
    const second = await page(t, next!, { cookie });
    expect(names(second.text)).toEqual(range(51, 100));
    expect(attributeValues(second.text, "nav.pager a[rel=prev]", "href")).toEqual(["/domains"]);
    // The list's refresh stays on its page; the last page holds the rest; a page past it shows the last.
    expect(attributeValues(second.text, "#domain-list", "hx-get")).toEqual(["/domains?page=2"]);
    const last = await page(t, "/domains?page=20", { cookie });
    expect(names(last.text)).toEqual(range(951, 1000));
    expect(attributeValues(last.text, "nav.pager a[rel=next]", "href")).toEqual([]);
    expect(names((await page(t, "/domains?page=999", { cookie })).text)).toEqual(range(951, 1000));
    expect(names((await page(t, "/domains?page=nonsense", { cookie })).text)).toEqual(range(1, 50));
    // Far smaller than the probe's 24.6 MB page of 10,000 rows.
    expect(first.text.length).toBeLessThan(400_000);
  });

  test("the search and the order are kept across pages, with and without htmx", async () => {
    // host0900 … host0999 match "host09": 100 of them, two pages, in name order reversed by nothing.
    const searched = await page(t, "/domains?q=host09&sort=next", { cookie });
    expect(names(searched.text)).toEqual(range(900, 949));
    expect(searched.text).toContain("Showing 1–50 of 1000 domains (100 matching).");
    const [next] = attributeValues(searched.text, "nav.pager a[rel=next]", "href");
    expect(next).toBe("/domains?q=host09&sort=next&page=2");
    for (const htmx of [false, true]) {
      const second = await page(t, next!, {
        cookie,
        htmx,
        headers: htmx ? { "hx-boosted": "true" } : {},
      });
      expect(second.status).toBe(200);
      expect(names(second.text)).toEqual(range(950, 999));
      expect(attributeValues(second.text, "#filter-q", "value")).toEqual(["host09"]);
      expect(attributeValues(second.text, "nav.pager a[rel=prev]", "href")).toEqual(["/domains?q=host09&sort=next"]);
    }
    // A row's Delete in place carries the filters and the page: the same page comes back.
    const [include] = attributeValues(searched.text, "form[hx-post$='/delete']", "hx-include");
    expect(include).toBe("#domain-filters, #domain-list-page");
    const target = (await t.request("GET", "/api/v1/domains?limit=1&offset=959")).body[0];
    expect(target.domain_name).toBe(host(960));
    const deleted = await page(t, `/domains/${target.id}/delete`, {
      cookie,
      htmx: true,
      form: { in_place: "list", q: "host09", sort: "next", provider: "", status: "", page: "2" },
    });
    expect(names(deleted.text)).toEqual(range(950, 999).filter((name) => name !== host(960)));
  });
});
