// History at scale: 1,000,000 history rows over 200 domains (30 days, a share of them in the
// last 24 h, ~3% FAILED, a handful of addresses), inserted straight into a migrated database.
// Times the metrics and history service functions in-process, then the same reads over HTTP
// against the compiled binary, shows SQLite's query plans, and the database's size.
// Targets: dashboard and provider-stats ≤ 50 ms each, one domain's history (limit=20) ≤ 5 ms.

import { statSync } from "node:fs";
import { join } from "node:path";
import { createContext } from "../src/app";
import { loadSettings } from "../src/config";
import { openDatabase } from "../src/db";
import { createLogger } from "../src/log";
import { domainHistory } from "../src/modules/domains/service";
import { dashboardMetrics, ipChangesPerDay, providerStats, updatesPerHour } from "../src/modules/metrics/service";
import { sealCredentials } from "../src/security/secrets";
import {
  ENCRYPTION_KEY,
  ensureBinary,
  heading,
  login,
  machine,
  mb,
  median,
  ms,
  percentile,
  recordFigure,
  removeDir,
  SECRET_KEY,
  startAppliance,
  table,
  tempDir,
  timeRuns,
} from "./lib/common";

const ROWS = Number(process.env.BENCH_HISTORY_ROWS ?? 1_000_000);
const DOMAINS = 200;
const DAYS = 30;
/** Rows placed in the last 24 h on top of the even spread (so the day is busier than average). */
const RECENT_SHARE = 0.05;
const FAILED_SHARE = 0.03;
const RUNS = 20;
const DAY_MS = 86_400_000;
/** The history the benchmark keeps per domain (ROWS / DOMAINS); the binary is told to keep as much. */
const RETENTION = Math.ceil(ROWS / DOMAINS) * 2;

heading("History at scale");
console.log(`machine: ${machine()}`);
const dir = tempDir("history");
const now = Date.now();

