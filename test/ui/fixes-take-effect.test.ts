// Fixes take effect at once, over HTTP against the Cloudflare fake: saving credentials the service
// accepts tries the provider's failing domains again in the same request, and the notice says how
// it went; a refused save tries nothing; saving a failing domain tries it again; the provider form
// reached from a failure shows that failure.

import { describe, expect, test } from "bun:test";
import { addDomain, addProvider, forceUpdate, NEXT_IPV4, useRig } from "../updater/harness";
import { domainForm, noticeShown, page, signIn } from "./helpers";

const rig = useRig();

const noticeAfter = (cookie: string, response: { headers: Headers }, path: string) =>
  noticeShown(rig().t, cookie, response, path);

/** A Cloudflare provider whose token the fake stopped accepting, with a domain failing because of it. */
async function revokedProvider() {
  const { t, cf, echo } = rig();
  cf.addZone("example.com");
  echo.ipv4 = NEXT_IPV4;
  const provider = await addProvider(t, "cloudflare", { name: "Home", credential: "cf-old-token-0123456789abcdef" });
  const domain = await addDomain(t, provider.id, "home.example.com");
  expect((await forceUpdate(t, domain.id)).status).toBe(502);
  expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).body.last_update_status).toBe("FAILED");
  return { provider, domain };
}

const editForm = (token: string) => ({
  name: "Home",
  type: "cloudflare",
  credential_api_token: token,
  is_enabled: "on",
});

describe("fixes take effect", () => {
  test("the provider form reached from a failure shows it, and saving accepted credentials retries the failing domain at once", async () => {
    const { t, cf } = rig();
    const cookie = await signIn(t);
    const { provider, domain } = await revokedProvider();
    const form = await page(t, `/providers/${provider.id}/edit`, { cookie });
    expect(form.text).toContain("1 domain is failing at this provider");
    expect(form.text).toContain(`<a href="/domains/${domain.id}/history">home.example.com (A)</a>`);

    const saved = await page(t, `/providers/${provider.id}/edit`, {
      cookie,
      form: editForm("cf-fake-token-0123456789abcdef"),
    });
    expect(saved.status).toBe(303);
    // Written in the save's own request: the record holds the address and the domain is OK before any scheduled run.
    expect(cf.record("home.example.com", "A")?.content).toBe(NEXT_IPV4);
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).body.last_update_status).toBe("SUCCESS");
    expect(await noticeAfter(cookie, saved, "/providers")).toMatch(
      /^notice-ok: Provider “Home” saved; the service accepted its credentials .*\. 1 failing domain tried again: it is OK now\.$/,
    );
    expect((await page(t, `/providers/${provider.id}/edit`, { cookie })).text).not.toContain(
      "failing at this provider",
    );
  });

  test("credentials the service refuses try nothing again", async () => {
    const { t, cf } = rig();
    const cookie = await signIn(t);
    const { provider, domain } = await revokedProvider();
    const before = cf.requests.length;
    const saved = await page(t, `/providers/${provider.id}/edit`, {
      cookie,
      form: editForm("cf-still-wrong-0123456789abcdef"),
    });
    expect(saved.status).toBe(303);
    // Only the credential check went to the service.
    expect(cf.requests.slice(before).map((r) => r.path)).toEqual(["/user/tokens/verify"]);
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).body.last_update_status).toBe("FAILED");
    expect(await noticeAfter(cookie, saved, "/providers")).not.toContain("tried again");
  });

  test("saving a failing domain tries it again and says how it went", async () => {
    const { t, cf } = rig();
    const cookie = await signIn(t);
    const { provider, domain } = await revokedProvider();
    cf.tokens.add("cf-old-token-0123456789abcdef");
    const saved = await page(t, `/domains/${domain.id}/edit`, {
      cookie,
      form: domainForm(provider.id),
    });
    expect(saved.status).toBe(303);
    expect(cf.record("home.example.com", "A")?.content).toBe(NEXT_IPV4);
    expect(await noticeAfter(cookie, saved, "/domains")).toBe(
      "notice-ok: home.example.com saved. 1 failing domain tried again: it is OK now.",
    );
  });
});
