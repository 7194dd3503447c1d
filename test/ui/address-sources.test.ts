// The About page's address sources form, as a browser without JavaScript posts it and as htmx does:
// the choice stored and shown, a bad value shown next to its field with what was typed kept and
// nothing stored, and "the environment's setting" as the default and the reset.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { effectiveSource } from "../../src/updater/address-source";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  // Saving detects again at once: every echo service named here is a closed local port, never the internet.
  t = await makeTestApp({
    DDNS_IPV6_SOURCE: "interface:ppp7",
    DDNS_ALLOW_PRIVATE_IPS: "true",
    DDNS_IPV4_URLS: CLOSED_V4,
    DDNS_IPV6_URLS: CLOSED_V6,
  });
  cookie = await signIn(t);
});

afterAll(() => t.ctx.sqlite.close());

const CLOSED_V4 = "http://127.0.0.1:9/v4";
const CLOSED_V6 = "http://127.0.0.1:9/v6";

function form(ipv4: [string, string], ipv6: [string, string]): Record<string, string> {
  return { ipv4_source: ipv4[0], ipv4_urls: ipv4[1], ipv6_source: ipv6[0], ipv6_urls: ipv6[1] };
}

describe.each([
  ["without JavaScript", false],
  ["with htmx", true],
])("the address sources form %s", (_, htmx) => {
  test("defaults to the environment's setting; lists the interfaces with their addresses", async () => {
    const about = await page(t, "/about", { cookie });
    expect(about.status).toBe(200);
    expect(about.text).toContain('<option value="environment" selected>The environment&#x27;s setting (web)</option>');
    expect(about.text).toContain(
      '<option value="environment" selected>The environment&#x27;s setting (interface:ppp7)</option>',
    );
    // lo is on every Linux host; private addresses are allowed here, so its 127.0.0.1 is listed.
    expect(about.text).toMatch(/<option value="interface:lo">Interface lo — 127\.0\.0\.1[^<]*<\/option>/);
    expect(about.text).toContain("IPv6: <code>interface:ppp7</code>");
  });

  test("a choice is stored, wins over the environment, is shown, and the environment's setting resets it", async () => {
    const saved = await page(t, "/about/address-sources", {
      cookie,
      htmx,
      form: form(["interface:lo", ""], ["web", "http://127.0.0.1:9/a\n http://[::1]:9/b"]),
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe("/about");
    expect(effectiveSource(t.ctx, 4)).toMatchObject({ source: { kind: "interface", name: "lo" }, from: "database" });
    expect(effectiveSource(t.ctx, 6)).toEqual({
      source: { kind: "web" },
      urls: ["http://127.0.0.1:9/a", "http://[::1]:9/b"],
      from: "database",
    });

    const about = await page(t, "/about", { cookie: `${cookie}; ${saved.headers.get("set-cookie")!.split(";")[0]}` });
    expect(about.text).toContain("Address sources saved");
    expect(about.text).toMatch(/<option value="interface:lo" selected>/);
    expect(about.text).toContain('<option value="web" selected>');
    expect(about.text).toContain("http://127.0.0.1:9/a\nhttp://[::1]:9/b</textarea>");
    expect(about.text).toContain(
      'IPv4: <code>interface:lo</code> <span class="muted">(read from the network interface lo; chosen below)</span>',
    );

    const reset = await page(t, "/about/address-sources", {
      cookie,
      htmx,
      form: form(["environment", ""], ["environment", CLOSED_V6]),
    });
    expect(reset.status).toBe(303);
    expect(effectiveSource(t.ctx, 4).from).toBe("environment");
    expect(effectiveSource(t.ctx, 6)).toMatchObject({
      source: { kind: "interface", name: "ppp7" },
      from: "environment",
    });
  });

  test("a bad value comes back next to its field, what was typed kept, and nothing is stored", async () => {
    for (const [fields, name, words, kept] of [
      [
        form(["web", "ftp://example.net/ip"], ["environment", ""]),
        "ipv4_urls",
        "expected http(s) URLs, one a line, got &quot;ftp://example.net/ip&quot;",
        "ftp://example.net/ip</textarea>",
      ],
      [
        form(["web", "  "], ["environment", ""]),
        "ipv4_urls",
        "name at least one http(s) URL of an echo service",
        '<option value="web" selected>',
      ],
      [
        form(["interface:lo", ""], ["interface:no/such", ""]),
        "ipv6_source",
        "expected web, dns or interface:&lt;name&gt;",
        "Interface no/such — not found on this machine now",
      ],
      // An interface that cannot give an address is refused, never saved with a green notice.
      [
        form(["environment", ""], ["interface:nosuch0", ""]),
        "ipv6_source",
        "this machine has no interface named nosuch0 now",
        "Interface nosuch0 — not found on this machine now",
      ],
    ] as const) {
      const response = await page(t, "/about/address-sources", { cookie, htmx, form: fields });
      expect(response.status).toBe(200);
      expect(response.text).toContain(`<p class="field-error" id="f-${name}-error">${words}`);
      expect(response.text).toMatch(new RegExp(`id="f-${name}"[^>]*aria-invalid="true"`));
      expect(response.text).toContain(kept);
      expect(effectiveSource(t.ctx, 4).from).toBe("environment");
      expect(effectiveSource(t.ctx, 6).from).toBe("environment");
    }
  });
});

test("the echo URLs are shown only while “Web services” is chosen (the field the other choices ignore)", async () => {
  const about = await page(t, "/about", { cookie });
  expect(attributeValues(about.text, ".echo-urls textarea", "name")).toEqual(["ipv4_urls", "ipv6_urls"]);
  const css = await page(t, attributeValues(about.text, "link[rel=stylesheet]", "href")[0]!, { cookie });
  expect(css.text).toContain('fieldset:has(select option[value="web"]:not(:checked)) .echo-urls');
});

test("posting needs a session and the same origin", async () => {
  const anonymous = await page(t, "/about/address-sources", { form: form(["interface:lo", ""], ["environment", ""]) });
  expect(anonymous.status).toBe(303);
  expect(anonymous.headers.get("location")).toStartWith("/login");
  const foreign = await page(t, "/about/address-sources", {
    cookie,
    form: form(["interface:lo", ""], ["environment", ""]),
    headers: { origin: "https://evil.example" },
  });
  expect(foreign.status).toBe(403);
  expect(effectiveSource(t.ctx, 4).from).toBe("environment");
});
