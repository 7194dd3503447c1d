// The acme_keys and acme_values tables: certificate clients' keys (the password as a hash) and the
// challenge values ddnsd holds in DNS for them (docs/certificates.md).

import { and, asc, eq } from "drizzle-orm";
import { acmeKeys, acmeValues } from "../db/schema";
import type { Handle } from "./handle";
import type { AcmeKeyRow, AcmeValueRow } from "./rows";

export interface NewAcmeKey {
  name: string;
  username: string;
  passwordHash: string;
  domainIds: number[];
  createdAt: number;
}

export interface AcmeQueries {
  createKey(key: NewAcmeKey): AcmeKeyRow;
  /** Oldest first. */
  listKeys(): AcmeKeyRow[];
  findKey(id: number): AcmeKeyRow | undefined;
  findKeyByUsername(username: string): AcmeKeyRow | undefined;
  deleteKey(id: number): void;
  markUsed(id: number, now: number): void;
  /** The values held at one name, oldest first. */
  values(name: string): AcmeValueRow[];
  addValue(value: Omit<AcmeValueRow, "id">): void;
  removeValue(name: string, value: string): void;
}

export function acmeQueries(db: Handle): AcmeQueries {
  return {
    createKey(key) {
      return db.insert(acmeKeys).values(key).returning().get();
    },
    listKeys() {
      return db.select().from(acmeKeys).orderBy(asc(acmeKeys.id)).all();
    },
    findKey(id) {
      return db.select().from(acmeKeys).where(eq(acmeKeys.id, id)).get();
    },
    findKeyByUsername(username) {
      return db.select().from(acmeKeys).where(eq(acmeKeys.username, username)).get();
    },
    deleteKey(id) {
      db.delete(acmeKeys).where(eq(acmeKeys.id, id)).run();
    },
    markUsed(id, now) {
      db.update(acmeKeys).set({ lastUsedAt: now }).where(eq(acmeKeys.id, id)).run();
    },
    values(name) {
      return db
        .select()
        .from(acmeValues)
        .where(eq(acmeValues.name, name))
        .orderBy(asc(acmeValues.createdAt), asc(acmeValues.id))
        .all();
    },
    addValue(value) {
      db.insert(acmeValues).values(value).run();
    },
    removeValue(name, value) {
      db.delete(acmeValues)
        .where(and(eq(acmeValues.name, name), eq(acmeValues.value, value)))
        .run();
    },
  };
}