try {
  const log = createLogger({ level: "error", format: "text", write: () => {} });
  const settings = loadSettings({
    DDNS_DATA_DIR: dir,
    DDNS_SECRET_KEY: SECRET_KEY,
    DDNS_ENCRYPTION_KEY: ENCRYPTION_KEY,
    DDNS_HISTORY_RETENTION: String(RETENTION),
  });
  const ctx = createContext({
    settings,
    keys: { secretKey: SECRET_KEY, encryptionKey: ENCRYPTION_KEY },
    database: openDatabase(dir, log),
    log,
  });
  const { sqlite } = ctx;

  // ---- data: 3 providers, 200 domains, 1,000,000 history rows in one transaction
  const insertStarted = performance.now();
  const providerIds: number[] = [];
  const insertProvider = sqlite.query<{ id: number }, [string, string, string, number, number]>(
    "INSERT INTO providers (name, type, credentials, is_enabled, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?) RETURNING id",
  );
  for (const [name, type, credentials] of [
    ["Cloudflare home", "cloudflare", { api_token: "cf-bench-token-0123456789abcdef" }],
    ["Cloudflare work", "cloudflare", { api_token: "cf-bench-token-fedcba9876543210" }],
    ["Dynu", "dynu", { api_key: "dynu-bench-key-0123456789" }],
  ] as const) {
    const sealed = sealCredentials({ ...credentials }, ENCRYPTION_KEY);
    providerIds.push(insertProvider.get(name, type, sealed, now - 40 * DAY_MS, now - 40 * DAY_MS)!.id);
  }
  // A handful of addresses: the line's IPv4 changes every ~4 days (IPv6 prefix likewise).
  const ipv4 = [
    "185.103.110.182",
    "185.103.110.57",
    "185.103.111.9",
    "185.103.108.240",
    "185.103.109.13",
    "185.103.110.201",
    "185.103.111.77",
    "185.103.108.4",
  ];
  const ipv6 = [
    "2a01:4f8:c17:b8f::2",
    "2a01:4f8:c17:1a2::2",
    "2a01:4f8:c17:77e::2",
    "2a01:4f8:c17:c01::2",
    "2a01:4f8:c17:5d0::2",
    "2a01:4f8:c17:9b4::2",
    "2a01:4f8:c17:e2a::2",
    "2a01:4f8:c17:31f::2",
  ];
  const epochOf = (ts: number) => Math.floor(ts / (4 * DAY_MS));
  const addressAt = (family: string, ts: number) => (family === "AAAA" ? ipv6 : ipv4)[epochOf(ts) % 8]!;
  const recordTypes: string[] = [];
  const insertDomain = sqlite.query<
    { id: number },
    [number, string, string, string, string, string, number, number, number, number]
  >(
    `INSERT INTO domains (provider_id, domain_name, record_type, external_id, config, is_enabled, last_known_ip,
       last_update_status, last_checked_at, last_changed_at, next_run_at, failure_count, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, 'SUCCESS', ?7, ?8, ?9, 0, ?10, ?10) RETURNING id`,
  );
  sqlite.transaction(() => {
    for (let i = 1; i <= DOMAINS; i++) {
      const type = i % 10 === 0 ? "AAAA" : "A"; // one in ten is IPv6
      recordTypes.push(type);
      insertDomain.get(
        providerIds[i % 3]!,
        `host${String(i).padStart(3, "0")}.example.net`,
        type,
        crypto.randomUUID().replaceAll("-", ""),
        JSON.stringify({ zone_id: "0123456789abcdef0123456789abcdef", ttl: 1 }),
        addressAt(type, now),
        now - 60_000,
        now - 2 * DAY_MS,
        // Due in a year: the binary's scheduler leaves these domains alone during the benchmark.
        now + 365 * DAY_MS,
        now - 40 * DAY_MS,
      );
    }
  })();

  const timestamps = new Float64Array(ROWS);
  const recent = Math.round(ROWS * RECENT_SHARE);
  for (let i = 0; i < ROWS; i++) {
    timestamps[i] = Math.floor(i < recent ? now - Math.random() * DAY_MS : now - Math.random() * DAYS * DAY_MS);
  }
  timestamps.sort(); // ids grow with time, as they do in a running appliance
  const insertHistory = sqlite.query<
    null,
    [number, string | null, string | null, string, string, string, number, number]
  >(
    `INSERT INTO history (domain_id, ip_address, previous_ip, status, message, trigger, duration_ms, timestamp)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let failed = 0;
  sqlite.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const ts = timestamps[i]!;
      const domain = 1 + Math.floor(Math.random() * DOMAINS);
      const type = recordTypes[domain - 1]!;
      const ip = addressAt(type, ts);
      const before = addressAt(type, ts - 4 * DAY_MS);
      const roll = Math.random();
      const trigger = roll < 0.97 ? "schedule" : "manual";
      const duration = 60 + Math.floor(Math.random() * 500);
      if (roll < FAILED_SHARE / 3) {
        failed++;
        insertHistory.run(
          domain,
          null,
          ip,
          "FAILED",
          "IPv4 detection failed: every source timed out (3 tried)",
          trigger,
          duration,
          ts,
        );
      } else if (roll < FAILED_SHARE) {
        failed++;
        insertHistory.run(
          domain,
          ip,
          before,
          "FAILED",
          "Cloudflare: Please wait and consider throttling your request speed (code 971, HTTP 429)",
          trigger,
          duration,
          ts,
        );
      } else {
        insertHistory.run(
          domain,
          ip,
          before,
          "SUCCESS",
          `Updated host.example.net ${type} → ${ip}: Cloudflare record updated`,
          trigger,
          duration,
          ts,
        );
      }
    }
  })();
  sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const insertMs = performance.now() - insertStarted;
  const inLastDay = sqlite
    .query<{ n: number }, [number]>("SELECT count(*) AS n FROM history WHERE timestamp >= ?")
    .get(now - DAY_MS)!.n;
  const dbBytes = statSync(join(dir, "ddnsd.db")).size;
  console.log(
    `data: ${ROWS.toLocaleString("en")} rows over ${DOMAINS} domains and ${DAYS} days (${inLastDay.toLocaleString("en")} in the last 24 h, ` +
      `${((failed / ROWS) * 100).toFixed(1)}% FAILED, ${ipv4.length} IPv4 + ${ipv6.length} IPv6 addresses), inserted in ${(insertMs / 1000).toFixed(1)} s`,
  );

  // ---- in-process: the service functions the API and the admin pages call
  const busiest = sqlite
    .query<{ id: number }, []>("SELECT domain_id AS id FROM history GROUP BY domain_id ORDER BY count(*) DESC LIMIT 1")
    .get()!.id;
  const reads: [string, () => unknown, number | null][] = [
    ["dashboardMetrics (GET /metrics/dashboard)", () => dashboardMetrics(ctx), 50],
    ["providerStats (GET /metrics/provider-stats)", () => providerStats(ctx), 50],
    [`domainHistory, limit 20 (GET /domains/${busiest}/history)`, () => domainHistory(ctx, busiest, 20), 5],
    ["domainHistory, limit 1000", () => domainHistory(ctx, busiest, 1000), null],
    ["updatesPerHour (admin dashboard chart)", () => updatesPerHour(ctx), null],
    ["ipChangesPerDay (admin dashboard chart)", () => ipChangesPerDay(ctx), null],
  ];
  // Every statement a read prepares is captured, so its query plan can be shown below.
  const statements = new Map<string, Set<string>>();
  let reading = "";
  for (const method of ["query", "prepare"] as const) {
    const original = sqlite[method].bind(sqlite) as (sql: string) => unknown;
    (sqlite as unknown as Record<string, unknown>)[method] = (sql: string) => {
      if (reading) statements.get(reading)!.add(sql);
      return original(sql);
    };
  }
  const rows: string[][] = [];
  for (const [name, read, target] of reads) {
    reading = name;
    statements.set(name, new Set());
    await read();
    reading = "";
    const durations = await timeRuns(RUNS, read);
    const value = median(durations);
    rows.push([
      name,
      ms(value),
      ms(percentile(durations, 95)),
      target === null ? "" : `≤ ${target} ms`,
      target === null ? "" : value <= target ? "met" : "MISSED",
    ]);
    if (target !== null) {
      recordFigure({
        bench: "history",
        name: `${name.split(" (")[0]} in-process, 1M rows`,
        value: ms(value),
        target: `≤ ${target} ms`,
        met: value <= target,
      });
    }
  }
  console.log(`\nin-process (median and p95 of ${RUNS} runs after 3 warm-ups):\n`);
  console.log(table(["read", "median", "p95", "target", ""], rows));

  console.log("\nquery plans (EXPLAIN QUERY PLAN; parameters unbound):");
  for (const [name, sqls] of statements) {
    if (!/dashboard|providerStats|limit 20/.test(name)) continue;
    console.log(`  ${name.split(" (")[0]}:`);
    for (const sql of sqls) {
      if (/FROM users|sqlite_master/.test(sql)) continue;
      console.log(`    ${sql.replace(/\s+/g, " ").slice(0, 110)}${sql.length > 110 ? "…" : ""}`);
      for (const step of sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        console.log(`      → ${step.detail}`);
    }
  }
  ctx.sqlite.close();

  // ---- the same reads over HTTP, against the compiled binary on this database
  ensureBinary();
  const appliance = await startAppliance(dir, {
    DDNS_UPDATE_INTERVAL: "24h",
    DDNS_HISTORY_RETENTION: String(RETENTION),
  });
  const httpRows: string[][] = [];
  try {
    const token = await login(appliance.url);
    const get = async (path: string) => {
      const response = await fetch(`${appliance.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (response.status !== 200) throw new Error(`${path} → ${response.status}`);
      await response.arrayBuffer();
    };
    for (const [path, target] of [
      ["/api/v1/metrics/dashboard", 50],
      ["/api/v1/metrics/provider-stats", 50],
      [`/api/v1/domains/${busiest}/history?limit=20`, 5],
    ] as const) {
      const durations = await timeRuns(RUNS, () => get(path));
      const value = median(durations);
      httpRows.push([
        `GET ${path}`,
        ms(value),
        ms(percentile(durations, 95)),
        `≤ ${target} ms`,
        value <= target ? "met" : "MISSED",
      ]);
      recordFigure({
        bench: "history",
        name: `GET ${path.replace(/\/\d+\//, "/{id}/")} over HTTP, 1M rows`,
        value: ms(value),
        target: `≤ ${target} ms`,
        met: value <= target,
      });
    }
  } finally {
    await appliance.stop();
  }
  console.log(
    `\nover HTTP against dist/ddnsd (one request at a time, round trip included; median and p95 of ${RUNS}):\n`,
  );
  console.log(table(["request", "median", "p95", "target", ""], httpRows));
  console.log(
    `\ndatabase size: ${mb(dbBytes)} for ${ROWS.toLocaleString("en")} history rows (${(dbBytes / ROWS).toFixed(0)} bytes a row, indexes included)`,
  );
  recordFigure({ bench: "history", name: "database size, 1M history rows", value: mb(dbBytes) });
} finally {
  removeDir(dir);
}
