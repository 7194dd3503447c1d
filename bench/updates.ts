// Update engine at scale: 1,000 domains across the Cloudflare and Dynu fakes (500 Cloudflare records
// in 5 zones; 500 Dynu: 250 DDNS hostnames, each its own Dynu domain, and 250 node records under 5
// domains), the in-process app on a temp data dir, passes run by the real Scheduler with the default
// concurrency (4 per provider).
//
// Figures: the first sync (zones and ids discovered), a pass in which nothing changed (target: no
// provider request, ≤ 2 echo requests), and an IP change (target: ≤ 2 provider requests and ≤ 1
// write per changed record) with the time from the change to every record holding the new address.
//
//   bun run bench/updates.ts

import { createApp } from "../src/app";
import { Pacer } from "../src/dns/pacing";
import { SERVICES } from "../src/dns/registry";
import { startCloudflareFake } from "../test/fakes/cloudflare";
import { startDynuFake } from "../test/fakes/dynu";
import { startEchoFake } from "../test/fakes/echo";
import { makeTestApp } from "../test/support";
import { heading, machine, ms, recordFigure, removeDir, table, tempDir } from "./lib/common";

const CF_ZONES = 5;
const CF_PER_ZONE = 100;
const DYNU_HOSTS = 250;
const DYNU_DOMAINS = 5;
const DYNU_NODES_PER_DOMAIN = 50;
/** Every fifth record is AAAA, so both families are detected and written. */
const isV6 = (i: number) => i % 5 === 4;
const OLD = { v4: "198.51.100.1", v6: "2001:db8::1" };
const NEXT = { v4: "185.103.110.42", v6: "2a01:4f8:c17:b8f::42" };

const cf = startCloudflareFake();
const dynu = startDynuFake();
const echo = startEchoFake();
const dir = tempDir("updates");

interface Target {
  provider: "cloudflare" | "dynu";
  hostname: string;
  type: "A" | "AAAA";
  /** What the fake holds for the record now. */
  content(): string | undefined;
}

const targets: Target[] = [];
for (let z = 0; z < CF_ZONES; z++) {
  const zone = `zone${z}.example.com`;
  cf.addZone(zone);
  for (let i = 0; i < CF_PER_ZONE; i++) {
    const hostname = `host${i}.${zone}`;
    const type = isV6(i) ? "AAAA" : "A";
    // One in ten does not exist yet: the first sync creates it.
    if (i % 10 !== 3) cf.addRecord(zone, { type, name: hostname, content: type === "A" ? OLD.v4 : OLD.v6 });
    targets.push({ provider: "cloudflare", hostname, type, content: () => cf.record(hostname, type)?.content });
  }
}
for (let i = 0; i < DYNU_HOSTS; i++) {
  const hostname = `home${i}.freeddns.org`;
  dynu.addDomain(hostname, { ipv4Address: OLD.v4 });
  targets.push({ provider: "dynu", hostname, type: "A", content: () => dynu.domain(hostname)?.ipv4Address });
}
for (let d = 0; d < DYNU_DOMAINS; d++) {
  const domain = `site${d}.example.net`;
  dynu.addDomain(domain, { ipv4Address: OLD.v4 });
  for (let i = 0; i < DYNU_NODES_PER_DOMAIN; i++) {
    const hostname = `n${i}.${domain}`;
    const type = isV6(i) ? "AAAA" : "A";
    dynu.addRecord(domain, {
      nodeName: `n${i}`,
      recordType: type,
      ...(type === "A" ? { ipv4Address: OLD.v4 } : { ipv6Address: OLD.v6 }),
      ttl: 300,
    });
    targets.push({
      provider: "dynu",
      hostname,
      type,
      content: () =>
        type === "A" ? dynu.record(hostname, type)?.ipv4Address : dynu.record(hostname, type)?.ipv6Address,
    });
  }
}

