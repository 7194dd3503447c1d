// What every part of the running appliance shares: settings, keys, the database, the log, the
// outbound `fetch`, the DNS services, and the state that lives as long as the app. app.ts builds it
// (`createContext`), each part before the parts that need it, and the scheduler last, over the
// finished context (`Appliance`); this module only says what they hold, so importing it pulls in
// nothing that imports it back.

import type { Keys, Settings } from "./config";
import type { Db } from "./db";
import type { DiskState } from "./db/disk";
import type { WatchedDatabase } from "./db/writes";
import type { Pacer } from "./dns/pacing";
import type { ServiceRegistry } from "./dns/registry";
import type { Revocations, VerifiedTokens } from "./http/verified-tokens";
import type { PublicIpState } from "./ip/public-ip";
import type { Logger } from "./log";
import type { FetchLike } from "./net/outbound";
import type { SignInThrottle } from "./security/throttle";
import type { Store } from "./store";
import type { NotificationRow } from "./store/rows";
import type { EventSink } from "./updater/events";
import type { PropagationTracker } from "./updater/propagation";
import type { SchedulerControl } from "./updater/scheduler";
import type { UpdaterState } from "./updater/state";

/** The Prometheus counters as the routes read them (modules/prometheus/service.ts). */
export interface MetricsExposition {
  /** The whole text exposition. */
  render(): string;
}

/** Notification delivery as the routes and the shutdown drive it (notify/notifier.ts). */
export interface NotificationDelivery {
  /** Sends a test message to one notification now; the error, or null when it was delivered. */
  sendTest(row: NotificationRow): Promise<string | null>;
  /** Resolves once no delivery (or retry) is under way. */
  idle(): Promise<void>;
}

/** Everything the parts share; the scheduler is built over it (`Appliance`), so it holds no scheduler. */
export interface AppContext {
  /** Distinguishes app instances (several live side by side in tests). */
  id: string;
  settings: Settings;
  keys: Keys;
  db: Db;
  /** Every query, over `db` (src/store/): what the services and the updater use. */
  store: Store;
  /** The same connection, counting its writes (db/writes.ts). */
  sqlite: WatchedDatabase;
  /** The database file, or null for an in-memory database. */
  databasePath: string | null;
  log: Logger;
  fetch: FetchLike;
  startedAt: number;
  /** The newest public addresses the updater detected. */
  publicIp: PublicIpState;
  /** The DNS services providers may use (the built-in ones; tests may add a fake one). */
  services: ServiceRegistry;
  /** Keeps each provider's requests under its service's rate limit. */
  pacer: Pacer;
  updater: UpdaterState;
  /** The Prometheus counters, fed by the update path. */
  metrics: MetricsExposition;
  /** Delivers notifications, fed by the update path. */
  notifier: NotificationDelivery;
  /** Where the update path reports detections and stored outcomes: the counters and the notifier. */
  events: EventSink;
  /** Failed sign-ins per client address, shared by the API login and the admin sign-in page. */
  signIns: SignInThrottle;
  /** Tokens whose signature was checked already (never whether they are revoked: see `revocations`). */
  verifiedTokens: VerifiedTokens;
  /** Signed-out tokens and each user's "tokens valid after", in memory, read again after any write. */
  revocations: Revocations;
  /** Whether the data disk is full, and the update outcomes waiting for space. */
  disk: DiskState;
  /** Whether each written record is served by its zone's name servers (updater/propagation.ts). */
  propagation: PropagationTracker;
}

/** The context with the scheduler built over it: what the app, the server and the command line drive. */
export interface Appliance extends AppContext {
  scheduler: SchedulerControl;
}
