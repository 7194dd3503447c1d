// Real dyndns2 clients against the push endpoint on loopback: Debian's ddclient and inadyn (with
// the very section docs/router-push.md gives), one run each with a config file in a temporary directory, talking to the real app (served by
// Bun.serve) backed by the Cloudflare fake. Each run is bounded (killed after 20 s); a machine
// without the package skips its test.

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addDomain, addProvider, historyOf, makeDue, NEXT_IPV4, type Rig, useRig } from "../updater/harness";

const current = useRig();
let rig: Rig;
let server: ReturnType<typeof Bun.serve>;
let dir: string;
beforeAll(() => {
  server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => current().t.app.handle(request) });
});
afterAll(async () => {
  await server.stop(true);
});
beforeEach(() => {
  rig = current();
  dir = mkdtempSync(join(tmpdir(), "ddnsd-clients-"));
});

const NEW_IP = "81.2.69.160";

async function homeDomain(fields: Record<string, unknown> = {}): Promise<{ id: number; key: string }> {
  rig.cf.addZone("example.com");
  rig.cf.addRecord("example.com", { type: "A", name: "home", content: "81.2.69.142" });
  const domain = await addDomain(rig.t, (await addProvider(rig.t, "cloudflare")).id, "home.example.com", fields);
  const { key } = (
    await rig.t.request("POST", "/api/v1/update-keys", { body: { name: "router", domain_ids: [domain.id] } })
  ).body;
  return { id: domain.id, key };
}

async function run(command: string[]): Promise<{ code: number; output: string }> {
  const child = Bun.spawn(command, { cwd: dir, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => child.kill(), 20_000);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  rmSync(dir, { recursive: true, force: true });
  return { code, output: `${stdout}${stderr}` };
}

function configFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, 0o600);
  return path;
}

describe("ddclient", () => {
  test.skipIf(Bun.which("ddclient") === null)(
    "pushes its address once: the record follows, ddclient reports success",
    async () => {
      const { id, key } = await homeDomain();
      const file = configFile(
        "ddclient.conf",
        [
          `ssl=no`,
          `protocol=dyndns2`,
          `server=127.0.0.1:${server.port}`,
          `login=router`,
          `password='${key}'`,
          `usev4=ipv4, ipv4=${NEW_IP}`,
          "home.example.com",
          "",
        ].join("\n"),
      );
      const { output } = await run([
        "ddclient",
        "-daemon=0",
        "-foreground",
        "-force",
        "-verbose",
        "-file",
        file,
        "-cache",
        join(dir, "cache"),
      ]);
      expect(output).toContain("SUCCESS");
      expect(rig.cf.record("home.example.com", "A")!.content).toBe(NEW_IP);
      const [row] = await historyOf(rig.t, id);
      expect(row).toMatchObject({ trigger: "push", status: "SUCCESS", ip_address: NEW_IP });
      expect(output).not.toContain(key);
    },
  );
});

/**
 * The inadyn section of docs/router-push.md as a reader copies it, pointed at this ddnsd (with
 * the key), its public address from a command instead of a check-IP service on the internet;
 * `without` drops the lines that start with it.
 */
function inadynRecipe(key: string, without?: string): string {
  const doc = readFileSync(join(import.meta.dir, "../../docs/router-push.md"), "utf8");
  const recipe = /```\n(custom ddnsd \{\n[\s\S]*?\n\})\n```/.exec(doc)?.[1];
  if (recipe === undefined) throw new Error("docs/router-push.md has no inadyn section `custom ddnsd { … }`");
  const lines = recipe
    .replace("ddnsd.lan:8001", `127.0.0.1:${server.port}`)
    .replace("<key>", key)
    .split("\n")
    .filter((line) => without === undefined || !line.trim().startsWith(without));
  return [...lines.slice(0, -1), `    checkip-command = "/bin/echo ${NEW_IP}"`, "}", ""].join("\n");
}

