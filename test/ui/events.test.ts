// The admin pages for the second wave's features, through the real app: update keys (created and
// shown once, the domains they cover, delete through a confirmation), notifications (per-type
// fields, secrets never rendered, Send test in place and as a notice, the switch, delete), the
// AAAA suffix fields of the domain form, the address sources on About, the History page's
// "Router push", the provider form posting to its own page's URL, and plain decimal page ids.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { notifications, updateKeys } from "../../src/db/schema";
import { createDomain, createProvider, insertHistory, resetData } from "../api/helpers";
import { startWebhookReceiver, type NotifyFake } from "../fakes/notify";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, count, ORIGIN, page, signIn, type PageOptions } from "./helpers";

let t: TestApp;
let cookie: string;
let receiver: NotifyFake;
const BROWSER = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

beforeAll(async () => {
  receiver = startWebhookReceiver();
  t = await makeTestApp({ DDNS_IPV6_SOURCE: "interface:eth0" });
  cookie = await signIn(t);
});

afterAll(async () => {
  await receiver.stop();
});

beforeEach(() => {
  resetData(t);
  t.ctx.db.delete(updateKeys).run();
  t.ctx.db.delete(notifications).run();
  t.ctx.sqlite.exec("DELETE FROM sqlite_sequence WHERE name IN ('update_keys', 'notifications')");
  receiver.clearRequests();
  receiver.clearFaults();
});

/** A request as a browser without JavaScript makes it: HTML accepted, sent from `from`. */
function browser(path: string, options: PageOptions & { from?: string } = {}) {
  const headers: Record<string, string> = { ...BROWSER, ...options.headers };
  if (options.from) headers.referer = `${ORIGIN}${options.from}`;
  return page(t, path, { cookie, ...options, headers });
}

/** The notice the next page shows, from the flash cookie a redirect set. */
async function noticeAfter(response: { headers: Headers }, path: string): Promise<string> {
  const flash = response.headers.get("set-cookie")!.split(", ").find((c) => c.startsWith("ddnsd_flash="))!.split(";")[0]!;
  const next = await page(t, path, { cookie: `${cookie}; ${flash}` });
  const match = /<div class="notice (notice-\w+)" role="\w+"><span>([^<]*)<\/span>/.exec(next.text);
  return match ? `${match[1]}: ${match[2]}` : "(no notice)";
}

describe("update keys", () => {
  test("created: the whole key shown once, in the answer; masked everywhere after", async () => {
    const response = await browser("/update-keys", { form: { name: "FRITZ!Box", scope: "all" } });
    expect(response.status).toBe(200);
    const [key] = attributeValues(response.text, "#new-key", "value");
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.text).toContain("Copy it now: it is shown only this once.");
    expect(attributeValues(response.text, "button[data-copy]", "data-copy")).toEqual(["new-key"]);
    // It works: a push with it is accepted (no domain of that name: nohost, not badauth).
    const push = await t.app.handle(new Request(`${ORIGIN}/nic/update?hostname=home.example.com&myip=81.2.69.160&password=${key}`));
    expect([push.status, await push.text()]).toEqual([200, "nohost"]);
    // Never again: the list shows its tail only, and when it was last used.
    const list = await browser("/update-keys");
    expect(list.text).not.toContain(key!);
    expect(list.text).toContain(`<code>••••${key!.slice(-4)}</code>`);
    expect(list.text).toContain("All domains");
    expect(list.text).toMatch(/<td data-label="Last used"><time [^>]*>just now<\/time>/);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  test("limited to chosen domains, listed by name", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const a = await createDomain(t, provider.id, { domain_name: "a.example.com" });
    await createDomain(t, provider.id, { domain_name: "b.example.com" });
    const c = await createDomain(t, provider.id, { domain_name: "c.example.com", record_type: "AAAA" });
    const body = new URLSearchParams([["name", "Router"], ["scope", "chosen"], ["domain_ids", String(a.id)], ["domain_ids", String(c.id)]]);
    const response = await t.app.handle(
      new Request(`${ORIGIN}/update-keys`, { method: "POST", body, headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" } }),
    );
    expect(response.status).toBe(200);
    expect((await t.request("GET", "/api/v1/update-keys")).body[0].domain_ids).toEqual([a.id, c.id]);
    const list = await browser("/update-keys");
    expect(list.text).toContain("<li>a.example.com (A)</li><li>c.example.com (AAAA)</li>");
  });

  test("a mistake comes back next to its field, with what was typed, and creates nothing", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const a = await createDomain(t, provider.id, { domain_name: "a.example.com" });
    const none = await browser("/update-keys", { form: { name: "Router", scope: "chosen" } });
    expect(none.status).toBe(200);
    expect(none.text).toContain('id="f-domain_ids-error">must name at least one domain; null means all domains</p>');
    expect(attributeValues(none.text, "#f-name", "value")).toEqual(["Router"]);
    expect(attributeValues(none.text, "#scope-chosen", "checked")).toEqual([""]);
    const unnamed = await browser("/update-keys", { form: { name: "  ", scope: "chosen", domain_ids: String(a.id) } });
    expect(unnamed.text).toContain('id="f-name-error">must be 1 to 100 characters</p>');
    expect(attributeValues(unnamed.text, `#key-domain-${a.id}`, "checked")).toEqual([""]);
    expect(unnamed.text).not.toContain('id="new-key"');
    expect((await t.request("GET", "/api/v1/update-keys")).body).toEqual([]);
  });

  test("the router settings name this ddnsd's /nic/update", async () => {
    const response = await browser("/update-keys");
    expect(response.text).toContain(`<code>${ORIGIN}/nic/update</code>`);
    expect(response.text).toContain("FRITZ!Box");
    expect(response.text).toContain("the README's section “Router push (dyndns2)”");
  });

  test("delete: without JavaScript through a confirmation page; with htmx at once", async () => {
    await t.request("POST", "/api/v1/update-keys", { body: { name: "Old router" } });
    await t.request("POST", "/api/v1/update-keys", { body: { name: "New router" } });
    const unconfirmed = await browser("/update-keys/1/delete", { form: {} });
    expect([unconfirmed.status, unconfirmed.headers.get("location")]).toEqual([303, "/update-keys/1/delete"]);
    const confirm = await browser("/update-keys/1/delete");
    expect(confirm.text).toContain("A router still using it gets &quot;badauth&quot; from then on.");
    expect(attributeValues(confirm.text, 'form[action="/update-keys/1/delete"] input[name=confirm]', "value")).toEqual(["yes"]);
    const confirmed = await browser("/update-keys/1/delete", { form: { confirm: "yes" } });
    expect(confirmed.headers.get("location")).toBe("/update-keys");
    expect(await noticeAfter(confirmed, "/update-keys")).toBe("notice-ok: Update key “Old router” deleted; a router still using it is refused from now on.");
    const htmx = await page(t, "/update-keys/2/delete", { cookie, form: {}, htmx: true });
    expect(htmx.status).toBe(303);
    expect((await t.request("GET", "/api/v1/update-keys")).body).toEqual([]);
  });

  test("a key deleted in another tab: a 404 page", async () => {
    const response = await browser("/update-keys/9/delete", { form: { confirm: "yes" }, from: "/update-keys" });
    expect(response.status).toBe(404);
    expect(response.text).toContain("Update key not found");
  });
});
