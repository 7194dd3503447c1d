// Real authoritative name servers for the rfc2136 and powerdns tests: BIND 9 (named), Knot (knotd)
// and PowerDNS (pdns_server with the sqlite3 backend), as Debian packages them (bind9, knot,
// pdns-server, pdns-backend-sqlite3; dig from bind9-dnsutils reads results back). Each starts on
// 127.0.0.1 on free ports, from a throwaway configuration in a temp dir, under the package's own
// unprivileged user when the tests run as root, serving the same zones:
//
// - example.test: SOA, NS, an apex A, `www` with A, AAAA, TXT and MX, `home` with an A (TTL 1234),
//   and `sub` delegated (NS + glue) to
// - sub.example.test: a zone of its own on the same server, with `host` A (TTL 900);
// - locked.test: served, but the key may not update it (BIND and Knot answer REFUSED).
//
// The TSIG key `ddnsd-key` (hmac-sha256) may change A and AAAA records in the first two zones only.
// Everything is stopped, and the temp dir removed, by `stop()`; a server that does not answer within
// STARTUP_MS fails the test with its own log.

import { Database } from "bun:sqlite";
import { chownSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lacking } from "../tools";

export const ZONE = "example.test";
export const SUB_ZONE = "sub.example.test";
export const LOCKED_ZONE = "locked.test";
export const KEY_NAME = "ddnsd-key";
/** 32 random bytes, as `tsig-keygen` makes them, fixed so a failing test can be replayed with nsupdate. */
export const KEY_SECRET = "3q2+7wTYdZbQ1a2VJvZ0Oq0Wm8Hj1yq0C1Tgq0Zk2lE=";
export const OTHER_SECRET = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

/** The records every server starts with, as zone-file lines (owner relative to the zone). */
const RECORDS: Record<string, string[]> = {
  [ZONE]: [
    "@ 3600 IN SOA ns.example.test. hostmaster.example.test. 1 3600 900 604800 300",
    "@ 3600 IN NS ns.example.test.",
    "@ 600 IN A 192.0.2.1",
    "ns 3600 IN A 127.0.0.1",
    "www 1234 IN A 192.0.2.10",
    "www 1234 IN AAAA 2001:db8::10",
    'www 3600 IN TXT "keep me"',
    "www 3600 IN MX 10 mail.example.test.",
    "home 1234 IN A 192.0.2.2",
    "race 300 IN A 192.0.2.40",
    // Answers for every name under wild.example.test that has no records of its own.
    "*.wild 600 IN A 192.0.2.77",
    "sub 3600 IN NS ns.sub.example.test.",
    "ns.sub 3600 IN A 127.0.0.1",
  ],
  [SUB_ZONE]: [
    "@ 3600 IN SOA ns.sub.example.test. hostmaster.example.test. 1 3600 900 604800 300",
    "@ 3600 IN NS ns.sub.example.test.",
    "ns 3600 IN A 127.0.0.1",
    "host 900 IN A 192.0.2.20",
  ],
  [LOCKED_ZONE]: [
    "@ 3600 IN SOA ns.example.test. hostmaster.example.test. 1 3600 900 604800 300",
    "@ 3600 IN NS ns.example.test.",
    "home 600 IN A 192.0.2.30",
  ],
};

const STARTUP_MS = 15_000;

export interface NameServer {
  kind: "bind" | "knot" | "powerdns";
  host: string;
  /** The DNS port (UDP and TCP). */
  port: number;
  /** `host:port`, as the rfc2136 `server` option takes it. */
  address: string;
  /** The output so far, for a failing test's message. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

export interface PowerDns extends NameServer {
  /** The webserver's base URL, e.g. `http://127.0.0.1:40123`. */
  apiUrl: string;
  apiKey: string;
}

/** The name-server programs this machine lacks (under CI, where every one is installed, it throws). */
export function missingPrograms(): string[] {
  return lacking("named", "knotd", "pdns_server", "dig");
}

/** A port nothing listens on right now (TCP; the servers bind UDP on the same number). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** What a test adds to example.test: zone-file lines (owner relative to the zone), e.g. a thousand hosts for a benchmark. */
export interface ServerOptions {
  records?: readonly string[];
  /**
   * Where PowerDNS answers DNS (its API listens on the same address): a loopback address of the
   * test's own and port 53, as a zone's NS records name their servers; 127.0.0.1 on a free port by default.
   */
  listen?: { address: string; port: number };
  /** The key may also change TXT records (the ACME challenge, test/acme/); A and AAAA only by default. */
  txt?: boolean;
}

function zoneLines(zone: string, options: ServerOptions): string[] {
  const address = options.listen?.address ?? "127.0.0.1";
  // The name servers' own A records name the address the server answers on.
  const lines = (RECORDS[zone] ?? []).map((line) => line.replace(/ A 127\.0\.0\.1$/, ` A ${address}`));
  return [...lines, ...(zone === ZONE ? (options.records ?? []) : [])];
}

function zoneFile(zone: string, options: ServerOptions): string {
  return `$ORIGIN ${zone}.\n${zoneLines(zone, options).join("\n")}\n`;
}

