// Which engine a Db runs on, and its tables (docs/scaling.md, section 1): the store is written once,
// against drizzle's builders and the neutral helpers of db/query.ts and db/raw.ts, and runs on either.
// `Db` stays the type the store is checked against (drizzle over bun:sqlite); a PostgreSQL Db is
// drizzle over Bun's built-in client, typed the same, its tables the twins of src/db/schema-pg (their
// row types are kept equal by test/unit/schema-parity.test.ts). The engine is known per Db, not per
// process: tests run SQLite and PostgreSQL side by side in one process.
import type { ReservedSQL, SQL } from "bun";
import type { Db } from "./client";
import { lazyTables as lite, type SqliteTables } from "./schema/lazy";

export type Engine = "sqlite" | "postgres";
export type Tables = SqliteTables;

interface PostgresDb {
  client: SQL;
  tables: Tables;
  /** A pool (each query may take any connection), not one reserved connection (the writer's). */
  pool: boolean;
}

const postgresDbs = new WeakMap<object, PostgresDb>();

export const engineOf = (db: Db): Engine => (postgresDbs.has(db) ? "postgres" : "sqlite");

/** The Db's tables: SQLite's, or PostgreSQL's twins typed as them. `const { users } = tables(db)`. */
export const tables = (db: Db): Tables => postgresDbs.get(db)?.tables ?? lite;

/** The PostgreSQL connection (a pool, or a reserved connection) behind a PostgreSQL Db; null for SQLite. */
export const postgresClientOf = (db: Db): SQL | null => postgresDbs.get(db)?.client ?? null;

/** The pool behind a PostgreSQL Db that is one (not a reserved connection); null otherwise and for SQLite. */
export const postgresPoolOf = (db: Db): SQL | null => {
  const pg = postgresDbs.get(db);
  return pg?.pool ? pg.client : null;
};

export interface PostgresOptions {
  /** Connections in the pool (Bun's default: 10). */
  max?: number;
}

/**
 * A PostgreSQL Db over a pool of connections (Bun's `SQL`). 64-bit integers come back as BigInt
 * (`bigint: true`), never as strings, so that the raw runner can tell them from text and make them
 * numbers. drizzle's PostgreSQL driver and schema load only here: a SQLite server never pays for them.
 */
export async function openPostgres(url: string, o: PostgresOptions = {}): Promise<{ client: SQL; db: Db }> {
  const [{ SQL }, { drizzle }, pgTables] = await Promise.all([import("bun"), import("drizzle-orm/bun-sql"), loadPgTables()]);
  // No parallel workers: starting them cost a search 14 ms of its 18 here, far more than they save on
  // the short queries a chat server runs (confab's own connections only; the operator's are untouched).
  const connection = { max_parallel_workers_per_gather: "0" };
  const client = new SQL(url, { bigint: true, connection, ...(o.max ? { max: o.max } : {}) });
  const db = drizzle({ client }) as unknown as Db;
  postgresDbs.set(db, { client, tables: pgTables, pool: true });
  return { client, db };
}

/**
 * A Db over one connection reserved from a PostgreSQL Db's pool (the writer's: db/writer-engine.ts),
 * with the same tables; the connection goes back to the pool with `release()`.
 */
export async function reservePostgres(db: Db): Promise<{ connection: ReservedSQL; db: Db }> {
  const pool = postgresDbs.get(db);
  if (!pool) throw new Error("reservePostgres: not a PostgreSQL Db");
  const [{ drizzle }, connection] = await Promise.all([import("drizzle-orm/bun-sql"), pool.client.reserve()]);
  const reserved = drizzle({ client: connection as unknown as SQL }) as unknown as Db;
  postgresDbs.set(reserved, { client: connection as unknown as SQL, tables: pool.tables, pool: false });
  return { connection, db: reserved };
}

type PgSchema = typeof import("./schema-pg");

/**
 * The PostgreSQL twins as the store sees them: `messages` without its search column (a message row is
 * the same on both engines, and a page of messages does not carry their tsvectors).
 */
async function loadPgTables(): Promise<Tables> {
  const [schema, { pgTable }, { getTableColumns, is, Table }] = await Promise.all([
    import("./schema-pg"),
    import("drizzle-orm/pg-core"),
    import("drizzle-orm"),
  ]);
  const store = { ...schema, messages: pgTable("messages", schema.messageColumns()) };
  for (const t of Object.values(store)) if (is(t, Table)) for (const c of Object.values(getTableColumns(t))) if (c.columnType === "PgJsonb") jsonAsIs(c);
  return store as Partial<PgSchema> as unknown as Tables;
}

/**
 * drizzle's jsonb column hands the driver JSON text, which Bun's client, knowing the parameter is
 * jsonb, encodes again: the column would hold a JSON string. Bun encodes an object or array itself.
 */
function jsonAsIs(column: { mapToDriverValue(v: unknown): unknown }) {
  column.mapToDriverValue = (v) => v;
}
