// Every DNS service's cost (issue 14, part 3): for each service in the registry, the in-process app
// (real scheduler, real pacer, real clock) against that service's fake from test/fakes/, with a
// sample of records in one zone. Figures: requests and writes per changed record after an IP
// change, requests when nothing changed (target 0), whether the fake ever throttled ddnsd (target:
// never), and the time 1,000 records would take after an IP change. The self-hosted services
// (rfc2136, powerdns) run against the real BIND 9 and PowerDNS of test/servers/, behind a relay that
// counts what ddnsd sends.
//
// The 1,000-record time is extrapolated from the sample, not run: deSEC alone would take hours.
// time(1,000) = max(the sample's time per record × 1,000, when the pacer would start the last of
// those requests: the real Pacer, every window of the service's `rateLimits` at once, on a clock
// that stands still while all of them are asked for). A service's own limits stricter than ddnsd's
// pace (deSEC's per-domain write limits) are applied the same way to the writes.
//
// Most services' worlds come from their adapters (test/services/adapters/), the same fakes and seeds
// the end-to-end suite uses, so a new service has its row without an edit here. The few worlds
// written out below give a fake the service's documented limits where it can enforce them (deSEC's
// per-domain write limits, Porkbun's ~1 request/s, DigitalOcean's 250/min) or start a real server.
//
//   bun run bench/services.ts                      (every service, ~17 minutes)
//   BENCH_SERVICES=cloudflare,duckdns bun run bench/services.ts

import { Pacer } from "../src/dns/pacing";
import { apiUrlSetting, SERVICES } from "../src/dns/registry";
import type { RateLimit, ServiceDescription } from "../src/dns/service";
import type { UpdateOutcome } from "../src/updater/outcome";
import { CLOUDFLARE_FAKE_TOKEN, startCloudflareFake } from "../test/fakes/cloudflare";
import { startCustomFake } from "../test/fakes/custom";
import { DESEC_FAKE_TOKEN, startDesecFake } from "../test/fakes/desec";
import { DIGITALOCEAN_FAKE_TOKEN, startDigitalOceanFake } from "../test/fakes/digitalocean";
import { DYNDNS2_FAKE_PASSWORD, DYNDNS2_FAKE_USER, startDyndns2Fake } from "../test/fakes/dyndns2";
import { DYNU_FAKE_API_KEY, startDynuFake } from "../test/fakes/dynu";
import { startEchoFake } from "../test/fakes/echo";
import { NAMECHEAP_FAKE_PASSWORD, startNamecheapFake } from "../test/fakes/namecheap";
import { PORKBUN_FAKE_API_KEY, PORKBUN_FAKE_SECRET, startPorkbunFake } from "../test/fakes/porkbun";
import { KEY_NAME, KEY_SECRET, type NameServer, startBind, startPowerDns, ZONE } from "../test/servers/name-servers";
import { ZONE as ADAPTER_ZONE, type ServiceAdapter } from "../test/services/adapter";
import { ADAPTERS } from "../test/services/adapters";
import { makeTestApp } from "../test/support";
import { heading, machine, ms, recordFigure, removeDir, table, tempDir } from "./lib/common";

const OLD_IP = "198.51.100.1";
const FIRST_IP = "185.103.110.182";
const NEXT_IP = "185.103.110.42";
const RECORDS = 1000;

/** What the benchmark reads of a service's fake (or of the counting relay in front of a real server). */
interface Counted {
  url: string;
  requests: readonly unknown[];
  /** Requests that changed something. */
  writes(): number;
  clearRequests(): void;
  stop(): Promise<void>;
}

/** A service's fake with `count` A records holding OLD_IP, and what the provider is created with. */
interface World {
  fake: Counted;
  hostnames: string[];
  credentials: Record<string, string>;
  options?: Record<string, unknown>;
  /** Settings pointing ddnsd at the fake; by default `DDNS_<TYPE>_API_URL` = the fake's URL. */
  env?: Record<string, string>;
  /** The service's own documented limits stricter than ddnsd's pace, for the extrapolation. */
  serviceLimits?: { label: string; limits: RateLimit[] };
  /** Where the limit figures come from. */
  source: string;
  /** Requests that changed a record, where not every POST/PATCH/PUT/DELETE does and a GET may. */
  writes?: () => number;
}

