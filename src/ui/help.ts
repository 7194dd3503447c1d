// The documentation inside the appliance: the Markdown pages of docs/ and the few files of the
// repository they link to (OUTSIDE_DOCS), embedded in the compiled binary and served at /help,
// /help/<page> and /help/services/<type>, so that every pointer to the docs (the CLI's help, the
// pages, the log) and every link between them works on a box with no internet access and without
// the repository. Markdown is rendered with marked, another file is served as it is (text). Links
// are rewritten to their /help addresses; headings get GitHub's anchors, so `operations#upgrade`
// works in both places. Each page is rendered once, on its first request.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { Tokens } from "marked";
import composePath from "../../compose.yaml" with { type: "file" };

/** A page of the docs: its address under /help, its title and the rendered HTML. */
export interface HelpPage {
  route: string;
  title: string;
  /** The first paragraph, as plain text: the index's description. */
  summary: string;
  html: string;
}

/**
 * The files outside docs/ that the docs link to, by their path in the repository: embedded (file
 * imports) and served like the docs, so that no link leaves the appliance for the project's own
 * files. A link to a file of the repository missing here answers 404, which the help tests catch.
 */
const OUTSIDE_DOCS: Record<string, string> = { "compose.yaml": composePath };

/**
 * docs/ embedded in the compiled binary (scripts/build.ts: `--asset=./docs`, beside the bundle,
 * under /$bunfs), else beside the sources. The embedded copy is asked first: from the bundle,
 * ../../docs is a path of the host.
 */
function docsFolder(): string {
  const candidates = [join(import.meta.dir, "docs"), join(import.meta.dir, "../../docs")];
  const found = candidates.find((dir) => existsSync(join(dir, "operations.md")));
  if (found === undefined) throw new Error(`The docs were not found (looked in ${candidates.join(", ")})`);
  return found;
}

/**
 * The /help address of a file of the repository (its path, e.g. `docs/services/cloudflare.md`):
 * a docs page is named by its path in docs/, any other file by its path in the repository; a
 * Markdown file loses `.md` (a README is its folder's page), another file keeps its name.
 */
