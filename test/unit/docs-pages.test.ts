// The documentation in the repository stays whole: every registered DNS service has its page in
// docs/services/ (its generated part as its description says, its sections written), the index
// lists it, CI runs the README's test command, and every
// relative link in README.md and docs/ leads to a file that exists, and to a heading in it when
// the link names one.

import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";
import {
  currentIndexTable,
  currentPart,
  generatedPart,
  INDEX_PATH,
  indexTable,
  SERVICES_DIR,
} from "../../scripts/docs-services";
import { SERVICES } from "../../src/dns/registry";

const ROOT = resolve(import.meta.dir, "..", "..");

function markdownFiles(): string[] {
  const docs = [...new Glob("docs/**/*.md").scanSync({ cwd: ROOT })];
  return ["README.md", ...docs].map((file) => join(ROOT, file));
}

/** The text outside fenced code blocks, where `#` lines are shell comments, not headings. */
function prose(text: string): string {
  return text.replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?^[ \t]*\1[ \t]*$/gm, "");
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces become hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1]!);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Each relative link of a page that leads nowhere, as "page: target (why)". */
function brokenLinks(file: string, text: string, read: (path: string) => string | null): string[] {
  const broken: string[] = [];
  const links = [...prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  for (const link of links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // http:, https:, mailto: …
    const [path, anchor] = link.split("#", 2) as [string, string | undefined];
    const target = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
    const where = `${relative(ROOT, file)}: ${link}`;
    const content = read(target);
    if (content === null) {
      broken.push(`${where} (no such file)`);
      continue;
    }
    if (anchor !== undefined && target.endsWith(".md") && !anchorsOf(content).has(anchor)) {
      broken.push(`${where} (no heading #${anchor})`);
    }
  }
  return broken;
}

/** The longest a table cell of the developer docs may be: a name and a phrase, not a paragraph. */
const LONGEST_CELL = 200;

/** Each table cell of a page longer than LONGEST_CELL, as "file:line: its start…". */
function longTableCells(file: string, text: string): string[] {
  const code = new Set<number>();
  let fenced = false;
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (fenced) code.add(index);
  });
  return lines.flatMap((line, index) =>
    code.has(index) || !line.startsWith("|")
      ? []
      : line
          .split("|")
          .map((cell) => cell.trim())
          .filter((cell) => cell.length > LONGEST_CELL)
          .map((cell) => `${file}:${index + 1}: ${cell.slice(0, 40)}…`),
  );
}

function readIfExists(path: string): string | null {
  if (!existsSync(path)) return null;
  return statSync(path).isDirectory() ? "" : readFileSync(path, "utf8");
}