const names = (count: number, zone: string) => Array.from({ length: count }, (_, i) => `host${i}.${zone}`);

/**
 * A world built from the service's adapter in test/services/adapters/ (how the end-to-end suite
 * starts its fake and seeds a record): every service that needs nothing more than that has its row
 * without a line here. The pace is its description's `rateLimits`; the limits' sources are on its
 * page in docs/services/.
 */
const ADAPTER_SAMPLE = 6;
function adapterWorld(adapter: ServiceAdapter, count: number): World {
  const fake = adapter.start();
  // A one-request service's names sit where its own do (`*.duckdns.org`); a zone service's in the zone.
  const parent = adapter.zone ? ADAPTER_ZONE : adapter.hostname.slice(adapter.hostname.indexOf(".") + 1);
  const hostnames = names(count, parent);
  for (const hostname of hostnames) adapter.seed(fake, hostname, "A", OLD_IP);
  return {
    fake,
    hostnames,
    credentials: adapter.credentials,
    options: adapter.options(fake),
    env: adapter.env(fake),
    source: `docs/services/${adapter.type}.md`,
    writes: () => fake.requests.filter((request) => adapter.isWrite(request)).length,
  };
}

/**
 * Per service: how many records the sample has (fewer where ddnsd's pace makes each take seconds)
 * and its world. Sources of the limits: docs/services/README.md.
 */
