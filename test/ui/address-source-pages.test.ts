// The address sources in the admin pages: the domain form's "Address from" field (each choice with
// what it gives now, a fixed address stored from its own field, a refusal beside the field), each
// dashboard row saying where its address comes from (a stale push marked), and the address card
// with each source's own answer — and the real cause when nothing is found, even with no domain.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { createDomain, createProvider, resetData } from "../api/helpers";
import { type EchoFake, startEchoFake } from "../fakes/echo";
import { waitFor } from "../fakes/server";
import { startWhoamiDnsFake, type WhoamiDnsFake } from "../fakes/whoami-dns";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, domainForm, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;
let echo: EchoFake;
let whoami: WhoamiDnsFake;

beforeAll(async () => {
  echo = startEchoFake();
  whoami = await startWhoamiDnsFake();
  // The echo services and the resolvers answer, and fail, as the test says; interfaces are whatever this machine has.
  t = await makeTestApp({
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    DDNS_IPV6_URLS: `${echo.url}/v6`,
    DDNS_IPV4_DNS: `myip.example.test/A@${whoami.server}`,
    DDNS_IPV6_DNS: `myip.example.test/AAAA@${whoami.server}`,
    DDNS_PUSH_STALE_AFTER: "1h",
  });
  cookie = await signIn(t);
});
beforeEach(() => {
  resetData(t);
  echo.reset();
  whoami.reset();
  t.ctx.publicIp.answers.clear();
  t.ctx.publicIp.failures.ipv4 = t.ctx.publicIp.failures.ipv6 = null;
  t.ctx.publicIp.ipv4 = t.ctx.publicIp.ipv6 = t.ctx.publicIp.checkedAt = null;
});
afterAll(async () => {
  await echo.stop();
  await whoami.stop();
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

  test("an interface that is not there, or has no public address of the family, is refused beside the field and nothing changes", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const added = await page(t, "/domains/new", {
      cookie,
      form: domainForm(provider.id, { domain_name: "wan.example.com", address_source: "interface:nosuch0" }),
    });
    expect(added.status).toBe(200);
    expect(added.text).toContain('id="f-address_source-error">this machine has no interface named nosuch0 now');
    expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);

    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com" });
    const edited = await page(t, `/domains/${domain.id}/edit`, {
      cookie,
      form: domainForm(provider.id, { address_source: "interface:lo", cron_schedule: "*/5 * * * *" }),
    });
    expect(edited.status).toBe(200);
    expect(edited.text).toContain('id="f-address_source-error">interface lo has no public (global) IPv4 address now');
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).body).toMatchObject({
      address_source: null,
      cron_schedule: null,
    });
  });
});

