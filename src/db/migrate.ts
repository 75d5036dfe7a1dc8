import type { Database } from "bun:sqlite";
import { migrations } from "../../migrations";

export class MigrationError extends Error {}

const LEDGER = "confab_migrations";

/** What a database file is: empty, a confab database, or something else. */
export function inspectDatabase(sqlite: Database): "empty" | "confab" | "foreign" {
  const tables = sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
  if (tables.length === 0) return "empty";
  return tables.some((t) => t.name === LEDGER) ? "confab" : "foreign";
}

export function appliedMigrations(sqlite: Database): string[] {
  if (inspectDatabase(sqlite) !== "confab") return [];
  return sqlite.query<{ tag: string }, []>(`SELECT tag FROM ${LEDGER} ORDER BY tag`).all().map((r) => r.tag);
}

/**
 * Applies the embedded migrations this binary knows and the file lacks, each in its own transaction.
 * A file that records a migration this binary does not know was written by a newer confab: refuse it
 * untouched rather than run old code against a newer schema.
 */
export function migrate(sqlite: Database): string[] {
  const kind = inspectDatabase(sqlite);
  if (kind === "foreign") throw new MigrationError("the database file is not a confab database (it has tables but no confab_migrations ledger)");
  sqlite.run(`CREATE TABLE IF NOT EXISTS ${LEDGER} (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`);
  const applied = new Set(appliedMigrations(sqlite));
  const known = new Set(migrations.map((m) => m.tag));
  const unknown = [...applied].filter((t) => !known.has(t));
  if (unknown.length)
    throw new MigrationError(
      `the database was written by a newer confab (it has migration ${unknown[0]} which this version does not know); upgrade confab or restore a backup`,
    );
  const done: string[] = [];
  for (const m of migrations) {
    if (applied.has(m.tag)) continue;
    sqlite.transaction(() => {
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) sqlite.run(stmt);
      sqlite.run(`INSERT INTO ${LEDGER} (tag, applied_at) VALUES (?, ?)`, [m.tag, Math.floor(Date.now() / 1000)]);
    })();
    done.push(m.tag);
  }
  return done;
}

/** Migrations this binary would apply, and those the file records that this binary does not know. */
export function migrationStatus(sqlite: Database): { pending: string[]; unknown: string[] } {
  const applied = new Set(appliedMigrations(sqlite));
  const known = new Set(migrations.map((m) => m.tag));
  return { pending: migrations.map((m) => m.tag).filter((t) => !applied.has(t)), unknown: [...applied].filter((t) => !known.has(t)) };
}