const WORLDS: Record<string, { sample: number; make(count: number): World | Promise<World> }> = {
  cloudflare: {
    sample: 50,
    make(count) {
      const fake = startCloudflareFake();
      fake.addZone("example.com");
      const hostnames = names(count, "example.com");
      for (const name of hostnames) fake.addRecord("example.com", { type: "A", name, content: OLD_IP });
      return {
        fake,
        hostnames,
        credentials: { api_token: CLOUDFLARE_FAKE_TOKEN },
        source: "1,200 requests / 5 min per token",
      };
    },
  },
  dynu: {
    sample: 50,
    make(count) {
      const fake = startDynuFake();
      fake.addDomain("example.net", { ipv4Address: OLD_IP });
      const hostnames = names(count, "example.net");
      for (let i = 0; i < count; i++)
        fake.addRecord("example.net", { nodeName: `host${i}`, recordType: "A", ipv4Address: OLD_IP, ttl: 300 });
      return { fake, hostnames, credentials: { api_key: DYNU_FAKE_API_KEY }, source: "not documented" };
    },
  },
  desec: {
    sample: 6,
    make(count) {
      const fake = startDesecFake();
      const perDomain = [
        { requests: 2, perSeconds: 1 },
        { requests: 15, perSeconds: 60 },
        { requests: 100, perSeconds: 3600 },
        { requests: 300, perSeconds: 86_400 },
      ];
      fake.writeLimits = perDomain.map((l) => ({ count: l.requests, perSeconds: l.perSeconds }));
      fake.addDomain("example.dedyn.io");
      const hostnames = names(count, "example.dedyn.io");
      for (let i = 0; i < count; i++)
        fake.addRRset("example.dedyn.io", { subname: `host${i}`, type: "A", records: [OLD_IP], ttl: 3600 });
      return {
        fake,
        hostnames,
        credentials: { token: DESEC_FAKE_TOKEN },
        serviceLimits: { label: "deSEC's RRset writes per domain: 2/s, 15/min, 100/h, 300/day", limits: perDomain },
        source: "writes 2/s, 15/min, 100/h, 300/day per domain",
      };
    },
  },
  digitalocean: {
    sample: 10,
    make(count) {
      const fake = startDigitalOceanFake();
      fake.limit = { perMinute: 250, burst: true };
      fake.addDomain("example.org");
      const hostnames = names(count, "example.org");
      for (let i = 0; i < count; i++)
        fake.addRecord("example.org", { type: "A", name: `host${i}`, data: OLD_IP, ttl: 1800 });
      return { fake, hostnames, credentials: { token: DIGITALOCEAN_FAKE_TOKEN }, source: "250/min, 5,000/h" };
    },
  },
  dyndns2: {
    sample: 50,
    make(count) {
      const fake = startDyndns2Fake();
      const hostnames = names(count, "example.ddns.net");
      for (const name of hostnames) fake.addHost(name, { ipv4: OLD_IP });
      return {
        fake,
        hostnames,
        credentials: { username: DYNDNS2_FAKE_USER, password: DYNDNS2_FAKE_PASSWORD },
        options: { server: fake.url },
        source: "per service (No-IP, Dyn …); not paced",
        writes: () => fake.updates(),
      };
    },
  },
  namecheap: {
    sample: 50,
    make(count) {
      const fake = startNamecheapFake();
      const hosts = Object.fromEntries(Array.from({ length: count }, (_, i) => [`host${i}`, OLD_IP]));
      fake.addDomain("example.co.uk", hosts, NAMECHEAP_FAKE_PASSWORD);
      // Every request is an update (a GET).
      return {
        fake,
        hostnames: names(count, "example.co.uk"),
        credentials: { password: NAMECHEAP_FAKE_PASSWORD },
        source: "not documented",
        writes: () => fake.requests.length,
      };
    },
  },
  porkbun: {
    sample: 8,
    make(count) {
      const fake = startPorkbunFake();
      fake.minIntervalMs = 1000;
      fake.addDomain("example.dev", { parked: false });
      const hostnames = names(count, "example.dev");
      for (let i = 0; i < count; i++)
        fake.addRecord("example.dev", { name: `host${i}`, type: "A", content: OLD_IP, ttl: 600 });
      return {
        fake,
        hostnames,
        credentials: { api_key: PORKBUN_FAKE_API_KEY, secret_api_key: PORKBUN_FAKE_SECRET },
        source: "about 1/s per key (the fake: 503 under 1 s apart)",
        // Every Porkbun call is a POST, reads included.
        writes: () => fake.changes(),
      };
    },
  },
  rfc2136: {
    sample: 50,
    async make(count) {
      const server = await startBind({
        records: Array.from({ length: count }, (_, i) => `host${i} 300 IN A ${OLD_IP}`),
      });
      const relay = await dnsRelay(server);
      return {
        fake: relay,
        hostnames: names(count, ZONE),
        credentials: { tsig_secret: KEY_SECRET },
        options: { server: relay.url, tsig_key_name: KEY_NAME },
        source: "your own BIND 9 (real, on loopback); not paced",
      };
    },
  },
  powerdns: {
    sample: 50,
    async make(count) {
      const server = await startPowerDns({
        records: Array.from({ length: count }, (_, i) => `host${i} 300 IN A ${OLD_IP}`),
      });
      const relay = httpRelay(server.apiUrl, server);
      return {
        fake: relay,
        hostnames: names(count, ZONE),
        credentials: { api_key: server.apiKey },
        options: { server: relay.url },
        source: "your own PowerDNS (real, on loopback); not paced",
      };
    },
  },
  custom: {
    sample: 50,
    make(count) {
      const fake = startCustomFake();
      return {
        fake,
        hostnames: names(count, "example.net"),
        credentials: { secret: "custom-bench-secret-0123456789" },
        options: { url: `${fake.url}/update?host={domain}&ip={ip}&key={secret}`, method: "GET" },
        source: "yours; not paced",
        writes: () => fake.requests.length,
      };
    },
  },
};

/**
 * A TCP relay in front of a real name server, counting the DNS messages ddnsd sends (one per
 * connection) and, as writes, its UPDATEs that change something (the opcode in the header after the
 * two-byte length, and an update section that is not empty: an UPDATE holding only a prerequisite
 * confirms a read and changes nothing).
 */
