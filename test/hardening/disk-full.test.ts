// A full data disk (docs/api.md, limits). Simulated deterministically: the database may grow no further
// (`PRAGMA max_page_count`) and temporary triggers make every write of a table also need new pages,
// so SQLite itself answers SQLITE_FULL "database or disk is full", as on a full disk. API writes
// answer 507; /healthz answers 503 degraded; the scheduler keeps the DNS records current without
// writing one twice because its state could not be stored, logs once a minute at most, and the
// outcomes are stored as history once space is back. Nothing stored before is lost.

import { afterEach, beforeEach, describe, expect, setSystemTime, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_PASSWORD, type TestApp } from "../support";
import {
  addDomain,
  addProvider,
  domainState,
  duePass,
  forceUpdate,
  historyOf,
  historyRows,
  makeDue,
  NEXT_IPV4,
  useRig,
} from "../updater/harness";
import { login, spawnAppliance, untilHealthy } from "./appliance";

const rig = useRig();

/** The tables a write may touch, each made to need pages the database may not have. */
const WRITES = [
  ["history", "INSERT"],
  ["domains", "INSERT"],
  ["domains", "UPDATE"],
  ["providers", "INSERT"],
  ["providers", "UPDATE"],
  ["providers", "DELETE"],
  ["users", "UPDATE"],
] as const;

function fillDisk(t: TestApp): void {
  t.ctx.sqlite.exec("CREATE TABLE IF NOT EXISTS filler (x)");
  const { pages } = t.ctx.sqlite
    .query<{ pages: number }, []>("SELECT page_count AS pages FROM pragma_page_count()")
    .get()!;
  t.ctx.sqlite.exec(`PRAGMA max_page_count = ${pages}`);
  for (const [table, operation] of WRITES) {
    t.ctx.sqlite.exec(
      `CREATE TEMP TRIGGER full_${table}_${operation} BEFORE ${operation} ON main.${table} BEGIN INSERT INTO main.filler VALUES (randomblob(200000)); END`,
    );
  }
}

function freeDisk(t: TestApp): void {
  for (const [table, operation] of WRITES) t.ctx.sqlite.exec(`DROP TRIGGER IF EXISTS temp.full_${table}_${operation}`);
  t.ctx.sqlite.exec("PRAGMA max_page_count = 1073741823");
}

beforeEach(() => {
  rig().cf.addZone("example.com");
});
afterEach(() => {
  freeDisk(rig().t);
  setSystemTime();
});

const health = async (t: TestApp) => {
  const response = await t.request("GET", "/healthz", { token: null });
  return { status: response.status, body: response.body };
};

test("API writes answer 507 and change nothing; /healthz 503 degraded until space is back", async () => {
  const { t } = rig();
  const provider = await addProvider(t, "cloudflare", { name: "kept" });
  fillDisk(t);
  for (const [method, path, body] of [
    [
      "POST",
      "/api/v1/providers",
      { name: "new", type: "cloudflare", credentials: { api_token: "cf-fake-token-0123456789abcdef" } },
    ],
    ["PUT", `/api/v1/providers/${provider.id}`, { name: "renamed" }],
    ["POST", "/api/v1/domains", { provider_id: provider.id, domain_name: "home.example.com" }],
  ] as const) {
    const response = await t.request(method, path, { body });
    expect(response.status).toBe(507);
    expect(response.body.detail).toStartWith("The data disk is full: ");
  }
  expect((await t.request("GET", "/api/v1/providers")).body.map((p: { name: string }) => p.name)).toEqual(["kept"]);
  const degraded = await health(t);
  expect(degraded.status).toBe(503);
  expect(degraded.body.status).toBe("degraded");
  expect(degraded.body.detail).toStartWith("The data disk is full");
  freeDisk(t);
  t.ctx.scheduler.start();
  t.ctx.scheduler.tick();
  expect((await health(t)).status).toBe(200);
});

test("the scheduler keeps the record current, writes it once, logs once a minute, and stores the outcome once space is back", async () => {
  const { cf, echo, t } = rig();
  const provider = await addProvider(t, "cloudflare");
  const domain = await addDomain(t, provider.id, "home.example.com");
  await duePass(t);
  const rowsBefore = historyRows(t, domain.id);
  expect(rowsBefore).toBe(1);

  makeDue(t);
  const logsBefore = t.logs.length;
  fillDisk(t);
  echo.ipv4 = NEXT_IPV4;
  const writesBefore = cf.writes();
  await t.ctx.scheduler.runPass();
  expect([...cf.records.values()].find((r) => r.name === "home.example.com")!.content).toBe(NEXT_IPV4);
  expect(cf.writes()).toBe(writesBefore + 1);
  // Later passes: the waiting state says the record is current and not due; nothing is written again.
  t.ctx.scheduler.start();
  let now = Date.now();
  for (let i = 0; i < 5; i++) {
    now += 70_000; // past the 5-minute interval after a few of these: checked, but not rewritten
    setSystemTime(now);
    t.ctx.scheduler.tick();
    await t.ctx.scheduler.runPass();
  }
  expect(cf.writes()).toBe(writesBefore + 1);
  const linesNow = t.logs.length;
  for (let i = 0; i < 10; i++) t.ctx.scheduler.tick(); // ten ticks within the same minute: no new line
  expect(t.logs.slice(linesNow).filter((line) => line.includes("the data disk is full"))).toHaveLength(0);
  const fullLines = t.logs.slice(logsBefore).filter((line) => line.includes("the data disk is full"));
  expect(fullLines.length).toBeGreaterThanOrEqual(1);
  expect(fullLines.length).toBeLessThanOrEqual(6); // one a minute at most: the first, then one per 70 s step
  expect(t.logs.some((line) => line.includes("scheduler pass failed"))).toBe(false);
  expect(historyRows(t, domain.id)).toBe(rowsBefore);
  expect((await health(t)).status).toBe(503);

  freeDisk(t);
  t.ctx.scheduler.tick();
  expect(historyRows(t, domain.id)).toBe(rowsBefore + 1);
  const [newest] = await historyOf(t, domain.id);
  expect(newest.status).toBe("SUCCESS");
  expect(newest.ip_address).toBe(NEXT_IPV4);
  expect(domainState(t, domain.id).last_known_ip).toBe(NEXT_IPV4);
  expect((await health(t)).status).toBe(200);
  expect(t.logs.some((line) => line.includes("the data disk accepts writes again"))).toBe(true);
});