describe("the domain form's Ask now", () => {
  afterEach(() => {
    setSystemTime();
  });

  /** The text of the option whose value is `value`. */
  function optionText(html: string, value: string): string {
    const at = html.indexOf(`<option value="${value}"`);
    return html.slice(html.indexOf(">", at) + 1, html.indexOf("</option>", at)).replaceAll("&#x27;", "'");
  }

  test("without JavaScript: the form comes back as it was sent, nothing saved, with the echo services' answer; asked again only after a minute, once for forms asking together", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const fresh = await page(t, "/domains/new", { cookie });
    expect(optionText(fresh.text, "web")).toBe("Echo services on the web — not asked yet");
    expect(attributeValues(fresh.text, 'button[name="ask_source"]', "value")).toEqual(["web", "dns"]);

    const sent = domainForm(provider.id, {
      domain_name: "typed.example.com",
      address_source: "dns",
      ask_source: "web",
    });
    const asked = await page(t, "/domains/new", { cookie, form: sent });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain(`The echo services give <code class="ip">${echo.ipv4}</code> (asked just now).`);
    expect(optionText(asked.text, "web")).toBe(`Echo services on the web — now ${echo.ipv4}`);
    expect(optionText(asked.text, "")).toBe(`The system's source (web) — now ${echo.ipv4}`);
    expect(attributeValues(asked.text, "#f-address_source option[selected]", "value")).toEqual(["dns"]);
    expect(attributeValues(asked.text, "#f-domain_name", "value")).toEqual(["typed.example.com"]);
    expect((await t.request("GET", "/api/v1/domains")).body).toEqual([]);
    expect(echo.hits("/v4")).toBe(1);

    // Asked again within the minute: the same answer, said to be as old as it is; no new request.
    setSystemTime(new Date(Date.now() + 30_000));
    const again = await page(t, "/domains/new", { cookie, form: sent });
    expect(again.text).toContain(`The echo services give <code class="ip">${echo.ipv4}</code> (asked 30 s ago).`);
    expect(echo.hits("/v4")).toBe(1);

    setSystemTime(new Date(Date.now() + 61_000));
    echo.ipv4 = "185.103.110.199";
    const later = await page(t, "/domains/new", { cookie, form: sent });
    expect(later.text).toContain('The echo services give <code class="ip">185.103.110.199</code> (asked just now).');
    expect(echo.hits("/v4")).toBe(2);

    // Two forms asking while the echo service is slow to answer share its one answer.
    setSystemTime(new Date(Date.now() + 61_000));
    echo.fault({ delayMs: 300 });
    const both = await Promise.all([1, 2].map(() => page(t, "/domains/new", { cookie, form: sent })));
    for (const answer of both)
      expect(answer.text).toContain('<code class="ip">185.103.110.199</code> (asked just now)');
    expect(echo.hits("/v4")).toBe(3);
  });

  test("with htmx: only the answer and the choices (swapped out of band, the choice kept); a failure in plain words; the record type's family", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const domain = await createDomain(t, provider.id, { domain_name: "home.example.com", address_source: "push" });
    t.ctx.sqlite.query("UPDATE domains SET pushed_ip = '81.2.69.180' WHERE id = ?").run(domain.id);
    whoami.refusing = true;
    const failing = await page(t, `/domains/${domain.id}/edit`, {
      cookie,
      htmx: true,
      form: domainForm(provider.id, { address_source: "push", ask_source: "dns" }),
    });
    expect(failing.status).toBe(200);
    expect(failing.text).not.toContain("<form");
    expect(failing.text).toStartWith('<p class="help source-ask-failing" data-asked="dns">');
    expect(failing.text).toContain(
      `The DNS resolvers give no IPv4 address (asked just now): <span lang="en">IPv4 detection failed: dns:myip.example.test/A@${whoami.server}: REFUSED</span>`,
    );
    expect(attributeValues(failing.text, "select", "hx-swap-oob")).toEqual(["true"]);
    expect(optionText(failing.text, "dns")).toBe("DNS resolvers — failing now");
    expect(optionText(failing.text, "push")).toBe("Router pushes only — last pushed 81.2.69.180");
    expect(attributeValues(failing.text, "#f-address_source option[selected]", "value")).toEqual(["push"]);
    expect((await t.request("GET", `/api/v1/domains/${domain.id}`)).body.address_source).toBe("push");

    whoami.refusing = false;
    const v6 = await page(t, `/domains/${domain.id}/edit`, {
      cookie,
      htmx: true,
      form: domainForm(provider.id, { record_type: "AAAA", address_source: "", ask_source: "dns" }),
    });
    expect(v6.text).toContain(`The DNS resolvers give <code class="ip">${whoami.ipv6}</code>`);
    expect(optionText(v6.text, "dns")).toBe(`DNS resolvers — now ${whoami.ipv6}`);
    expect(whoami.asked.map((question) => question.type)).toEqual([1, 28]);
    // What was asked shows on the dashboard's address card like any answer.
    expect(t.ctx.publicIp.answers.get("6 dns")?.ip).toBe(whoami.ipv6);
  });
});

describe("the dashboard", () => {
  test("each row says where its address comes from, and a push-only record gone quiet is marked stale", async () => {
    const provider = await createProvider(t, { name: "Home" });
    await createDomain(t, provider.id, { domain_name: "sys.example.com" });
    const wan = await createDomain(t, provider.id, { domain_name: "wan.example.com" });
    // Stored as if wan1 had had a public address when it was chosen: this machine has no such interface.
    t.ctx.sqlite.query("UPDATE domains SET address_source = 'interface:wan1' WHERE id = ?").run(wan.id);
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
      `<code class="ip ip4">${echo.ipv4}</code> <span class="muted">since`,
    );

    resetData(t);
    t.ctx.publicIp.answers.clear();
    t.ctx.publicIp.ipv4 = null;
    echo.fault({ status: 503 });
    await page(t, "/", { cookie });
    await waitFor(() => t.ctx.publicIp.answers.get("4 web")?.error != null, 10_000, "the failed answer");
    const failing = await page(t, "/", { cookie });
    // The real cause, in the banner above the card (the appliance's problem), which the card leads to.
    expect(failing.text).toContain(`Cause: <span>${echo.url}/v4: HTTP 503`);
    expect(failing.text).toContain('not found: <a href="#box-detection-0">see above</a>');
  });
});
