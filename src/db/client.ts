import { Database, type Statement } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";

/** drizzle over bun:sqlite, without its relational query API (nothing uses it; building it cost start-up time). */
export type Db = BunSQLiteDatabase;

export interface OpenOptions {
  synchronous: "full" | "normal";
  busyTimeoutMs: number;
  readonly?: boolean;
}

/** Opens the one SQLite file with the pragmas every connection needs. busy_timeout comes first so the
 * WAL switch itself waits for a concurrent writer instead of failing. */
export function openDatabase(path: string, o: OpenOptions): { sqlite: Database; db: Db } {
  const sqlite = new Database(path, o.readonly ? { readonly: true } : { create: true, readwrite: true, strict: true });
  sqlite.run(`PRAGMA busy_timeout = ${o.busyTimeoutMs}`);
  if (!o.readonly) sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run(`PRAGMA synchronous = ${o.synchronous.toUpperCase()}`);
  sqlite.run("PRAGMA foreign_keys = ON");
  // Every action runs in a SAVEPOINT, whose undo copies of changed pages go to the temp store: keep them
  // in memory, not in a temporary file. A larger page cache keeps the hot index pages of a busy realm.
  sqlite.run("PRAGMA temp_store = MEMORY");
  sqlite.run("PRAGMA cache_size = -65536");
  // Checkpoint the WAL every ~4 MB (SQLite's default), not every ~40 MB: a checkpoint runs inside the
  // COMMIT that crosses the mark and stalls the event loop while it copies pages and syncs the file, so
  // its size bounds the worst answer. Measured here (bench perf2, 16 senders then a 30,000-send burst on
  // 100,000 messages; and 3 alternating send rounds on 200,000): the fetch p99 while the server caught up
  // after the burst fell from 10.1 to 4.6 ms, no COMMIT took over 25 ms (2 before), and sends/s stayed
  // within the rounds' spread (6,502/6,600/4,163 against 5,859/6,565/4,776).
  sqlite.run("PRAGMA wal_autocheckpoint = 1000");
  keepStatements(sqlite);
  return { sqlite, db: drizzle(sqlite) };
}

/**
 * drizzle prepares a statement for every query it runs, and most queries run again with the same SQL:
 * compiling it each time was a tenth of a send's or a fetch's CPU. Statements are kept by their SQL
 * (every use runs to completion synchronously, so sharing one is safe); bounded, since lists of ids
 * make SQL of any length.
 */
function keepStatements(sqlite: Database, max = 1000) {
  const prepare = sqlite.prepare.bind(sqlite);
  const kept = new Map<string, Statement>();
  sqlite.prepare = ((sql: string, ...rest: unknown[]) => {
    if (rest.length) return (prepare as (...a: unknown[]) => Statement)(sql, ...rest);
    let st = kept.get(sql);
    if (!st) {
      if (kept.size >= max) kept.clear();
      kept.set(sql, (st = prepare(sql)));
    }
    return st;
  }) as typeof sqlite.prepare;
}

/** The bun:sqlite handle behind drizzle, for hot paths (statements cached by bun) and SQL drizzle cannot express. */
export const sqliteOf = (db: Db): Database => (db as unknown as { $client: Database }).$client;

/**
 * Whether an error means the disk (or the database's size limit) is full: SQLite's SQLITE_FULL, or
 * ENOSPC from a file write or fsync. Such a write may succeed later, once space returns.
 */
export function isStorageFull(e: unknown): boolean {
  const err = e as { code?: unknown; errno?: unknown; message?: unknown } | null;
  if (!err || typeof err !== "object") return false;
  return (
    err.code === "SQLITE_FULL" || err.code === "ENOSPC" || (typeof err.message === "string" && /database or disk is full|no space left/i.test(err.message))
  );
}

/**
 * Whether an error is PostgreSQL refusing a NUL character in text (SQLSTATE 22021), here or as the cause
 * drizzle wraps. SQLite stores and compares such text; PostgreSQL's text cannot hold it, so a request
 * value with one, which no stored row holds, is the request's error (http/respond.ts).
 */
export function isNulRefused(e: unknown): boolean {
  for (let err = e as { errno?: unknown; message?: unknown; cause?: unknown } | null, depth = 0; err && typeof err === "object" && depth < 3; depth++) {
    if (err.errno === "22021" && typeof err.message === "string" && err.message.includes("0x00")) return true;
    err = err.cause as typeof err;
  }
  return false;
}
