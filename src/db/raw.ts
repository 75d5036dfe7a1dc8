// Hand-written SQL on either engine (db/engine.ts): the store's hot paths and what drizzle cannot say.
// Write it so that both engines read it the same (`true`/`false` for booleans, COALESCE, `ON CONFLICT …
// DO NOTHING`; id lists through db/in-ids.ts), with `?` or `?N` parameters. On SQLite a statement is
// bun:sqlite's cached one for that text, run synchronously, as the store always did; on PostgreSQL the
// parameters become `$n` and the statement runs on the Db's connection, and its rows are given the types
// SQLite's would have: 64-bit integers as numbers, booleans as 1 and 0, JSON as text.
import type { Database, SQLQueryBindings } from "bun:sqlite";
import type { SQL } from "bun";
import { sqliteOf, type Db } from "./client";
import { postgresClientOf, postgresPoolOf } from "./engine";
import type { Awaitable } from "./query";

export type Param = string | number | boolean | null;

export interface Raw {
  all<T>(sql: string, ...params: Param[]): Awaitable<T[]>;
  /** The first row, or null. */
  get<T>(sql: string, ...params: Param[]): Awaitable<T | null>;
  /** `changes`: rows the statement changed. */
  run(sql: string, ...params: Param[]): Awaitable<{ changes: number }>;
  /**
   * One statement run once per parameter list (a row per recipient, say): `add` runs it with these
   * parameters (SQLite: at once, bun's cached statement, nothing allocated), `done` settles once every
   * one has run (PostgreSQL sends them together: one round trip's wait, not one per row).
   */
  batch(sql: string): { add(...params: Param[]): void; done(): Awaitable<void> };
}

const runners = new WeakMap<object, Raw>();

export function raw(db: Db): Raw {
  let r = runners.get(db);
  if (!r) {
    const client = postgresClientOf(db);
    runners.set(db, (r = client ? postgresRunner(client) : sqliteRunner(sqliteOf(db))));
  }
  return r;
}

/**
 * The rows of a query whose best plan depends on its parameters' values: a search for a common word
 * wants the newest messages walked, a rare one the search index. PostgreSQL plans a prepared statement
 * for all values once it has run five times; on a pool this query is planned for its own values (`SET
 * LOCAL plan_cache_mode`, in a transaction of its own: two more short round trips). A common word took
 * 11–26 ms under the shared plan and 0.65 ms under its own (docs/scaling.md, section 5). SQLite, and a
 * query inside an action (the writer's connection, whose transaction is the batch's), run as `raw`.
 */
export async function allPlannedPerRun<T>(db: Db, sql: string, ...params: Param[]): Promise<T[]> {
  const pool = postgresPoolOf(db);
  if (!pool) return await raw(db).all<T>(sql, ...params);
  return (await pool.begin(async (tx) => {
    await tx.unsafe("SET LOCAL plan_cache_mode = force_custom_plan");
    return normalise(await tx.unsafe(dollars(sql), params));
  })) as T[];
}

function sqliteRunner(s: Database): Raw {
  return {
    all: <T>(sql: string, ...params: Param[]) => s.query<T, SQLQueryBindings[]>(sql).all(...params),
    get: <T>(sql: string, ...params: Param[]) => s.query<T, SQLQueryBindings[]>(sql).get(...params),
    run: (sql, ...params) => s.query(sql).run(...params),
    batch(sql) {
      const st = s.query(sql);
      return { add: (...params) => void st.run(...params), done: () => {} };
    },
  };
}

function postgresRunner(client: SQL): Raw {
  const rows = async (sql: string, params: Param[]) => normalise(await client.unsafe(dollars(sql), params));
  return {
    all: (sql, ...params) => rows(sql, params) as Promise<never[]>,
    get: async (sql, ...params) => ((await rows(sql, params))[0] ?? null) as never,
    run: async (sql, ...params) => {
      const r = await client.unsafe(dollars(sql), params);
      return { changes: (r as { count?: number }).count ?? 0 };
    },
    batch(sql) {
      const text = dollars(sql);
      const sent: Promise<unknown>[] = [];
      return {
        add: (...params) => void sent.push(client.unsafe(text, params)),
        done: async () => void (await Promise.all(sent)),
      };
    },
  };
}

/** PostgreSQL's rows as SQLite gives them: BigInt (int8) as a number, a boolean as 1 or 0, JSON as its text. */
function normalise(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  for (const row of rows)
    for (const k in row) {
      const v = row[k];
      if (typeof v === "bigint") row[k] = Number(v);
      else if (typeof v === "boolean") row[k] = v ? 1 : 0;
      else if (v !== null && typeof v === "object" && !(v instanceof Uint8Array) && !(v instanceof Date)) row[k] = JSON.stringify(v);
    }
  return rows;
}

const rewritten = new Map<string, string>();

/** `?` and `?N` parameters as PostgreSQL's `$n` (outside quoted text), once per statement text. */
export function dollars(sql: string): string {
  let out = rewritten.get(sql);
  if (out !== undefined) return out;
  out = "";
  let n = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "?") {
      const digits = /^\d+/.exec(sql.slice(i + 1))?.[0];
      if (digits) {
        out += `$${digits}`;
        i += digits.length;
        continue;
      }
      out += `$${++n}`;
      continue;
    }
    out += c;
  }
  if (rewritten.size >= 1000) rewritten.clear();
  rewritten.set(sql, out);
  return out;
}
