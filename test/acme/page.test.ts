// The Certificate keys admin page (docs/certificates.md): a key made there shows its password once,
// the list never again; a domain at a service without TXT is refused on the form, naming the service.

import { expect, test } from "bun:test";
import { CLOUDFLARE_FAKE_TOKEN, startCloudflareFake } from "../fakes/cloudflare";
import { makeTestApp } from "../support";
import { page, signIn } from "../ui/helpers";

test("a certificate key made on the page is shown once; a domain at Dynu is refused, naming it", async () => {
  const cf = startCloudflareFake();
  try {
    const t = await makeTestApp({ DDNS_CLOUDFLARE_API_URL: cf.url });
    const cloudflare = await t.request("POST", "/api/v1/providers", {
      body: { name: "cf", type: "cloudflare", credentials: { api_token: CLOUDFLARE_FAKE_TOKEN } },
    });
    const dynu = await t.request("POST", "/api/v1/providers", {
      body: { name: "dynu", type: "dynu", credentials: { api_key: "dynu-key-0123456789" } },
    });
    const home = await t.request("POST", "/api/v1/domains", {
      body: { provider_id: cloudflare.body.id, domain_name: "home.example.com", record_type: "A" },
    });
    const other = await t.request("POST", "/api/v1/domains", {
      body: { provider_id: dynu.body.id, domain_name: "home.example.org", record_type: "A" },
    });
    const cookie = await signIn(t);
    expect((await page(t, "/acme-keys", { cookie })).text).toContain("No certificate keys yet.");
    const refused = await page(t, "/acme-keys", { cookie, form: { name: "proxy", domain_ids: String(other.body.id) } });
    expect(refused.text).toContain("home.example.org is at Dynu, which cannot hold TXT records");
    const made = await page(t, "/acme-keys", { cookie, form: { name: "proxy", domain_ids: String(home.body.id) } });
    expect(made.status).toBe(200);
    const password = /id="new-acme-password"[^>]*value="([A-Za-z0-9_-]{43})"/.exec(made.text)?.[1];
    expect(password).toBeDefined();
    expect(made.text).toContain("_acme-challenge.home.example.com");
    const listed = await page(t, "/acme-keys", { cookie });
    expect(listed.text).toContain("home.example.com");
    expect(listed.text).not.toContain(password!);
    const deleted = await page(t, `/acme-keys/1/delete`, { cookie, form: { confirm: "yes" } });
    expect(deleted.status).toBe(303);
    expect(t.ctx.store.acme.listKeys()).toEqual([]);
  } finally {
    await cf.stop();
  }
});
