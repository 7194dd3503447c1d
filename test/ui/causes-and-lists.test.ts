// The fourth round's pages over HTTP: a failure's cause in the row (the service's words, the next
// step, how often it repeated) on every render so the refresh keeps it; the domain list searched
// and sorted without JavaScript, failing first on the dashboard, the failed-updates card leading
// to the failing names, a saved domain shown where it lands; provider cards red only for what is
// the provider's own.

import { beforeAll, beforeEach, describe, expect, test } from "bun:test";
import type { HistoryInsert } from "../../src/db/disk";
import { createDomain, createProvider, resetData } from "../api/helpers";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, domainForm, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await makeTestApp();
  cookie = await signIn(t);
});

beforeEach(() => resetData(t));

/** A failed attempt of a domain as the updater records it (a repeat is counted on the newest row), and the domain marked failed. */
function fail(domainId: number, cause: HistoryInsert["failureCause"], message: string, at = Date.now()): void {
  t.ctx.store.history.append(
    {
      domainId,
      ipAddress: null,
      previousIp: null,
      status: "FAILED",
      failureCause: cause,
      message,
      trigger: "schedule",
      durationMs: 40,
      timestamp: at,
    },
    100,
  );
  if (cause !== "detection")
    t.ctx.sqlite.run("UPDATE domains SET last_update_status = 'FAILED' WHERE id = ?", [domainId]);
}

function succeed(domainId: number): void {
  t.ctx.store.history.append(
    {
      domainId,
      ipAddress: "203.0.113.7",
      previousIp: null,
      status: "SUCCESS",
      failureCause: null,
      message: "ok",
      trigger: "schedule",
      durationMs: 40,
      timestamp: Date.now(),
    },
    100,
  );
  t.ctx.sqlite.run("UPDATE domains SET last_update_status = 'SUCCESS', last_known_ip = '203.0.113.7' WHERE id = ?", [
    domainId,
  ]);
}

/** The hostnames of the list's rows, in order. */
function rowNames(html: string): string[] {
  const names: string[] = [];
  let inLink = false;
  new HTMLRewriter()
    .on("tbody a.domain-link", {
      element(element) {
        inLink = true;
        names.push("");
        element.onEndTag(() => {
          inLink = false;
        });
      },
      text(chunk) {
        if (inLink) names[names.length - 1] += chunk.text;
      },
    })
    .transform(html);
  return names;
}

