// The PostgreSQL schema (src/db/schema-pg) keeps in step with the SQLite one (src/db/schema): the same
// tables, columns, keys and indexes, in each engine's types (docs/scaling.md, section 10). First the two
// drizzle declarations; then the databases their migrations build (PostgreSQL's needs a server: skipped,
// saying why, where none can be started).
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { SQL } from "bun";
import { is, type Table } from "drizzle-orm";
import { getTableConfig as pgConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as liteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as lite from "../../src/db/schema";
import * as pg from "../../src/db/schema-pg";
import { migrate } from "../../src/db/migrate";
import { migratePostgres } from "../../src/db/migrate-pg";
import { CLUSTER_STATE_TABLES } from "../../src/db/event-bus";
import { postgresMissing, startPostgres } from "../helpers/postgres";

/** What SQLite keeps outside drizzle (hand-written in migrations/0004) and PostgreSQL declares. */
const PG_ONLY_TABLES = ["user_messages"];
/** FTS5's index (and its shadow tables) becomes a tsvector column on messages (section 5). */
const PG_ONLY_COLUMNS = ["messages.search_tsv"];
const PG_ONLY_INDEXES = ["messages_search"];

type Described = {
  columns: Record<string, string>;
  primaryKey: string[];
  indexes: Record<string, string>;
  foreignKeys: string[];
};

const tables = <T>(mod: Record<string, unknown>, kind: abstract new (...a: never[]) => T) => Object.values(mod).filter((v): v is T => is(v, kind as never));

/** A drizzle table as comparable text: each column's TypeScript type, nullability, default and uniqueness. */
function describe(cfg: ReturnType<typeof liteConfig> | ReturnType<typeof pgConfig>): Described {
  const columns = Object.fromEntries(
    cfg.columns.map((c) => [
      c.name,
      [
        c.dataType,
        c.notNull ? "not null" : "null",
        hasDefault(c) ? `default ${defaultOf(c.default)}` : "",
        c.isUnique ? "unique" : "",
        c.primary ? "primary" : "",
      ]
        .filter(Boolean)
        .join(" "),
    ]),
  );
  const indexes = Object.fromEntries(
    cfg.indexes.map((i) => {
      const cols = i.config.columns.map((c) => ("name" in c && typeof c.name === "string" ? c.name : "(expression)"));
      return [i.config.name, `${i.config.unique ? "unique " : ""}(${cols.join(", ")})${i.config.where ? " partial" : ""}`];
    }),
  );
  const foreignKeys = cfg.foreignKeys
    .map((fk) => {
      const r = fk.reference();
      const onDelete = fk.onDelete && fk.onDelete !== "no action" ? ` on delete ${fk.onDelete}` : ""; // PostgreSQL's builder fills in the default
      return `${r.columns.map((c) => c.name).join(",")} -> ${liteOrPgName(r.foreignTable)}(${r.foreignColumns.map((c) => c.name).join(",")})${onDelete}`;
    })
    .sort();
  const primaryKey = cfg.primaryKeys.flatMap((k) => k.columns.map((c) => c.name));
  return { columns, primaryKey, indexes, foreignKeys };
}

/** SQLite gives every INTEGER PRIMARY KEY a default (the next rowid), autoincrement or not; PostgreSQL's bigint key has none. */
const hasDefault = (c: { hasDefault: boolean; primary: boolean; columnType: string }) =>
  c.hasDefault && !(c.primary && (c.columnType === "SQLiteInteger" || c.columnType === "PgBigSerial53"));

/** A default as comparable text: its value, or "(sql)" for an SQL expression (`'{}'` is text in one and jsonb in the other). */
const defaultOf = (d: unknown) => (d !== null && typeof d === "object" ? "(sql)" : JSON.stringify(d));

const liteOrPgName = (t: unknown) => (is(t, SQLiteTable) ? liteConfig(t).name : pgConfig(t as PgTable).name);

test("the PostgreSQL drizzle schema declares every SQLite table with the same columns, types, keys and indexes", () => {
  const liteTables = new Map(tables(lite, SQLiteTable).map((t) => [liteConfig(t).name, describe(liteConfig(t))]));
  const pgTables = new Map(tables(pg, PgTable).map((t) => [pgConfig(t).name, describe(pgConfig(t))]));
  expect(liteTables.size).toBeGreaterThan(50);
  expect([...pgTables.keys()].sort()).toEqual([...liteTables.keys(), ...PG_ONLY_TABLES].sort());
  for (const [name, l] of liteTables) {
    const p = pgTables.get(name)!;
    for (const col of PG_ONLY_COLUMNS) if (col.startsWith(`${name}.`)) delete p.columns[col.slice(name.length + 1)];
    for (const ix of PG_ONLY_INDEXES) delete p.indexes[ix];
    expect({ table: name, ...p }).toEqual({ table: name, ...l });
  }
});

// Every table's row type is the same in both dialects, so that a store function has one signature for
// both: this assignment does not compile otherwise (`npm run typecheck` checks the tests).
type RowsOf<M> = { [K in keyof M as M[K] extends Table ? K : never]: M[K] extends { $inferSelect: infer R } ? R : never };
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type PgRows = RowsOf<typeof pg>;
type RowsDiffer = {
  [K in keyof RowsOf<typeof lite>]: K extends keyof PgRows
    ? Same<RowsOf<typeof lite>[K], K extends "messages" ? Omit<PgRows[K], "searchTsv"> : PgRows[K]> extends true
      ? never
      : K
    : K;
}[keyof RowsOf<typeof lite>];
const rowsDiffer: [RowsDiffer] extends [never] ? "none" : RowsDiffer = "none";

test("each table's row type is the same in both dialects", () => {
  expect(rowsDiffer).toBe("none");
});

/** SQLite's declared type → the PostgreSQL types that may stand for it. */
const TYPE_PAIRS: Record<string, string[]> = {
  integer: ["bigint", "boolean"],
  text: ["text", "jsonb"],
  "text collate nocase": ["citext"],
  real: ["double precision"],
};

/** Whether the table's CREATE statement declares the column `text COLLATE NOCASE` (table_info shows only "text"). */
const nocase = (ddl: string, column: string) => new RegExp(`[\`"]${column}[\`"] text COLLATE NOCASE`, "i").test(ddl);

type LiveTable = { columns: Record<string, { type: string; notNull: boolean }>; primaryKey: string[]; indexes: Record<string, string> };

function liveSqlite(): Map<string, LiveTable> {
  const db = new Database(":memory:");
  migrate(db);
  const out = new Map<string, LiveTable>();
  const names = db
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_fts%'")
    .all()
    .map((r) => r.name);
  for (const t of names) {
    const cols = db.query<{ name: string; type: string; notnull: number; pk: number }, []>(`PRAGMA table_info("${t}")`).all();
    const ddl = db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?").get(t)!.sql;
    const indexes: Record<string, string> = {};
    for (const ix of db.query<{ name: string; unique: number; origin: string; partial: number }, []>(`PRAGMA index_list("${t}")`).all()) {
      if (ix.origin === "pk") continue;
      const ixCols = db
        .query<{ name: string | null }, []>(`PRAGMA index_info("${ix.name}")`)
        .all()
        .map((c) => c.name ?? "(expression)");
      indexes[ix.name] = `${ix.unique ? "unique " : ""}(${ixCols.join(", ")})${ix.partial ? " partial" : ""}`;
    }
    out.set(t, {
      columns: Object.fromEntries(
        cols.map((c) => [c.name, { type: nocase(ddl, c.name) ? "text collate nocase" : c.type.toLowerCase(), notNull: c.notnull === 1 || c.pk > 0 }]),
      ),
      primaryKey: cols
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
      indexes,
    });
  }
  db.close();
  return out;
}

async function livePostgres(sql: SQL): Promise<Map<string, LiveTable>> {
  await migratePostgres(sql);
  const out = new Map<string, LiveTable>();
  const cols = await sql`SELECT table_name AS t, column_name AS c, data_type AS type, udt_name AS udt, is_nullable AS nullable
    FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`;
  for (const r of cols) {
    if (CLUSTER_STATE_TABLES.includes(r.t)) continue; // cluster state, PostgreSQL's alone (migrations/pg/0003)
    const t = out.get(r.t) ?? { columns: {}, primaryKey: [], indexes: {} };
    t.columns[r.c] = { type: r.type === "USER-DEFINED" ? r.udt : r.type, notNull: r.nullable === "NO" };
    out.set(r.t, t);
  }
  const idx = await sql`SELECT t.relname AS t, i.relname AS name, x.indisunique AS is_unique, x.indisprimary AS is_primary,
      x.indpred IS NOT NULL AS partial,
      array_to_string(ARRAY(SELECT COALESCE(a.attname, '(expression)') FROM unnest(x.indkey) WITH ORDINALITY k(attnum, n)
        LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n), ',') AS cols
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace ns ON ns.oid = t.relnamespace
    WHERE ns.nspname = 'public'`;
  for (const r of idx) {
    if (CLUSTER_STATE_TABLES.includes(r.t)) continue;
    const t = out.get(r.t)!;
    const cols = (r.cols as string).split(",");
    if (r.is_primary) t.primaryKey = cols;
    else t.indexes[r.name] = `${r.is_unique ? "unique " : ""}(${cols.join(", ")})${r.partial ? " partial" : ""}`;
  }
  return out;
}

const missing = postgresMissing("schema parity on live databases");

test.skipIf(missing !== null)("both dialects' migrations build the same tables, columns, keys and indexes", async () => {
  const server = await startPostgres();
  const sql = new SQL(server.url, { max: 1 });
  try {
    const l = liveSqlite();
    const p = await livePostgres(sql);
    expect([...p.keys()].sort()).toEqual([...l.keys()].sort());
    for (const [name, lt] of l) {
      const pt = p.get(name)!;
      for (const col of PG_ONLY_COLUMNS) if (col.startsWith(`${name}.`)) delete pt.columns[col.slice(name.length + 1)];
      for (const ix of PG_ONLY_INDEXES) delete pt.indexes[ix];
      const types = Object.entries(lt.columns).map(([c, { type }]) => [
        c,
        TYPE_PAIRS[type]?.includes(pt.columns[c]?.type ?? "") ? "ok" : `${type} vs ${pt.columns[c]?.type}`,
      ]);
      expect({ table: name, types: Object.fromEntries(types) }).toEqual({ table: name, types: Object.fromEntries(types.map(([c]) => [c, "ok"])) });
      const nullability = (t: LiveTable) => Object.fromEntries(Object.entries(t.columns).map(([c, v]) => [c, v.notNull]));
      expect({ table: name, columns: nullability(pt), primaryKey: pt.primaryKey, indexes: pt.indexes }).toEqual({
        table: name,
        columns: nullability(lt),
        primaryKey: lt.primaryKey,
        indexes: lt.indexes,
      });
    }
  } finally {
    await sql.close();
    await server.stop();
  }
});