const t = await makeTestApp(
  {
    DDNS_CLOUDFLARE_API_URL: cf.url,
    DDNS_DYNU_API_URL: dynu.url,
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    DDNS_IPV6_URLS: `${echo.url}/v6`,
    DDNS_LOG_LEVEL: "warn",
    DDNS_UPDATE_INTERVAL: "5m",
  },
  dir,
);
const providers = {
  cloudflare: (
    await t.request("POST", "/api/v1/providers", {
      body: { name: "Cloudflare", type: "cloudflare", credentials: { api_token: "cf-fake-token-0123456789abcdef" } },
    })
  ).body.id as number,
  dynu: (
    await t.request("POST", "/api/v1/providers", {
      body: { name: "Dynu", type: "dynu", credentials: { api_key: "dynu-fake-key-0123456789abcdef" } },
    })
  ).body.id as number,
};
for (const target of targets) {
  const created = await t.request("POST", "/api/v1/domains", {
    body: { provider_id: providers[target.provider], domain_name: target.hostname, record_type: target.type },
  });
  if (created.status !== 200) throw new Error(`creating ${target.hostname}: ${JSON.stringify(created.body)}`);
}

/**
 * Each phase starts with the pacer's window empty, as after the hours that separate a first sync
 * from an IP change in real life. The first sync runs unpaced: its 500 Cloudflare records take
 * more than Cloudflare's 1,200 requests per 5 minutes, so paced it lasts minutes by design (the
 * summary prints how long). This benchmark measures the update engine; bench/services.ts the pacing.
 */
function freshPacingWindow(paced = true): void {
  t.ctx.pacer = paced ? new Pacer() : new Pacer({ now: () => performance.now(), sleep: async () => {} });
}

interface Phase {
  name: string;
  ms: number;
  cloudflare: number;
  dynu: number;
  writes: number;
  echo: number;
  changed: number;
  failed: number;
}

/** Makes every domain due (its schedule came round) and runs passes until none is due, as the tick would. */
async function measure(name: string, paced = true): Promise<Phase> {
  for (const fake of [cf, dynu, echo]) fake.clearRequests();
  freshPacingWindow(paced);
  t.ctx.sqlite.query("UPDATE domains SET next_run_at = ?").run(Date.now());
  const started = performance.now();
  const outcomes = [];
  for (let pass = await t.ctx.scheduler.runPass(); pass.length > 0; pass = await t.ctx.scheduler.runPass())
    outcomes.push(...pass);
  const elapsed = performance.now() - started;
  return {
    name,
    ms: elapsed,
    cloudflare: cf.requests.length,
    dynu: dynu.requests.length,
    writes: cf.writes() + dynu.writes(),
    echo: echo.requests.length,
    changed: outcomes.filter((o) => o.result === "updated").length,
    failed: outcomes.filter((o) => o.result === "failed").length,
  };
}

function expectAll(ip: { v4: string; v6: string }, phase: string): void {
  const wrong = targets.filter((target) => target.content() !== (target.type === "A" ? ip.v4 : ip.v6));
  if (wrong.length > 0)
    throw new Error(`${phase}: ${wrong.length} records not updated, e.g. ${wrong[0]!.hostname} ${wrong[0]!.type}`);
}

const firstSync = await measure("first sync (unpaced)", false);
expectAll({ v4: "185.103.110.182", v6: "2a01:4f8:c17:b8f::2" }, "first sync");
const quiet = await measure("nothing changed");
echo.ipv4 = NEXT.v4;
echo.ipv6 = NEXT.v6;
const change = await measure("IP change");
expectAll(NEXT, "IP change");

// The same change once more, through the scheduler's own timer: every domain due now, so this
// is the wake-up's lateness plus the pass, the part of "IP change → records updated" that is
// not the wait for the schedule (≤ DDNS_UPDATE_INTERVAL).
echo.ipv4 = "185.103.110.43";
echo.ipv6 = "2a01:4f8:c17:b8f::43";
freshPacingWindow();
t.ctx.sqlite.query("UPDATE domains SET next_run_at = ?").run(Date.now());
const scheduled = createApp(t.ctx, { schedule: true });
const tickStarted = performance.now();
while (targets.some((target) => target.content() !== (target.type === "A" ? echo.ipv4 : echo.ipv6)))
  await Bun.sleep(10);
const tickMs = performance.now() - tickStarted;
void scheduled;
await t.ctx.scheduler.stop();

