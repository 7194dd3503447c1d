// The documentation inside the appliance: docs/ rendered at /help, /help/<page> and
// /help/services/<type> without signing in, in the admin pages' frame, with the repository's files
// the docs link to; every link between the pages and every pointer to the docs that ddnsd shows
// (the CLI's help, the pages, the log, the exported file's header) names a /help address that
// answers, with its anchor on the page.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Glob } from "bun";
import packageJson from "../../package.json";
import { headingSlug, helpAddresses, helpHref } from "../../src/ui/help";
import { ASSETS } from "../../views/assets";
import { makeTestApp, type TestApp } from "../support";
import { attributeValues, page, signIn } from "./helpers";

const ROOT = resolve(import.meta.dir, "../..");
let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(() => t.ctx.sqlite.close());

/** The ids of a page's elements: where its anchors land. */
const ids = (html: string) => new Set(attributeValues(html, "[id]", "id"));

/** A /help address (with an optional anchor) answers 200 with a page holding that anchor; else why not. */
async function problemWith(href: string): Promise<string | null> {
  const [path, anchor] = href.split("#") as [string, string | undefined];
  const response = await page(t, path);
  if (response.status !== 200) return `${href}: ${response.status}`;
  if (anchor !== undefined && !ids(response.text).has(anchor)) return `${href}: no #${anchor} on the page`;
  return null;
}

