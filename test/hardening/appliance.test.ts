// The appliance as a process: ready means ready (a login sent after the first 200 from /healthz
// works), one instance per data dir (the second exits 1 naming DDNS_DATA_DIR; the first keeps
// serving; a kill -9 frees the lock), and `ddnsd admin set-password` revokes the running service's
// earlier tokens.

import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Appliance, login, spawnAppliance, untilHealthy } from "./appliance";

let dir: string;
const started: Appliance[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ddnsd-appliance-"));
});
afterEach(async () => {
  for (const appliance of started.splice(0)) {
    appliance.kill("SIGKILL");
    await appliance.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

function start(env: Record<string, string> = {}): Appliance {
  const appliance = spawnAppliance(dir, env);
  started.push(appliance);
  return appliance;
}

test("a login sent right after the first 200 from /healthz succeeds (on a fresh data dir)", async () => {
  const appliance = start();
  const before = await untilHealthy(appliance);
  const response = await login(appliance);
  expect(response.status).toBe(200);
  // Whatever answered before the 200 was not a success.
  expect(before.every((status) => status !== 200)).toBe(true);
});

test("a second ddnsd on the same data dir exits 1 with one line naming DDNS_DATA_DIR; the first keeps serving", async () => {
  const first = start();
  await untilHealthy(first);
  const second = start();
  expect(await second.exited).toBe(1);
  const output = second.lines.filter((line) => line.trim() !== "");
  expect(output).toHaveLength(1);
  expect(output[0]).toContain("DDNS_DATA_DIR");
  expect(output[0]).toContain("another ddnsd is already running");
  expect((await fetch(`${first.base}/healthz`)).status).toBe(200);
  expect((await login(first)).status).toBe(200);
});

test("the lock dies with its process: after kill -9 a new ddnsd starts on the data dir", async () => {
  const first = start();
  await untilHealthy(first);
  first.kill("SIGKILL");
  await first.exited;
  const next = start();
  await untilHealthy(next);
  expect((await login(next)).status).toBe(200);
});

test("`ddnsd admin set-password` run beside the service revokes the tokens it had issued", async () => {
  const appliance = start();
  await untilHealthy(appliance);
  const token = ((await (await login(appliance)).json()) as { access_token: string }).access_token;
  const providers = () =>
    fetch(`${appliance.base}/api/v1/providers`, { headers: { authorization: `Bearer ${token}` } });
  expect((await providers()).status).toBe(200);
  const cli = Bun.spawn(
    [process.execPath, "run", join(import.meta.dir, "../../src/main.ts"), "admin", "set-password", "admin"],
    {
      env: { PATH: process.env.PATH ?? "", DDNS_DATA_DIR: dir },
      stdin: new TextEncoder().encode("another-password-5678\n"),
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  expect(await cli.exited).toBe(0);
  const refused = await providers();
  expect(refused.status).toBe(401);
  expect(await refused.json()).toEqual({ detail: "Could not validate credentials" });
  expect((await login(appliance, "another-password-5678")).status).toBe(200);
});
