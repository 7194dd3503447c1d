// The database connection that knows when it was written. ddnsd's server is the only writer of its
// data dir (the CLI's write commands go through it while it runs, src/control/), so every change to
// the data passes through this one connection: each statement that can write (SQLite itself says
// which, `Statement.readonly`) counts one write once it ran, whether it succeeded, failed or is later
// rolled back. What is kept in memory from the database (token revocation, answers served again)
// compares the count instead of asking SQLite, and the scheduler is woken by it. A write counted that
// changed nothing only costs a recomputation; a write not counted cannot happen. What the store holds
// in memory instead of writing (a check's facts) is counted as a write too, and written before the
// connection closes.

import { Database, type SQLQueryBindings } from "bun:sqlite";

type Listener = () => void;

const EXECUTING = ["run", "get", "all", "values", "iterate"] as const;

export class WatchedDatabase extends Database {
  /** Writes so far: compare two readings to know whether anything was written between them. */
  private count = 0;
  private readonly listeners: Listener[] = [];
  private readonly closing: Listener[] = [];
  private readonly watched = new WeakSet<object>();

  get writes(): number {
    return this.count;
  }

  /** Called after every write (synchronously: defer any work that reads the database). */
  onWrite(listener: Listener): void {
    this.listeners.push(listener);
  }

  /** What the connection serves changed without a write (held in memory): counted as one. */
  changedInMemory(): void {
    this.written();
  }

  /** Called before the connection closes, to write what is held in memory. */
  beforeClose(listener: Listener): void {
    this.closing.push(listener);
  }

  override close(...args: Parameters<Database["close"]>): void {
    for (const listener of this.closing.splice(0)) listener();
    super.close(...args);
  }

  private written(): void {
    this.count++;
    for (const listener of this.listeners) listener();
  }

  override prepare<R, P extends SQLQueryBindings | SQLQueryBindings[]>(sql: string, params?: P) {
    return this.watch(super.prepare<R, P>(sql, params));
  }

  override query<R, P extends SQLQueryBindings | SQLQueryBindings[]>(sql: string) {
    return this.watch(super.query<R, P>(sql));
  }

  override exec(...args: Parameters<Database["exec"]>): ReturnType<Database["exec"]> {
    try {
      return super.exec(...args);
    } finally {
      this.written();
    }
  }

  override run(...args: Parameters<Database["run"]>): ReturnType<Database["run"]> {
    try {
      return super.run(...args);
    } finally {
      this.written();
    }
  }

  /** A statement that can write counts a write each time it runs (query() hands out cached ones: wrapped once). */
  private watch<S extends { readonly readonly: boolean }>(statement: S): S {
    if (statement.readonly || this.watched.has(statement)) return statement;
    this.watched.add(statement);
    const methods = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of EXECUTING) {
      const original = methods[name]!;
      methods[name] = (...args: unknown[]) => {
        try {
          return original.apply(statement, args);
        } finally {
          this.written();
        }
      };
    }
    return statement;
  }
}
