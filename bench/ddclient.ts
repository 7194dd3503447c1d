// A peer on the same work: Debian's ddclient (3.10, protocol=cloudflare) and `ddnsd check` each
// update the same 100 Cloudflare records on the same fake after the public IP changed — one
// update cycle each, measured as CPU seconds (user + system) and peak RSS of the process (the
// rusage, through GNU time: see measuredRun), side by side, alternating, in one run.
// Both must really have written every record: the fake counts the writes and holds the contents.
//
// ddclient builds its Cloudflare URLs as `https://<server>/…` whatever `ssl=` says, so the fake
// sits behind an HTTPS front with a throwaway self-signed certificate for 127.0.0.1, which
// ddclient trusts through `ssl_ca_file=` and ddnsd through NODE_EXTRA_CA_CERTS: both pay for TLS,
// as they would against api.cloudflare.com.

import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLOUDFLARE_FAKE_TOKEN } from "../test/fakes/cloudflare";
import {
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
import { hostname, seedAppliance, startProviderWorld, ZONE } from "./lib/fakes";

const RECORDS = 100;
const ROUNDS = 2;

heading("A peer on the same work: ddclient vs ddnsd");
console.log(`machine: ${machine()}`);
const ddclient = which("ddclient");
const openssl = which("openssl");
if (!ddclient || !openssl) {
  const note = !ddclient
    ? missingTool("ddclient", "ddclient", "the ddclient comparison")
    : missingTool("openssl", "openssl", "the ddclient comparison (it makes the fake's TLS certificate)");
  console.log(note);
  recordFigure({
    bench: "ddclient",
    name: "ddclient comparison",
    value: `skipped (sudo apt-get install -y ${ddclient ? "openssl" : "ddclient"})`,
  });
  process.exit(0);
}
const version = /ddclient version ([\d.]+)/i.exec(
  Bun.spawnSync([ddclient, "-help"], { stdout: "pipe", stderr: "pipe" }).stdout.toString(),
)?.[1];

ensureBinary();
const dir = tempDir("ddclient");
const world = await startProviderWorld({ records: RECORDS, httpsIn: dir });

interface Cycle {
  who: "ddnsd" | "ddclient";
  cpuSeconds: number;
  peakRss: number;
  wallMs: number;
  requests: number;
  writes: number;
}

try {
  // ddnsd: a data directory as a running install has it (zone and record ids known, one earlier
  // update each), prepared through its API by a serve that is then stopped.
  const dataDir = join(dir, "ddnsd-data");
  const env = {
    DDNS_CLOUDFLARE_API_URL: world.cloudflareUrl,
    DDNS_IPV4_URLS: world.echoV4Url,
    DDNS_UPDATE_INTERVAL: "24h",
    NODE_EXTRA_CA_CERTS: world.caFile!,
  };
  const seeding = await startAppliance(dataDir, env);
  await seedAppliance(seeding.url, await login(seeding.url), world, RECORDS);
  await seeding.stop();

  // ddclient: one entry for the 100 hosts, the address from the echo fake.
  const conf = join(dir, "ddclient.conf");
  const api = new URL(world.cloudflareUrl);
  writeFileSync(
    conf,
    [
      "daemon=0",
      "syslog=no",
      "timeout=10",
      `ssl_ca_file=${world.caFile}`,
      `use=web, web=${world.echoV4Url}`,
      "protocol=cloudflare, \\",
      `server=${api.host}${api.pathname}, \\`,
      `zone=${ZONE}, \\`,
      "login=token, \\",
      `password=${CLOUDFLARE_FAKE_TOKEN} \\`,
      Array.from({ length: RECORDS }, (_, i) => hostname(i + 1)).join(","),
      "",
    ].join("\n"),
  );
  chmodSync(conf, 0o600);

  const commands = {
    ddnsd: { cmd: [binaryPath(), "check"], env: applianceEnv(dataDir, freePort(), env) },
    ddclient: {
      cmd: [
        ddclient,
        "-daemon=0",
        "-foreground",
        "-file",
        conf,
        "-cache",
        join(dir, "ddclient.cache"),
        "-force",
        "-noquiet",
      ],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    },
  };

  const cycles: Cycle[] = [];
  let address = 10;
  for (let round = 0; round < ROUNDS; round++) {
    for (const who of ["ddnsd", "ddclient"] as const) {
      // The public IP changes, then one update cycle.
      world.echo.ipv4 = `185.103.111.${address++}`;
      world.cloudflare.clearRequests();
      const run = await measuredRun(commands[who].cmd, commands[who].env);
      const stale = [...world.cloudflare.records.values()].filter((r) => r.content !== world.echo.ipv4).length;
      if (run.code !== 0 || stale > 0) {
        throw new Error(
          `${who} left ${stale} of ${RECORDS} records stale (exit ${run.code}):\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`,
        );
      }
      cycles.push({
        who,
        cpuSeconds: run.cpuSeconds,
        peakRss: run.peakRss,
        wallMs: run.wallMs,
        requests: world.cloudflare.requests.length,
        writes: world.cloudflare.writes(),
      });
    }
  }

  const mean = (who: Cycle["who"], key: "cpuSeconds" | "peakRss" | "wallMs" | "requests" | "writes") => {
    const runs = cycles.filter((c) => c.who === who);
    return runs.reduce((sum, c) => sum + c[key], 0) / runs.length;
  };
  console.log(
    `\nddclient ${version ?? "(version unknown)"} vs ddnsd check: ${RECORDS} A records, one cycle each after an IP change, alternating ×${ROUNDS}\n`,
  );
  console.log(
    table(
      ["run", "CPU (user+sys)", "peak RSS", "wall", "API requests", "writes"],
      cycles.map((c, i) => [
        `${i + 1}. ${c.who}`,
        `${c.cpuSeconds.toFixed(3)} s`,
        mb(c.peakRss),
        `${(c.wallMs / 1000).toFixed(2)} s`,
        String(c.requests),
        String(c.writes),
      ]),
    ),
  );
  const cpuRatio = mean("ddclient", "cpuSeconds") / mean("ddnsd", "cpuSeconds");
  const rssRatio = mean("ddclient", "peakRss") / mean("ddnsd", "peakRss");
  const requestRatio = mean("ddclient", "requests") / mean("ddnsd", "requests");
  console.log(
    `\nddclient ÷ ddnsd: CPU ${ratio(cpuRatio)}, peak RSS ${ratio(rssRatio)}, API requests ${ratio(requestRatio)} ` +
      `(${mean("ddclient", "requests")} vs ${mean("ddnsd", "requests")} per cycle; every record verified at the new address after each run)`,
  );
  recordFigure({
    bench: "ddclient",
    name: `CPU per ${RECORDS}-record cycle, ddclient ÷ ddnsd`,
    value: `${ratio(cpuRatio)} (${mean("ddclient", "cpuSeconds").toFixed(2)} s vs ${mean("ddnsd", "cpuSeconds").toFixed(2)} s)`,
  });
  recordFigure({
    bench: "ddclient",
    name: "peak RSS per cycle, ddclient ÷ ddnsd",
    value: `${ratio(rssRatio)} (${mb(mean("ddclient", "peakRss"))} vs ${mb(mean("ddnsd", "peakRss"))})`,
  });
  recordFigure({
    bench: "ddclient",
    name: "Cloudflare API requests per cycle, ddclient vs ddnsd",
    value: `${mean("ddclient", "requests")} vs ${mean("ddnsd", "requests")} (writes ${mean("ddclient", "writes")} vs ${mean("ddnsd", "writes")})`,
  });
} finally {
  await world.stop();
  removeDir(dir);
}