async function dnsRelay(server: NameServer): Promise<Counted> {
  const { createConnection, createServer } = await import("node:net");
  let requests: { update: boolean }[] = [];
  const relay = createServer((client) => {
    const upstream = createConnection({ host: server.host, port: server.port });
    let first = true;
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk: Buffer) => {
      // After the length: id, flags (opcode in bits 11–14), then the zone, prerequisite and update counts.
      if (first) requests.push({ update: (((chunk[4] ?? 0) >> 3) & 0xf) === 5 && chunk.readUInt16BE(10) > 0 });
      first = false;
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    for (const socket of [client, upstream]) {
      socket.on("close", end);
      socket.on("error", end);
    }
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const address = relay.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    url: `127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    writes: () => requests.filter((request) => request.update).length,
    clearRequests: () => void (requests = []),
    async stop() {
      relay.close();
      await server.stop();
    },
  };
}

/** An HTTP relay in front of a real server's API, counting requests and, as writes, those that are not GETs. */
function httpRelay(target: string, server: NameServer): Counted {
  let requests: string[] = [];
  const relay = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      requests.push(request.method);
      const body = request.method === "GET" ? undefined : await request.arrayBuffer();
      return fetch(`${target}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body });
    },
  });
  return {
    url: `http://127.0.0.1:${relay.port}`,
    get requests() {
      return requests;
    },
    writes: () => requests.filter((method) => method !== "GET").length,
    clearRequests: () => void (requests = []),
    async stop() {
      await relay.stop(true);
      await server.stop();
    },
  };
}

/**
 * The app's outbound fetch, counting every answer that tells ddnsd to slow down: a 429, Porkbun's
 * 503 page, Route 53's 400 `Throttling` (clients may retry some of them inside one update, so the
 * outcomes alone would not show them).
 */
function countingThrottles(onThrottled: () => void) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    if (
      response.status === 429 ||
      response.status === 503 ||
      (response.status === 400 && (await response.clone().text()).includes("Throttling"))
    ) {
      onThrottled();
    }
    return response;
  };
}

/**
 * When each of `count` requests asked for at once would start under these windows, in seconds from
 * the first: the real Pacer, on a clock that stands still, so every wait it hands out is a start.
 */
async function pacedStarts(count: number, limits: readonly RateLimit[]): Promise<number[]> {
  let waitMs = 0;
  const pacer = new Pacer({ now: () => 0, sleep: async (ms) => void (waitMs = ms) });
  const paced = pacer.fetchFor(0, limits, async () => new Response(), 1000);
  const starts: number[] = [];
  for (let k = 0; k < count; k++) {
    waitMs = 0;
    await paced("http://pacer.invalid/");
    starts.push(waitMs / 1000);
  }
  return starts;
}