describe("documentation", () => {
  test("every registered DNS service has its page, its generated part current and its sections written", () => {
    const problems: string[] = [];
    for (const service of SERVICES) {
      const name = `docs/services/${service.type}.md`;
      const page = join(SERVICES_DIR, `${service.type}.md`);
      if (!existsSync(page)) {
        problems.push(`${name} is missing: bun run docs:services starts it`);
        continue;
      }
      const text = readFileSync(page, "utf8");
      if (currentPart(text, service.type) !== generatedPart(service)) {
        problems.push(`${name}: the generated part differs from the description: bun run docs:services`);
      }
      for (const heading of ["## Credentials", "## What ddnsd changes", "## What ddnsd never changes"]) {
        const section = text.split(`\n${heading}\n`)[1];
        if (section === undefined || section.split(/\n## /)[0]!.trim() === "")
          problems.push(`${name} has no "${heading}" section`);
      }
    }
    expect(problems).toEqual([]);
  });

  test("the services index's table is current: a row per registered type, each linking its page", () => {
    const table = currentIndexTable(readFileSync(INDEX_PATH, "utf8"));
    expect(table ?? "docs/services/README.md has no generated table").toBe(indexTable());
    const missing = SERVICES.map((service) => service.type).filter((type) => !table?.includes(`](${type}.md)`));
    expect(missing).toEqual([]);
  });

  test("the README and the package description count the registered kinds of DNS service", () => {
    const count = `${SERVICES.length} kinds of DNS service`;
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(count);
    expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).description).toContain(count);
  });

  test("every relative link in README.md and docs/ leads to a file, and to a heading when it names one", () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((file) => brokenLinks(file, readFileSync(file, "utf8"), readIfExists))).toEqual([]);
  });

  test("CI runs the README's test command, with the type check and the linter after its installs", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const commands = [...readme.matchAll(/^```sh\n(.+)\n```$/gm)].map((m) => m[1]!);
    const testCommand = commands.find((command) => command.endsWith("&& bun test --timeout 60000 --parallel=2"));
    expect(testCommand).toBeDefined();
    const steps = readFileSync(join(ROOT, ".ci", "run"), "utf8")
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("#") && !/^(set|cd|export) /.test(line));
    expect(steps).toEqual([
      testCommand!.replace(/ && bun test --timeout 60000 --parallel=2$/, ""),
      "bun run typecheck",
      "bun run lint",
      "bun run format:check",
      "bun test --timeout 60000 --parallel=2",
    ]);
  });

  test("the link check sees a missing file and a missing heading, and skips code and web links", () => {
    const page = join(ROOT, "docs", "page.md");
    const files: Record<string, string> = {
      [join(ROOT, "docs", "other.md")]: "# Other\n\n## Run as a container (NAS)\n\n## Run as a container (NAS)\n",
    };
    const text = [
      "# Page",
      "[ok](other.md#run-as-a-container-nas) [second](other.md#run-as-a-container-nas-1) [self](#page)",
      "[gone](gone.md) [bad anchor](other.md#nowhere) [web](https://example.com/x.md)",
      "```sh",
      "echo '[in code](missing.md)'",
      "```",
    ].join("\n");
    const read = (path: string) => (path === page ? text : (files[path] ?? null));
    expect(brokenLinks(page, text, read)).toEqual([
      "docs/page.md: gone.md (no such file)",
      "docs/page.md: other.md#nowhere (no heading #nowhere)",
    ]);
  });

  test("headings become GitHub's anchors", () => {
    expect(slug("Install on a Raspberry Pi / NAS")).toBe("install-on-a-raspberry-pi--nas");
    expect(slug("dyndns2 (No-IP, Dyn, OVH, …)")).toBe("dyndns2-no-ip-dyn-ovh-");
    expect(slug("What ddnsd changes at each service")).toBe("what-ddnsd-changes-at-each-service");
  });

  test("the developer docs read as lines: a short architecture page, no table cell run on into paragraphs", () => {
    // The why of each part lives in a design note's paragraphs and lists; a table cell holds a name
    // and a phrase, and the map of the house stays short enough to read at one sitting.
    const architecture = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");
    expect(architecture.trimEnd().split("\n").length).toBeLessThan(80);
    const developerDocs = [
      "docs/architecture.md",
      "docs/development.md",
      ...new Glob("docs/design/*.md").scanSync({ cwd: ROOT }),
    ];
    expect(developerDocs.length).toBeGreaterThan(4);
    const longCells = developerDocs.flatMap((file) => longTableCells(file, readFileSync(join(ROOT, file), "utf8")));
    expect(longCells).toEqual([]);
  });

  test("the cell check sees a long cell and leaves prose and code alone", () => {
    const long = "a phrase ".repeat(30);
    const text = ["| a | b |", "|---|---|", `| ok | ${long} |`, long, "```", `| ${long} |`, "```"].join("\n");
    expect(longTableCells("docs/x.md", text)).toEqual([`docs/x.md:3: ${long.trim().slice(0, 40)}…`]);
  });

  test("no file of the project cites a document that is not in the repository", () => {
    // The project's decisions live in docs/; a comment that points at a working paper outside the
    // repository leaves a maintainer who clones it nothing to follow.
    const outside = /\b(CONTRACT|PROVIDERS|DESIGN|SPEC)\.md\b|\bCONTRACT §|\bPROVIDERS §|\.\.\/shared\//;
    const files = ["src", "test", "views", "bench", "scripts", "docs", "deploy"].flatMap((dir) =>
      [...new Glob("**/*.{ts,tsx,js,css,md,yaml,sh}").scanSync({ cwd: join(ROOT, dir) })].map((file) =>
        join(dir, file),
      ),
    );
    expect(files.length).toBeGreaterThan(100);
    const citing = [...files, "README.md", "install.sh", "package.json"].filter((file) => {
      if (file === "test/unit/docs-pages.test.ts") return false;
      return outside.test(readFileSync(join(ROOT, file), "utf8"));
    });
    expect(citing).toEqual([]);
  });
});
