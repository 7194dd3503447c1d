// Whether the data disk takes writes again: after a full disk (db/disk.ts), a small write that
// fails the same way while it is still full.

import type { Database } from "bun:sqlite";

export interface SpaceQueries {
  /** Creates and drops a table in one transaction; throws (SQLITE_FULL) while the disk is full. */
  probe(): void;
}

export function spaceQueries(sqlite: Database): SpaceQueries {
  return {
    probe() {
      sqlite.transaction(() => sqlite.exec("CREATE TABLE space_probe (x); DROP TABLE space_probe"))();
    },
  };
}
