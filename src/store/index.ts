// The store: every query the appliance runs, one module per table or area. Services, the updater
// and the pages take a Store and call its functions with plain values; they get plain rows back and
// never see drizzle or SQL. Built once, over the opened database, by the composition root (app.ts).

import type { Database } from "bun:sqlite";
import type { Db } from "../db";
import type { WatchedDatabase } from "../db/writes";
import { type AcmeQueries, acmeQueries } from "./acme";
import { type AddressSourceQueries, addressSourceQueries } from "./address-sources";
import { type ApiTokenQueries, apiTokenQueries } from "./api-tokens";
import { type DomainQueries, domainQueries } from "./domains";
import type { Handle } from "./handle";
import { HeldChecks } from "./held-checks";
import { type HistoryQueries, historyQueries } from "./history";
import { type MetricsQueries, metricsQueries } from "./metrics";
import { type NotificationQueries, notificationQueries } from "./notifications";
import { type ProviderQueries, providerQueries } from "./providers";
import { type SpaceQueries, spaceQueries } from "./space";
import { type UpdateKeyQueries, updateKeyQueries } from "./update-keys";
import { type UserQueries, userQueries } from "./users";

export interface Store {
  providers: ProviderQueries;
  domains: DomainQueries;
  history: HistoryQueries;
  metrics: MetricsQueries;
  /** The admins, and the tokens they signed out. */
  users: UserQueries;
  /** The keys routers push their address with. */
  updateKeys: UpdateKeyQueries;
  /** The tokens scripts and home automation use the API with. */
  apiTokens: ApiTokenQueries;
  notifications: NotificationQueries;
  /** The certificate clients' keys and the challenge values they set. */
  acme: AcmeQueries;
  /** Where each family's public address comes from, when chosen in the pages or the API. */
  addressSources: AddressSourceQueries;
  /** Whether the data disk takes writes again. */
  space: SpaceQueries;
  /**
   * Runs `work` in one transaction, handing it a store whose queries all belong to it: everything
   * is written, or (when `work` throws) nothing. Transactions nest (as savepoints).
   */
  transaction<T>(work: (store: Store) => T): T;
}

/**
 * The store over a database: its drizzle handle and the same connection itself, for the aggregates
 * written in plain SQL. A check's facts held in memory (./held-checks.ts) count as a write of the
 * connection, so that what is cached from it is made again, and are written before it closes.
 */
export function createStore(db: Db, sqlite: WatchedDatabase): Store {
  const held: HeldChecks = new HeldChecks(
    () => store.domains.writeHeld(),
    () => sqlite.changedInMemory(),
  );
  const store = storeOver(db as Handle, sqlite, held);
  sqlite.beforeClose(() => store.domains.writeHeld());
  return store;
}

/** The store over the database or a transaction of it (inside `transaction`), sharing the facts held. */
function storeOver(handle: Handle, sqlite: Database, held: HeldChecks): Store {
  return {
    providers: providerQueries(handle),
    domains: domainQueries(handle, held),
    history: historyQueries(handle),
    metrics: metricsQueries(sqlite),
    users: userQueries(handle, sqlite),
    updateKeys: updateKeyQueries(handle),
    apiTokens: apiTokenQueries(handle),
    notifications: notificationQueries(handle),
    acme: acmeQueries(handle),
    addressSources: addressSourceQueries(handle),
    space: spaceQueries(sqlite),
    transaction: (work) => handle.transaction((tx) => work(storeOver(tx, sqlite, held))),
  };
}
