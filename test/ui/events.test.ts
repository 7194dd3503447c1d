// The admin pages for the second wave's features, through the real app: update keys (created and
// shown once, the domains they cover, delete through a confirmation), notifications (per-type
// fields, secrets never rendered, Send test in place and as a notice, the switch, delete), the
// AAAA suffix fields of the domain form, the address sources on About, the History page's
// "Router push", the provider form posting to its own page's URL, and plain decimal page ids.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { notifications, updateKeys } from "../../src/db/schema";
import { signature } from "../../src/notify/channels/webhook";
import { openOptions } from "../../src/notify/options";
import { createDomain, createProvider, insertHistory, resetData } from "../api/helpers";
import { type NotifyFake, startWebhookReceiver } from "../fakes/notify";
import { makeTestApp, type TestApp } from "../support";
import {
  attributeValues,
  count,
  domainForm,
  elementCount,
  noticeShown,
  ORIGIN,
  type PageOptions,
  page,
  signIn,
} from "./helpers";

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
  receiver.delivered.length = 0;
  receiver.clearFaults();
});

/** A request as a browser without JavaScript makes it: HTML accepted, sent from `from`. */
function browser(path: string, options: PageOptions & { from?: string } = {}) {
  const headers: Record<string, string> = { ...BROWSER, ...options.headers };
  if (options.from) headers.referer = `${ORIGIN}${options.from}`;
  return page(t, path, { cookie, ...options, headers });
}

/** The notice the next page shows, from the flash cookie a redirect set. */
const noticeAfter = (response: { headers: Headers }, path: string) => noticeShown(t, cookie, response, path);

