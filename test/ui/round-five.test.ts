// The fifth round's smaller things over HTTP: a new notification starts as ntfy (what a home user
// most likely uses) and can be tried before it is saved, About offers the backup and the export to
// the admin, and the update keys' domains are chosen by name with a search.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDomain, createProvider, resetData } from "../api/helpers";
import { type NotifyFake, NTFY_TOKEN, startNtfyFake } from "../fakes/notify";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;
let ntfy: NotifyFake;

beforeAll(async () => {
  ntfy = startNtfyFake();
  t = await makeTestApp();
  cookie = await signIn(t);
});
afterAll(async () => {
  await ntfy.stop();
});
beforeEach(() => {
  resetData(t);
  t.ctx.sqlite.exec("DELETE FROM notifications");
  ntfy.delivered.length = 0;
});

const ntfyForm = (token: string) => ({
  name: "Phone",
  type: "ntfy",
  option_url: `${ntfy.url}/home-alerts`,
  option_token: token,
  events: "update_failed",
  is_enabled: "on",
});

describe("a new notification", () => {
  test("starts as ntfy, not a webhook", async () => {
    const html = (await page(t, "/notifications/new", { cookie })).text;
    expect(attributeValues(html, "#f-type option[selected]", "value")).toEqual(["ntfy"]);
    // A type asked for in the address still wins.
    const asked = (await page(t, "/notifications/new?type=webhook", { cookie })).text;
    expect(attributeValues(asked, "#f-type option[selected]", "value")).toEqual(["webhook"]);
  });

  test("Send a test tries the form's settings before saving and saves nothing", async () => {
    const sent = await page(t, "/notifications/new", { cookie, form: { ...ntfyForm(NTFY_TOKEN), send_test: "1" } });
    expect(sent.status).toBe(200);
    expect(sent.text).toContain("Test sent");
    expect(ntfy.delivered).toHaveLength(1);
    // What was typed comes back, the secret excepted.
    expect(attributeValues(sent.text, "#f-option_url", "value")).toEqual([`${ntfy.url}/home-alerts`]);
    expect(sent.text).not.toContain(NTFY_TOKEN);
    const refused = await page(t, "/notifications/new", {
      cookie,
      form: { ...ntfyForm("tk_wrongtoken0000000000000000"), send_test: "1" },
    });
    expect(refused.text).toContain("Test failed");
    expect(refused.text).toContain("refused the credentials");
    expect((await t.request("GET", "/api/v1/notifications")).body).toEqual([]);
  });

  test("on the edit form, a kept secret is tried as stored", async () => {
    const saved = await page(t, "/notifications/new", { cookie, form: ntfyForm(NTFY_TOKEN) });
    expect(saved.status).toBe(303);
    const [notification] = (await t.request("GET", "/api/v1/notifications")).body as { id: number }[];
    const sent = await page(t, `/notifications/${notification!.id}/edit`, {
      cookie,
      form: { ...ntfyForm(""), send_test: "1" },
    });
    expect(sent.text).toContain("Test sent");
    expect(ntfy.delivered.at(-1)?.headers.authorization).toBe(`Bearer ${NTFY_TOKEN}`);
  });
});

describe("About: backup and export", () => {
  test("the export downloads the configuration file; signed out it leads to sign-in", async () => {
    await createProvider(t, { name: "Cloudflare (home)" });
    const about = (await page(t, "/about", { cookie })).text;
    expect(attributeValues(about, "a[download]", "href")).toEqual(["/about/export"]);
    // In memory: no file to back up, so no button.
    expect(attributeValues(about, 'form[action="/about/backup"]', "method")).toEqual([]);
    const exported = await page(t, "/about/export", { cookie });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toBe('attachment; filename="ddnsd.yaml"');
    expect(exported.text).toContain("Cloudflare (home)");
    expect((await page(t, "/about/export")).status).toBe(303);
  });

  test("the backup is a copy of the database, downloaded and kept in backups/", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ddnsd-about-"));
    const onDisk = await makeTestApp({ DDNS_DATA_DIR: dataDir }, dataDir);
    try {
      const session = await signIn(onDisk);
      const about = (await page(onDisk, "/about", { cookie: session })).text;
      expect(attributeValues(about, 'form[action="/about/backup"]', "method")).toEqual(["post"]);
      const response = await onDisk.app.handle(
        new Request("http://localhost/about/backup", {
          method: "POST",
          headers: { cookie: session, origin: "http://localhost" },
        }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="ddnsd-\w+-page-backup\.db"$/);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(new TextDecoder().decode(bytes.slice(0, 15))).toBe("SQLite format 3");
      expect(readdirSync(join(dataDir, "backups")).some((name) => name.endsWith("-page-backup.db"))).toBe(true);
    } finally {
      onDisk.ctx.sqlite.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("update keys: domains chosen by name", () => {
  test("one tick box a name, its A and AAAA together, and the key covers both", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const a = await createDomain(t, provider.id, { domain_name: "home.example.com", record_type: "A" });
    const aaaa = await createDomain(t, provider.id, { domain_name: "home.example.com", record_type: "AAAA" });
    const other = await createDomain(t, provider.id, { domain_name: "cam.example.com", record_type: "A" });
    const html = (await page(t, "/update-keys", { cookie })).text;
    expect(attributeValues(html, "[data-domain-choices] input[name=domain_ids]", "value")).toEqual([
      String(other.id),
      `${a.id},${aaaa.id}`,
    ]);
    expect(html).toContain("home.example.com (A, AAAA) at Home");
    // The search field, shown by the page's script.
    expect(attributeValues(html, "input[data-domain-search]", "type")).toEqual(["search"]);
    const created = await page(t, "/update-keys", {
      cookie,
      form: { name: "FRITZ!Box", scope: "chosen", domain_ids: `${a.id},${aaaa.id}` },
    });
    expect(created.status).toBe(200);
    const [key] = (await t.request("GET", "/api/v1/update-keys")).body as { domain_ids: number[] }[];
    expect(key!.domain_ids.sort()).toEqual([a.id, aaaa.id].sort());
  });
});
