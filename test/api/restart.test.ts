// Everything survives a restart on the same data dir: providers, domains and their schedules,
// tokens, sealed credentials — and the database is neither migrated again nor backed up for
// nothing. A new migration, though, is applied once, after a backup.

import { afterEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrationsFolder, openDatabase } from "../../src/db";
import { createLogger } from "../../src/log";
import { openCredentials } from "../../src/security/secrets";
import { ENCRYPTION_KEY, makeTestApp, TEST_PASSWORD, type TestApp } from "../support";
import { CF_TOKEN, createDomain, createProvider, insertHistory } from "./helpers";

const tempDirs: string[] = [];
const openApps: TestApp[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "ddnsd-restart-"));
  tempDirs.push(dir);
  return dir;
}
async function start(dir: string): Promise<TestApp> {
  const t = await makeTestApp({}, dir);
  openApps.push(t);
  return t;
}
function stop(t: TestApp): void {
  t.ctx.sqlite.close();
  openApps.splice(openApps.indexOf(t), 1);
}
afterEach(() => {
  for (const t of openApps.splice(0)) t.ctx.sqlite.close();
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function collectingLog() {
  const lines: string[] = [];
  return { lines, log: createLogger({ level: "debug", format: "text", write: (line) => lines.push(line) }) };
}

describe("restart on the same data dir", () => {
  test("providers, domains, history, tokens and credentials survive", async () => {
    const dir = tempDir();
    const first = await start(dir);
    expect(first.logs.some((line) => line.includes("database migrated"))).toBe(true);
    const provider = await createProvider(first, { name: "kept", credentials: { api_token: CF_TOKEN } });
    const domain = await createDomain(first, provider.id, {
      domain_name: "home.example.com",
      cron_schedule: "*/5 * * * *",
      config: { ttl: 60 },
    });
    insertHistory(first, domain.id, { message: "before the restart" });
    const token = await first.token();
    const before = {
      providers: (await first.request("GET", "/api/v1/providers")).body,
      domains: (await first.request("GET", "/api/v1/domains")).body,
      history: (await first.request("GET", `/api/v1/domains/${domain.id}/history`)).body,
    };
    stop(first);

    const second = await start(dir);
    // The token issued before the restart still opens the API.
    const providers = await second.request("GET", "/api/v1/providers", { token });
    expect(providers.status).toBe(200);
    expect(providers.body).toEqual(before.providers);
    expect((await second.request("GET", "/api/v1/domains", { token })).body).toEqual(before.domains);
    expect((await second.request("GET", `/api/v1/domains/${domain.id}/history`, { token })).body).toEqual(
      before.history,
    );
    expect(before.domains[0].next_run_at).not.toBeNull();
    // The credentials still open with the same key.
    const sealed = second.ctx.sqlite
      .query<{ credentials: string }, []>("SELECT credentials FROM providers")
      .get()!.credentials;
    expect(openCredentials(sealed, ENCRYPTION_KEY)).toEqual({ api_token: CF_TOKEN });
    // The admin was not created again, and the old password still works.
    expect(second.ctx.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM users").get()!.n).toBe(1);
    const login = await second.request("POST", "/api/v1/auth/login", {
      token: null,
      body: { username: "admin", password: TEST_PASSWORD },
    });
    expect(login.status).toBe(200);
    // New rows carry on from the old ids.
    expect((await createProvider(second, { name: "new" })).id).toBe(provider.id + 1);
  });

  test("no migration is applied again and no backup is made", async () => {
    const dir = tempDir();
    const first = await start(dir);
    await createProvider(first);
    stop(first);
    const second = await start(dir);
    expect(second.logs.filter((line) => /migrat|backed up/.test(line))).toEqual([]);
    expect(existsSync(join(dir, "backups"))).toBe(false);
    const applied = second.ctx.sqlite
      .query<{ n: number }, []>("SELECT count(*) AS n FROM __drizzle_migrations")
      .get()!.n;
    expect(applied).toBe(readdirSync(migrationsFolder()).filter((name) => name.endsWith(".sql")).length);
  });

  test("openDatabase on an existing, current database: no error, no backup, no log", () => {
    const dir = tempDir();
    const { log } = collectingLog();
    const first = openDatabase(dir, log);
    first.sqlite.exec("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('u', 'h', 0, 0)");
    first.sqlite.close();
    for (let i = 0; i < 2; i++) {
      const { lines, log: quiet } = collectingLog();
      const again = openDatabase(dir, quiet);
      expect(again.path).toBe(join(dir, "ddnsd.db"));
      expect(again.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM users").get()!.n).toBe(1);
      again.sqlite.close();
      expect(lines).toEqual([]);
    }
    expect(existsSync(join(dir, "backups"))).toBe(false);
  });

  test("the first start on an empty dir migrates without a backup", () => {
    const dir = tempDir();
    const { lines, log } = collectingLog();
    const opened = openDatabase(dir, log);
    opened.sqlite.close();
    expect(lines.some((line) => line.includes("database migrated"))).toBe(true);
    expect(existsSync(join(dir, "backups"))).toBe(false);
  });

  test("a new migration is applied once, after a backup of the data", () => {
    const dir = tempDir();
    const { log } = collectingLog();
    const first = openDatabase(dir, log);
    first.sqlite.exec("INSERT INTO users (username, password_hash, created_at, updated_at) VALUES ('u', 'h', 0, 0)");
    first.sqlite.close();

    // The shipped migrations plus one more.
    const folder = join(tempDir(), "migrations");
    cpSync(migrationsFolder(), folder, { recursive: true });
    const journalPath = join(folder, "meta/_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8"));
    const last = journal.entries.at(-1);
    journal.entries.push({
      idx: last.idx + 1,
      version: last.version,
      when: last.when + 1000,
      tag: "9999_test_extra",
      breakpoints: true,
    });
    writeFileSync(journalPath, JSON.stringify(journal));
    writeFileSync(join(folder, "9999_test_extra.sql"), "CREATE TABLE `test_extra` (`id` integer PRIMARY KEY);");

    const { lines, log: watched } = collectingLog();
    const migrated = openDatabase(dir, watched, folder);
    expect(migrated.sqlite.query("SELECT name FROM sqlite_master WHERE name = 'test_extra'").get()).not.toBeNull();
    migrated.sqlite.close();
    expect(lines.some((line) => line.includes("backed up"))).toBe(true);
    expect(lines.some((line) => line.includes("9999_test_extra"))).toBe(true);
    const backups = readdirSync(join(dir, "backups"));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/^ddnsd-.*-before-9999_test_extra\.db$/);

    // Once applied, it is not applied (nor backed up) again.
    const { lines: quiet, log: quietLog } = collectingLog();
    openDatabase(dir, quietLog, folder).sqlite.close();
    expect(quiet).toEqual([]);
    expect(readdirSync(join(dir, "backups"))).toHaveLength(1);
  });
});