test("a forced update that reached Cloudflare answers 507 (not 500); its row is written once space is back", async () => {
  const { cf, echo, t } = rig();
  const provider = await addProvider(t, "cloudflare");
  const domain = await addDomain(t, provider.id, "home.example.com");
  fillDisk(t);
  echo.ipv4 = NEXT_IPV4;
  const response = await forceUpdate(t, domain.id);
  expect(response.status).toBe(507);
  expect(response.body.detail).toStartWith("The data disk is full: ");
  expect([...cf.records.values()].find((r) => r.name === "home.example.com")!.content).toBe(NEXT_IPV4);
  expect(historyRows(t, domain.id)).toBe(0);
  freeDisk(t);
  t.ctx.scheduler.start();
  t.ctx.scheduler.tick();
  const rows = await historyOf(t, domain.id);
  expect(rows).toHaveLength(1);
  expect(rows[0].trigger).toBe("manual");
  expect(rows[0].ip_address).toBe(NEXT_IPV4);
});

test("a sign-in still works on a full disk, even one whose hash is due to be re-hashed", async () => {
  const { t } = rig();
  const old = await Bun.password.hash(TEST_PASSWORD, { algorithm: "argon2id" });
  t.ctx.sqlite.query("UPDATE users SET password_hash = ? WHERE username = 'admin'").run(old);
  fillDisk(t);
  const response = await t.request("POST", "/api/v1/auth/login", {
    token: null,
    body: { username: "admin", password: TEST_PASSWORD },
  });
  expect(response.status).toBe(200);
  freeDisk(t);
  expect(
    (
      await t.request("POST", "/api/v1/auth/login", {
        token: null,
        body: { username: "admin", password: TEST_PASSWORD },
      })
    ).status,
  ).toBe(200);
  expect(t.ctx.sqlite.query<{ h: string }, []>("SELECT password_hash AS h FROM users").get()!.h).toStartWith(
    "$argon2id$v=19$m=19456,t=2,p=1$",
  );
});

/** A 3 MB tmpfs for the data dir, when this test may mount one (root on Linux); else null. */
function smallDisk(): { dir: string; release(): void } | null {
  if (process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), "ddnsd-small-disk-"));
  if (Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", dir], { stderr: "ignore" }).exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    release: () => {
      Bun.spawnSync(["umount", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe("on a real full disk (a 3 MB tmpfs)", () => {
  const disk = smallDisk();
  test.skipIf(disk === null)(
    "a write answers 507, /healthz 503 degraded; both recover once space is freed",
    async () => {
      const dataDir = join(disk!.dir, "data");
      mkdirSync(dataDir);
      const appliance = spawnAppliance(dataDir);
      try {
        await untilHealthy(appliance);
        const token = ((await (await login(appliance)).json()) as { access_token: string }).access_token;
        const createProvider = (name: string) =>
          fetch(`${appliance.base}/api/v1/providers`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({
              name,
              type: "cloudflare",
              credentials: { api_token: "cf-fake-token-0123456789abcdef" },
            }),
          });
        expect((await createProvider("before")).status).toBe(200);
        // Fill what is left of the disk.
        const ballast = join(disk!.dir, "ballast");
        let size = 0;
        for (const chunk of [1 << 20, 1 << 16, 1 << 12, 1 << 9]) {
          for (;;) {
            try {
              writeFileSync(ballast, new Uint8Array(chunk), { flag: "a" });
              size += chunk;
            } catch {
              break;
            }
          }
        }
        expect(size).toBeGreaterThan(0);
        let answer = 0;
        for (let i = 0; i < 50 && answer !== 507; i++) answer = (await createProvider(`during-${i}`)).status;
        expect(answer).toBe(507);
        const degraded = await fetch(`${appliance.base}/healthz`);
        expect(degraded.status).toBe(503);
        expect(((await degraded.json()) as { status: string }).status).toBe("degraded");
        rmSync(ballast);
        await untilHealthy(appliance, 5_000);
        expect((await createProvider("after")).status).toBe(200);
        const names = (
          (await (
            await fetch(`${appliance.base}/api/v1/providers`, { headers: { authorization: `Bearer ${token}` } })
          ).json()) as { name: string }[]
        ).map((p) => p.name);
        expect(names[0]).toBe("before");
        expect(names).toContain("after");
      } finally {
        appliance.kill("SIGKILL");
        await appliance.exited;
        disk!.release();
      }
    },
  );
});
