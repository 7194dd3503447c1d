// The imports of src/ and views/ (every `import` and `export … from`, type-only ones included): no
// cycle between files, none between folders, and no import from a lower layer to a higher one in the
// layer table of docs/architecture.md, with no exception.

import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";

const ROOT = resolve(import.meta.dir, "..", "..");

function sources(): string[] {
  return ["src", "views"].flatMap((dir) =>
    [...new Glob("**/*.{ts,tsx}").scanSync({ cwd: join(ROOT, dir) })].map((file) => join(ROOT, dir, file)),
  );
}

/** The local files a module imports (packages and assets left out). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/gms)].map((m) => m[1]!);
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => {
      const base = resolve(dirname(file), specifier);
      return [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find(
        (candidate) => existsSync(candidate) && /\.tsx?$/.test(candidate),
      );
    })
    .filter((path): path is string => path !== undefined);
}

/** Every cycle the depth-first walk closes (one per edge back to an open node), as a readable path. */
function cycles(graph: Map<string, string[]>, name = (node: string): string => relative(ROOT, node)): string[] {
  const found: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next].map(name).join(" → "));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

/**
 * The layers, bottom to top: a file may import its own layer and the layers below it. A layer is a
 * folder of src/ (or a file at its top), or views/. Keep in step with docs/architecture.md.
 */
const LAYERS: { name: string; parts: string[] }[] = [
  // Helpers with no knowledge of the appliance; `log` is the logger every layer is handed; `limits`
  // the field sizes every layer that checks input holds to.
  { name: "base", parts: ["util", "errors", "log", "limits", "assets.d"] },
  // The database: the tables, opening and migrating it, the data dir's lock, the full disk.
  { name: "storage", parts: ["db", "store"] },
  // Talking to the outside world and keeping secrets: outbound requests and address arithmetic
  // (`net/`), sealing, the DNS services (the policies and the registry in `dns/`, one module per
  // service in `dns/services/`, the formats in `dns/protocols/`, the signers in `dns/signing/`: their
  // own rules are below), address detection.
  { name: "clients", parts: ["net", "security", "dns", "ip"] },
  // The work: the one update path and the scheduler, notifications of what happened.
  { name: "core", parts: ["updater", "notify"] },
  // The API's resources: rules and their shapes, one folder per resource.
  { name: "services", parts: ["modules"] },
  // Markup: what a page shows, given the data (the pages render it, never the reverse).
  { name: "markup", parts: ["views"] },
  // The HTTP edge: errors to status codes, tokens, screening, /docs; the admin pages' routes.
  { name: "edge", parts: ["http", "ui"] },
  // The composition root: the settings (the only reader of the environment, handed down as
  // values), the context they build, the app, the server and the command line.
  { name: "root", parts: ["version", "config", "healthcheck", "context", "control", "app", "server", "main"] },
];

/** A file's layer part: its folder under src/ (or its name at the top of src/), or "views". */
function partOf(file: string): string {
  const [top, part, ...rest] = relative(ROOT, file).split("/");
  if (top === "views") return "views";
  return rest.length > 0 ? part! : part!.replace(/\.tsx?$/, "");
}

/**
 * The graph of the parts (`partOf`): one part imports another when any of its files imports one of
 * the other's. A loop here (db → store → db) is a pair of folders that cannot be understood, moved
 * or tested apart, even when no two files import each other.
 */
function partGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const parts = new Map<string, Set<string>>();
  for (const [file, imported] of graph) {
    const from = partOf(file);
    const targets = parts.get(from) ?? new Set<string>();
    for (const target of imported) if (partOf(target) !== from) targets.add(partOf(target));
    parts.set(from, targets);
  }
  return new Map([...parts].map(([part, targets]) => [part, [...targets].sort()]));
}

function layerOf(part: string): number {
  return LAYERS.findIndex((layer) => layer.parts.includes(part));
}

/** Every import from a lower layer to a higher one, as "from → to"; parts in no layer are refused. */
function layerViolations(graph: Map<string, string[]>): { unplaced: string[]; upward: string[] } {
  const unplaced = new Set<string>();
  const upward = new Set<string>();
  for (const [file, imported] of graph) {
    for (const target of [file, ...imported]) if (layerOf(partOf(target)) < 0) unplaced.add(partOf(target));
    for (const target of imported) {
      if (layerOf(partOf(target)) > layerOf(partOf(file)))
        upward.add(`${relative(ROOT, file)} → ${relative(ROOT, target)}`);
    }
  }
  return { unplaced: [...unplaced].sort(), upward: [...upward].sort() };
}