describe("update keys", () => {
  test("created: the whole key shown once, in the answer; masked everywhere after", async () => {
    const response = await browser("/update-keys", { form: { name: "FRITZ!Box", scope: "all" } });
    expect(response.status).toBe(200);
    const [key] = attributeValues(response.text, "#new-key", "value");
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.text).toContain("Copy it now: it is shown only this once.");
    expect(attributeValues(response.text, "button[data-copy]", "data-copy")).toEqual(["new-key"]);
    // It works: a push with it is accepted (no domain of that name: nohost, not badauth).
    const push = await t.app.handle(
      new Request(`${ORIGIN}/nic/update?hostname=home.example.com&myip=81.2.69.160&password=${key}`),
    );
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
    const body = new URLSearchParams([
      ["name", "Router"],
      ["scope", "chosen"],
      ["domain_ids", String(a.id)],
      ["domain_ids", String(c.id)],
    ]);
    const response = await t.app.handle(
      new Request(`${ORIGIN}/update-keys`, {
        method: "POST",
        body,
        headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    expect(response.status).toBe(200);
    expect((await t.request("GET", "/api/v1/update-keys")).body[0].domain_ids).toEqual([a.id, c.id]);
    const list = await browser("/update-keys");
    expect(list.text).toContain("<li>a.example.com (A) at Home</li><li>c.example.com (AAAA) at Home</li>");
  });

  test("a mistake comes back next to its field, with what was typed, and creates nothing", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const a = await createDomain(t, provider.id, { domain_name: "a.example.com" });
    const none = await browser("/update-keys", { form: { name: "Router", scope: "chosen" } });
    expect(none.status).toBe(200);
    // In the form's words, not the API's (no "null").
    expect(none.text).toContain('id="f-domain_ids-error">tick at least one domain, or choose “All domains”</p>');
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
    expect(response.text).toContain(`<a href="/help/router-push">Router push (dyndns2)</a>`);
  });

  test("the key just made fills in the router's settings, the FRITZ!Box field by field in English and German", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const a = await createDomain(t, provider.id, { domain_name: "nas.example.com" });
    const made = await browser("/update-keys", {
      form: { name: "FRITZ!Box", scope: "chosen", domain_ids: String(a.id) },
    });
    const [key] = attributeValues(made.text, "#new-key", "value");
    // Right after the key, while it is on the screen.
    expect(made.text.indexOf('id="router-title"')).toBeLessThan(made.text.indexOf("Your update keys"));
    expect(made.text).toContain(
      `<dt>Password <span class="muted small" lang="de">(Kennwort)</span></dt><dd><code>${key}</code></dd>`,
    );
    expect(made.text).toContain(
      '<dt>Domain name <span class="muted small" lang="de">(Domainname)</span></dt><dd><code>nas.example.com</code></dd>',
    );
    // An A record alone: no IPv6 placeholder for the box to push to nothing.
    expect(made.text).toContain(
      `<code>${ORIGIN}/nic/update?hostname=&lt;domain&gt;&amp;myip=&lt;ipaddr&gt;&amp;password=&lt;pass&gt;</code>`,
    );
    expect(made.text).toContain("Internet → Freigaben → DynDNS");
    expect(made.text).toContain(
      `<code>${ORIGIN}/nic/update?hostname=nas.example.com&amp;myip=&lt;address&gt;&amp;password=${key}</code>`,
    );
    // The list's page afterwards shows the template again, never the key.
    expect((await browser("/update-keys")).text).not.toContain(key!);
  });

  test("a page opened as this machine itself warns that a router cannot reach ddnsd there", async () => {
    const local = await browser("/update-keys");
    expect(local.text).toContain("which is this machine itself: a router cannot reach ddnsd there");
    const lan = await t.app.handle(new Request("http://ddnsd.lan:8001/update-keys", { headers: { cookie } }));
    const text = await lan.text();
    expect(text).toContain("<code>http://ddnsd.lan:8001/nic/update</code>");
    expect(text).not.toContain("router-unreachable");
  });

  test("behind a trusted proxy that says https, the push URL is https; anyone else's say-so is ignored", async () => {
    const proxied = await makeTestApp({ DDNS_TRUSTED_PROXIES: "192.0.2.7" });
    const session = await signIn(proxied);
    const settingsFrom = async (peer: string) => {
      const request = new Request(`${ORIGIN}/update-keys`, {
        headers: { cookie: session, "x-forwarded-proto": "https" },
      });
      proxied.ctx.signIns.rememberPeer(request, peer);
      const html = await (await proxied.app.handle(request)).text();
      return /push their address to <code>([^<]*)<\/code>/.exec(html)?.[1];
    };
    expect(await settingsFrom("192.0.2.7")).toBe("https://localhost/nic/update");
    expect(await settingsFrom("198.51.100.9")).toBe("http://localhost/nic/update");
  });

  test("delete: without JavaScript through a confirmation page; with htmx at once", async () => {
    await t.request("POST", "/api/v1/update-keys", { body: { name: "Old router" } });
    await t.request("POST", "/api/v1/update-keys", { body: { name: "New router" } });
    const unconfirmed = await browser("/update-keys/1/delete", { form: {} });
    expect([unconfirmed.status, unconfirmed.headers.get("location")]).toEqual([303, "/update-keys/1/delete"]);
    const confirm = await browser("/update-keys/1/delete");
    expect(confirm.text).toContain("A router still using it gets &quot;badauth&quot; from then on.");
    expect(attributeValues(confirm.text, 'form[action="/update-keys/1/delete"] input[name=confirm]', "value")).toEqual([
      "yes",
    ]);
    const confirmed = await browser("/update-keys/1/delete", { form: { confirm: "yes" } });
    expect(confirmed.headers.get("location")).toBe("/update-keys");
    expect(await noticeAfter(confirmed, "/update-keys")).toBe(
      "notice-ok: Update key “Old router” deleted; a router still using it is refused from now on.",
    );
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

describe("notifications", () => {
  const WEBHOOK_SECRET = "webhook-signing-secret-0123456789";
  const webhookForm = (fields: Record<string, string> = {}) => ({
    name: "Home hook",
    type: "webhook",
    option_url: `${receiver.url}/hook`,
    option_secret: WEBHOOK_SECRET,
    option_headers: "X-Home: yes",
    events: "ip_changed",
    is_enabled: "on",
    ...fields,
  });

  test("the add form starts with every event ticked and the webhook's fields when asked for", async () => {
    const response = await browser("/notifications/new?type=webhook");
    expect(response.status).toBe(200);
    expect(attributeValues(response.text, "input[name=events][checked]", "value")).toEqual([
      "ip_changed",
      "update_failed",
      "update_recovered",
      "detection_failed",
      "not_served",
      "push_stale",
    ]);
    expect(attributeValues(response.text, "#notification-fields input, #notification-fields textarea", "name")).toEqual(
      ["option_url", "option_secret", "option_headers"],
    );
    expect(attributeValues(response.text, "#f-option_secret", "type")).toEqual(["password"]);
    expect(attributeValues(response.text, "#notification-form", "action")).toEqual(["/notifications/new"]);
  });

  test("added: stored as the API would, the secret sealed and never in a page", async () => {
    const response = await browser("/notifications/new", { form: webhookForm() });
    expect([response.status, response.headers.get("location")]).toEqual([303, "/notifications"]);
    expect(await noticeAfter(response, "/notifications")).toBe(
      "notice-ok: Notification “Home hook” added; use Send test to check it arrives.",
    );
    const stored = (await t.request("GET", "/api/v1/notifications/1")).body;
    expect(stored).toMatchObject({
      name: "Home hook",
      type: "webhook",
      events: ["ip_changed"],
      is_enabled: true,
      options: { url: `${receiver.url}/hook`, headers: { "X-Home": "••••" } },
    });
    expect(stored.options.secret).toBe(`••••${WEBHOOK_SECRET.slice(-4)}`);
    for (const path of [
      "/notifications",
      "/notifications/1/edit",
      "/notifications/fields?type=webhook&notification=1",
    ]) {
      const html = (await browser(path)).text;
      expect([path, html.includes(WEBHOOK_SECRET)]).toEqual([path, false]);
    }
    const edit = await browser("/notifications/1/edit");
    expect(edit.text).toContain(`Stored: <code>••••${WEBHOOK_SECRET.slice(-4)}</code>. Leave empty to keep it.`);
    expect(attributeValues(edit.text, "#f-option_url", "value")).toEqual([`${receiver.url}/hook`]);
    expect(attributeValues(edit.text, "#f-option_secret", "value")).toEqual([]);
    // The headers are secret too: their names with masked values, the text area empty; saved as it is, they are kept.
    expect(edit.text).toContain("Stored: <code>X-Home: ••••</code>. Leave empty to keep it.");
    expect(edit.text).toMatch(/name="option_headers"[^>]*>\s*<\/textarea>/);
    const saved = await browser("/notifications/1/edit", {
      form: webhookForm({ option_secret: "", option_headers: "" }),
    });
    expect(saved.status).toBe(303);
    expect(openOptions(t.ctx.store.notifications.find(1)!, t.ctx.keys.encryptionKey).headers).toEqual({
      "X-Home": "yes",
    });
  });

  test("a validation error sits next to its field, keeps what was typed but the secret, and stores nothing", async () => {
    const response = await browser("/notifications/new", {
      form: webhookForm({ option_url: "ftp://example.com/hook" }),
    });
    expect(response.status).toBe(200);
    expect(response.text).toContain('id="f-option_url-error">must be an http(s) URL</p>');
    expect(attributeValues(response.text, "#f-option_url", "aria-invalid")).toEqual(["true"]);
    expect(attributeValues(response.text, "#f-option_url", "value")).toEqual(["ftp://example.com/hook"]);
    expect(attributeValues(response.text, "#f-name", "value")).toEqual(["Home hook"]);
    expect(attributeValues(response.text, "input[name=events][checked]", "value")).toEqual(["ip_changed"]);
    expect(response.text).not.toContain(WEBHOOK_SECRET);
    const missing = await browser("/notifications/new", {
      form: { name: "Bot", type: "telegram", option_bot_token: "123:abc", option_chat_id: "", events: "ip_changed" },
    });
    expect(missing.text).toContain('id="f-option_chat_id-error">is required for a telegram notification</p>');
    expect((await t.request("GET", "/api/v1/notifications")).body).toEqual([]);
  });

  test("the fields follow the type: htmx swaps them, Continue reloads the form and saves nothing", async () => {
    const swapped = await page(t, "/notifications/fields?type=telegram", { cookie, htmx: true });
    expect(swapped.text).toStartWith('<div id="notification-fields"');
    expect(attributeValues(swapped.text, "input", "name")).toEqual(["option_bot_token", "option_chat_id"]);
    expect(swapped.text).toContain("From @BotFather");
    const again = await browser("/notifications/new", { form: { name: "Bot", type: "ntfy", continue: "type" } });
    expect(again.status).toBe(200);
    expect(again.text).toContain('<option value="ntfy" selected>ntfy</option>');
    expect(attributeValues(again.text, "#notification-fields input", "name")).toEqual(["option_url", "option_token"]);
    expect(again.text).not.toContain("field-error");
    expect((await t.request("GET", "/api/v1/notifications")).body).toEqual([]);
  });

  test("editing with an empty secret keeps the stored one; the mask shows only for the stored type", async () => {
    await browser("/notifications/new", { form: webhookForm() });
    const response = await browser("/notifications/1/edit", {
      form: webhookForm({ name: "Renamed", option_secret: "" }),
    });
    expect(response.status).toBe(303);
    const stored = (await t.request("GET", "/api/v1/notifications/1")).body;
    expect(stored.name).toBe("Renamed");
    // Still signed with the secret given when it was added.
    await t.request("POST", "/api/v1/notifications/1/test");
    const delivered = receiver.delivered.at(-1)!;
    expect(delivered.headers["x-ddnsd-signature"]).toBe(signature(JSON.stringify(delivered.body), WEBHOOK_SECRET));
    const other = await page(t, "/notifications/fields?type=ntfy&notification=1", { cookie, htmx: true });
    expect(other.text).not.toContain("Stored:");
  });

  test("Send test: the outcome in the row with htmx, delivered to the receiver, signed", async () => {
    await browser("/notifications/new", { form: webhookForm() });
    const response = await page(t, "/notifications/1/test", { cookie, form: {}, htmx: true });
    expect(response.status).toBe(200);
    expect(response.text).toStartWith('<tr id="notification-1">');
    expect(response.text).toContain('<span class="badge badge-ok">Test sent</span>');
    expect(response.text).toMatch(/data-label="Last sent"><time [^>]*>just now</);
    expect(receiver.delivered).toHaveLength(1);
    expect(receiver.delivered[0]!.headers["x-ddnsd-signature"]).toStartWith("sha256=");
    expect(receiver.delivered[0]!.headers["x-home"]).toBe("yes");
  });

  test("Send test that fails: said in the row and as a notice without JavaScript, with what to do", async () => {
    await browser("/notifications/new", { form: webhookForm() });
    receiver.fault({ status: 500 });
    const inPlace = await page(t, "/notifications/1/test", { cookie, form: {}, htmx: true });
    expect(inPlace.text).toContain('<span class="badge badge-fail">Test failed</span>');
    expect(inPlace.text).toContain(
      "Could not reach Webhook: its server answered with an error: &quot;error 500&quot; (HTTP 500). It is tried again with the next message; send a test later.",
    );
    expect(inPlace.text).toContain('<tr id="notification-1" class="row-failing">');
    const plain = await browser("/notifications/1/test", { form: {}, from: "/notifications" });
    expect([plain.status, plain.headers.get("location")]).toEqual([303, "/notifications"]);
    expect(await noticeAfter(plain, "/notifications")).toBe(
      "notice-fail: “Home hook”: the test message was not delivered. Could not reach Webhook: its server answered with an error: &quot;error 500&quot; (HTTP 500). It is tried again with the next message; send a test later.",
    );
    const list = await browser("/notifications");
    expect(list.text).toContain(
      '<td data-label="Last error" class="cell-message"><span>Could not reach Webhook: its server answered with an error: &quot;error 500&quot; (HTTP 500).</span>',
    );
    expect(list.text).toContain(
      '<td data-label="Events"><ul class="plain-list small"><li>A record now holds a new address</li></ul></td>',
    );
  });

  test("a receiver nobody answers at: could not reach it, in plain words, never the runtime's text", async () => {
    await t.request("POST", "/api/v1/notifications", {
      body: { name: "Gone", type: "webhook", options: { url: "http://127.0.0.1:9/hook" } },
    });
    const inPlace = await page(t, "/notifications/1/test", { cookie, form: {}, htmx: true });
    expect(inPlace.text).toContain(
      "Could not reach Webhook: request failed: nothing accepts connections at that address and port",
    );
    const list = (await browser("/notifications")).text;
    expect(list).toContain(
      "Could not reach Webhook: request failed: nothing accepts connections at that address and port",
    );
    for (const raw of ["ECONNREFUSED", "Is the computer able", "Unable to connect"]) {
      expect(inPlace.text).not.toContain(raw);
      expect(list).not.toContain(raw);
    }
  });

  test("all four events are listed as All events", async () => {
    await t.request("POST", "/api/v1/notifications", {
      body: { name: "Hook", type: "webhook", options: { url: `${receiver.url}/hook` } },
    });
    expect((await browser("/notifications")).text).toContain('<td data-label="Events"><span>All events</span></td>');
  });

  test("the switch turns it off and on, in place or back with a notice", async () => {
    await browser("/notifications/new", { form: webhookForm() });
    const off = await page(t, "/notifications/1/enabled", { cookie, form: { is_enabled: "false" }, htmx: true });
    expect(attributeValues(off.text, "button[role=switch]", "aria-checked")).toEqual(["false"]);
    expect((await t.request("GET", "/api/v1/notifications/1")).body.is_enabled).toBe(false);
    const on = await browser("/notifications/1/enabled", { form: { is_enabled: "true" }, from: "/notifications" });
    expect(await noticeAfter(on, "/notifications")).toBe(
      "notice-ok: Notification “Home hook” enabled: it sends messages again.",
    );
  });

  test("delete: through a confirmation page without JavaScript", async () => {
    await browser("/notifications/new", { form: webhookForm() });
    const unconfirmed = await browser("/notifications/1/delete", { form: {} });
    expect([unconfirmed.status, unconfirmed.headers.get("location")]).toEqual([303, "/notifications/1/delete"]);
    const confirm = await browser("/notifications/1/delete");
    expect(confirm.text).toContain("Nothing more is sent through it.");
    const confirmed = await browser("/notifications/1/delete", { form: { confirm: "yes" } });
    expect(await noticeAfter(confirmed, "/notifications")).toBe("notice-ok: Notification “Home hook” deleted.");
    expect((await t.request("GET", "/api/v1/notifications")).body).toEqual([]);
  });

  test("a vanished notification: 404 pages, and JSON for htmx", async () => {
    for (const path of ["/notifications/7/edit", "/notifications/7/delete"]) {
      const response = await browser(path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(response.text).toContain("Notification not found");
    }
    const test = await page(t, "/notifications/7/test", { cookie, form: {}, htmx: true });
    expect([test.status, JSON.parse(test.text)]).toEqual([404, { detail: "Notification not found" }]);
  });
});

describe("the domain form's IPv6 suffix", () => {
  let providerId: number;
  beforeEach(async () => {
    providerId = (await createProvider(t, { name: "Home" })).id;
  });

  const form = (fields: Record<string, string> = {}) =>
    domainForm(providerId, { domain_name: "nas.example.com", record_type: "AAAA", ...fields });

  test("stored for an AAAA record, shown again on edit", async () => {
    const response = await browser("/domains/new", {
      form: form({ ipv6_suffix: " ::1234:5678:9abc:def0 ", ipv6_prefix_length: "56" }),
    });
    expect(response.status).toBe(303);
    const domain = (await t.request("GET", "/api/v1/domains/1")).body;
    expect(domain.config).toMatchObject({ ipv6_suffix: "::1234:5678:9abc:def0", ipv6_prefix_length: 56 });
    const edit = await browser("/domains/1/edit");
    expect(attributeValues(edit.text, "#f-ipv6_suffix", "value")).toEqual(["::1234:5678:9abc:def0"]);
    expect(attributeValues(edit.text, "#f-ipv6_prefix_length", "value")).toEqual(["56"]);
    expect(edit.text).toContain("IPv6 of a host on your network (AAAA only)");
  });

  const INVALID: [string, Record<string, string>, string, string][] = [
    [
      "a suffix that is no IPv6 address",
      { ipv6_suffix: "1234" },
      "ipv6_suffix",
      "must be an IPv6 address such as ::1234:5678:9abc:def0",
    ],
    [
      "a suffix reaching into the prefix",
      { ipv6_suffix: "2001:db8::1" },
      "ipv6_suffix",
      "must leave the first 64 bits (the prefix) zero",
    ],
    [
      "a prefix length that is no number",
      { ipv6_suffix: "::1", ipv6_prefix_length: "sixty" },
      "ipv6_prefix_length",
      "must be a whole number of bits from 1 to 127",
    ],
    [
      "a prefix length out of range",
      { ipv6_suffix: "::1", ipv6_prefix_length: "128" },
      "ipv6_prefix_length",
      "must be a whole number of bits from 1 to 127",
    ],
    [
      "a prefix length without a suffix",
      { ipv6_prefix_length: "56" },
      "ipv6_suffix",
      "is required with config.ipv6_prefix_length",
    ],
  ];
  for (const [name, fields, input, message] of INVALID) {
    test(`refused next to its field: ${name}`, async () => {
      const response = await browser("/domains/new", { form: form(fields) });
      expect(response.status).toBe(200);
      expect(response.text).toContain(`id="f-${input}-error">${message}</p>`);
      expect(attributeValues(response.text, `#f-${input}`, "aria-invalid")).toEqual(["true"]);
      for (const [key, value] of Object.entries(fields))
        expect(attributeValues(response.text, `#f-${key}`, "value")).toEqual([value]);
      expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);
    });
  }

  test("ignored for an A record, and dropped when an AAAA record becomes A", async () => {
    const a = await browser("/domains/new", { form: form({ record_type: "A", ipv6_suffix: "::1" }) });
    expect(a.status).toBe(303);
    expect((await t.request("GET", "/api/v1/domains/1")).body.config.ipv6_suffix).toBeUndefined();
    await browser("/domains/new", { form: form({ domain_name: "pc.example.com", ipv6_suffix: "::1" }) });
    const changed = await browser("/domains/2/edit", {
      form: form({ domain_name: "pc.example.com", record_type: "A", ipv6_suffix: "::1" }),
    });
    expect(changed.status).toBe(303);
    const domain = (await t.request("GET", "/api/v1/domains/2")).body;
    expect([domain.record_type, domain.config.ipv6_suffix]).toEqual(["A", undefined]);
  });
});

describe("About and History", () => {
  test("About names where each family's address comes from", async () => {
    const response = await browser("/about");
    expect(response.text).toContain("IPv4: <code>web</code>");
    expect(response.text).toContain("IPv6: <code>interface:eth0</code>");
    expect(response.text).toContain(
      '<code>DDNS_IPV6_SOURCE</code></th><td class="cell-setting" lang="en">interface:eth0</td>',
    );
  });

  test("a pushed update is labelled Router push, not Schedule", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id);
    insertHistory(t, domain.id, { trigger: "push", ageMs: 2_000 });
    insertHistory(t, domain.id, { trigger: "schedule", ageMs: 1_000 });
    insertHistory(t, domain.id, { trigger: "manual" });
    const response = await browser(`/domains/${domain.id}/history`);
    expect(count(response.text, '<td data-label="Trigger">Router push</td>')).toBe(1);
    expect(count(response.text, '<td data-label="Trigger">Schedule</td>')).toBe(1);
    expect(count(response.text, '<td data-label="Trigger">Manual</td>')).toBe(1);
  });
});

describe("page ids are plain decimal digits, like the API's", () => {
  test("/domains/0x1/edit is no address of domain 1: an error page, and nothing changes", async () => {
    const provider = await createProvider(t, { name: "Home" });
    await createDomain(t, provider.id);
    await t.request("POST", "/api/v1/notifications", {
      body: { name: "Hook", type: "webhook", options: { url: `${receiver.url}/hook` } },
    });
    for (const id of ["0x1", "1e0", "+1", "01", "1.0", "%201"]) {
      for (const path of [
        `/domains/${id}/edit`,
        `/providers/${id}/edit`,
        `/notifications/${id}/edit`,
        `/domains/${id}/history`,
      ]) {
        const response = await browser(path);
        expect([path, response.status, response.headers.get("content-type")]).toEqual([
          path,
          422,
          "text/html; charset=utf-8",
        ]);
        expect(response.text).toContain("This address names nothing: the number in it is not one ddnsd gives.");
      }
      const post = await browser(`/domains/${id}/delete`, { form: { confirm: "yes" } });
      expect([id, post.status]).toEqual([id, 422]);
    }
    expect((await t.request("GET", "/api/v1/domains")).body).toHaveLength(1);
    expect((await browser("/domains/1/edit")).status).toBe(200);
    expect((await browser("/no-such-page")).status).toBe(404);
  });
});

describe("names from the user are text", () => {
  test("a hostile key or notification name is escaped in the lists, the rows, the confirmations and the notices", async () => {
    const hostile = `<img src=x onerror=alert(1)>"'`;
    await t.request("POST", "/api/v1/update-keys", { body: { name: hostile } });
    await t.request("POST", "/api/v1/notifications", {
      body: { name: hostile, type: "webhook", options: { url: `${receiver.url}/hook` } },
    });
    const pages = [
      await browser("/update-keys"),
      await browser("/update-keys/1/delete"),
      await browser("/notifications"),
      await browser("/notifications/1/edit"),
      await browser("/notifications/1/delete"),
      await page(t, "/notifications/1/test", { cookie, form: {}, htmx: true }),
      await page(t, "/notifications/1/enabled", { cookie, form: { is_enabled: "false" }, htmx: true }),
    ];
    for (const response of pages) {
      expect(response.status).toBe(200);
      // A real HTML parser finds no injected element (inside a quoted attribute, "<" is only text).
      expect(elementCount(response.text, "img")).toBe(0);
      expect(response.text).not.toContain('"\'"');
    }
    expect(pages[0]!.text).toContain("&lt;img src=x onerror=alert(1)&gt;");
    const deleted = await browser("/notifications/1/delete", { form: { confirm: "yes" } });
    expect(await noticeAfter(deleted, "/notifications")).toContain("&lt;img src=x");
    expect(attributeValues(pages[0]!.text, "#update-key-1 button", "aria-label")).toEqual([
      `Delete update key ${hostile}`,
    ]);
  });
});
