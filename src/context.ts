// What every part of the running appliance shares: settings, keys, the database, the log, the
// outbound `fetch` and the scheduler. main.ts builds it once; each test builds its own.

import type { Database } from "bun:sqlite";
import type { Keys, Settings } from "./config";
import type { Db, OpenedDatabase } from "./db";
import { DiskState } from "./db/disk";
import type { FetchLike } from "./dns/provider";
import type { Logger } from "./log";
import { SignInThrottle } from "./security/throttle";
import { Scheduler } from "./updater/scheduler";
import packageJson from "../package.json";

export const VERSION: string = packageJson.version;

export interface PublicIpState {
  ipv4: string | null;
  ipv6: string | null;
  /** When the newest detection (of either family) finished, ms since the epoch. */
  checkedAt: number | null;
}

export interface AppContext {
  /** Distinguishes app instances (several live side by side in tests). */
  id: string;
  settings: Settings;
  keys: Keys;
  db: Db;
  sqlite: Database;
  /** The database file, or null for an in-memory database. */
  databasePath: string | null;
  log: Logger;
  fetch: FetchLike;
  startedAt: number;
  /** The newest public addresses the updater detected. */
  publicIp: PublicIpState;
  scheduler: Scheduler;
  /** Failed sign-ins per client address, shared by the API login and the admin sign-in page. */
  signIns: SignInThrottle;
  /** Whether the data disk is full, and the update outcomes waiting for space. */
  disk: DiskState;
}

export interface ContextParts {
  settings: Settings;
  keys: Keys;
  database: OpenedDatabase;
  log: Logger;
  fetch?: FetchLike;
}

export function createContext({ settings, keys, database, log, fetch = globalThis.fetch }: ContextParts): AppContext {
  const ctx = {
    id: crypto.randomUUID(),
    settings,
    keys,
    db: database.db,
    sqlite: database.sqlite,
    databasePath: database.path,
    log,
    fetch,
    startedAt: Date.now(),
    publicIp: { ipv4: null, ipv6: null, checkedAt: null },
    signIns: new SignInThrottle(settings.trustedProxies),
    disk: new DiskState(log),
  } as Omit<AppContext, "scheduler"> as AppContext;
  ctx.scheduler = new Scheduler(ctx);
  return ctx;
}
