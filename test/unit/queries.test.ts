// Every query lives in src/store/ (docs/architecture.md): no other file of src/ or views/ imports
// drizzle, the tables of db/schema.ts (the rows are the store's plain types, store/rows.ts) or runs
// SQL on the connection. src/db/ (the schema, opening and migrating the database) is the other home
// of drizzle.

import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Glob } from "bun";

const ROOT = resolve(import.meta.dir, "..", "..");

/** What marks a file as running queries: drizzle or its tables imported, SQL on the connection, or the drizzle handle queried. */
const QUERYING = [
  /\bfrom\s+["']drizzle-orm/,
  /\bfrom\s+["'][^"']*\/db\/schema["']/,
  /\bsqlite\s*\.\s*(?:query|exec|run|prepare|transaction)\b/,
  /\bdb\s*\.\s*(?:select|insert|update|delete|transaction|all|get|run)\b/,
];

function queryingFiles(): string[] {
  return ["src", "views"]
    .flatMap((dir) => [...new Glob("**/*.{ts,tsx}").scanSync({ cwd: join(ROOT, dir) })].map((file) => `${dir}/${file}`))
    .filter((file) => !file.startsWith("src/store/") && !file.startsWith("src/db/"))
    .filter((file) => {
      const text = readFileSync(join(ROOT, file), "utf8");
      return QUERYING.some((pattern) => pattern.test(text));
    })
    .sort();
}

describe("queries live in the store", () => {
  test("no file outside src/store and src/db queries", () => {
    expect(queryingFiles()).toEqual([]);
  });

  test("the patterns see drizzle, SQL on the connection and the drizzle handle", () => {
    const seen = (text: string) => QUERYING.some((pattern) => pattern.test(text));
    expect(seen('import { eq } from "drizzle-orm";')).toBe(true);
    expect(seen('import type { DomainRow } from "../db/schema";')).toBe(true);
    expect(seen('import type { DomainRow } from "../store/rows";')).toBe(false);
    expect(seen('ctx.sqlite.query("SELECT 1")')).toBe(true);
    expect(seen("this.ctx.db.select().from(domains)")).toBe(true);
    expect(seen("ctx.store.history.list(id, 10)")).toBe(false);
    expect(seen("ctx.sqlite.close()")).toBe(false);
  });
});