const pace = (limit: RateLimit) => `${limit.requests} / ${limit.perSeconds} s`;

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} d ${Math.round((seconds % 86_400) / 3600)} h`;
}

interface Row {
  type: string;
  sample: number;
  firstSyncMs: number;
  requestsPerRecord: number;
  writesPerRecord: number;
  quietRequests: number;
  throttled: number;
  changeMs: number;
  pace: string;
  /** The longest a request waits for its turn: one per worker ahead of it at ddnsd's pace. */
  longestWaitSeconds: number;
  ddnsdSeconds: number;
  serviceSeconds: number | null;
  serviceLabel?: string;
  serviceLimits?: RateLimit[];
  paceLimits?: readonly RateLimit[];
  source: string;
}

const echo = startEchoFake({ ipv4: FIRST_IP });
const rows: Row[] = [];
/** The most requests one record can cost over the sample's three passes (first sync, quiet, change). */
const REQUESTS_PER_RECORD = 8;
/** How long a sample may wait for its turns at ddnsd's pace: beyond it, fewer records (or none). */
const MAX_PACED_SECONDS = 45;

/** The largest sample, up to `wanted`, whose passes ddnsd's pace lets through within MAX_PACED_SECONDS. */
async function fittingSample(wanted: number, limits: readonly RateLimit[] | undefined): Promise<number> {
  if (!limits?.length) return wanted;
  const starts = await pacedStarts(wanted * REQUESTS_PER_RECORD, limits);
  let sample = wanted;
  while (sample > 0 && starts[sample * REQUESTS_PER_RECORD - 1]! > MAX_PACED_SECONDS) sample--;
  return sample;
}

/** A service's own world where it needs one (limits its fake enforces, a real server), else its adapter's. */
async function worldOf(
  service: ServiceDescription,
): Promise<{ sample: number; make(count: number): World | Promise<World> }> {
  const own = WORLDS[service.type];
  if (own) return own;
  const adapter = ADAPTERS.find((candidate) => candidate.type === service.type);
  if (!adapter) throw new Error(`no benchmark world for ${service.type}: add its adapter to test/services/adapters/`);
  return {
    sample: await fittingSample(ADAPTER_SAMPLE, service.rateLimits),
    make: (count) => adapterWorld(adapter, count),
  };
}

/** Services whose pace leaves no room for one record's passes within MAX_PACED_SECONDS, and that pace. */
const notRun: string[] = [];

heading("Every DNS service: requests per record, quiet passes, pacing, 1,000 records");
console.log(machine());
console.log(
  "One zone per service; samples smaller where ddnsd's pace makes each request take seconds; the 1,000-record time is extrapolated (see the header of bench/services.ts).\n",
);

const only = process.env.BENCH_SERVICES?.split(",");
for (const service of SERVICES.filter((s) => only === undefined || only.includes(s.type))) {
  const { sample, make } = await worldOf(service);
  if (sample === 0) {
    notRun.push(
      `${service.type}: not run, as ddnsd's pace for it (${service.rateLimits!.map(pace).join(", ")}) would hold one record's passes for longer than ${MAX_PACED_SECONDS} s`,
    );
    continue;
  }
  const world = await make(sample);
  echo.ipv4 = FIRST_IP;
  const dir = tempDir(`services-${service.type}`);
  const env: Record<string, string> = {
    DDNS_IPV4_URLS: `${echo.url}/v4`,
    DDNS_LOG_LEVEL: "warn",
    DDNS_UPDATE_INTERVAL: "5m",
    DDNS_ALLOW_PRIVATE_IPS: "true",
  };
  if (world.env) Object.assign(env, world.env);
  else if (service.defaultApiUrl !== undefined) env[apiUrlSetting(service.type)] = world.fake.url;
  let throttled = 0;
  const t = await makeTestApp(env, dir, { fetch: countingThrottles(() => throttled++) });
  try {
    const provider = await t.request("POST", "/api/v1/providers", {
      body: {
        name: service.label,
        type: service.type,
        credentials: world.credentials,
        ...(world.options ? { options: world.options } : {}),
      },
    });
    if (provider.status !== 200)
      throw new Error(`${service.type}: creating the provider: ${JSON.stringify(provider.body)}`);
    for (const hostname of world.hostnames) {
      const created = await t.request("POST", "/api/v1/domains", {
        body: { provider_id: provider.body.id, domain_name: hostname, record_type: "A" },
      });
      if (created.status !== 200)
        throw new Error(`${service.type}: creating ${hostname}: ${JSON.stringify(created.body)}`);
    }

    /** Makes every domain due and runs passes until none is due, as the tick would. */
    const pass = async () => {
      world.fake.clearRequests();
      t.ctx.sqlite.query("UPDATE domains SET next_run_at = ?").run(Date.now());
      const started = performance.now();
      const outcomes: UpdateOutcome[] = [];
      for (let done = await t.ctx.scheduler.runPass(); done.length > 0; done = await t.ctx.scheduler.runPass())
        outcomes.push(...done);
      const failed = outcomes.filter((o) => o.result === "failed");
      if (failed.length > 0)
        throw new Error(`${service.type}: ${failed.length} updates failed, e.g. ${JSON.stringify(failed[0])}`);
      return {
        ms: performance.now() - started,
        outcomes,
        requests: world.fake.requests.length,
        writes: world.writes?.() ?? world.fake.writes(),
      };
    };
    const first = await pass();
    const quiet = await pass();
    echo.ipv4 = NEXT_IP;
    const change = await pass();
    const changed = change.outcomes.filter((o) => o.result === "updated").length;
    if (changed !== sample)
      throw new Error(`${service.type}: ${changed} of ${sample} records updated after the IP change`);

    const requestsPerRecord = change.requests / changed;
    const total = Math.ceil(requestsPerRecord * RECORDS);
    const linear = (change.ms / 1000 / sample) * RECORDS;
    const limits = service.rateLimits;
    const concurrency = t.ctx.settings.updateConcurrency;
    const paced = limits ? await pacedStarts(total, limits) : [];
    const ddnsdSeconds = Math.max(linear, paced.at(-1) ?? 0);
    const writes = Math.ceil((change.writes / changed) * RECORDS);
    const serviceSeconds = world.serviceLimits ? (await pacedStarts(writes, world.serviceLimits.limits)).at(-1)! : null;
    rows.push({
      type: service.type,
      sample,
      firstSyncMs: first.ms,
      requestsPerRecord,
      writesPerRecord: change.writes / changed,
      quietRequests: quiet.requests,
      throttled,
      changeMs: change.ms,
      pace: limits ? limits.map(pace).join(", ") : `none (${concurrency} at a time)`,
      longestWaitSeconds: paced[concurrency] ?? 0,
      ddnsdSeconds,
      serviceSeconds,
      serviceLabel: world.serviceLimits?.label,
      serviceLimits: world.serviceLimits?.limits,
      paceLimits: limits,
      source: world.source,
    });
  } finally {
    await t.ctx.scheduler.stop();
    t.ctx.sqlite.close();
    await world.fake.stop();
    removeDir(dir);
  }
}
await echo.stop();

console.log(
  table(
    [
      "service",
      "sample",
      "first sync",
      "IP change",
      "req / record",
      "writes / record",
      "req, no change",
      "throttled",
      "ddnsd's pace",
      "longest wait",
      "1,000 records",
      "limits' source",
    ],
    rows.map((r) => [
      r.type,
      String(r.sample),
      ms(r.firstSyncMs),
      ms(r.changeMs),
      r.requestsPerRecord.toFixed(2),
      r.writesPerRecord.toFixed(2),
      String(r.quietRequests),
      String(r.throttled),
      r.pace,
      duration(r.longestWaitSeconds),
      duration(Math.max(r.ddnsdSeconds, r.serviceSeconds ?? 0)),
      r.source,
    ]),
    1,
  ),
);
for (const r of rows.filter((r) => r.serviceSeconds !== null && r.serviceSeconds > r.ddnsdSeconds)) {
  // ddnsd's writes per second at its pace (its slowest window), against each of the service's own windows.
  const writesPerSecond =
    (r.writesPerRecord / r.requestsPerRecord) * Math.min(...r.paceLimits!.map((l) => l.requests / l.perSeconds));
  const passed = r.serviceLimits!.find((l) => writesPerSecond * l.perSeconds > l.requests)!;
  console.log(
    `\n${r.type}: ddnsd's pace alone would write 1,000 records in ${duration(r.ddnsdSeconds)} (${Math.round(writesPerSecond * passed.perSeconds)} writes per ` +
      `${duration(passed.perSeconds)}), but ${r.serviceLabel}: past the ${passed.requests}th write within ${duration(passed.perSeconds)} the service ` +
      `answers 429 with Retry-After, which ddnsd honours, and 1,000 records in one domain take ${duration(r.serviceSeconds!)}. Records spread over ` +
      "several domains go proportionally faster.",
  );
}
for (const line of notRun) console.log(`\n${line}.`);
console.log(
  "\n(IP change: the sample's pass after the echo's answer moved; req, no change: provider requests in a pass with the same address, target 0; throttled: answers that told ddnsd to slow down, target 0.)",
);