export function helpRoute(file: string): string {
  const page = file
    .replace(/^docs\//, "")
    .replace(/\.md$/, "")
    .replace(/(^|\/)README$/, "");
  return page === "" ? "/help" : `/help/${page}`;
}

/**
 * Where a link in the repository's file `from` points once it is served: a file of the repository
 * → its /help address (with the anchor); absolute URLs and anchors within the page are left alone.
 */
export function helpHref(href: string, from: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("#") || href.startsWith("/")) return href;
  const hashAt = href.indexOf("#");
  const path = hashAt < 0 ? href : href.slice(0, hashAt);
  const hash = hashAt < 0 ? "" : href.slice(hashAt);
  return `${helpRoute(posix.normalize(posix.join(posix.dirname(from), path)))}${hash}`;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a dash. */
export function headingSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/**
 * What a screen reader and a keyboard need beyond marked's HTML: a code block that scrolls sideways
 * can be focused (and so scrolled with the keys), and a table whose header row is empty (the
 * services' facts tables) has no header row rather than empty header cells.
 */
function accessible(html: string): string {
  return html
    .replace(/<pre>/g, '<pre tabindex="0">')
    .replace(/<thead>\s*<tr>\s*(?:<th[^>]*>\s*<\/th>\s*)+<\/tr>\s*<\/thead>\s*/g, "");
}

/**
 * The index's line for a page, from its first paragraph: its first sentence, whole (a colon does not
 * end it), a design note's "Read when: …" read as "When …".
 */
export function summaryOf(paragraph: string): string {
  const text = paragraph.replace(/^Read when:\s*/, "When ");
  return text.match(/^.*?\.(?=\s|$)/)?.[0] ?? text;
}

function renderPage(file: string, markdown: string): HelpPage {
  const slugs = new Map<string, number>();
  // Loaded on the first page rendered: an appliance whose help nobody opens never evaluates it
  // (docs/performance.md, memory on the user's path).
  const { Marked } = require("marked") as typeof import("marked");
  const marked = new Marked({
    gfm: true,
    walkTokens(token) {
      if (token.type === "link" || token.type === "image") token.href = helpHref(token.href, file);
    },
    renderer: {
      heading({ tokens, depth }: Tokens.Heading) {
        const text = this.parser.parseInline(tokens, this.parser.textRenderer);
        const base = headingSlug(text);
        const seen = slugs.get(base) ?? 0;
        slugs.set(base, seen + 1);
        const id = seen === 0 ? base : `${base}-${seen}`;
        return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  const tokens = marked.lexer(markdown);
  const heading = tokens.find((token): token is Tokens.Heading => token.type === "heading");
  const paragraph = tokens.find((token): token is Tokens.Paragraph => token.type === "paragraph");
  const plain = (text: string) =>
    text
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/[`*_]/g, "")
      .replace(/\s+/g, " ")
      .trim();
  return {
    route: helpRoute(file),
    title: heading === undefined ? file : plain(heading.text),
    summary: paragraph === undefined ? "" : summaryOf(plain(paragraph.text)),
    html: accessible(marked.parse(markdown, { async: false })),
  };
}

const folder = docsFolder();
/** The docs' files and OUTSIDE_DOCS: their path in the repository and where to read them, by their /help address. */
const FILES = new Map(
  [
    ...readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".md"))
      .map((name) => name.split("\\").join("/"))
      .map((name): [string, string] => [`docs/${name}`, join(folder, name)]),
    ...Object.entries(OUTSIDE_DOCS),
  ]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, path]) => [helpRoute(file), { file, path }] as const),
);
const rendered = new Map<string, HelpPage>();

/** The page at `route` (`/help/operations`), or null when there is none (or it is not Markdown). */
export function helpPage(route: string): HelpPage | null {
  const cached = rendered.get(route);
  if (cached !== undefined) return cached;
  const found = FILES.get(route);
  if (found === undefined || !found.file.endsWith(".md")) return null;
  const page = renderPage(found.file, readFileSync(found.path, "utf8"));
  rendered.set(route, page);
  return page;
}

/** The text of the file at `route` that is not Markdown (`/help/compose.yaml`), or null when there is none. */
export function helpFile(route: string): string | null {
  const found = FILES.get(route);
  if (found === undefined || found.file.endsWith(".md")) return null;
  return readFileSync(found.path, "utf8");
}

/**
 * The pages a home user reads first, in this order; the rest of the top-level pages follow them by
 * title. The pages about ddnsd's own code are an index group of their own (DEVELOPER_PAGES).
 */
const HOME_PAGES = [
  "/help/getting-started",
  "/help/admin-pages",
  "/help/services",
  "/help/router-push",
  "/help/certificates",
  "/help/operations",
  "/help/nas",
];
const DEVELOPER_PAGES = new Set(["/help/architecture", "/help/design", "/help/development", "/help/performance"]);

/**
 * The top-level pages of docs/ (not each DNS service's, nor the files outside docs/), for the
 * index: the services' own index is one of them. The pages for running ddnsd at home first, the
 * pages for working on its code apart.
 */
export function helpIndex(): { home: HelpPage[]; developer: HelpPage[] } {
  const pages = [...FILES]
    .filter(([route, { file }]) => file.startsWith("docs/") && route.split("/").length === 3)
    .map(([route]) => helpPage(route)!)
    .sort((a, b) => a.title.localeCompare(b.title));
  const rank = (page: HelpPage) => {
    const at = HOME_PAGES.indexOf(page.route);
    return at < 0 ? HOME_PAGES.length : at;
  };
  return {
    home: pages.filter((page) => !DEVELOPER_PAGES.has(page.route)).sort((a, b) => rank(a) - rank(b)),
    developer: pages.filter((page) => DEVELOPER_PAGES.has(page.route)),
  };
}

/** Every /help address there is (the index, each page, each file). */
export function helpAddresses(): string[] {
  return ["/help", ...FILES.keys()];
}
