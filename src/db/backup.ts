// Copies of the database: `ddnsd backup FILE`, `ddnsd restore FILE`, and the copy put aside before
// a migration (./index.ts). A copy is SQLite's own `VACUUM INTO`: one consistent snapshot taken in
// a read transaction, so the server keeps writing meanwhile, and a compact file with no -wal beside it.
// The backups folder (`<data dir>/backups/`) is inside the data dir, the one place the service may
// write (systemd's ProtectSystem=strict): the CLI moves a copy from there to wherever it was asked.
// Every copy reaches its place as a new file (util/files.ts): SQLite writes it in a new folder of
// the writer's own (mkdtemp, mode 0700) beside the target, so no link planted in the data dir
// (which `sudo ddnsd restore` writes as root) is written through.

import { Database } from "bun:sqlite";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { copyInto, type Owner, replaceFile, stageNewFile } from "../util/files";

export const DATABASE_FILE = "ddnsd.db";

/** `<data dir>/backups/`, created (mode 0700, the data dir's owner) when missing. */
export function backupsDir(dataDir: string): string {
  const dir = join(dataDir, "backups");
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownLikeDataDir(dir, dataDir);
  }
  return dir;
}

/** A file name for a copy that sorts by time: `ddnsd-20261127T223344123Z-<what>.db`. */
export function backupName(what: string, now = new Date()): string {
  return `ddnsd-${now.toISOString().replace(/[-:.]/g, "")}-${what}.db`;
}

export class BackupError extends Error {}

/**
 * Writes a consistent copy of the open database `sqlite` of `dataDir` to `file`, a new file
 * (replacing whatever is there). The copy holds the sealed credentials and the password hashes:
 * mode 0600, the data dir's owner.
 */
export function writeBackup(sqlite: Database, dataDir: string, file: string): void {
  // A folder of the writer's own beside the target (a container built FROM scratch has no /tmp).
  const scratch = mkdtempSync(join(dirname(file), ".ddnsd-copy-"));
  try {
    const copy = join(scratch, DATABASE_FILE);
    sqlite.query("VACUUM INTO ?").run(copy);
    replaceFile(file, copyInto(copy), dataDirOwner(dataDir));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * A copy of the database of a data dir that no server holds (the caller holds its lock), without
 * migrating it: an upgrade's backup is taken with the new binary before its first start.
 */
export function backupStoppedDatabase(dataDir: string, file: string): void {
  const path = join(dataDir, DATABASE_FILE);
  if (!existsSync(path)) throw new BackupError(`there is no database in ${dataDir} yet`);
  const sqlite = new Database(path, { strict: true });
  try {
    sqlite.exec("PRAGMA busy_timeout = 5000");
    writeBackup(sqlite, dataDir, file);
  } finally {
    sqlite.close();
  }
}

/** Throws BackupError unless `file` is an intact ddnsd database. */
export function checkBackupFile(file: string): void {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  let sqlite: Database;
  try {
    sqlite = new Database(file, { readonly: true, strict: true });
  } catch (error) {
    throw new BackupError(`${file} cannot be opened as a database: ${(error as Error).message}`);
  }
  try {
    const integrity = sqlite.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()?.integrity_check;
    if (integrity !== "ok") throw new BackupError(`${file} is damaged (SQLite's integrity check: ${integrity})`);
    const migrated = sqlite
      .query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
      .get();
    const users = sqlite.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'users'").get();
    if (migrated === null || users === null) throw new BackupError(`${file} is not a ddnsd database`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} cannot be read as a database: ${(error as Error).message}`);
  } finally {
    sqlite.close();
  }
}

/**
 * Puts the copy `file` in place of the data dir's database; the caller holds the data dir's lock,
 * so no server runs. The database it replaces is kept as `backups/ddnsd-<time>-before-restore.db`
 * (returned; null when there was none). A copy from an older version is migrated at the next start,
 * after that start's own backup.
 */
export function restoreDatabase(dataDir: string, file: string, now = new Date()): string | null {
  checkBackupFile(file);
  const path = join(dataDir, DATABASE_FILE);
  let kept: string | null = null;
  if (existsSync(path)) {
    kept = join(backupsDir(dataDir), backupName("before-restore", now));
    backupStoppedDatabase(dataDir, kept);
  }
  const staged = stageNewFile(path, copyInto(file), dataDirOwner(dataDir));
  // The journal files belong to the database being replaced; beside the copy they would be replayed into it.
  for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(`${path}${suffix}`, { force: true });
  staged.commit();
  return kept;
}

/** Copies `from` to `to` as a new file (never a half-written `to`, never through a link), mode 0600, the writer's. */
export function publishCopy(from: string, to: string): void {
  replaceFile(to, copyInto(from));
}

/**
 * A file made by root (`sudo ddnsd restore`) in a data dir that belongs to the service's user is
 * given to that user, so that the service can still open it.
 */
function dataDirOwner(dataDir: string): Owner | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const owner = statSync(dataDir);
  return owner.uid === 0 ? undefined : { uid: owner.uid, gid: owner.gid };
}

/** The backups folder, made just now: mode 0700, the data dir's owner. */
function chownLikeDataDir(dir: string, dataDir: string): void {
  chmodSync(dir, 0o700);
  const owner = dataDirOwner(dataDir);
  if (owner !== undefined) chownSync(dir, owner.uid, owner.gid);
}
