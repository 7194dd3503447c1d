// End to end with Debian's own pieces (docs/certificates.md): pebble, Let's Encrypt's test CA, checks
// the DNS-01 challenge at a real BIND on loopback; ddnsd writes the challenge there through its
// rfc2136 provider; lego (httpreq) and certbot (--manual, an auth hook speaking acme-dns as its
// clients do, with curl) each get a certificate for a name and its wildcard.

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dig, freePort, KEY_NAME, KEY_SECRET, type NameServer, startBind, ZONE } from "../servers/name-servers";
import { makeTestApp, type TestApp } from "../support";
import { lacking } from "../tools";

const HOST = `home.${ZONE}`;
const CHALLENGE = `_acme-challenge.${HOST}`;
/** A TXT value of the challenge name that ddnsd did not write: it must stay. */
const OTHER = "another-value-ddnsd-must-keep";
const RUN_MS = 150_000;
const missing = lacking("pebble", "lego", "certbot", "named", "openssl", "curl");

interface Rig {
  bind: NameServer;
  t: TestApp;
  ddnsd: ReturnType<typeof Bun.serve>;
  pebbleUrl: string;
  caCert: string;
  dir: string;
  stop(): Promise<void>;
}

/** Runs a command to its end within RUN_MS; its exit code and output. */
async function run(command: string[], env: Record<string, string>, cwd: string) {
  const child = Bun.spawn(command, { env: { ...process.env, ...env }, cwd, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => child.kill("SIGKILL"), RUN_MS);
  const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
  const code = await child.exited;
  clearTimeout(timer);
  return { code, output: `${out}\n${err}` };
}

async function startRig(): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), "ddnsd-acme-"));
  const bind = await startBind({ txt: true, records: [`_acme-challenge.home 60 IN TXT "${OTHER}"`] });
  const t = await makeTestApp({ DDNS_RESOLVERS: bind.address });
  const ddnsd = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => t.app.handle(request) });

  // pebble's own TLS certificate, for 127.0.0.1: lego and certbot are told to trust it.
  const caCert = join(dir, "pebble.pem");
  const caKey = join(dir, "pebble.key");
  const made = await run(
    ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"].concat([
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
      "-keyout",
      caKey,
      "-out",
      caCert,
    ]),
    {},
    dir,
  );
  expect(made.code).toBe(0);
  const [port, management] = [await freePort(), await freePort()];
  writeFileSync(
    join(dir, "pebble.json"),
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${port}`,
        managementListenAddress: `127.0.0.1:${management}`,
        certificate: caCert,
        privateKey: caKey,
        httpPort: await freePort(),
        tlsPort: await freePort(),
        ocspResponderURL: "",
        externalAccountBindingRequired: false,
      },
    }),
  );
  const pebble = Bun.spawn(["pebble", "-config", join(dir, "pebble.json"), "-dnsserver", bind.address], {
    env: { ...process.env, PEBBLE_VA_NOSLEEP: "1", PEBBLE_WFE_NONCEREJECT: "0", PEBBLE_AUTHZREUSE: "0" },
    stdout: "ignore",
    stderr: "ignore",
  });
  const pebbleUrl = `https://127.0.0.1:${port}/dir`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const up = await fetch(pebbleUrl, { tls: { rejectUnauthorized: false } }).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error("pebble did not start within 15 s");
    await Bun.sleep(100);
  }
  return {
    bind,
    t,
    ddnsd,
    pebbleUrl,
    caCert,
    dir,
    async stop() {
      pebble.kill();
      await pebble.exited;
      ddnsd.stop(true);
      t.ctx.sqlite.close();
      await bind.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(missing.length > 0)("certificates from pebble through ddnsd", () => {
  let rig: Rig;
  let key: { username: string; password: string; acme_dns_account: Record<string, string> };
  const ddnsdUrl = () => `http://127.0.0.1:${rig.ddnsd.port}`;

  beforeAll(async () => {
    rig = await startRig();
    const provider = await rig.t.request("POST", "/api/v1/providers", {
      body: {
        name: "home BIND",
        type: "rfc2136",
        credentials: { tsig_secret: KEY_SECRET },
        options: { server: rig.bind.address, tsig_key_name: KEY_NAME },
      },
    });
    expect(provider.status).toBe(200);
    const domain = await rig.t.request("POST", "/api/v1/domains", {
      body: { provider_id: provider.body.id, domain_name: HOST, record_type: "A" },
    });
    expect(domain.status).toBe(200);
    // Over the listening server, as the admin would: the account names the address ddnsd was reached at.
    const created = await fetch(`${ddnsdUrl()}/api/v1/acme-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${await rig.t.token()}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "reverse proxy", domain_ids: [domain.body.id] }),
    });
    expect(created.status).toBe(200);
    key = (await created.json()) as typeof key;
    expect(key.acme_dns_account.server_url).toBe(`${ddnsdUrl()}/acme-dns`);
  }, 60_000);
  afterAll(() => rig?.stop());

  test(
    "lego through httpreq gets home.example.test and its wildcard; cleanup leaves no value of its own",
    async () => {
      const path = join(rig.dir, "lego");
      const result = await run(
        ["lego", "--server", rig.pebbleUrl, "--email", "admin@example.test", "--accept-tos", "--path", path]
          .concat(["--dns", "httpreq", "--dns.resolvers", rig.bind.address, "--dns.disable-cp"])
          .concat(["-d", HOST, "-d", `*.${HOST}`, "run"]),
        {
          HTTPREQ_ENDPOINT: `${ddnsdUrl()}/acme`,
          HTTPREQ_USERNAME: key.username,
          HTTPREQ_PASSWORD: key.password,
          LEGO_CA_CERTIFICATES: rig.caCert,
        },
        rig.dir,
      );
      expect(result.output).not.toContain("error:");
      expect(result.code).toBe(0);
      expect(existsSync(join(path, "certificates", `${HOST}.crt`))).toBe(true);
      const left = await dig(rig.bind.port, CHALLENGE, "TXT");
      expect(left.records.map((r) => r.data)).toEqual([`"${OTHER}"`]);
      const history = await rig.t.request("GET", `/api/v1/domains/1/history?limit=20`);
      const messages = JSON.stringify(history.body);
      expect(messages).toContain(`for certificate key \\"reverse proxy\\" (httpreq)`);
      expect(messages).not.toContain(key.password);
      expect(rig.t.logs.join("\n")).not.toContain(key.password);
    },
    RUN_MS + 10_000,
  );

  test(
    "certbot --manual with an acme-dns auth hook gets home.example.test and its wildcard",
    async () => {
      const hook = join(rig.dir, "acme-dns-hook.sh");
      // What an acme-dns client sends (acme-dns README, "Update endpoint"): the account's server_url + /update.
      writeFileSync(
        hook,
        `#!/bin/sh
exec curl -sSf -X POST -H "X-Api-User: ${key.username}" -H "X-Api-Key: ${key.password}" \\
  -H "Content-Type: application/json" \\
  -d "{\\"subdomain\\": \\"${key.acme_dns_account.subdomain}\\", \\"txt\\": \\"$CERTBOT_VALIDATION\\"}" \\
  ${key.acme_dns_account.server_url}/update
`,
      );
      chmodSync(hook, 0o755);
      const base = join(rig.dir, "certbot");
      const result = await run(
        ["certbot", "certonly", "--manual", "--preferred-challenges", "dns", "--manual-auth-hook", hook]
          .concat(["--server", rig.pebbleUrl, "--no-verify-ssl", "--non-interactive", "--agree-tos"])
          .concat(["-m", "admin@example.test", "--no-eff-email", "--config-dir", `${base}/config`])
          .concat(["--work-dir", `${base}/work`, "--logs-dir", `${base}/logs`, "-d", HOST, "-d", `*.${HOST}`]),
        {},
        rig.dir,
      );
      expect(result.output).toContain("Successfully received certificate");
      expect(result.code).toBe(0);
      // The latest two values stay, as acme-dns keeps them; the value ddnsd did not write stays too.
      const held = await dig(rig.bind.port, CHALLENGE, "TXT");
      expect(held.records.map((r) => r.data)).toContain(`"${OTHER}"`);
      expect(held.records).toHaveLength(3);
    },
    RUN_MS + 10_000,
  );
});