/**
 * Inside `dns/`: a service module imports no other service, only the registry imports the services,
 * and the protocols and signers know nothing of the services or the policies that use them.
 */
function dnsViolations(graph: Map<string, string[]>): string[] {
  const DNS = join(ROOT, "src", "dns");
  const folder = (file: string): string | undefined => {
    if (!file.startsWith(`${DNS}/`)) return undefined;
    const [first, ...rest] = relative(DNS, file).split("/");
    return rest.length > 0 ? first : "";
  };
  const found: string[] = [];
  for (const [file, imported] of graph) {
    for (const target of imported) {
      const [from, to] = [folder(file), folder(target)];
      const wrong =
        (to === "services" && from === "services") ||
        (to === "services" && relative(ROOT, file) !== "src/dns/registry.ts") ||
        ((from === "protocols" || from === "signing") &&
          (to === "services" ||
            target.endsWith("reconcile.ts") ||
            target.endsWith("one-shot-policy.ts") ||
            target.endsWith("registry.ts")));
      if (wrong) found.push(`${relative(ROOT, file)} → ${relative(ROOT, target)}`);
    }
  }
  return found.sort();
}

/**
 * Folders that share a layer but must not know each other: the generic HTTP (`net/`) knows nothing
 * of the DNS services or the updater; address detection and notifications need no DNS service (ip/
 * asks resolvers over plain DNS: it may use the DNS protocol, `dns/lookup.ts` and `dns/protocols/`,
 * nothing else of `dns/`).
 */
const APART: { from: string; to: string; except?: string[] }[] = [
  { from: "net", to: "dns" },
  { from: "net", to: "updater" },
  { from: "notify", to: "dns" },
  { from: "ip", to: "dns", except: ["dns/lookup.ts", "dns/protocols/"] },
];

/** Every import that crosses one of the `APART` lines, as "from → to". */
function apartViolations(graph: Map<string, string[]>): string[] {
  const SRC = join(ROOT, "src");
  const found: string[] = [];
  for (const [file, imported] of graph) {
    for (const target of imported) {
      const [from, to] = [relative(SRC, file), relative(SRC, target)];
      const crosses = APART.some(
        (rule) =>
          from.startsWith(`${rule.from}/`) &&
          to.startsWith(`${rule.to}/`) &&
          !(rule.except ?? []).some((allowed) => to === allowed || (allowed.endsWith("/") && to.startsWith(allowed))),
      );
      if (crosses) found.push(`${relative(ROOT, file)} → ${relative(ROOT, target)}`);
    }
  }
  return found.sort();
}

/**
 * The layer table of docs/architecture.md as written: each row's layer and the parts named in its
 * second cell (`db/` → db, `errors.ts` → errors, `assets.d.ts` → assets.d, `views/` → views).
 */
