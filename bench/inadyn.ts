// A second peer on the same work: Debian's inadyn (its `custom` provider, which speaks the dyndns2
// protocol) and `ddnsd check` (a dyndns2 provider) each update the same 100 hostnames on the same
// dyndns2 fake (test/fakes/dyndns2.ts) after the public IP changed — one cycle each, measured as
// CPU seconds (user + system), peak RSS (through GNU time: see measuredRun) and requests, alternating, in one run.
// Both must really have written every hostname: the fake holds each host's address.
//
// inadyn takes at most 50 hostnames per provider section, so the 100 are two sections.
// inadyn runs one-shot (`--once --foreground`), its config and cache in a temp dir, plain HTTP on
// loopback for both the address check (the echo fake) and the updates. Debian: apt-get install inadyn.

import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DYNDNS2_FAKE_PASSWORD, DYNDNS2_FAKE_USER, startDyndns2Fake } from "../test/fakes/dyndns2";
import { startEchoFake } from "../test/fakes/echo";
import {
  api,
  applianceEnv,
  binaryPath,
  ensureBinary,
  freePort,
  heading,
  login,
  machine,
  mb,
  measuredRun,
  missingTool,
  ratio,
  recordFigure,
  removeDir,
  startAppliance,
  table,
  tempDir,
  which,
} from "./lib/common";

const RECORDS = 100;
const ROUNDS = 2;
const INADYN_HOSTS_PER_SECTION = 50;
const hostname = (i: number) => `host${String(i).padStart(3, "0")}.example.ddns.net`;

heading("A peer on the same work: inadyn vs ddnsd");
console.log(`machine: ${machine()}`);
const inadyn = which("inadyn");
if (!inadyn) {
  console.log(missingTool("inadyn", "inadyn", "the inadyn comparison"));
  recordFigure({ bench: "inadyn", name: "inadyn comparison", value: "skipped (sudo apt-get install -y inadyn)" });
  process.exit(0);
}
const version = Bun.spawnSync([inadyn, "--version"], { stdout: "pipe", stderr: "pipe" }).stdout.toString().trim();

ensureBinary();
const dir = tempDir("inadyn");
const fake = startDyndns2Fake();
const echo = startEchoFake();
const hostnames = Array.from({ length: RECORDS }, (_, i) => hostname(i + 1));
for (const name of hostnames) fake.addHost(name, { ipv4: "192.0.2.1" });

interface Cycle {
  who: "ddnsd" | "inadyn";
  cpuSeconds: number;
  peakRss: number;
  wallMs: number;
  requests: number;
}