describe("a failure's cause where people look", () => {
  test("the dashboard row and the list say it in the service's words with the next step, on every render", async () => {
    const provider = await createProvider(t, { name: "Cloudflare (personal)" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    fail(domain.id, "refused", "Cloudflare: no active zone found for home.example.com");
    for (const path of ["/", "/domains"]) {
      const html = (await page(t, path, { cookie })).text;
      expect(html).toContain(
        "Cloudflare (personal) refused the request: no active zone found for home.example.com. Check the domain&#x27;s name and zone against what the service holds, then Update now.",
      );
      expect(attributeValues(html, `#domain-${domain.id} .update-result a`, "href")).toEqual([
        `/domains/${domain.id}/edit`,
        `/domains/${domain.id}/history`,
      ]);
    }
  });

  test("the history page's status says it too, in the service's words with the next step", async () => {
    const provider = await createProvider(t, { name: "Cloudflare (personal)" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    fail(domain.id, "refused", "Cloudflare: no active zone found for home.example.com");
    const html = (await page(t, `/domains/${domain.id}/history`, { cookie })).text;
    const summary = html.slice(html.indexOf('<section class="card summary">'), html.indexOf("</section>"));
    expect(summary).toContain(
      "Cloudflare (personal) refused the request: no active zone found for home.example.com. Check the domain&#x27;s name and zone against what the service holds, then Update now.",
    );
  });

  test("could not reach, refused credentials: each said plainly, with what to do", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const a = await createDomain(t, provider.id, { domain_name: "a.example.com" });
    const b = await createDomain(t, provider.id, { domain_name: "b.example.com" });
    fail(a.id, "unreachable", "Cloudflare: request failed: nothing accepts connections at that address and port");
    fail(b.id, "credentials", "Cloudflare: Invalid API Token (code 1000, HTTP 401)");
    const html = (await page(t, "/domains", { cookie })).text;
    expect(html).toContain(
      "Could not reach Home: request failed: nothing accepts connections at that address and port. ddnsd tries again on its own",
    );
    expect(html).toContain(
      "Home refused the credentials: Invalid API Token (code 1000, HTTP 401). Correct them in the provider&#x27;s settings",
    );
    expect(attributeValues(html, `#domain-${b.id} .update-result a`, "href")).toContain(
      `/providers/${provider.id}/edit`,
    );
  });

  test("the same failure nine times is one history row, with the count and since when", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    // Fourteen minutes within one clock hour (a row folds one hour's repeats), all in the past.
    const hour = 3_600_000;
    const start = Math.floor((Date.now() - 14 * 60_000) / hour) * hour;
    for (let i = 0; i < 9; i++)
      fail(domain.id, "refused", "Cloudflare: no active zone found for home.example.com", start + i * 100_000);
    const api = await t.request("GET", `/api/v1/domains/${domain.id}/history`);
    expect(api.body.length).toBe(1);
    expect(api.body[0]).toMatchObject({
      repeat_count: 9,
      first_timestamp: new Date(start).toISOString(),
      timestamp: new Date(start + 800_000).toISOString(),
    });
    const history = (await page(t, `/domains/${domain.id}/history`, { cookie })).text;
    expect(history).toContain("9 times since");
    expect(history).toContain("Failed: Home refused the request: no active zone found for home.example.com.");
    const row = (await page(t, "/", { cookie })).text;
    expect(row).toContain("The same 9 times in a row");
  });

  test("a manual update's outcome stays in the row after a refresh; a scheduled success adds nothing", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    t.ctx.store.history.append(
      {
        domainId: domain.id,
        ipAddress: "203.0.113.7",
        previousIp: "198.51.100.2",
        status: "SUCCESS",
        failureCause: null,
        message: "Updated",
        trigger: "manual",
        durationMs: 80,
        timestamp: Date.now(),
      },
      100,
    );
    expect((await page(t, "/", { cookie })).text).toContain("Now points at 203.0.113.7 (was 198.51.100.2).");
    succeed(domain.id);
    expect((await page(t, "/", { cookie })).text).not.toContain("update-result");
  });
});

describe("lists that scale", () => {
  async function seed() {
    const cf = await createProvider(t, { name: "Cloudflare" });
    const dynu = await createProvider(t, { name: "Dynu", type: "dynu" });
    const names = ["mango.example.com", "apple.example.com", "kiwi.example.org", "banana.example.com"];
    const ids: Record<string, number> = {};
    for (const [i, name] of names.entries())
      ids[name] = (await createDomain(t, i % 2 === 0 ? cf.id : dynu.id, { domain_name: name })).id;
    succeed(ids["apple.example.com"]!);
    succeed(ids["mango.example.com"]!);
    fail(ids["kiwi.example.org"]!, "refused", "Cloudflare: no active zone found for kiwi.example.org");
    t.ctx.sqlite.run("UPDATE domains SET next_run_at = ? WHERE id = ?", [
      Date.now() + 60_000,
      ids["banana.example.com"]!,
    ]);
    t.ctx.sqlite.run("UPDATE domains SET next_run_at = ? WHERE id != ?", [
      Date.now() + 600_000,
      ids["banana.example.com"]!,
    ]);
    return { cf, dynu, ids };
  }

  test("/domains?q=… finds by hostname or provider; ?sort= orders by name, status or next run, all without JavaScript", async () => {
    const { ids } = await seed();
    expect(rowNames((await page(t, "/domains", { cookie })).text)).toEqual([
      "apple.example.com",
      "banana.example.com",
      "kiwi.example.org",
      "mango.example.com",
    ]);
    expect(rowNames((await page(t, "/domains?q=example.org", { cookie })).text)).toEqual(["kiwi.example.org"]);
    expect(rowNames((await page(t, "/domains?q=DYNU", { cookie })).text)).toEqual([
      "apple.example.com",
      "banana.example.com",
    ]);
    expect(rowNames((await page(t, "/domains?sort=status", { cookie })).text)).toEqual([
      "kiwi.example.org",
      "banana.example.com",
      "apple.example.com",
      "mango.example.com",
    ]);
    expect(rowNames((await page(t, "/domains?sort=next", { cookie })).text)[0]).toBe("banana.example.com");
    // The list's refresh keeps the search and the order.
    const searched = (await page(t, "/domains?q=example.com&sort=status", { cookie })).text;
    expect(attributeValues(searched, "#domain-list", "hx-get")).toEqual(["/domains?q=example.com&sort=status"]);
    expect(attributeValues(searched, "#filter-q", "value")).toEqual(["example.com"]);
    expect(ids).toBeDefined();
  });

  test("the dashboard puts failing domains first, and its failed-updates card leads to them", async () => {
    await seed();
    const html = (await page(t, "/", { cookie })).text;
    expect(rowNames(html)[0]).toBe("kiwi.example.org");
    expect(attributeValues(html, ".stat a", "href")).toContain("/domains?status=failed");
    expect(html).toContain("1 domain failing now");
    expect(rowNames((await page(t, "/domains?status=failed", { cookie })).text)).toEqual(["kiwi.example.org"]);
  });

  test("beyond 10 domains the dashboard lists those that need a person and sums up the rest; up to 10, all of them", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const ids: number[] = [];
    for (let i = 0; i < 10; i++)
      ids.push((await createDomain(t, provider.id, { domain_name: `h${i}.example.com` })).id);
    for (const id of ids) succeed(id);
    let html = (await page(t, "/", { cookie })).text;
    expect(rowNames(html).length).toBe(10);
    expect(html).not.toContain("folded-summary");
    for (let i = 10; i < 12; i++)
      ids.push((await createDomain(t, provider.id, { domain_name: `h${i}.example.com` })).id);
    succeed(ids[10]!);
    await t.request("PUT", `/api/v1/domains/${ids[11]}`, { body: { is_enabled: false } });
    html = (await page(t, "/", { cookie })).text;
    // All fine or switched off: no table, the line alone.
    expect(rowNames(html)).toEqual([]);
    expect(html).not.toContain("<table");
    expect(html).toContain("12 domains, none needing you: 11 OK, 1 switched off. ");
    expect(attributeValues(html, ".folded-summary a", "href")).toEqual(["/domains"]);
    fail(ids[3]!, "refused", "Cloudflare: no active zone found for h3.example.com");
    html = (await page(t, "/", { cookie })).text;
    expect(rowNames(html)).toEqual(["h3.example.com"]);
    expect(html).toContain("11 more domains: 10 OK, 1 switched off. ");
  });

  test("a domain just added lands on the list at its own row, marked", async () => {
    const { cf } = await seed();
    const response = await page(t, "/domains/new", {
      cookie,
      form: domainForm(cf.id, { domain_name: "cherry.example.com" }),
    });
    expect(response.status).toBe(303);
    const location = response.headers.get("location")!;
    const id = (await t.request("GET", "/api/v1/domains")).body.find(
      (d: { domain_name: string }) => d.domain_name === "cherry.example.com",
    ).id;
    expect(location).toBe(`/domains?landed=${id}#domain-${id}`);
    const list = (await page(t, location.split("#")[0]!, { cookie })).text;
    expect(attributeValues(list, "tr.row-landed", "id")).toEqual([`domain-${id}`]);
    expect(rowNames(list).indexOf("cherry.example.com")).toBe(2); // by name, not last
  });
});

