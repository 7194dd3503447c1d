// The fourth round's smaller things over HTTP: words a home user can act on (a schedule in plain
// words, an address pasted as a hostname), the About page listing the settings someone set rather
// than dozens at their defaults, its log wrapping and refreshing, heartbeat channels without the
// event boxes that do nothing for them, and addresses that stay on one line on a laptop.

import { beforeAll, describe, expect, test } from "bun:test";
import { SERVICES } from "../../src/dns/registry";
import { maskSecret } from "../../src/security/secrets";
import { settingsInEffect } from "../../src/ui/settings";
import { createProvider } from "../api/helpers";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, domainForm, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;
let css: string;

beforeAll(async () => {
  t = await makeTestApp({ DDNS_PORKBUN_API_URL: "http://127.0.0.1:9/porkbun-moved" });
  cookie = await signIn(t);
  const about = await page(t, "/about", { cookie });
  css = (await page(t, attributeValues(about.text, "link[rel=stylesheet]", "href")[0]!, { cookie })).text;
});

describe("words a home user can act on", () => {
  test("a schedule typed in words gets the expression that says it", async () => {
    const provider = await createProvider(t, { name: "Home" });
    const response = await page(t, "/domains/new", {
      cookie,
      form: domainForm(provider.id, { cron_schedule: "every 10 minutes" }),
    });
    expect(response.text).toContain(
      "write the schedule as a cron expression: &quot;*/10 * * * *&quot; runs every 10 minutes",
    );
    expect(response.text).not.toContain("got 3");
  });

  test("an address pasted as the hostname: drop the http:// and the path", async () => {
    const provider = await createProvider(t, { name: "Home 2" });
    const response = await page(t, "/domains/new", {
      cookie,
      form: domainForm(provider.id, { domain_name: "http://myhome.example.com/" }),
    });
    expect(response.text).toContain(
      "is an address, not a hostname: drop the &quot;http://&quot; and anything after the name, e.g. myhome.example.com",
    );
  });

  test("a service's help shows commands as code, never with literal backticks", async () => {
    const form = (await page(t, "/providers/new?type=rfc2136", { cookie })).text;
    expect(form).toContain("<code>tsig-keygen -a hmac-sha256 ddnsd-key</code>");
    expect(form).not.toContain("`");
  });

  test("a duplicate domain says what to do, not an id", async () => {
    const provider = await createProvider(t, { name: "Home 3" });
    await page(t, "/domains/new", { cookie, form: domainForm(provider.id, { domain_name: "dup.example.com" }) });
    const again = await page(t, "/domains/new", {
      cookie,
      form: domainForm(provider.id, { domain_name: "dup.example.com" }),
    });
    expect(again.text).toContain("dup.example.com A is already configured on this provider: edit that domain instead");
    expect(again.text).not.toContain("(domain ");
  });
});

describe("a Google Cloud key", () => {
  test("is pasted into a box that holds a JSON file, and masked as what it is, not by its last characters", async () => {
    const form = (await page(t, "/providers/new?type=gcloud", { cookie })).text;
    expect(attributeValues(form, "textarea[name^=credential_]", "name").length).toBe(1);
    const key = JSON.stringify(
      {
        type: "service_account",
        private_key: "-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----\n",
        client_email: "ddnsd@p.iam.gserviceaccount.com",
      },
      null,
      2,
    );
    expect(maskSecret(key)).toBe(`•••• (a JSON key, ${key.length} characters)`);
    expect(maskSecret(key)).not.toContain("}");
    expect(maskSecret("cf-token-secret-0123456789abcdef")).toBe("••••cdef");
  });
});

describe("the About page", () => {
  test("lists the service addresses someone set, and one line for the rest at their defaults", () => {
    const defaults = Object.fromEntries(
      SERVICES.flatMap((service) =>
        service.defaultApiUrl === undefined ? [] : [[service.type, service.defaultApiUrl]],
      ),
    );
    const lines = settingsInEffect({
      ...t.ctx.settings,
      apiUrls: { ...defaults, porkbun: "http://127.0.0.1:9/porkbun-moved" },
    });
    const names = lines.map((line) => line.name);
    expect(names).toContain("DDNS_PORKBUN_API_URL");
    expect(names).not.toContain("DDNS_HETZNER_API_URL");
    expect(lines.find((line) => line.name === "DDNS_<TYPE>_API_URL")?.value).toBe(
      `the services' own addresses (${Object.keys(defaults).length - 1} at their defaults)`,
    );
    expect(lines.length).toBeLessThan(40);
  });

  test("its log wraps inside its box and refreshes itself", async () => {
    const about = (await page(t, "/about", { cookie })).text;
    expect(attributeValues(about, "#recent-log", "hx-get")).toEqual(["/about"]);
    expect(css).toMatch(/\.log-lines \{\s*white-space: pre-wrap;\s*overflow-wrap: anywhere;/);
  });
});

describe("forms and layout", () => {
  test("heartbeat channels hide the event boxes that do nothing for them", async () => {
    const form = (await page(t, "/notifications/new", { cookie })).text;
    expect(attributeValues(form, "fieldset.event-choices", "id")).toEqual(["f-events"]);
    // Compared with its whitespace collapsed: the formatter may wrap a long selector.
    expect(css.replace(/\s+/g, " ")).toContain(
      '#notification-form:has(select[name="type"] option:is([value="healthchecks"], [value="uptime_kuma"]):checked) .event-choices',
    );
  });

  test("Continue and Filter are for browsers without JavaScript only", async () => {
    const domains = (await page(t, "/domains", { cookie })).text;
    expect(attributeValues(domains, "form.filters button.no-js-only", "type")).toEqual(["submit"]);
    expect(css).toMatch(/\.js \.no-js-only \{\s*display: none;/);
  });
});