describe("inadyn", () => {
  const inadyn = (file: string) =>
    run([
      "inadyn",
      "--once",
      "--foreground",
      "--force",
      "-l",
      "debug",
      "-f",
      file,
      "--cache-dir",
      dir,
      "-P",
      join(dir, "inadyn.pid"),
    ]);

  test.skipIf(Bun.which("inadyn") === null)(
    "the recipe of docs/router-push.md, as written: the record follows",
    async () => {
      const { id, key } = await homeDomain();
      const { output } = await inadyn(configFile("inadyn.conf", inadynRecipe(key)));
      expect(rig.cf.record("home.example.com", "A")!.content).toBe(NEW_IP);
      const [row] = await historyOf(rig.t, id);
      expect(row).toMatchObject({ trigger: "push", status: "SUCCESS", ip_address: NEW_IP });
      expect(output).not.toContain("badauth");
    },
  );

  test.skipIf(Bun.which("inadyn") === null)(
    "without `ssl = false` inadyn tries HTTPS on the plain HTTP port and fails: why the recipe has it",
    async () => {
      const { id, key } = await homeDomain();
      const { output } = await inadyn(configFile("inadyn.conf", inadynRecipe(key, "ssl")));
      expect(output).toMatch(/SSL|TLS|handshake/i);
      expect(rig.cf.record("home.example.com", "A")!.content).toBe("81.2.69.142");
      expect(await historyOf(rig.t, id)).not.toContainEqual(expect.objectContaining({ trigger: "push" }));
    },
  );
});

/**
 * A push-only record (address_source push) after a real client pushed: the echo services answer
 * another address, and pass after pass of the schedule (each domain made due, as its interval
 * would) leaves the pushed address in place, with no request to the provider or an echo service.
 */
async function expectPushStands(id: number): Promise<void> {
  rig.echo.ipv4 = NEXT_IPV4;
  rig.cf.clearRequests();
  for (let interval = 0; interval < 5; interval++) {
    makeDue(rig.t);
    await rig.t.ctx.scheduler.runPass();
  }
  expect(rig.cf.record("home.example.com", "A")!.content).toBe(NEW_IP);
  expect(rig.cf.requests).toHaveLength(0);
  expect(rig.echo.requests).toHaveLength(0);
  expect((await historyOf(rig.t, id)).map((row) => [row.trigger, row.ip_address])).toEqual([["push", NEW_IP]]);
}

describe("push-only records", () => {
  test.skipIf(Bun.which("ddclient") === null)(
    "ddclient's address stands through five intervals while the echo services say otherwise",
    async () => {
      const { id, key } = await homeDomain({ address_source: "push" });
      const file = configFile(
        "ddclient.conf",
        [
          `ssl=no`,
          `protocol=dyndns2`,
          `server=127.0.0.1:${server.port}`,
          `login=router`,
          `password='${key}'`,
          `usev4=ipv4, ipv4=${NEW_IP}`,
          "home.example.com",
          "",
        ].join("\n"),
      );
      const { output } = await run([
        "ddclient",
        "-daemon=0",
        "-foreground",
        "-force",
        "-verbose",
        "-file",
        file,
        "-cache",
        join(dir, "cache"),
      ]);
      expect(output).toContain("SUCCESS");
      await expectPushStands(id);
    },
  );

  test.skipIf(Bun.which("inadyn") === null)(
    "inadyn's address stands through five intervals while the echo services say otherwise",
    async () => {
      const { id, key } = await homeDomain({ address_source: "push" });
      const file = configFile(
        "inadyn.conf",
        [
          "period = 60",
          "custom ddnsd {",
          `  ssl = false`,
          `  username = router`,
          `  password = "${key}"`,
          `  ddns-server = "127.0.0.1:${server.port}"`,
          `  ddns-path = "/nic/update?hostname=%h&myip=%i"`,
          `  checkip-command = "/bin/echo ${NEW_IP}"`,
          `  hostname = "home.example.com"`,
          "}",
          "",
        ].join("\n"),
      );
      const { output } = await run([
        "inadyn",
        "--once",
        "--foreground",
        "--force",
        "-l",
        "debug",
        "-f",
        file,
        "--cache-dir",
        dir,
        "-P",
        join(dir, "inadyn.pid"),
      ]);
      expect(output).not.toContain("badauth");
      await expectPushStands(id);
    },
  );
});