describe("deleting from the list", () => {
  test("with htmx the list comes back with its filters, saying so, the next row's Delete marked to take focus; a plain post goes through the confirmation", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const a = await createDomain(t, provider.id, { domain_name: "a-gone.example.com" });
    await createDomain(t, provider.id, { domain_name: "b-kept.example.com" });
    const c = await createDomain(t, provider.id, { domain_name: "c-gone.example.com" });
    const list = (await page(t, "/domains?q=gone", { cookie })).text;
    const form = `#domain-${a.id} form[hx-post="/domains/${a.id}/delete"]`;
    expect(attributeValues(list, `${form} input[name=in_place]`, "value")).toEqual(["list"]);
    // The filters' form and the page go along, so the list comes back as it was filtered, sorted and paged.
    expect(attributeValues(list, form, "hx-include")).toEqual(["#domain-filters, #domain-list-page"]);
    expect(attributeValues(list, "form#domain-filters input[name=q]", "value")).toEqual(["gone"]);
    const plain = await page(t, `/domains/${a.id}/delete`, { cookie, form: { in_place: "list" } });
    expect([plain.status, plain.headers.get("location")]).toEqual([303, `/domains/${a.id}/delete`]);
    const inPlace = await page(t, `/domains/${a.id}/delete`, {
      cookie,
      form: { in_place: "list", q: "gone", sort: "name" },
      htmx: true,
    });
    expect(inPlace.status).toBe(200);
    expect(inPlace.text).toContain(
      "a-gone.example.com (A) deleted, with its history; the record at Home is left as it is.",
    );
    expect(attributeValues(inPlace.text, "#domain-list tbody tr", "id")).toEqual([`domain-${c.id}`]);
    expect(attributeValues(inPlace.text, "[autofocus]", "id")).toEqual([`delete-${c.id}`]);
    expect((await t.request("GET", `/api/v1/domains/${a.id}`)).status).toBe(404);
    // The last row of the filtered list: focus goes to the list's heading.
    const last = await page(t, `/domains/${c.id}/delete`, {
      cookie,
      form: { in_place: "list", q: "gone" },
      htmx: true,
    });
    expect(attributeValues(last.text, "[autofocus]", "id")).toEqual(["domain-list-title"]);
  });
});

