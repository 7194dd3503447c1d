// Upgrades keep data: a database made by the shipped migrations, with rows in it, is upgraded by
// a newer migration after a backup is written; a failing migration leaves it as it was.

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BACKUPS_KEPT, MigrationError, migrationsFolder, openDatabase } from "../../src/db";
import { createLogger } from "../../src/log";

let dir: string;
let folder: string;
let logs: string[];
const log = () => createLogger({ level: "info", format: "text", write: (line) => logs.push(line) });

/** Adds a migration to the copied folder, as `drizzle-kit generate` would. */
function addMigration(tag: string, sql: string): void {
  writeFileSync(join(folder, `${tag}.sql`), sql);
  const journalPath = join(folder, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8"));
  const last = journal.entries.at(-1);
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000 * journal.entries.length, tag });
  writeFileSync(journalPath, JSON.stringify(journal));
}

function seed(): void {
  const { sqlite } = openDatabase(dir, log(), folder);
  sqlite.run(
    "INSERT INTO providers (name, type, credentials, is_enabled, created_at, updated_at) VALUES ('cf', 'cloudflare', 'v1:x', 1, 1, 1)",
  );
  sqlite.run(
    "INSERT INTO domains (provider_id, domain_name, record_type, config, is_enabled, created_at, updated_at) VALUES (1, 'home.example.com', 'A', '{}', 1, 1, 1)",
  );
  for (let i = 0; i < 50; i++) {
    sqlite.run(
      "INSERT INTO history (domain_id, ip_address, status, message, trigger, duration_ms, timestamp) VALUES (1, ?, 'SUCCESS', 'ok', 'schedule', 5, ?)",
      [`203.0.113.${i}`, i],
    );
  }
  sqlite.close();
}

function counts(sqlite: import("bun:sqlite").Database) {
  return ["providers", "domains", "history"].map(
    (table) => sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n,
  );
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ddnsd-migrate-"));
  folder = join(dir, "migrations");
  cpSync(migrationsFolder(), folder, { recursive: true });
  logs = [];
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("migrations", () => {
  test("a new database is created without a backup", () => {
    openDatabase(dir, log(), folder).sqlite.close();
    expect(existsSync(join(dir, "backups"))).toBe(false);
  });

  test("an upgrade keeps every row and writes a backup first", () => {
    seed();
    addMigration("0001_add_note", "ALTER TABLE `domains` ADD `note` text;");
    const { sqlite } = openDatabase(dir, log(), folder);
    expect(counts(sqlite)).toEqual([1, 1, 50]);
    expect(sqlite.query("SELECT note FROM domains").get()).toEqual({ note: null });
    sqlite.close();

    const backups = readdirSync(join(dir, "backups"));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toContain("before-0001_add_note");
    expect(logs.some((line) => line.includes("database backed up before migrating"))).toBe(true);
    // The backup is the database as it was before the migration.
    const { Database } = require("bun:sqlite") as typeof import("bun:sqlite");
    const backup = new Database(join(dir, "backups", backups[0]!), { readonly: true });
    expect(counts(backup)).toEqual([1, 1, 50]);
    expect(() => backup.query("SELECT note FROM domains").get()).toThrow();
    backup.close();
  });

  test("opening an up-to-date database neither migrates nor backs up", () => {
    seed();
    openDatabase(dir, log(), folder).sqlite.close();
    expect(existsSync(join(dir, "backups"))).toBe(false);
    expect(logs.filter((line) => line.includes("database migrated"))).toHaveLength(1);
  });

  test("a failing migration stops with a clear message and leaves the database intact", () => {
    seed();
    addMigration("0001_broken", "ALTER TABLE `domains` ADD `note` text;--> statement-breakpoint\nTHIS IS NOT SQL;");
    expect(() => openDatabase(dir, log(), folder)).toThrow(MigrationError);
    expect(() => openDatabase(dir, log(), folder)).toThrow(/0001_broken failed; the database was left as it was/);
    expect(() => openDatabase(dir, log(), folder)).toThrow(/see \/help\/operations#upgrade\)$/);
    const { Database } = require("bun:sqlite") as typeof import("bun:sqlite");
    const sqlite = new Database(join(dir, "ddnsd.db"));
    expect(counts(sqlite)).toEqual([1, 1, 50]);
    expect(() => sqlite.query("SELECT note FROM domains").get()).toThrow();
    sqlite.close();
  });

  test(`only the newest ${BACKUPS_KEPT} backups are kept`, () => {
    seed();
    for (let i = 1; i <= BACKUPS_KEPT + 2; i++) {
      addMigration(`000${i}_step`, `ALTER TABLE \`domains\` ADD \`extra_${i}\` text;`);
      openDatabase(dir, log(), folder).sqlite.close();
    }
    const backups = readdirSync(join(dir, "backups")).sort();
    expect(backups).toHaveLength(BACKUPS_KEPT);
    expect(backups.at(-1)).toContain(`before-000${BACKUPS_KEPT + 2}_step`);
  });
});
