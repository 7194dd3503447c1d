// Real dyndns2 clients against the push endpoint on loopback: Debian's ddclient and inadyn (with
// the very section docs/router-push.md gives, and with its UniFi form's settings over HTTPS), one
// run each with a config file in a temporary directory, talking to the real app (served by
// Bun.serve) backed by the Cloudflare fake. Each run is bounded (killed after 20 s); a machine
// without the package skips its test (under CI, where the README's test command installs both, it
// fails instead).

import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "../../src/server";
import { lacks } from "../tools";
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
  test.skipIf(lacks("ddclient"))("pushes its address once: the record follows, ddclient reports success", async () => {
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
  });
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

/** One run of inadyn with `file`: an update now, in the foreground, its cache and pid file in the test's directory. */
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

describe("inadyn", () => {
  test.skipIf(lacks("inadyn"))("the recipe of docs/router-push.md, as written: the record follows", async () => {
    const { id, key } = await homeDomain();
    const { output } = await inadyn(configFile("inadyn.conf", inadynRecipe(key)));
    expect(rig.cf.record("home.example.com", "A")!.content).toBe(NEW_IP);
    const [row] = await historyOf(rig.t, id);
    expect(row).toMatchObject({ trigger: "push", status: "SUCCESS", ip_address: NEW_IP });
    expect(output).not.toContain("badauth");
  });

  test.skipIf(lacks("inadyn"))(
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
 * The UniFi form of docs/router-push.md as UniFi turns it into an inadyn section: a `custom`
 * provider with the form's fields, its Server split at the first "/" into ddns-server and
 * ddns-path, no `ssl` line (the form has none, so inadyn's default, HTTPS) and the public address
 * from a command. `server` replaces the recipe's `ddnsd.lan:8443`; `trust` (a CA file) is the only
 * other change, standing for the certificate a gateway trusts.
 */
function unifiConfig(key: string, server: string, trust: string | null): string {
  const doc = readFileSync(join(import.meta.dir, "../../docs/router-push.md"), "utf8");
  const form = doc.slice(doc.indexOf("**UniFi**"), doc.indexOf("**OpenWrt**"));
  const field = (name: string) => {
    const value = new RegExp(`${name}: \`([^\`]*)\``).exec(form)?.[1];
    if (value === undefined) throw new Error(`docs/router-push.md's UniFi recipe has no ${name}`);
    return value;
  };
  expect(field("Service")).toBe("custom");
  expect(form).toContain("Password: the key");
  const address = field("Server");
  expect(address.startsWith("ddnsd.lan:8443/")).toBe(true);
  const slash = address.indexOf("/");
  return [
    ...(trust === null ? [] : [`ca-trust-file = ${trust}`]),
    "custom unifi {",
    `    username = "${field("Username")}"`,
    `    password = "${key}"`,
    `    ddns-server = "${server}"`,
    `    ddns-path = "${address.slice(slash)}"`,
    `    hostname = "${field("Hostname")}"`,
    `    checkip-command = "/bin/echo ${NEW_IP}"`,
    "}",
    "",
  ].join("\n");
}

describe("UniFi (inadyn with the form's settings, over HTTPS)", () => {
  let https: RunningServer;
  let tls: string;
  beforeAll(() => {
    // A throwaway self-signed certificate for 127.0.0.1, and ddnsd serving HTTPS with it
    // (DDNS_TLS_CERT, DDNS_TLS_KEY) as the recipe says.
    tls = mkdtempSync(join(tmpdir(), "ddnsd-unifi-tls-"));
    const openssl = Bun.spawnSync(
      // biome-ignore format: the openssl command line reads best as one
      ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
        "-subj", "/CN=ddnsd test", "-addext", "subjectAltName=IP:127.0.0.1",
        "-keyout", join(tls, "key.pem"), "-out", join(tls, "cert.pem")],
      { stdout: "pipe", stderr: "pipe" },
    );
    if (openssl.exitCode !== 0) throw new Error(`openssl failed: ${openssl.stderr.toString()}`);
    const ctx = current().t.ctx;
    const settings = {
      ...ctx.settings,
      host: "127.0.0.1",
      port: 0,
      tlsCert: join(tls, "cert.pem"),
      tlsKey: join(tls, "key.pem"),
    };
    https = startServer({ ...ctx, settings }, current().t.app);
  });
  afterAll(async () => {
    // Only the listener: the app and its database belong to the rig.
    await https.server.stop(true);
    rmSync(tls, { recursive: true, force: true });
  });
  const skip = lacks("inadyn") || lacks("openssl");

  test.skipIf(skip)(
    "the recipe against ddnsd's HTTPS port, with a certificate inadyn trusts: the record follows",
    async () => {
      const { id, key } = await homeDomain();
      const config = unifiConfig(key, `127.0.0.1:${https.server.port}`, join(tls, "cert.pem"));
      const { output } = await inadyn(configFile("inadyn.conf", config));
      expect(rig.cf.record("home.example.com", "A")!.content).toBe(NEW_IP);
      const [row] = await historyOf(rig.t, id);
      expect(row).toMatchObject({ trigger: "push", status: "SUCCESS", ip_address: NEW_IP });
      expect(output).not.toContain("badauth");
    },
  );

  test.skipIf(skip)("a certificate the gateway does not trust: inadyn sends nothing", async () => {
    const { id, key } = await homeDomain();
    const { output } = await inadyn(
      configFile("inadyn.conf", unifiConfig(key, `127.0.0.1:${https.server.port}`, null)),
    );
    expect(output).toMatch(/certificate|verif/i);
    expect(rig.cf.record("home.example.com", "A")!.content).toBe("81.2.69.142");
    expect(await historyOf(rig.t, id)).not.toContainEqual(expect.objectContaining({ trigger: "push" }));
  });

  test.skipIf(skip)("the plain HTTP port, which the form cannot ask for: SSL handshake failed", async () => {
    const { id, key } = await homeDomain();
    const config = unifiConfig(key, `127.0.0.1:${server.port}`, join(tls, "cert.pem"));
    const { output } = await inadyn(configFile("inadyn.conf", config));
    expect(output).toMatch(/SSL|TLS|handshake/i);
    expect(rig.cf.record("home.example.com", "A")!.content).toBe("81.2.69.142");
    expect(await historyOf(rig.t, id)).not.toContainEqual(expect.objectContaining({ trigger: "push" }));
  });
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
  test.skipIf(lacks("ddclient"))(
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

  test.skipIf(lacks("inadyn"))(
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
      const { output } = await inadyn(file);
      expect(output).not.toContain("badauth");
      await expectPushStands(id);
    },
  );
});
