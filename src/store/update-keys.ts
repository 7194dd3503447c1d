// The update_keys table: the keys a router pushes its address with (stored as a hash and the last
// four characters), each for all domains or a list of them.

import { asc, eq } from "drizzle-orm";
import { updateKeys } from "../db/schema";
import type { Handle } from "./handle";
import type { UpdateKeyRow } from "./rows";

export interface NewUpdateKey {
  name: string;
  keyHash: string;
  keyTail: string;
  /** null: every domain. */
  domainIds: number[] | null;
  createdAt: number;
}

export interface UpdateKeyQueries {
  create(key: NewUpdateKey): UpdateKeyRow;
  /** Oldest first. */
  list(): UpdateKeyRow[];
  find(id: number): UpdateKeyRow | undefined;
  /** The key with this hash, or undefined. */
  findByHash(keyHash: string): UpdateKeyRow | undefined;
  update(id: number, changes: Partial<Omit<NewUpdateKey, "createdAt">>): void;
  delete(id: number): void;
  /** The key with this hash, marked as used at `now`; undefined for an unknown hash. */
  use(keyHash: string, now: number): UpdateKeyRow | undefined;
}

export function updateKeyQueries(db: Handle): UpdateKeyQueries {
  return {
    create(key) {
      return db.insert(updateKeys).values(key).returning().get();
    },
    list() {
      return db.select().from(updateKeys).orderBy(asc(updateKeys.id)).all();
    },
    find(id) {
      return db.select().from(updateKeys).where(eq(updateKeys.id, id)).get();
    },
    findByHash(keyHash) {
      return db.select().from(updateKeys).where(eq(updateKeys.keyHash, keyHash)).get();
    },
    update(id, changes) {
      db.update(updateKeys).set(changes).where(eq(updateKeys.id, id)).run();
    },
    delete(id) {
      db.delete(updateKeys).where(eq(updateKeys.id, id)).run();
    },
    use(keyHash, now) {
      return db.update(updateKeys).set({ lastUsedAt: now }).where(eq(updateKeys.keyHash, keyHash)).returning().get();
    },
  };
}
