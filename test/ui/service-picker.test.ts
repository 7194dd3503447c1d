// Adding a provider starts at the service picker: every provider type and every well-known dyndns2
// update server is an entry of its own, grouped and sorted by name, found by its other names, and
// the search works as a plain GET (no JavaScript); a preset opens the dyndns2 form with its server.

import { beforeAll, describe, expect, test } from "bun:test";
import { SERVICES } from "../../src/dns/registry";
import { messagesOf } from "../../views/i18n";
import { isPlaced, SERVICE_GROUPS, searchCatalog, serviceCatalog } from "../../views/service-catalog";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, page, signIn } from "./helpers";

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await makeTestApp();
  cookie = await signIn(t);
});

/** The names of the entries the page shows (not hidden), in page order, and the group headings shown. */
function shown(html: string): { names: string[]; groups: string[] } {
  const names: string[] = [];
  const groups: string[] = [];
  let hiddenDepth = 0;
  let inName = false;
  let inHeading = false;
  let text = "";
  const group = {
    element(element: HTMLRewriterTypes.Element) {
      if (element.hasAttribute("hidden")) {
        hiddenDepth++;
        element.onEndTag(() => {
          hiddenDepth--;
        });
      }
    },
  };
  const heading = {
    element(element: HTMLRewriterTypes.Element) {
      if (hiddenDepth > 0) return;
      inHeading = true;
      text = "";
      element.onEndTag(() => {
        groups.push(text.trim());
        inHeading = false;
      });
    },
    text(chunk: HTMLRewriterTypes.Text) {
      if (inHeading) text += chunk.text;
    },
  };
  new HTMLRewriter()
    .on("[data-service-group]", group)
    .on("[data-service-popular]", group)
    .on("[data-service-group] h2", heading)
    .on("[data-service-popular] h2", heading)
    .on("li.service-entry", {
      element(element) {
        if (element.hasAttribute("hidden")) {
          hiddenDepth++;
          element.onEndTag(() => {
            hiddenDepth--;
          });
        }
      },
    })
    .on(".service-name", {
      element(element) {
        if (hiddenDepth > 0) return;
        inName = true;
        text = "";
        element.onEndTag(() => {
          names.push(text.trim().replace(/&amp;/g, "&"));
          inName = false;
        });
      },
      text(chunk) {
        if (inName) text += chunk.text;
      },
    })
    .transform(html);
  return { names, groups };
}

describe("the catalogue", () => {
  test("87 entries: each of the 61 types and each of the 26 dyndns2 presets, every one placed in a group", () => {
    const entries = serviceCatalog(SERVICES);
    expect(SERVICES.length).toBe(61);
    expect(entries.length).toBe(87);
    expect(entries.filter((entry) => entry.server !== undefined).length).toBe(26);
    expect(entries.filter((entry) => !isPlaced(entry)).map((entry) => entry.label)).toEqual([]);
  });

  test("each group is sorted by name", () => {
    for (const group of searchCatalog(serviceCatalog(SERVICES), "")) {
      const labels = group.entries.map((entry) => entry.label);
      expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })));
    }
  });
});

describe("GET /providers/new", () => {
  test("lists all 87 services in the five groups, in order, the popular ones first, with Google Cloud DNS among the clouds", async () => {
    const response = await page(t, "/providers/new", { cookie });
    expect(response.status).toBe(200);
    const { names, groups } = shown(response.text);
    const popular = ["Cloudflare", "DuckDNS", "No-IP", "dynv6", "deSEC", "FreeDNS (afraid.org)", "Dynu"];
    expect(names.slice(0, popular.length)).toEqual(popular);
    expect(names.length).toBe(87 + popular.length);
    expect(groups).toEqual(["Popular", ...SERVICE_GROUPS.map((key) => messagesOf("en").servicePicker.group[key])]);
    // A note only where the entry is not simply the service's own API.
    expect(response.text).not.toContain("own API");
    expect(names).toContain("Google Cloud DNS");
    expect(response.text).toContain("87 services");
  });

  const searches: [string, string[]][] = [
    ["noip", ["No-IP"]],
    ["he.net", ["Hurricane Electric"]],
    ["hurricane", ["Hurricane Electric"]],
    ["gcp", ["Google Cloud DNS"]],
    ["bind", ["RFC 2136 (DNS UPDATE)"]],
    ["aws", ["Amazon Route 53"]],
  ];
  for (const [query, expected] of searches) {
    test(`?q=${query} finds ${expected.join(", ")} on the server, without JavaScript`, async () => {
      const response = await page(t, `/providers/new?q=${encodeURIComponent(query)}`, { cookie });
      expect(shown(response.text).names).toEqual(expected);
      expect(attributeValues(response.text, "#f-q", "value")).toEqual([query]);
    });
  }

  test("?q=nsupdate finds the name server and both nsupdate.info servers", async () => {
    const response = await page(t, "/providers/new?q=nsupdate", { cookie });
    expect(shown(response.text).names.sort()).toEqual(
      ["nsupdate.info (IPv4)", "nsupdate.info (IPv6)", "RFC 2136 (DNS UPDATE)"].sort(),
    );
  });

  test("a router's name says that a router pushes to ddnsd itself, leading to the update keys", async () => {
    for (const query of ["fritz", "FRITZ!Box", "unifi"]) {
      const response = await page(t, `/providers/new?q=${encodeURIComponent(query)}`, { cookie });
      expect(attributeValues(response.text, "[data-router-hint]", "hidden")).toEqual([]);
      expect(response.text).toContain('<a href="/update-keys">make an update key</a>');
    }
    const cloud = await page(t, "/providers/new?q=cloudflare", { cookie });
    expect(attributeValues(cloud.text, "[data-router-hint]", "hidden")).toEqual([""]);
  });

  test("a search that finds nothing says what to use instead", async () => {
    const response = await page(t, "/providers/new?q=zzzz-no-such", { cookie });
    expect(shown(response.text).names).toEqual([]);
    expect(attributeValues(response.text, "[data-service-empty]", "hidden")).toEqual([]);
    expect(response.text).toContain("0 services of 87 match");
  });

  test("a preset's entry opens the dyndns2 form with its server filled in and its name as the provider's", async () => {
    const picker = await page(t, "/providers/new?q=noip", { cookie });
    const href = attributeValues(picker.text, "[data-service-group] li.service-entry:not([hidden]) a", "href")[0]!;
    expect(href).toBe("/providers/new?type=dyndns2&server=https%3A%2F%2Fdynupdate.no-ip.com");
    const form = await page(t, href, { cookie });
    expect(form.status).toBe(200);
    expect(attributeValues(form.text, "#provider-form input[name=type]", "value")).toEqual(["dyndns2"]);
    expect(attributeValues(form.text, "input[name=option_server]", "value")).toEqual(["https://dynupdate.no-ip.com"]);
    expect(attributeValues(form.text, "#f-name", "value")).toEqual(["No-IP"]);
  });

  test("a type's entry opens its form; the form names the service and leads back to the picker", async () => {
    const form = await page(t, "/providers/new?type=gcloud", { cookie });
    expect(form.text).toContain("Google Cloud DNS");
    expect(attributeValues(form.text, "#provider-form input[name=type]", "value")).toEqual(["gcloud"]);
    expect(attributeValues(form.text, ".chosen-service a", "href")).toEqual(["/providers/new"]);
  });
});
