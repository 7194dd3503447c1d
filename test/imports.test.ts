// No import cycles among the sources (DESIGN.md, "The second shape"): every `import` and
// `export … from` of src/ and views/, type-only ones included, as a graph with no loop. The old
// loop was context → updater/scheduler → updater/update → providers/service → context.

import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { Glob } from "bun";

const ROOT = resolve(import.meta.dir, "..");

function sources(): string[] {
  return ["src", "views"].flatMap((dir) => [...new Glob("**/*.{ts,tsx}").scanSync({ cwd: join(ROOT, dir) })].map((file) => join(ROOT, dir, file)));
}

/** The local files a module imports (packages and assets left out). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+["']([^"']+)["']/gms)].map((m) => m[1]!);
  return specifiers
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => {
      const base = resolve(dirname(file), specifier);
      return [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => existsSync(candidate) && /\.tsx?$/.test(candidate));
    })
    .filter((path): path is string => path !== undefined);
}

/** One cycle per strongly connected part of the graph that loops, as a readable path. */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(ROOT, f)).join(" → "));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe("imports", () => {
  test("src/ and views/ have no import cycle", () => {
    const files = sources();
    expect(files.length).toBeGreaterThan(30);
    const graph = new Map(files.map((file) => [file, importsOf(file)]));
    expect(cycles(graph)).toEqual([]);
  });

  test("the check sees a cycle when there is one", () => {
    const [a, b, c] = ["a.ts", "b.ts", "c.ts"].map((name) => join(ROOT, name)) as [string, string, string];
    expect(cycles(new Map([[a, [b]], [b, [c]], [c, [b]]]))).toEqual(["b.ts → c.ts → b.ts"]);
  });
});