try {
  // ddnsd: a data directory as a running install has it (every hostname updated once), prepared
  // through its API by a serve that is then stopped.
  const dataDir = join(dir, "ddnsd-data");
  const env = { DDNS_IPV4_URLS: `${echo.url}/v4`, DDNS_UPDATE_INTERVAL: "24h" };
  const seeding = await startAppliance(dataDir, env);
  const token = await login(seeding.url);
  const provider = await api<{ id: number }>(seeding.url, token, "POST", "/providers", {
    name: "dyndns2 (bench)",
    type: "dyndns2",
    credentials: { username: DYNDNS2_FAKE_USER, password: DYNDNS2_FAKE_PASSWORD },
    options: { server: fake.url },
  });
  for (const name of hostnames) {
    await api(seeding.url, token, "POST", "/domains", {
      provider_id: provider.id,
      domain_name: name,
      record_type: "A",
    });
  }
  const deadline = Date.now() + 60_000;
  while ([...fake.hosts.values()].some((h) => h.ipv4 !== echo.ipv4)) {
    if (Date.now() > deadline) throw new Error("seeding: the hostnames were not all updated within 60 s");
    await Bun.sleep(100);
  }
  await seeding.stop();

  // inadyn: `custom` sections of at most 50 hostnames (inadyn's limit per section: it silently
  // skips the rest); the address from the echo fake.
  const conf = join(dir, "inadyn.conf");
  const server = new URL(fake.url);
  const check = new URL(echo.url);
  const sections: string[] = [];
  for (let first = 0; first < RECORDS; first += INADYN_HOSTS_PER_SECTION) {
    const names = hostnames.slice(first, first + INADYN_HOSTS_PER_SECTION);
    sections.push(
      `custom bench${first} {`,
      "  ssl = false",
      `  username = ${DYNDNS2_FAKE_USER}`,
      `  password = ${DYNDNS2_FAKE_PASSWORD}`,
      `  checkip-server = ${check.host}`,
      "  checkip-path = /v4",
      "  checkip-ssl = false",
      `  ddns-server = ${server.host}`,
      '  ddns-path = "/nic/update?hostname=%h&myip=%i"',
      `  hostname = { ${names.map((h) => `"${h}"`).join(", ")} }`,
      "}",
    );
  }
  writeFileSync(conf, ["period = 300", ...sections, ""].join("\n"));
  chmodSync(conf, 0o600);

  const commands = {
    ddnsd: { cmd: [binaryPath(), "check"], env: applianceEnv(dataDir, freePort(), env) },
    inadyn: {
      cmd: [
        inadyn,
        "--once",
        "--foreground",
        "--no-pidfile",
        `--cache-dir=${join(dir, "inadyn-cache")}`,
        "-l",
        "notice",
        "-f",
        conf,
      ],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    },
  };

  const cycles: Cycle[] = [];
  let address = 10;
  for (let round = 0; round < ROUNDS; round++) {
    for (const who of ["ddnsd", "inadyn"] as const) {
      // The public IP changes, then one update cycle.
      echo.ipv4 = `185.103.111.${address++}`;
      fake.clearRequests();
      echo.clearRequests();
      const run = await measuredRun(commands[who].cmd, commands[who].env);
      const stale = [...fake.hosts.values()].filter((h) => h.ipv4 !== echo.ipv4).length;
      if (run.code !== 0 || stale > 0) {
        throw new Error(
          `${who} left ${stale} of ${RECORDS} hostnames stale (exit ${run.code}):\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`,
        );
      }
      cycles.push({
        who,
        cpuSeconds: run.cpuSeconds,
        peakRss: run.peakRss,
        wallMs: run.wallMs,
        requests: fake.requests.length + echo.requests.length,
      });
    }
  }

  const mean = (who: Cycle["who"], key: "cpuSeconds" | "peakRss" | "wallMs" | "requests") => {
    const runs = cycles.filter((c) => c.who === who);
    return runs.reduce((sum, c) => sum + c[key], 0) / runs.length;
  };
  console.log(
    `\n${version} vs ddnsd check: ${RECORDS} dyndns2 hostnames, one cycle each after an IP change, alternating ×${ROUNDS}\n`,
  );
  console.log(
    table(
      ["run", "CPU (user+sys)", "peak RSS", "wall", "requests (updates + address checks)"],
      cycles.map((c, i) => [
        `${i + 1}. ${c.who}`,
        `${c.cpuSeconds.toFixed(3)} s`,
        mb(c.peakRss),
        `${(c.wallMs / 1000).toFixed(2)} s`,
        String(c.requests),
      ]),
    ),
  );
  const cpuRatio = mean("inadyn", "cpuSeconds") / mean("ddnsd", "cpuSeconds");
  const rssRatio = mean("inadyn", "peakRss") / mean("ddnsd", "peakRss");
  console.log(
    `\ninadyn ÷ ddnsd: CPU ${ratio(cpuRatio)}, peak RSS ${ratio(rssRatio)}, requests ${mean("inadyn", "requests")} vs ${mean("ddnsd", "requests")} per cycle ` +
      "(every hostname verified at the new address after each run)",
  );
  recordFigure({
    bench: "inadyn",
    name: `CPU per ${RECORDS}-hostname cycle, inadyn ÷ ddnsd`,
    value: `${ratio(cpuRatio)} (${mean("inadyn", "cpuSeconds").toFixed(3)} s vs ${mean("ddnsd", "cpuSeconds").toFixed(3)} s)`,
  });
  recordFigure({
    bench: "inadyn",
    name: "peak RSS per cycle, inadyn ÷ ddnsd",
    value: `${ratio(rssRatio)} (${mb(mean("inadyn", "peakRss"))} vs ${mb(mean("ddnsd", "peakRss"))})`,
  });
  recordFigure({
    bench: "inadyn",
    name: "requests per cycle (updates + address checks), inadyn vs ddnsd",
    value: `${mean("inadyn", "requests")} vs ${mean("ddnsd", "requests")}`,
  });
} finally {
  await fake.stop();
  await echo.stop();
  removeDir(dir);
}