const records = targets.length;
const perRecord = (phase: Phase, n: number) => (phase.changed === 0 ? "-" : (n / phase.changed).toFixed(2));
heading(`update engine: ${records} domains, concurrency ${t.ctx.settings.updateConcurrency} per provider`);
console.log(machine());
console.log(
  `${CF_ZONES * CF_PER_ZONE} Cloudflare records in ${CF_ZONES} zones; ${DYNU_HOSTS} Dynu DDNS hostnames + ` +
    `${DYNU_DOMAINS * DYNU_NODES_PER_DOMAIN} Dynu node records; ${targets.filter((x) => x.type === "AAAA").length} of them AAAA\n`,
);
console.log(
  table(
    [
      "phase",
      "time",
      "records written",
      "failed",
      "Cloudflare req",
      "Dynu req",
      "req / record",
      "writes / record",
      "echo req",
    ],
    [firstSync, quiet, change].map((p) => [
      p.name,
      ms(p.ms),
      String(p.changed),
      String(p.failed),
      String(p.cloudflare),
      String(p.dynu),
      perRecord(p, p.cloudflare + p.dynu),
      perRecord(p, p.writes),
      String(p.echo),
    ]),
  ),
);
console.log(
  `\nIP change through the real cron tick, all ${records} domains due: every record updated ${ms(tickMs)} after the change`,
);
console.log(
  `(with the schedule, add up to DDNS_UPDATE_INTERVAL: a domain checked just before the change waits for its next run)`,
);

const requestsPerRecord = (change.cloudflare + change.dynu) / change.changed;
const writesPerRecord = change.writes / change.changed;
const targetsMet = {
  requests: requestsPerRecord <= 2,
  writes: writesPerRecord <= 1,
  quietProviders: quiet.cloudflare + quiet.dynu === 0,
  quietEcho: quiet.echo <= 2,
};
console.log(
  `\ntargets: ≤ 2 requests per changed record: ${requestsPerRecord.toFixed(2)} ${targetsMet.requests ? "met" : "MISSED"}; ` +
    `≤ 1 write: ${writesPerRecord.toFixed(2)} ${targetsMet.writes ? "met" : "MISSED"}; ` +
    `quiet pass 0 provider requests: ${quiet.cloudflare + quiet.dynu} ${targetsMet.quietProviders ? "met" : "MISSED"}, ` +
    `≤ 2 echo requests: ${quiet.echo} ${targetsMet.quietEcho ? "met" : "MISSED"}`,
);

// Paced, the k-th Cloudflare request of the first sync starts at ⌊k ÷ 1,200⌋ × 300 s at the earliest.
// Cloudflare documents one window.
const cloudflareLimit = SERVICES.find((service) => service.type === "cloudflare")!.rateLimits![0]!;
const pacedFirstSyncSeconds =
  Math.floor((firstSync.cloudflare - 1) / cloudflareLimit.requests) * cloudflareLimit.perSeconds;
console.log(
  `first sync paced: its ${firstSync.cloudflare} Cloudflare requests under ${cloudflareLimit.requests} per ${cloudflareLimit.perSeconds} s take at least ${pacedFirstSyncSeconds} s`,
);
recordFigure({ bench: "updates", name: "first sync, 1,000 domains (unpaced)", value: ms(firstSync.ms) });
recordFigure({
  bench: "updates",
  name: "first sync, 1,000 domains, under Cloudflare's limit",
  value: `≥ ${pacedFirstSyncSeconds} s (${firstSync.cloudflare} Cloudflare requests)`,
});
recordFigure({ bench: "updates", name: "IP change → 1,000 records (pass)", value: ms(change.ms) });
recordFigure({ bench: "updates", name: "IP change → 1,000 records (cron tick)", value: ms(tickMs) });
recordFigure({
  bench: "updates",
  name: "requests per changed record",
  value: requestsPerRecord.toFixed(2),
  target: "≤ 2",
  met: targetsMet.requests,
});
recordFigure({
  bench: "updates",
  name: "writes per changed record",
  value: writesPerRecord.toFixed(2),
  target: "≤ 1",
  met: targetsMet.writes,
});
recordFigure({
  bench: "updates",
  name: "provider requests, nothing changed",
  value: String(quiet.cloudflare + quiet.dynu),
  target: "0",
  met: targetsMet.quietProviders,
});
recordFigure({
  bench: "updates",
  name: "echo requests, nothing changed",
  value: String(quiet.echo),
  target: "≤ 2",
  met: targetsMet.quietEcho,
});

t.ctx.sqlite.close();
await Promise.all([cf.stop(), dynu.stop(), echo.stop()]);
removeDir(dir);
if (!Object.values(targetsMet).every(Boolean)) process.exitCode = 1;
