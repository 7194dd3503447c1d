// What the store's queries run on: the database itself or a transaction of it (both are drizzle's
// synchronous SQLite database over our schema).

import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type * as schema from "../db/schema";

export type Handle = BaseSQLiteDatabase<"sync", void, typeof schema>;