/** A temp dir owned by `user` when we are root, so the server can write its journals after dropping privileges. */
export function workDir(user: string): { dir: string; own(): void; runAs: boolean } {
  const dir = mkdtempSync(join(tmpdir(), `ddnsd-${user}-`));
  const runAs = process.getuid?.() === 0;
  return {
    dir,
    runAs,
    own() {
      if (!runAs) return;
      const uid = Number(Bun.spawnSync(["id", "-u", user]).stdout.toString().trim());
      const gid = Number(Bun.spawnSync(["id", "-g", user]).stdout.toString().trim());
      chownSync(dir, uid, gid);
      for (const name of readdirSync(dir)) chownSync(join(dir, name), uid, gid);
    },
  };
}

export type Started = { stop(): Promise<void>; log(): Promise<string> };

export function launch(command: string[], dir: string): Started {
  const logFile = join(dir, "server.log");
  const child = Bun.spawn(command, { stdout: Bun.file(logFile), stderr: Bun.file(logFile), stdin: "ignore" });
  return {
    log: async () =>
      `${command.join(" ")} (exit ${child.exitCode ?? "running"}):\n${await Bun.file(logFile)
        .text()
        .catch(() => "")}`,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(5000).then(() => false)]);
        if (!exited) {
          child.kill("SIGKILL");
          await child.exited;
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until the server answers an SOA query for `zone` authoritatively. */
export async function ready(port: number, started: Started, zone = ZONE, host = "127.0.0.1"): Promise<void> {
  const deadline = Date.now() + STARTUP_MS;
  while (Date.now() < deadline) {
    const answer = await dig(port, zone, "SOA", host);
    if (answer.status === "NOERROR" && answer.records.length > 0) return;
    await Bun.sleep(100);
  }
  const log = await started.log();
  await started.stop();
  throw new Error(`The name server did not answer on ${host}:${port} within ${STARTUP_MS} ms\n${log}`);
}

export async function startBind(options: ServerOptions = {}): Promise<NameServer> {
  const work = workDir("bind");
  const { dir } = work;
  const port = await freePort();
  const zones = Object.keys(RECORDS)
    .map((zone) => {
      writeFileSync(join(dir, `${zone}.zone`), zoneFile(zone, options));
      const policy =
        zone === LOCKED_ZONE ? "" : `update-policy { grant ${KEY_NAME} zonesub A AAAA${options.txt ? " TXT" : ""}; };`;
      return `zone "${zone}" { type primary; file "${dir}/${zone}.zone"; ${policy} };`;
    })
    .join("\n");
  writeFileSync(
    join(dir, "named.conf"),
    `options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  managed-keys-directory "${dir}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
};
controls { };
key "${KEY_NAME}" { algorithm hmac-sha256; secret "${KEY_SECRET}"; };
${zones}
`,
  );
  work.own();
  const started = launch(
    ["named", "-g", "-4", "-n", "1", "-c", join(dir, "named.conf"), ...(work.runAs ? ["-u", "bind"] : [])],
    dir,
  );
  await ready(port, started);
  return { kind: "bind", host: "127.0.0.1", port, address: `127.0.0.1:${port}`, ...started };
}

export async function startKnot(options: ServerOptions = {}): Promise<NameServer> {
  const work = workDir("knot");
  const { dir } = work;
  const port = await freePort();
  for (const zone of Object.keys(RECORDS)) writeFileSync(join(dir, `${zone}.zone`), zoneFile(zone, options));
  const zones = Object.keys(RECORDS)
    .map(
      (zone) =>
        `  - domain: ${zone}\n    file: "${dir}/${zone}.zone"\n    acl: ${zone === LOCKED_ZONE ? "ddnsd_transfer" : "ddnsd_update"}`,
    )
    .join("\n");
  writeFileSync(
    join(dir, "knot.conf"),
    `server:
    rundir: "${dir}"
    listen: 127.0.0.1@${port}
    udp-workers: 1
    tcp-workers: 1
    background-workers: 1
${work.runAs ? "    user: knot:knot\n" : ""}
database:
    storage: "${dir}"

control:
    listen: "${dir}/knot.sock"

log:
  - target: stderr
    any: info

key:
  - id: ${KEY_NAME}
    algorithm: hmac-sha256
    secret: ${KEY_SECRET}

acl:
  - id: ddnsd_update
    key: ${KEY_NAME}
    action: update
    update-type: [A, AAAA]
  # The key may read locked.test (a zone transfer) but not change it.
  - id: ddnsd_transfer
    key: ${KEY_NAME}
    action: transfer

template:
  - id: default
    storage: "${dir}"
    zonefile-sync: -1
    journal-content: changes

zone:
${zones}
`,
  );
  work.own();
  const started = launch(["knotd", "-c", join(dir, "knot.conf")], dir);
  await ready(port, started);
  return { kind: "knot", host: "127.0.0.1", port, address: `127.0.0.1:${port}`, ...started };
}

/** The sqlite3 backend's schema, as the Debian package ships it. */
function powerDnsSchema(): string {
  for (const path of [
    "/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql",
    "/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql",
  ]) {
    try {
      return readFileSync(path, "utf8");
    } catch {
      // the next place
    }
  }
  throw new Error("The PowerDNS sqlite3 schema is missing: install pdns-backend-sqlite3");
}

const POWERDNS_API_KEY = "ddnsd-test-api-key";

export async function startPowerDns(options: ServerOptions = {}): Promise<PowerDns> {
  const work = workDir("pdns");
  const { dir } = work;
  const host = options.listen?.address ?? "127.0.0.1";
  const port = options.listen?.port ?? (await freePort());
  const webPort = await freePort();
  const database = join(dir, "pdns.sqlite3");
  const db = new Database(database);
  db.exec(powerDnsSchema());
  db.close();
  writeFileSync(join(dir, "pdns.conf"), "");
  work.own();
  const started = launch(
    [
      "pdns_server",
      `--config-dir=${dir}`,
      `--socket-dir=${dir}`,
      "--daemon=no",
      "--guardian=no",
      "--disable-syslog",
      "--write-pid=no",
      "--launch=gsqlite3",
      `--gsqlite3-database=${database}`,
      `--local-address=${host}`,
      `--local-port=${port}`,
      "--api=yes",
      `--api-key=${POWERDNS_API_KEY}`,
      "--webserver=yes",
      `--webserver-address=${host}`,
      `--webserver-port=${webPort}`,
      "--webserver-allow-from=127.0.0.0/8",
      "--distributor-threads=1",
      "--receiver-threads=1",
      "--loglevel=5",
      ...(work.runAs ? ["--setuid=pdns", "--setgid=pdns"] : []),
    ],
    dir,
  );
  const apiUrl = `http://${host}:${webPort}`;
  const deadline = Date.now() + STARTUP_MS;
  for (;;) {
    const up = await fetch(`${apiUrl}/api/v1/servers/localhost`, { headers: { "X-API-Key": POWERDNS_API_KEY } }).then(
      (response) => response.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) {
      const log = await started.log();
      await started.stop();
      throw new Error(`PowerDNS did not answer on ${apiUrl} within ${STARTUP_MS} ms\n${log}`);
    }
    await Bun.sleep(100);
  }
  for (const zone of [ZONE, SUB_ZONE]) {
    const created = await fetch(`${apiUrl}/api/v1/servers/localhost/zones`, {
      method: "POST",
      headers: { "X-API-Key": POWERDNS_API_KEY, "Content-Type": "application/json" },
      body: JSON.stringify({
        name: `${zone}.`,
        kind: "Native",
        nameservers: [],
        rrsets: powerDnsRrsets(zone, options),
      }),
    });
    if (!created.ok) throw new Error(`PowerDNS refused zone ${zone}: ${await created.text()}`);
  }
  await ready(port, started, ZONE, host);
  return { kind: "powerdns", host, port, address: `${host}:${port}`, apiUrl, apiKey: POWERDNS_API_KEY, ...started };
}

/** The zone's records as PowerDNS API RRsets, `www`'s A with a comment that an update must keep. */
function powerDnsRrsets(zone: string, options: ServerOptions): unknown[] {
  const sets = new Map<
    string,
    { name: string; type: string; ttl: number; records: { content: string; disabled: boolean }[]; comments: unknown[] }
  >();
  for (const line of zoneLines(zone, options)) {
    const [owner = "", ttl = "", , type = "", ...rest] = line.split(" ");
    const name = owner === "@" ? `${zone}.` : `${owner}.${zone}.`;
    const key = `${name} ${type}`;
    const set = sets.get(key) ?? { name, type, ttl: Number(ttl), records: [], comments: [] };
    set.records.push({ content: rest.join(" "), disabled: false });
    if (name === `www.${zone}.` && type === "A") set.comments = [{ content: "the web server", account: "admin" }];
    sets.set(key, set);
  }
  return [...sets.values()];
}

export interface DigAnswer {
  /** dig's status: NOERROR, NXDOMAIN, REFUSED … or "no answer". */
  status: string;
  records: { name: string; ttl: number; type: string; data: string }[];
}

/** What the server answers for `name type`, read with dig over TCP (independent of ddnsd's own DNS code). */
export async function dig(port: number, name: string, type: string, host = "127.0.0.1"): Promise<DigAnswer> {
  const child = Bun.spawn(
    [
      "dig",
      `@${host}`,
      "-p",
      String(port),
      "+tcp",
      "+norecurse",
      "+time=2",
      "+tries=1",
      "+noall",
      "+comments",
      "+answer",
      name,
      type,
    ],
    {
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const text = await new Response(child.stdout).text();
  await child.exited;
  const status = /status: ([A-Z]+)/.exec(text)?.[1] ?? "no answer";
  const records = text
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith(";"))
    .map((line) => {
      const [owner = "", ttl = "", , recordType = "", ...data] = line.split(/\s+/);
      return { name: owner.replace(/\.$/, ""), ttl: Number(ttl), type: recordType, data: data.join(" ") };
    });
  return { status, records };
}
