// PostgreSQL's migrations (migrations/pg, generated from src/db/schema-pg; docs/scaling.md, section 10),
// with SQLite's ledger and rules (migrate.ts): all pending ones in one transaction, since PostgreSQL's
// DDL is transactional (a failure leaves the database as it was), and under an advisory lock, so that
// nodes starting together migrate once and the others find nothing left to do.
import type { SQL } from "bun";
import { migrations as pgMigrations } from "../../migrations/pg";
import { LEDGER, notConfab, writtenByNewer, type Migration } from "./migrate";

/** The advisory lock migrations hold (transaction-scoped); no other lock uses this key. */
const MIGRATION_LOCK = 0x636f6e66; // "conf"

/** What the database is: empty, a confab database, or something else (its current schema's tables). */
async function inspect(tx: SQL): Promise<"empty" | "confab" | "foreign"> {
  const tables: { name: string }[] = await tx`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`;
  if (!tables.length) return "empty";
  return tables.some((t) => t.name === LEDGER) ? "confab" : "foreign";
}

/** Applies the migrations this binary knows and the database lacks; returns their tags. */
export async function migratePostgres(sql: SQL, list: readonly Migration[] = pgMigrations): Promise<string[]> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    const kind = await inspect(tx);
    if (kind === "foreign") throw notConfab("the database");
    await tx.unsafe(`CREATE TABLE IF NOT EXISTS ${LEDGER} (tag text PRIMARY KEY, applied_at bigint NOT NULL)`);
    const recorded: { tag: string }[] = await tx.unsafe(`SELECT tag FROM ${LEDGER}`);
    const applied = new Set(recorded.map((r) => r.tag));
    const known = new Set(list.map((m) => m.tag));
    const unknown = [...applied].find((t) => !known.has(t));
    if (unknown) throw writtenByNewer(unknown);
    const pending = list.filter((m) => !applied.has(m.tag));
    for (const m of pending) {
      for (const stmt of m.sql.split("--> statement-breakpoint")) if (stmt.trim()) await tx.unsafe(stmt);
      await tx.unsafe(`INSERT INTO ${LEDGER} (tag, applied_at) VALUES ($1, $2)`, [m.tag, Math.floor(Date.now() / 1000)]);
    }
    return pending.map((m) => m.tag);
  });
}

/** The server's version, what the database is, and the migrations this binary would apply or does not know (confab doctor). */
export async function postgresMigrationStatus(
  sql: SQL,
  list: readonly Migration[] = pgMigrations,
): Promise<{ version: string; kind: "empty" | "confab" | "foreign"; pending: string[]; unknown: string[] }> {
  const [{ version }] = await sql`SELECT current_setting('server_version') AS version`;
  const kind = await inspect(sql);
  const recorded: { tag: string }[] = kind === "confab" ? await sql.unsafe(`SELECT tag FROM ${LEDGER}`) : [];
  const applied = new Set(recorded.map((r) => r.tag));
  const known = new Set(list.map((m) => m.tag));
  return {
    version: String(version).split(" ")[0]!,
    kind,
    pending: list.map((m) => m.tag).filter((t) => !applied.has(t)),
    unknown: [...applied].filter((t) => !known.has(t)),
  };
}