for (const r of rows) {
  recordFigure({
    bench: "services",
    name: `${r.type}: requests (writes) per changed record`,
    value: `${r.requestsPerRecord.toFixed(2)} (${r.writesPerRecord.toFixed(2)})`,
    target: "writes ≤ 1",
    met: r.writesPerRecord <= 1,
  });
  recordFigure({
    bench: "services",
    name: `${r.type}: provider requests when nothing changed`,
    value: String(r.quietRequests),
    target: "0",
    met: r.quietRequests === 0,
  });
  recordFigure({
    bench: "services",
    name: `${r.type}: throttled answers (sample of ${r.sample})`,
    value: String(r.throttled),
    target: "0",
    met: r.throttled === 0,
  });
  if (r.longestWaitSeconds > 0) {
    // Informative: a request's deadline (DDNS_HTTP_TIMEOUT) starts when it leaves, not while it waits its turn.
    recordFigure({
      bench: "services",
      name: `${r.type}: longest wait for a paced turn`,
      value: duration(r.longestWaitSeconds),
    });
  }
  recordFigure({
    bench: "services",
    name: `${r.type}: 1,000 records after an IP change (extrapolated)`,
    value: duration(Math.max(r.ddnsdSeconds, r.serviceSeconds ?? 0)),
    target: r.serviceSeconds !== null ? "within the service's limits" : undefined,
    met: r.serviceSeconds !== null ? r.serviceSeconds <= r.ddnsdSeconds : undefined,
  });
}
