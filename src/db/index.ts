// Opening the SQLite database: pragmas, the drizzle handle, and migrations applied at start —
// after a copy of the database is put aside whenever a migration is about to change it.

import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { Logger } from "../log";
import { backupName, backupsDir, writeBackup } from "./backup";
import * as schema from "./schema";
import { WatchedDatabase } from "./writes";

export type Db = ReturnType<typeof drizzle<typeof schema>>;

export interface OpenedDatabase {
  db: Db;
  /** Counts its writes (./writes.ts): what is cached from it knows when to read again. */
  sqlite: WatchedDatabase;
  /** Where the database file lives, or null for an in-memory database. */
  path: string | null;
}

export const BACKUPS_KEPT = 5;

/**
 * The migrations folder: beside the sources when run with `bun`, or embedded in the compiled
 * binary with `--asset migrations` (reachable relative to the bundle's own directory).
 */
export function migrationsFolder(): string {
  const candidates = [join(import.meta.dir, "../../migrations"), join(import.meta.dir, "migrations")];
  const found = candidates.find((dir) => existsSync(join(dir, "meta/_journal.json")));
  if (found === undefined) throw new Error(`Migrations not found (looked in ${candidates.join(", ")})`);
  return found;
}

export class MigrationError extends Error {}

/** Opens (creating if needed) `<dataDir>/ddnsd.db`, or an in-memory database for `":memory:"`. */
export function openDatabase(location: string, log: Logger, folder = migrationsFolder()): OpenedDatabase {
  const path = location === ":memory:" ? null : join(location, "ddnsd.db");
  if (path !== null) mkdirSync(location, { recursive: true, mode: 0o700 });
  const sqlite = new WatchedDatabase(path ?? ":memory:", { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  const db = drizzle(sqlite, { schema });

  const pending = pendingMigrations(sqlite, folder);
  if (pending.length > 0) {
    if (path !== null && hasData(sqlite)) backupDatabase(sqlite, location, pending[0]!, log);
    try {
      migrate(db, { migrationsFolder: folder });
    } catch (error) {
      sqlite.close();
      throw new MigrationError(
        `Database migration ${pending.join(", ")} failed; the database was left as it was: ${(error as Error).message}. ` +
          "Run the previous version until this is fixed (see /help/operations#upgrade)",
      );
    }
    log.info("database migrated", { applied: pending.join(",") });
  }
  return { db, sqlite, path };
}

/** Tags of the migrations not yet applied, by the same rule drizzle's migrator uses (creation time). */
function pendingMigrations(sqlite: Database, folder: string): string[] {
  const files = readMigrationFiles({ migrationsFolder: folder });
  const journal = JSON.parse(readFileSync(join(folder, "meta/_journal.json"), "utf8")) as {
    entries: { tag: string }[];
  };
  const table = sqlite
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'",
    )
    .get();
  const lastApplied = table
    ? (sqlite.query<{ at: number | null }, []>("SELECT max(created_at) AS at FROM __drizzle_migrations").get()?.at ?? 0)
    : 0;
  return files.flatMap((file, index) => (file.folderMillis > lastApplied ? [journal.entries[index]!.tag] : []));
}

function hasData(sqlite: Database): boolean {
  return (
    sqlite
      .query<{ n: number }, []>(
        "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
      )
      .get()!.n > 0
  );
}

/** A consistent copy under `<dataDir>/backups/` (./backup.ts), keeping the newest BACKUPS_KEPT of these. */
function backupDatabase(sqlite: Database, dataDir: string, beforeTag: string, log: Logger): void {
  const dir = backupsDir(dataDir);
  const file = join(dir, backupName(`before-${beforeTag}`));
  writeBackup(sqlite, dataDir, file);
  log.info("database backed up before migrating", { backup: file });
  const backups = readdirSync(dir)
    .filter((name) => /^ddnsd-\d{8}T\d+Z-before-\d{4}_/.test(name))
    .sort();
  for (const old of backups.slice(0, Math.max(0, backups.length - BACKUPS_KEPT))) rmSync(join(dir, old));
}