describe("/help", () => {
  test("the index answers without signing in, styled like the admin pages, linking every top-level page", async () => {
    const response = await page(t, "/help");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.text).toContain(ASSETS.styles.url);
    const links = attributeValues(response.text, ".help-index a", "href");
    for (const route of [
      "/help/operations",
      "/help/router-push",
      "/help/nas",
      "/help/services",
      "/help/api",
      "/help/admin-pages",
    ]) {
      expect(links).toContain(route);
    }
    // No session: no navigation, but the way to sign in.
    expect(response.text).not.toContain("Sign out");
    expect(attributeValues(response.text, ".help-trail a", "href")).toContain("/login");
  });

  test("the index leads with the pages for running ddnsd at home; those about its code are a group apart", async () => {
    const html = (await page(t, "/help")).text;
    const links = attributeValues(html, ".help-index a", "href");
    expect(links.slice(0, 7)).toEqual([
      "/help/getting-started",
      "/help/admin-pages",
      "/help/services",
      "/help/router-push",
      "/help/certificates",
      "/help/operations",
      "/help/nas",
    ]);
    expect(links.slice(-4)).toEqual(["/help/architecture", "/help/design", "/help/development", "/help/performance"]);
    const groups = html.split('<h2 id="working-on-ddnsd">');
    expect(groups).toHaveLength(2);
    expect(groups[0]).not.toContain('href="/help/architecture"');
    expect(groups[0]).not.toContain('href="/help/design"');
    // Whole first sentences: no summary cut at a colon ("Read when:").
    expect(html).not.toContain("Read when:");
    expect(html).toContain("When you want HTTPS (a Let");
  });

  test("the router push page opens with the steps and the FRITZ!Box before any curl call", async () => {
    const html = (await page(t, "/help/router-push")).text;
    const fritz = html.indexOf("FRITZ!Box</strong>");
    expect(fritz).toBeGreaterThan(-1);
    expect(html.indexOf("Update keys</strong>")).toBeLessThan(fritz);
    expect(html.indexOf("curl ")).toBeGreaterThan(fritz);
  });

  test("signed in, the page has the navigation with Help marked as the current section", async () => {
    const cookie = await signIn(t);
    const response = await page(t, "/help/operations", { cookie });
    expect(response.status).toBe(200);
    expect(response.text).toContain("Sign out");
    expect(attributeValues(response.text, 'nav a[aria-current="page"]', "href")).toContain("/help");
  });

  test("a page renders its Markdown: headings with GitHub's anchors, tables, code", async () => {
    const response = await page(t, "/help/operations");
    expect(response.text).toContain("<title>Operations · ddnsd</title>");
    expect(ids(response.text)).toContain("install-on-a-raspberry-pi--nas");
    expect(response.text).toContain("<table>");
    expect(response.text).toContain("<code>DDNS_DATA_DIR</code>");
    const service = await page(t, "/help/services/cloudflare");
    expect(service.status).toBe(200);
    expect(service.text).toContain("Cloudflare");
  });

  test("an unknown page is the 404 page", async () => {
    for (const path of ["/help/nothing-here", "/help/services/nothing-here", "/help/../README"]) {
      const response = await page(t, path, { headers: { accept: "text/html" } });
      expect(response.status).toBe(404);
      expect(response.text).toContain("Not found");
    }
  });

  test("every page and file is reached from the index, and every link to the project's own pages and files answers from ddnsd itself", async () => {
    // A crawl from the index, as a reader offline would click: links to other websites (a DNS
    // service's own docs) may stay external, none may leave for the project's repository.
    const repository = packageJson.homepage;
    const problems: string[] = [];
    const reached = new Set(["/help"]);
    const queue = ["/help"];
    for (let route = queue.shift(); route !== undefined; route = queue.shift()) {
      const response = await page(t, route);
      expect(response.status).toBe(200);
      if (!response.headers.get("content-type")?.includes("text/html")) continue;
      const own = ids(response.text);
      for (const href of attributeValues(response.text, ".help-doc a", "href")) {
        if (href.startsWith("#")) {
          if (!own.has(href.slice(1))) problems.push(`${route}: ${href} is not on the page`);
        } else if (href.startsWith("/")) {
          const problem = await problemWith(href);
          if (problem !== null) problems.push(`${route}: ${problem}`);
          const target = href.split("#")[0]!;
          if (target.startsWith("/help") && !reached.has(target)) {
            reached.add(target);
            queue.push(target);
          }
        } else if (href.startsWith(repository)) {
          problems.push(`${route}: ${href} leaves for the repository`);
        } else if (!/^(https?|mailto):/.test(href)) {
          problems.push(`${route}: ${href} is neither a /help address nor a URL`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect([...reached].sort()).toEqual(helpAddresses().sort());
  });

  test("the design notes are pages of their own, and compose.yaml, which the docs link to, is served as it is", async () => {
    const note = await page(t, "/help/design/scheduler");
    expect(note.status).toBe(200);
    expect(ids(note.text)).toContain("asleep-until-something-is-due");
    expect(attributeValues(note.text, ".help-doc a", "href")).toContain("/help/design/live-check");
    const compose = await page(t, "/help/compose.yaml");
    expect(compose.status).toBe(200);
    expect(compose.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(compose.text).toBe(readFileSync(join(ROOT, "compose.yaml"), "utf8"));
    // The index lists the top-level pages, the design notes' own index among them, not each note.
    const index = attributeValues((await page(t, "/help")).text, ".help-index a", "href");
    expect(index).toContain("/help/design");
    expect(index).not.toContain("/help/design/scheduler");
    expect(index).not.toContain("/help/compose.yaml");
  });

  test("links are rewritten to /help addresses, files outside docs/ included", () => {
    expect(helpHref("api.md#limits", "docs/operations.md")).toBe("/help/api#limits");
    expect(helpHref("services/README.md", "docs/operations.md")).toBe("/help/services");
    expect(helpHref("../operations.md#upgrade", "docs/services/cloudflare.md")).toBe("/help/operations#upgrade");
    expect(helpHref("cloudflare.md", "docs/services/README.md")).toBe("/help/services/cloudflare");
    expect(helpHref("../compose.yaml", "docs/nas.md")).toBe("/help/compose.yaml");
    expect(helpHref("../src/README.md#layers", "docs/architecture.md")).toBe("/help/src#layers");
    expect(helpHref("../docs/nas.md", "src/README.md")).toBe("/help/nas");
    expect(helpHref("https://example.com/x.md", "docs/api.md")).toBe("https://example.com/x.md");
    expect(headingSlug("Install on a Raspberry Pi / NAS")).toBe("install-on-a-raspberry-pi--nas");
  });
});

/** The lines of src/ and views/ that are code, not comments. */
function codeLines(): { file: string; line: string }[] {
  return ["src", "views"].flatMap((dir) =>
    [...new Glob("**/*.{ts,tsx}").scanSync({ cwd: join(ROOT, dir) })].flatMap((file) =>
      readFileSync(join(ROOT, dir, file), "utf8")
        .split("\n")
        .filter((line) => !/^\s*(\/\/|\/?\*)/.test(line))
        .map((line) => ({ file: `${dir}/${file}`, line: line.replace(/\s\/\/\s.*$/, "") })),
    ),
  );
}

describe("pointers to the docs", () => {
  test("every /help address that ddnsd shows (CLI, pages, log, files it writes) answers, with its anchor", async () => {
    const pointers = new Set<string>();
    for (const { line } of codeLines()) {
      for (const match of line.matchAll(/\/help(?:\/[a-z0-9-]+)*(?:#[a-z0-9-]+)?/g)) {
        if (!match[0].includes("${")) pointers.add(match[0]);
      }
    }
    for (const expected of [
      "/help/router-push",
      "/help/operations#troubleshooting",
      "/help/operations#settings",
      "/help/services/dyndns2",
    ]) {
      expect(pointers).toContain(expected);
    }
    const problems = (await Promise.all([...pointers].map(problemWith))).filter((problem) => problem !== null);
    expect(problems).toEqual([]);
  });

  test("none names a docs/ file or the README, which a binary or container user does not have", () => {
    // help.ts itself maps the docs' files (a README.md is its folder's index) to their addresses.
    const offending = codeLines().filter(
      ({ file, line }) => file !== "src/ui/help.ts" && /\bdocs\/[\w/-]*\.md\b|README/.test(line),
    );
    expect(offending).toEqual([]);
  });

  test("each DNS service's form links to its /help page", async () => {
    const cookie = await signIn(t);
    for (const type of ["cloudflare", "dyndns2", "netcupcloud"]) {
      const response = await page(t, `/providers/new?type=${type}`, { cookie });
      const link = attributeValues(response.text, "#service-fields a", "href").find((href) =>
        href.startsWith("/help/"),
      );
      expect(link).toBe(`/help/services/${type}`);
      expect(await problemWith(link!)).toBeNull();
    }
  });
});
