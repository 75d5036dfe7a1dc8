// The database file as a whole, for the CLI: migrating it without opening the app, a consistent copy
// taken while the server runs, and checking that a copy can be restored.
import { Database } from "bun:sqlite";
import { migrations } from "../../migrations";
import { sqliteOf, type Db } from "./client";
import { appliedMigrations, inspectDatabase, migrate } from "./migrate";

/** Applies pending migrations to the database file (created if missing); returns the ones applied. */
export function migrateFile(path: string, busyTimeoutMs: number): string[] {
  const sqlite = new Database(path, { create: true });
  try {
    sqlite.run(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    return migrate(sqlite);
  } finally {
    sqlite.close();
  }
}

/** VACUUM INTO reads one snapshot of the database, so writes made meanwhile by the server do not tear it. */
export const copyDatabase = (db: Db, file: string) => sqliteOf(db).run("VACUUM INTO ?", [file]);

/** Why a file cannot be restored, or null: it must be an intact SQLite database that this confab's migrations wrote. */
export function restoreProblem(file: string): string | null {
  let db: Database;
  try {
    db = new Database(file, { readonly: true });
  } catch {
    return `${file} is not a confab database`;
  }
  try {
    let kind: string;
    try {
      kind = inspectDatabase(db);
    } catch {
      return `${file} is not a confab database`;
    }
    if (kind !== "confab") return `${file} is not a confab database`;
    const ok = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get();
    if (ok?.integrity_check !== "ok") return `${file} is damaged: ${ok?.integrity_check}`;
    const known = new Set(migrations.map((m) => m.tag));
    const newer = appliedMigrations(db).find((t) => !known.has(t));
    if (newer) return `${file} was written by a newer confab (migration ${newer})`;
    return null;
  } finally {
    db.close();
  }
}