describe("deleting from the notifications and the update keys", () => {
  for (const list of [
    {
      path: "/notifications",
      id: "notification-list",
      add: (name: string) =>
        t.request("POST", "/api/v1/notifications", {
          body: { name, type: "webhook", options: { url: "http://127.0.0.1:9/hook" }, events: ["update_failed"] },
        }),
      said: "Notification “Old” deleted.",
    },
    {
      path: "/update-keys",
      id: "update-key-list",
      add: (name: string) => t.request("POST", "/api/v1/update-keys", { body: { name } }),
      said: "Update key “Old” deleted; a router still using it is refused from now on.",
    },
  ]) {
    test(`${list.path}: with htmx the list comes back saying so, the next row's Delete (or the heading) marked to take focus; a plain post goes through the confirmation`, async () => {
      const old = (await list.add("Old")).body.id as number;
      const next = (await list.add("Next")).body.id as number;
      const url = (id: number) => `${list.path}/${id}/delete`;
      const listed = (await page(t, list.path, { cookie })).text;
      expect(attributeValues(listed, `#${list.id} form[hx-post="${url(old)}"] input[name=in_place]`, "value")).toEqual([
        "list",
      ]);
      const plain = await page(t, url(old), { cookie, form: { in_place: "list" } });
      expect([plain.status, plain.headers.get("location")]).toEqual([303, url(old)]);
      const inPlace = await page(t, url(old), { cookie, form: { in_place: "list" }, htmx: true });
      expect(inPlace.status).toBe(200);
      expect(inPlace.text).toStartWith(`<section id="${list.id}"`);
      expect(inPlace.text).toContain(list.said);
      expect(attributeValues(inPlace.text, "[autofocus]", "aria-label")).toEqual([
        `Delete ${list.path === "/update-keys" ? "update key " : ""}Next`,
      ]);
      const last = await page(t, url(next), { cookie, form: { in_place: "list" }, htmx: true });
      expect(attributeValues(last.text, "[autofocus]", "id")).toEqual([`${list.id}-title`]);
      expect(attributeValues((await page(t, list.path, { cookie })).text, "[autofocus]", "id")).toEqual([]);
    });
  }
});

describe("provider cards show the provider's own health", () => {
  test("one domain with a wrong zone is that domain's problem, listed; a detection failure is nobody's at the service", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const good = await createDomain(t, provider.id, { domain_name: "good.example.com" });
    const wrong = await createDomain(t, provider.id, { domain_name: "wrong.example.net" });
    const unseen = await createDomain(t, provider.id, { domain_name: "six.example.com", record_type: "AAAA" });
    succeed(good.id);
    fail(wrong.id, "refused", "Cloudflare: no active zone found for wrong.example.net");
    fail(unseen.id, "detection", "IPv6 detection failed: no answer");
    const html = (await page(t, "/providers", { cookie })).text;
    expect(attributeValues(html, "li.card-failing", "id")).toEqual([]);
    expect(html).toContain("1 domain refused");
    expect(attributeValues(html, ".domain-problems a", "href")).toEqual([`/domains/${wrong.id}/history`]);
  });

  test("a service that cannot be reached is the provider's: red, said plainly", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    fail(domain.id, "unreachable", "Cloudflare: request failed: nothing accepts connections at that address and port");
    const html = (await page(t, "/providers", { cookie })).text;
    expect(attributeValues(html, "li.card-failing", "id")).toEqual([`provider-${provider.id}`]);
    expect(html).toContain(
      "Could not reach Home: request failed: nothing accepts connections at that address and port.",
    );
  });

  test("Verify from the list brings the whole card back, so its health shows this check", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const response = await page(t, `/providers/${provider.id}/verify`, { cookie, form: { view: "card" }, htmx: true });
    expect(response.text).toStartWith(`<li id="provider-${provider.id}"`);
    expect(response.text).not.toContain("never verified");
    expect(response.text).toContain("Could not reach");
  });
});
