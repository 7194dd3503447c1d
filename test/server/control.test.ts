// The server as the only writer of its data dir: while it runs, the CLI's write commands
// (`ddnsd admin set-password`, `ddnsd check`, `ddnsd import`) go through its control socket (<data dir>/ddnsd.sock,
// mode 0600) and run inside it, so what it keeps in memory — revocations, answers served again — is
// current for the very next request. Real processes: the appliance and the CLI (`bun run src/main.ts`).

import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { controlSocketPath, sendCommand } from "../../src/control/socket";
import { startCloudflareFake } from "../fakes/cloudflare";
import { startEchoFake } from "../fakes/echo";
import { APPLIANCE_PASSWORD, type Appliance, login, spawnAppliance, untilHealthy } from "../hardening/appliance";

const ROOT = resolve(import.meta.dir, "../..");
const NEW_PASSWORD = "a-new-password-from-the-cli";

const work = mkdtempSync(join(tmpdir(), "ddnsd-control-"));
const dataDir = join(work, "data");
const cf = startCloudflareFake();
const echo = startEchoFake();
const env = { DDNS_CLOUDFLARE_API_URL: cf.url, DDNS_IPV4_URLS: `${echo.url}/v4`, DDNS_IPV6_URLS: `${echo.url}/v6` };
let appliance: Appliance;

beforeAll(async () => {
  appliance = spawnAppliance(dataDir, env);
  await untilHealthy(appliance);
});

afterAll(async () => {
  appliance.kill("SIGTERM");
  await appliance.exited;
  await Promise.all([cf.stop(), echo.stop()]);
  rmSync(work, { recursive: true, force: true });
});

