// Builds the single executable. `bun run build` → dist/ddnsd for this machine;
// `bun run release` → dist/ddnsd-linux-{x64,arm64}[-musl] and dist/SHA256SUMS;
// `bun run build --outfile=PATH` writes elsewhere (the binary test builds into a temp dir).
// Migrations are embedded with --asset; the build's git commit is baked in for `ddnsd version`.
// scripts/image.ts imports `compile` to put the release binaries into container images.

import { $ } from "bun";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/** The profile scripts/bytecode-order.ts records (`bun run bytecode-order`). */
export const BYTECODE_ORDER = join(import.meta.dir, "bytecode-order.txt");
/** How many times more reluctant the JIT is until the server is up (measured: 2 MB less idle, docs/performance.md). */
const STARTUP_JIT_POLICY = 8;

export const RELEASE_TARGETS = ["linux-x64", "linux-arm64", "linux-x64-musl", "linux-arm64-musl"] as const;

async function gitCommit(): Promise<string> {
  const result = await $`git rev-parse --short=12 HEAD`.nothrow().quiet();
  if (result.exitCode !== 0) return "unknown";
  const dirty = (await $`git status --porcelain --untracked-files=no`.nothrow().quiet()).text().trim() !== "";
  return `${result.text().trim()}${dirty ? "-dirty" : ""}`;
}

export type ReleaseTarget = (typeof RELEASE_TARGETS)[number];

export async function compile(outfile: string, target?: ReleaseTarget): Promise<void> {
  const commit = await gitCommit();
  const args = [
    "build",
    "--compile",
    "--minify",
    "--bytecode",
    "--format=esm",
    "--asset=./migrations",
    // The appliance reads only its DDNS_* settings, never a bunfig.toml from where it runs.
    "--no-compile-autoload-bunfig",
    `--define=BUILD_COMMIT=${JSON.stringify(commit)}`,
    // Less resident memory (docs/performance.md, footprint): the bytecode a running appliance uses
    // laid out together (scripts/bytecode-order.ts records it), and start-up code left uncompiled by
    // the JIT until main.ts says the server is up.
    ...(existsSync(BYTECODE_ORDER) ? [`--bytecode-order=${BYTECODE_ORDER}`] : []),
    `--compile-jit-policy=${STARTUP_JIT_POLICY}`,
    ...(target ? [`--target=bun-${target}`] : []),
    "src/main.ts",
    `--outfile=${outfile}`,
  ];
  const child = Bun.spawnSync(["bun", ...args], { stdout: "inherit", stderr: "inherit" });
  if (child.exitCode !== 0) throw new Error(`bun build failed for ${target ?? "this machine"}`);
}

async function main(): Promise<void> {
  mkdirSync("dist", { recursive: true });
  if (process.argv.includes("--release")) {
    const sums: string[] = [];
    for (const target of RELEASE_TARGETS) {
      const outfile = `dist/ddnsd-${target}`;
      await compile(outfile, target);
      sums.push(`${createHash("sha256").update(readFileSync(outfile)).digest("hex")}  ${basename(outfile)}`);
    }
    writeFileSync("dist/SHA256SUMS", `${sums.join("\n")}\n`);
    console.log(`wrote ${RELEASE_TARGETS.length} binaries and dist/SHA256SUMS`);
  } else {
    const outfile = process.argv.find((arg) => arg.startsWith("--outfile="))?.slice("--outfile=".length);
    await compile(outfile ?? "dist/ddnsd");
  }
}

if (import.meta.main) await main();
