// A store over a fresh in-memory database with every migration applied, and the rows most store
// tests need (a provider and its domains), written the plain way so the store under test is not
// used to set itself up.

import { type OpenedDatabase, openDatabase } from "../../../src/db";
import { createLogger } from "../../../src/log";
import { createStore, type Store } from "../../../src/store";

export interface MemoryStore {
  store: Store;
  database: OpenedDatabase;
  /** Adds a provider; its id. */
  provider(name?: string): number;
  /** Adds a domain of that provider; its id. */
  domain(providerId: number, name?: string, recordType?: "A" | "AAAA"): number;
}

export function memoryStore(): MemoryStore {
  const database = openDatabase(":memory:", createLogger({ level: "error", format: "json", write: () => {} }));
  const now = Date.now();
  return {
    store: createStore(database.db, database.sqlite),
    database,
    provider: (name = "home") =>
      database.sqlite
        .query<{ id: number }, [string, number, number]>(
          "INSERT INTO providers (name, type, credentials, created_at, updated_at) VALUES (?, 'duckdns', 'sealed', ?, ?) RETURNING id",
        )
        .get(name, now, now)!.id,
    domain: (providerId, name = "home.example.com", recordType = "A") =>
      database.sqlite
        .query<{ id: number }, [number, string, string, number, number]>(
          "INSERT INTO domains (provider_id, domain_name, record_type, config, created_at, updated_at) VALUES (?, ?, ?, '{}', ?, ?) RETURNING id",
        )
        .get(providerId, name, recordType, now, now)!.id,
  };
}