/** The CLI, as a person runs it beside the service: same data dir, same settings. */
async function ddnsd(args: string[], stdin?: string) {
  const child = Bun.spawn([process.execPath, "run", "src/main.ts", ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DDNS_DATA_DIR: dataDir, DDNS_LOG_FORMAT: "json", ...env },
    stdin: stdin === undefined ? "ignore" : new Blob([stdin]),
    stdout: "pipe",
    stderr: "pipe",
    timeout: 20_000,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { stdout, stderr, code };
}

async function tokenFor(password: string): Promise<string> {
  const response = await login(appliance, password);
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

const api = (token: string, method: string, path: string, body?: unknown) =>
  fetch(`${appliance.base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

test("the control socket is the data dir's, readable and writable by its owner only", () => {
  expect(statSync(controlSocketPath(dataDir)).mode & 0o777).toBe(0o600);
});

test("a password set from the CLI while the server runs: the old token is refused by the very next request", async () => {
  const token = await tokenFor(APPLIANCE_PASSWORD);
  expect((await api(token, "GET", "/domains")).status).toBe(200);
  const result = await ddnsd(["admin", "set-password", "admin"], `${NEW_PASSWORD}\n`);
  expect(result).toMatchObject({ code: 0, stdout: "Password changed for admin.\n" });
  expect(result.stderr).not.toContain(NEW_PASSWORD);
  expect((await api(token, "GET", "/domains")).status).toBe(401);
  expect((await login(appliance, APPLIANCE_PASSWORD)).status).toBe(401);
  expect((await login(appliance, NEW_PASSWORD)).status).toBe(200);
  // It ran inside the server, which logged it (without the password).
  expect(appliance.lines.some((line) => line.includes("password set") && line.includes('"via":"cli"'))).toBe(true);
  expect(appliance.lines.some((line) => line.includes(NEW_PASSWORD))).toBe(false);
});

test("a too-short password through the server exits 2 and changes nothing", async () => {
  const result = await ddnsd(["admin", "set-password", "admin"], "short\n");
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("at least 8 characters");
  expect((await login(appliance, NEW_PASSWORD)).status).toBe(200);
});

test("`ddnsd check` while the server runs: its outcomes show in the very next list", async () => {
  const token = await tokenFor(NEW_PASSWORD);
  cf.addZone("example.com");
  const provider = (await (
    await api(token, "POST", "/providers", {
      name: "cf",
      type: "cloudflare",
      credentials: { api_token: "cf-fake-token-0123456789abcdef" },
    })
  ).json()) as { id: number };
  const domain = (await (
    await api(token, "POST", "/domains", { provider_id: provider.id, domain_name: "home.example.com" })
  ).json()) as { id: number };
  const checkedAt = async () =>
    ((await (await api(token, "GET", "/domains")).json()) as { id: number; last_checked_at: string | null }[]).find(
      (d) => d.id === domain.id,
    )!.last_checked_at;
  // The scheduler checks the new domain at once, and not again for its interval (5 minutes).
  let first: string | null = null;
  for (let i = 0; i < 100 && first === null; i++) {
    first = await checkedAt();
    if (first === null) await Bun.sleep(50);
  }
  expect(first).not.toBeNull();
  expect(await checkedAt()).toBe(first); // served again from memory
  await Bun.sleep(5); // a later millisecond for the next check
  const result = await ddnsd(["check"]);
  expect(result).toMatchObject({ code: 0 });
  expect(result.stdout).toContain("home.example.com A");
  expect(Date.parse((await checkedAt())!)).toBeGreaterThan(Date.parse(first!));
});

test("`ddnsd import` while the server runs: applied inside it, seen by the very next request", async () => {
  const token = await tokenFor(NEW_PASSWORD);
  const file = join(work, "setup.yaml");
  writeFileSync(
    file,
    "version: 1\nproviders:\n  - name: Imported\n    type: duckdns\n    credentials: {token: 0123456789abcdef0123456789abcdef}\n",
  );
  const dry = await ddnsd(["import", file, "--dry-run"]);
  expect(dry).toMatchObject({ code: 0 });
  expect(dry.stdout).toContain('create provider "Imported" (duckdns)');
  expect(
    ((await (await api(token, "GET", "/providers")).json()) as { name: string }[]).map((p) => p.name),
  ).not.toContain("Imported");
  const applied = await ddnsd(["import", file]);
  expect(applied).toMatchObject({ code: 0 });
  expect(((await (await api(token, "GET", "/providers")).json()) as { name: string }[]).map((p) => p.name)).toContain(
    "Imported",
  );
});

test("the socket refuses what is not a command", async () => {
  const unknown = await sendCommand(dataDir, "drop-everything", {});
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain("Unknown command");
});

test("an import through the server is bounded: a huge or deeply nested file is refused, and the server answers meanwhile", async () => {
  const huge = join(work, "huge.yaml");
  writeFileSync(huge, `version: 1\nproviders:\n${"  - {name: a, type: duckdns}\n".repeat(20_000)}`);
  const refused = await ddnsd(["import", huge, "--dry-run"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("the file is larger than 256 KiB");
  // Sent to the socket directly, past the CLI's own check: refused before it is parsed, the server answering meanwhile.
  const nested = await Promise.all([
    sendCommand(dataDir, "import", {
      text: `version: 1\nproviders: ${"[".repeat(200_000)}`,
      source: "nested.yaml",
      dryRun: true,
    }),
    fetch(`${appliance.base}/healthz`).then((r) => r.status),
  ]);
  expect(nested[0]).toMatchObject({ code: 1 });
  expect(nested[0].stderr).toContain("the file nests deeper than 32 levels");
  expect(nested[1]).toBe(200);
  const tooBig = await sendCommand(dataDir, "import", {
    text: "#".repeat(300 * 1024),
    source: "big.yaml",
    dryRun: true,
  });
  expect(tooBig.stderr).toContain("the file is larger than 256 KiB");
});

test("import --prune of a file naming no providers and no domains is refused without --force", async () => {
  const token = await tokenFor(NEW_PASSWORD);
  const empty = join(work, "empty.yaml");
  writeFileSync(empty, "version: 1\n");
  const before = ((await (await api(token, "GET", "/providers")).json()) as unknown[]).length;
  expect(before).toBeGreaterThan(0);
  const refused = await ddnsd(["import", empty, "--prune"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("names no providers and no domains");
  expect(((await (await api(token, "GET", "/providers")).json()) as unknown[]).length).toBe(before);
  const dry = await ddnsd(["import", empty, "--prune", "--force", "--dry-run"]);
  expect(dry).toMatchObject({ code: 0 });
  expect(dry.stdout).toContain("delete provider");
});
