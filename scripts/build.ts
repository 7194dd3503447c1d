// Builds the single executable. `bun run build` → dist/ddnsd for this machine;
// `bun run release` → dist/ddnsd-<target> for every RELEASE_TARGETS entry and dist/SHA256SUMS;
// `bun run build --outfile=PATH [--target=linux-x64-baseline]` writes elsewhere (the binary tests
// build into a temp dir). Migrations and docs/ are embedded with --asset; the build's git commit and its
// target are baked in for `ddnsd version`. scripts/image.ts imports `compile` to put the release
// binaries into container images.
//
// Each target embeds Bun's runtime for it, which `bun build` fetches once from the npm registry
// (@oven/bun-linux-x64-baseline and its siblings) into Bun's install cache.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { $ } from "bun";

/** The profile scripts/bytecode-order.ts records (`bun run bytecode-order`). */
export const BYTECODE_ORDER = join(import.meta.dir, "bytecode-order.txt");
/** How many times more reluctant the JIT is until the server is up (measured: 2 MB less idle, docs/performance.md). */
const STARTUP_JIT_POLICY = 8;

/**
 * `linux-x64-baseline` is the default x64 build (install.sh's choice without AVX2, the amd64
 * image's): Bun's plain x64 runtime is built for Haswell and dies with "Illegal instruction" on the
 * Celerons and Atoms of most NASes. `linux-x64` is the faster build for CPUs with AVX2.
 */
export const RELEASE_TARGETS = [
  "linux-x64-baseline",
  "linux-x64",
  "linux-arm64",
  "linux-x64-baseline-musl",
  "linux-x64-musl",
  "linux-arm64-musl",
] as const;

async function gitCommit(): Promise<string> {
  const result = await $`git rev-parse --short=12 HEAD`.nothrow().quiet();
  if (result.exitCode !== 0) return "unknown";
  const dirty = (await $`git status --porcelain --untracked-files=no`.nothrow().quiet()).text().trim() !== "";
  return `${result.text().trim()}${dirty ? "-dirty" : ""}`;
}

export type ReleaseTarget = (typeof RELEASE_TARGETS)[number];

export function isReleaseTarget(name: string): name is ReleaseTarget {
  return (RELEASE_TARGETS as readonly string[]).includes(name);
}

export async function compile(outfile: string, target?: ReleaseTarget): Promise<void> {
  const commit = await gitCommit();
  // Without a target Bun embeds the runtime that runs this build: this machine's kind.
  const named = target ?? `${process.platform}-${process.arch}`;
  const args = [
    "build",
    "--compile",
    "--minify",
    "--bytecode",
    "--format=esm",
    "--asset=./migrations",
    // The docs, served at /help (src/ui/help.ts): readable on a box without internet access.
    "--asset=./docs",
    // The appliance reads only its DDNS_* settings, never a bunfig.toml from where it runs.
    "--no-compile-autoload-bunfig",
    `--define=BUILD_COMMIT=${JSON.stringify(commit)}`,
    `--define=BUILD_TARGET=${JSON.stringify(named)}`,
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
    const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
    const target = option("target");
    if (target !== undefined && !isReleaseTarget(target))
      throw new Error(`--target must be one of ${RELEASE_TARGETS.join(", ")}`);
    await compile(option("outfile") ?? "dist/ddnsd", target);
  }
}

if (import.meta.main) await main();
