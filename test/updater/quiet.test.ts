// Nothing written while nothing changes: six minutes of one-minute checks of 20 domains whose
// records already hold the address write almost nothing to the database file and its WAL (the check's
// facts — when it ran, when the domain runs next — are held in memory by the store), the API shows
// those facts all the same, a restart after them keeps every schedule, a real change is written at
// once, and a crash loses only the check times.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ECHO_DEFAULT_IPV4 } from "../fakes/echo";
import { makeTestApp, type TestApp } from "../support";
import { addDomain, addProvider, NEXT_IPV4, type Rig, startRig } from "./harness";

const DOMAINS = 20;
const MINUTE = 60_000;
/** The bound for the six minutes (before: about 1 MB, 9 KB a domain check). */
const BOUND_BYTES = 64 * 1024;

let dataDir: string;
let rig: Rig;
const ids: number[] = [];
/** Each pass runs a minute further on than the one before (the passes' own clock, not the wall's). */
let minutes = 0;

const files = () => [join(dataDir, "ddnsd.db"), join(dataDir, "ddnsd.db-wal")];
/** What the database and its WAL hold on disk: their sizes (the WAL only grows until it is checkpointed). */
const bytesOnDisk = () => files().reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);

/** The stored columns, read past the store: what is on disk. */
function stored(t: TestApp) {
  return t.ctx.sqlite
    .query<
      {
        id: number;
        next_run_at: number | null;
        last_checked_at: number | null;
        last_known_ip: string | null;
        failure_count: number;
      },
      []
    >("SELECT id, next_run_at, last_checked_at, last_known_ip, failure_count FROM domains ORDER BY id")
    .all();
}

function historyCount(t: TestApp): number {
  return t.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM history").get()!.n;
}

/** One scheduler pass a minute after the last one: every domain is due again. */
async function minutePass() {
  minutes++;
  return rig.t.ctx.scheduler.runPass({ now: Date.now() + minutes * MINUTE + 1_000 });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "ddnsd-quiet-"));
  rig = await startRig({ env: { DDNS_UPDATE_INTERVAL: "1m" }, dataDir });
  rig.cf.addZone("example.com");
  const provider = await addProvider(rig.t, "cloudflare");
  for (let i = 0; i < DOMAINS; i++) {
    rig.cf.addRecord("example.com", { type: "A", name: `host${i}`, content: ECHO_DEFAULT_IPV4 });
    ids.push((await addDomain(rig.t, provider.id, `host${i}.example.com`, { record_type: "A" })).id);
  }
  // The first pass reads every record and finds it current: one history row each.
  const first = await minutePass();
  expect(first.map((outcome) => outcome.result)).toEqual(Array(DOMAINS).fill("updated"));
});

afterAll(async () => {
  await rig.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("six minutes of one-minute checks of 20 unchanged domains write at most 64 KiB", async () => {
  // From an empty WAL, what the checks add is what the files grow by (no checkpoint runs below 1,000 pages).
  rig.t.ctx.sqlite.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const before = bytesOnDisk();
  const history = historyCount(rig.t);
  const echoAsked = rig.echo.requests.length;
  for (let i = 0; i < 6; i++) {
    const outcomes = await minutePass();
    expect(outcomes.map((outcome) => outcome.result)).toEqual(Array(DOMAINS).fill("unchanged"));
  }
  expect(rig.echo.requests.length).toBeGreaterThan(echoAsked);
  expect(rig.cf.writes()).toBe(0);
  expect(historyCount(rig.t)).toBe(history);
  expect(bytesOnDisk() - before).toBeLessThanOrEqual(BOUND_BYTES);
});

test("the API shows the last check and the next run held in memory", async () => {
  const onDisk = new Map(stored(rig.t).map((row) => [row.id, row]));
  const listed = (await rig.t.request("GET", "/api/v1/domains")).body as {
    id: number;
    last_checked_at: string | null;
    next_run_at: string | null;
  }[];
  expect(listed).toHaveLength(DOMAINS);
  for (const domain of listed) {
    const row = rig.t.ctx.store.domains.find(domain.id)!;
    expect(Date.parse(domain.last_checked_at!)).toBe(row.lastCheckedAt!);
    expect(Date.parse(domain.next_run_at!)).toBe(row.nextRunAt!);
    // Newer than what the table holds: the checks above were not written.
    expect(row.lastCheckedAt!).toBeGreaterThan(onDisk.get(domain.id)!.last_checked_at!);
  }
});

test("a crash loses only the check times: the history, the addresses and the counters are on disk", async () => {
  // What a kill -9 leaves: the files as they are now (every committed transaction is in them).
  const crashed = mkdtempSync(join(tmpdir(), "ddnsd-crashed-"));
  try {
    for (const file of files()) if (existsSync(file)) copyFileSync(file, join(crashed, file.split("/").pop()!));
    const after = await makeTestApp(rig.env, crashed);
    try {
      const shown = new Map(ids.map((id) => [id, rig.t.ctx.store.domains.find(id)!]));
      expect(historyCount(after)).toBe(historyCount(rig.t));
      for (const row of after.ctx.store.domains.list()) {
        const running = shown.get(row.id)!;
        expect(row).toMatchObject({
          lastKnownIp: running.lastKnownIp,
          lastUpdateStatus: running.lastUpdateStatus,
          failureCount: running.failureCount,
          lastChangedAt: running.lastChangedAt,
        });
        // The schedule recomputed from what was written: due at once, so the domain is checked at start.
        expect(row.nextRunAt!).toBeLessThanOrEqual(Date.now() + MINUTE);
      }
      expect(after.ctx.store.domains.due(Date.now() + MINUTE).map((d) => d.id)).toEqual(ids);
    } finally {
      after.ctx.sqlite.close();
    }
  } finally {
    rmSync(crashed, { recursive: true, force: true });
  }
});

test("a restart after them keeps every schedule", async () => {
  const shown = ids.map((id) => rig.t.ctx.store.domains.find(id)!);
  await rig.t.ctx.scheduler.stop(5_000);
  // Closing the database writes what was held (the server closes it on shutdown).
  rig.t.ctx.sqlite.close();
  rig.t = await makeTestApp(rig.env, dataDir);
  expect(stored(rig.t).map((row) => [row.id, row.next_run_at, row.last_checked_at])).toEqual(
    shown.map((row) => [row.id, row.nextRunAt, row.lastCheckedAt]),
  );
});

test("a real change is written at once", async () => {
  rig.echo.ipv4 = NEXT_IPV4;
  const history = historyCount(rig.t);
  const outcomes = await rig.t.ctx.scheduler.runPass({ now: Date.now() + 10 * MINUTE });
  expect(outcomes.map((outcome) => outcome.result)).toEqual(Array(DOMAINS).fill("updated"));
  // On disk as soon as the pass is over: the addresses, a history row each.
  expect(stored(rig.t).map((row) => row.last_known_ip)).toEqual(Array(DOMAINS).fill(NEXT_IPV4));
  expect(historyCount(rig.t)).toBe(history + DOMAINS);
  expect(rig.cf.writes()).toBe(DOMAINS);
});
