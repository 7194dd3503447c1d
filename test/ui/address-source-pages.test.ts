// The address sources in the admin pages: the domain form's "Address from" field (each choice with
// what it gives now, a fixed address stored from its own field, a refusal beside the field), each
// dashboard row saying where its address comes from (a stale push marked), and the address card
// with each source's own answer — and the real cause when nothing is found, even with no domain.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createDomain, createProvider, resetData } from "../api/helpers";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { waitFor } from "../fakes/server";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, domainForm, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;
let echo: EchoFake;

beforeAll(async () => {
  echo = startEchoFake();
  // The echo services answer, and fail, as the test says; interfaces are whatever this machine has.
  t = await makeTestApp({
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    DDNS_IPV6_URLS: `${echo.url}/v6`,
    DDNS_PUSH_STALE_AFTER: "1h",
  });
  cookie = await signIn(t);
});
beforeEach(() => {
  resetData(t);
  echo.reset();
  t.ctx.publicIp.answers.clear();
  t.ctx.publicIp.failures.ipv4 = t.ctx.publicIp.failures.ipv6 = null;
  t.ctx.publicIp.ipv4 = t.ctx.publicIp.ipv6 = t.ctx.publicIp.checkedAt = null;
});
afterAll(async () => {
  await echo.stop();
});

describe("the domain form", () => {
  test("offers every source, each with what it gives now; a fixed address is stored from its own field", async () => {
    const provider = await createProvider(t, { name: "Home" });
    await t.ctx.scheduler.runPass(); // nothing due: no answer known yet
    const form = await page(t, "/domains/new", { cookie });
    const options = attributeValues(form.text, "#f-address_source option", "value");
    expect(options.slice(0, 3)).toEqual(["", "web", "dns"]);
    expect(options.slice(-2)).toEqual(["push", "fixed"]);
    expect(options.some((value) => value.startsWith("interface:"))).toBe(true);
    expect(form.text).toContain("Echo services on the web — not asked yet");
    expect(form.text).toContain("Router pushes only — none pushed yet");

    const saved = await page(t, "/domains/new", {
      cookie,
      form: domainForm(provider.id, { address_source: "fixed", fixed_address: "81.2.69.160" }),
    });
    expect(saved.status).toBe(303);
    const [domain] = (await t.request("GET", "/api/v1/domains")).body;
    expect(domain.address_source).toBe("fixed:81.2.69.160");
    const edit = await page(t, `/domains/${domain.id}/edit`, { cookie });
    expect(attributeValues(edit.text, "#f-address_source option[selected]", "value")).toEqual(["fixed"]);
    expect(attributeValues(edit.text, "#f-fixed_address", "value")).toEqual(["81.2.69.160"]);
  });

  test("an answer already known is shown; a private fixed address is refused beside the field and nothing is stored", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    await t.ctx.scheduler.runPass({ all: true });
    const form = await page(t, `/domains/${domain.id}/edit`, { cookie });
    expect(form.text).toContain(`Echo services on the web — now ${echo.ipv4}`);
    expect(form.text).toContain(`The system&#x27;s source (web) — now ${echo.ipv4}`);
    const refused = await page(t, `/domains/${domain.id}/edit`, {
      cookie,
      form: domainForm(provider.id, { address_source: "fixed", fixed_address: "192.168.1.1" }),
    });
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('id="f-address_source-error">192.168.1.1 is not a globally routable address');
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).body.address_source).toBeNull();
  });
});

describe("the dashboard", () => {
  test("each row says where its address comes from, and a push-only record gone quiet is marked stale", async () => {
    const provider = await createProvider(t, { name: "Home" });
    await createDomain(t, provider.id, { domain_name: "sys.example.com" });
    await createDomain(t, provider.id, { domain_name: "wan.example.com", address_source: "interface:wan1" });
    const pushed = await createDomain(t, provider.id, { domain_name: "router.example.com", address_source: "push" });
    const fresh = await page(t, "/", { cookie });
    expect(fresh.text).toContain("from echo services (the system&#x27;s source)");
    expect(fresh.text).toContain("from interface wan1");
    expect(fresh.text).toContain("from router push");
    expect(fresh.text).not.toContain("stale:");
    t.ctx.sqlite.query("UPDATE domains SET created_at = ? WHERE id = ?").run(Date.now() - 2 * 3600_000, pushed.id);
    const later = await page(t, "/", { cookie });
    expect(later.text).toContain("stale: never pushed");
  });

  test("a detection outage marks only the records that depend on the failing source: a fixed one stays checked", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const system = await createDomain(t, provider.id, { domain_name: "sys.example.com" });
    const fixed = await createDomain(t, provider.id, {
      domain_name: "fixed.example.com",
      address_source: "fixed:81.2.69.160",
    });
    echo.fault({ status: 503 });
    await t.ctx.scheduler.runPass({ all: true });
    const html = (await page(t, "/", { cookie })).text;
    const row = (id: number) =>
      html.slice(html.indexOf(`<tr id="domain-${id}">`), html.indexOf("</tr>", html.indexOf(`<tr id="domain-${id}">`)));
    expect(row(system.id)).toContain("Not checked");
    expect(row(fixed.id)).not.toContain("Not checked");
  });

  test("with no domain at all the card asks the system's source and lists its answer, or the real cause when it fails", async () => {
    const first = await page(t, "/", { cookie });
    expect(first.status).toBe(200);
    await waitFor(() => t.ctx.publicIp.answers.size >= 2, 10_000, "both families asked");
    const answered = await page(t, "/", { cookie });
    expect(answered.text).toContain('data-source="4 web"');
    expect(answered.text.replaceAll("<wbr>", "")).toContain(
      `<code class="ip">${echo.ipv4}</code> <span class="muted">since`,
    );

    resetData(t);
    t.ctx.publicIp.answers.clear();
    t.ctx.publicIp.ipv4 = null;
    echo.fault({ status: 503 });
    await page(t, "/", { cookie });
    await waitFor(() => t.ctx.publicIp.answers.get("4 web")?.error != null, 10_000, "the failed answer");
    const failing = await page(t, "/", { cookie });
    expect(failing.text).toContain(`not found: IPv4 detection failed: ${echo.url}/v4: HTTP 503`);
  });
});
