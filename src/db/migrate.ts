import type { Database } from "bun:sqlite";
import { migrations } from "../../migrations";

export class MigrationError extends Error {}

/** A database that records a migration this binary does not know: refused untouched (both engines). */
export const writtenByNewer = (tag: string) =>
  new MigrationError(
    `the database was written by a newer confab (it has migration ${tag} which this version does not know); upgrade confab or restore a backup`,
  );

/** A database with tables but no ledger (both engines). */
export const notConfab = (what: string) => new MigrationError(`${what} is not a confab database (it has tables but no confab_migrations ledger)`);

export interface Migration {
  tag: string;
  sql: string;
}

export const LEDGER = "confab_migrations";

/** What a database file is: empty, a confab database, or something else. */
export function inspectDatabase(sqlite: Database): "empty" | "confab" | "foreign" {
  const tables = sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
  if (tables.length === 0) return "empty";
  return tables.some((t) => t.name === LEDGER) ? "confab" : "foreign";
}

export function appliedMigrations(sqlite: Database): string[] {
  if (inspectDatabase(sqlite) !== "confab") return [];
  return sqlite
    .query<{ tag: string }, []>(`SELECT tag FROM ${LEDGER} ORDER BY tag`)
    .all()
    .map((r) => r.tag);
}

/** The usual start: the ledger records exactly the migrations this binary knows, found by one query. */
export function upToDate(sqlite: Database, list: readonly Migration[]): boolean {
  let recorded: { tag: string }[];
  try {
    recorded = sqlite.query<{ tag: string }, []>(`SELECT tag FROM ${LEDGER}`).all();
  } catch {
    return false; // no ledger: an empty (or foreign) file, looked at below
  }
  const tags = new Set(recorded.map((r) => r.tag));
  return tags.size === list.length && list.every((m) => tags.has(m.tag));
}

/**
 * Applies the embedded migrations this binary knows and the file lacks, all in one transaction: if one
 * fails, the file is left as it was (SQLite's schema changes are transactional). A file that records a migration this binary does not know was written by a newer confab: refuse it
 * untouched rather than run old code against a newer schema.
 */
export function migrate(sqlite: Database, list: readonly Migration[] = migrations): string[] {
  if (upToDate(sqlite, list)) return [];
  const kind = inspectDatabase(sqlite);
  if (kind === "foreign") throw notConfab("the database file");
  const applied = new Set(appliedMigrations(sqlite));
  const known = new Set(list.map((m) => m.tag));
  const unknown = [...applied].filter((t) => !known.has(t));
  if (unknown.length) throw writtenByNewer(unknown[0]!);
  const pending = list.filter((m) => !applied.has(m.tag));
  if (!pending.length) return [];
  sqlite.transaction(() => {
    sqlite.run(`CREATE TABLE IF NOT EXISTS ${LEDGER} (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`);
    for (const m of pending) {
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) sqlite.run(stmt);
      sqlite.run(`INSERT INTO ${LEDGER} (tag, applied_at) VALUES (?, ?)`, [m.tag, Math.floor(Date.now() / 1000)]);
    }
  })();
  return pending.map((m) => m.tag);
}

/** Migrations this binary would apply, and those the file records that this binary does not know. */
export function migrationStatus(sqlite: Database, list: readonly Migration[] = migrations): { pending: string[]; unknown: string[] } {
  const applied = new Set(appliedMigrations(sqlite));
  const known = new Set(list.map((m) => m.tag));
  return { pending: list.map((m) => m.tag).filter((t) => !applied.has(t)), unknown: [...applied].filter((t) => !known.has(t)) };
}