function documentedLayers(markdown: string): { name: string; parts: string[] }[] {
  const section = markdown.split(/^## Layers$/m)[1]?.split(/^## /m)[0] ?? "";
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| layer"))
    .map((line) => line.split("|").map((cell) => cell.trim()))
    .map(([, name, parts]) => ({
      name: name!,
      parts: [...parts!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.replace(/\/$/, "").replace(/\.tsx?$/, "")),
    }));
}

describe("imports", () => {
  test("docs/architecture.md's layer table is the one this test enforces", () => {
    expect(documentedLayers(readFileSync(join(ROOT, "docs", "architecture.md"), "utf8"))).toEqual(LAYERS);
  });

  test("the layer table is read from its rows, a part renamed or moved there shows", () => {
    const page = [
      "# A",
      "## Layers",
      "| layer (bottom to top) | parts | its job |",
      "|---|---|---|",
      "| base | `util/`, `assets.d.ts` | helpers |",
      "| root | `main.ts` | the command line |",
      "## Next",
      "| other | `x/` | not a layer |",
    ].join("\n");
    expect(documentedLayers(page)).toEqual([
      { name: "base", parts: ["util", "assets.d"] },
      { name: "root", parts: ["main"] },
    ]);
  });

  test("src/ and views/ have no import cycle", () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(30);
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    expect(cycles(graph)).toEqual([]);
  });

  test("the folders of src/ (and views/) import each other in no loop", () => {
    const graph = new Map(sources().map((file) => [file, importsOf(file)]));
    expect(cycles(partGraph(graph), (part) => part)).toEqual([]);
  });

  test("the folder check sees loops of two and three folders where no two files loop", () => {
    const [disk, rows, schema, answers, http, proxy, detect, ipDns, lookup] = [
      "db/disk.ts",
      "store/rows.ts",
      "db/schema.ts",
      "dns/answers.ts",
      "net/http.ts",
      "net/proxy.ts",
      "ip/detect.ts",
      "ip/dns.ts",
      "dns/lookup.ts",
    ].map((name) => join(ROOT, "src", name)) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    const graph = new Map([
      [disk, [rows]],
      [rows, [schema]],
      [answers, [http]],
      [proxy, [detect]],
      [detect, [http]],
      [ipDns, [lookup]],
    ]);
    expect(cycles(graph)).toEqual([]);
    expect(cycles(partGraph(graph), (part) => part)).toEqual([
      "db → store → db",
      "dns → net → ip → dns",
      "net → ip → net",
    ]);
    graph.set(disk, []);
    graph.set(proxy, []);
    expect(cycles(partGraph(graph), (part) => part)).toEqual([]);
  });

  test("the check sees a cycle when there is one", () => {
    const [a, b, c] = ["a.ts", "b.ts", "c.ts"].map((name) => join(ROOT, name)) as [string, string, string];
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [b]],
        ]),
      ),
    ).toEqual(["b.ts → c.ts → b.ts"]);
  });

  test("every folder of src/ has its place in the layer table", () => {
    const graph = new Map(sources().map((file) => [file, importsOf(file)]));
    expect(layerViolations(graph).unplaced).toEqual([]);
  });

  test("no file imports a higher layer", () => {
    const graph = new Map(sources().map((file) => [file, importsOf(file)]));
    expect(layerViolations(graph).upward).toEqual([]);
  });

  test("services, protocols and signers stand apart inside dns/", () => {
    const graph = new Map(sources().map((file) => [file, importsOf(file)]));
    expect(dnsViolations(graph)).toEqual([]);
  });

  test("net/, ip/ and notify/ know nothing of the DNS services, and net/ nothing of the updater", () => {
    const graph = new Map(sources().map((file) => [file, importsOf(file)]));
    expect(apartViolations(graph)).toEqual([]);
  });

  test("the apart check sees notifications importing a DNS service and spares ip/'s DNS protocol", () => {
    const [channel, ip, lookup, wire, provider, http, state] = [
      "notify/channel.ts",
      "ip/dns.ts",
      "dns/lookup.ts",
      "dns/protocols/wire.ts",
      "dns/provider.ts",
      "net/http.ts",
      "updater/state.ts",
    ].map((name) => join(ROOT, "src", name)) as [string, string, string, string, string, string, string];
    const graph = new Map([
      [channel, [provider, http]],
      [ip, [lookup, wire, provider]],
      [http, [state]],
    ]);
    expect(apartViolations(graph)).toEqual([
      "src/ip/dns.ts → src/dns/provider.ts",
      "src/net/http.ts → src/updater/state.ts",
      "src/notify/channel.ts → src/dns/provider.ts",
    ]);
  });

  test("the dns/ check sees a service importing another and a signer importing a policy", () => {
    const [registry, a, b, signer, policy] = [
      "registry.ts",
      "services/a.ts",
      "services/b.ts",
      "signing/s.ts",
      "reconcile.ts",
    ].map((name) => join(ROOT, "src", "dns", name)) as [string, string, string, string, string];
    const graph = new Map([
      [registry, [a, b]],
      [a, [b, policy]],
      [signer, [policy]],
    ]);
    expect(dnsViolations(graph)).toEqual([
      "src/dns/services/a.ts → src/dns/services/b.ts",
      "src/dns/signing/s.ts → src/dns/reconcile.ts",
    ]);
  });

  test("the layer check sees an upward import and a folder with no place", () => {
    const [store, dns, modules, odd] = ["src/db/a.ts", "src/dns/b.ts", "src/modules/c.ts", "src/odd/d.ts"].map((name) =>
      join(ROOT, name),
    ) as [string, string, string, string];
    const graph = new Map([
      [modules, [dns, store]],
      [dns, [modules]],
      [odd, []],
    ]);
    expect(layerViolations(graph)).toEqual({ unplaced: ["odd"], upward: ["src/dns/b.ts → src/modules/c.ts"] });
  });
});
