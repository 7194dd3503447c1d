// One instance per data dir (docs/api.md, limits): `ddnsd serve` holds an exclusive lock on
// `<data dir>/ddnsd.lock` for as long as it runs. The lock is SQLite's own (POSIX fcntl locks on a
// small database kept in EXCLUSIVE locking mode), so the kernel releases it when the process ends in
// any way, kill -9 included: nothing goes stale as a PID file would. bun:sqlite is part of the
// runtime, so this works unchanged in the compiled binary on every target (no FFI to libc flock).
// `ddnsd check` and `ddnsd admin set-password` take it too when it is free (and run inside the
// server, through its control socket, when it is not: src/control/).

import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";

export class DataDirInUse extends Error {}

/** Takes the data dir's lock, or throws DataDirInUse; the lock lasts until `release()` or the process ends. */
export function lockDataDir(dataDir: string): { release(): void } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, "ddnsd.lock");
  const lock = new Database(path, { create: true });
  try {
    lock.exec("PRAGMA busy_timeout = 0");
    lock.exec("PRAGMA locking_mode = EXCLUSIVE");
    // A write takes the exclusive lock, and EXCLUSIVE locking mode keeps it after the commit.
    lock.exec(`PRAGMA user_version = ${process.pid}`);
  } catch (error) {
    lock.close();
    if (/locked|busy/i.test((error as Error).message)) {
      throw new DataDirInUse(`another ddnsd is already running on ${dataDir} (its lock ${path} is held)`);
    }
    throw error;
  }
  return { release: () => lock.close() };
}
