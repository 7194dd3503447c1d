// The store: every query the appliance runs, one module per table or area. Services, the updater
// and the pages take a Store and call its functions with plain values; they get plain rows back and
// never see drizzle or SQL. Built once, over the opened database, by the composition root (app.ts).

import type { Db } from "../db";
import type { Handle } from "./handle";
import { historyQueries, type HistoryQueries } from "./history";

export type { Handle } from "./handle";

export interface Store {
  history: HistoryQueries;
  /**
   * Runs `work` in one transaction, handing it a store whose queries all belong to it: everything
   * is written, or (when `work` throws) nothing. Transactions nest (as savepoints).
   */
  transaction<T>(work: (store: Store) => T): T;
}

/** The store over a database (or over a transaction, inside `transaction`). */
export function createStore(db: Db | Handle): Store {
  const handle = db as Handle;
  return {
    history: historyQueries(handle),
    transaction: (work) => handle.transaction((tx) => work(createStore(tx))),
  };
}
