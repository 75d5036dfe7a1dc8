// `confab migrate-storage`: copies a whole installation between its SQLite file and PostgreSQL, either
// way (docs/scaling.md). The target is migrated to this binary's schema first, then every table is
// copied in foreign-key order, in batches, inside one transaction on the target, so that a failure
// leaves no half copy. The search index is rebuilt on the target from the rendered messages (FTS5 and
// tsvector hold different things); ids keep counting where the source left off. Afterwards both sides
// are compared: every table's row count and a sample of messages, field by field.
//
// The two schemas are twins (test/unit/schema-parity.test.ts); PostgreSQL's catalog says which columns
// are booleans and JSON, which SQLite stores as integers and text. Rows travel between the two in one
// neutral form: booleans, parsed JSON, numbers, strings.
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { migrations as pgMigrations } from "../../migrations/pg";
import { plural } from "../lib/text";
import { describePostgresUrl } from "../lib/postgres-url";
import { openDatabase } from "./client";
import { searchDocument } from "./dialect";
import { migratePostgres } from "./migrate-pg";
import { CLUSTER_STATE_TABLES } from "./event-bus";
import { inspectDatabase, LEDGER, migrate, migrationStatus } from "./migrate";

export class CopyError extends Error {}

type Row = Record<string, unknown>;

interface Column {
  name: string;
  /** PostgreSQL's type name: int8, bool, jsonb, text, citext, float8. */
  type: string;
}

interface Table {
  name: string;
  columns: Column[];
  key: string[];
  /** The bigserial column, when the table has one. */
  serial: string | null;
}

/** Rows per batch, by default: one INSERT (PostgreSQL) or one read (both). */
const BATCH = 500;
/** Messages compared field by field after the copy, spread over the id range, plus the newest. */
const SAMPLE = 100;
/** Tables that are not data: the ledger (each engine has its own migrations), SQLite's own and FTS5's, PostgreSQL's cluster state. */
const notData = (name: string) => name === LEDGER || name.startsWith("sqlite_") || name.startsWith("messages_fts") || CLUSTER_STATE_TABLES.includes(name);

export interface CopyOptions {
  /** Replace what the target holds instead of refusing it. */
  replace: boolean;
  /** The visible text of a message's rendered HTML, as the search index holds it (src/render). */
  textForSearch: (html: string) => string;
  busyTimeoutMs: number;
  /** Progress, one line at a time. */
  log?: (line: string) => void;
  /** Rows per batch (tests make it small, so that every table takes many). */
  batch?: number;
}

export interface CopyReport {
  from: string;
  to: string;
  tables: number;
  rows: number;
  /** Messages compared field by field. */
  sampled: number;
  /** What differs between the two sides after the copy; empty when the copy is verified. */
  mismatches: string[];
}

/** Where to copy from and to: a SQLite database file or a PostgreSQL URL. */
export type Place = { sqlite: string } | { postgres: string };

/** Checks a PostgreSQL URL's form before anything connects; returns it. */
export function parsePostgresUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CopyError(`'${url}' is not a URL; expected postgres://user:password@host:port/database`);
  }
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:")
    throw new CopyError(`'${u.protocol}' is not PostgreSQL's scheme; expected postgres://user:password@host:port/database`);
  if (!u.hostname || u.pathname.length < 2)
    throw new CopyError(`${describePostgresUrl(url)} names no host or no database; expected postgres://user:password@host:port/database`);
  return url;
}

export async function copyStorage(from: Place, to: Place, o: CopyOptions): Promise<CopyReport> {
  return withEnds(from, to, o.busyTimeoutMs, async (source, target, pg, lite) => {
    // Refused before the target is migrated, so a refusal changes nothing.
    const held = await target.heldRows();
    if (held.length && !o.replace)
      throw new CopyError(
        `${target.name} is not empty (${held.slice(0, 5).join(", ")}${held.length > 5 ? ", …" : ""}); give --replace to replace its contents`,
      );
    const migrated = await target.migrate();
    if (migrated.length) o.log?.(`migrated ${target.name} to this confab's schema first (${plural(migrated.length, "migration")}, through ${migrated.at(-1)})`);
    const tables = order(await pg.catalog());
    lite.checkColumns(tables);
    o.log?.(`copying ${tables.length} tables from ${source.name} to ${target.name}`);
    const floors = await source.highestIds(tables);
    await target.write(tables, source, floors, o);
    const { rows, mismatches, sampled } = await verify(tables, source, target);
    return { from: source.name, to: target.name, tables: tables.length, rows, sampled, mismatches };
  });
}

/** The verification alone, both sides read only: what differs between a database and its copy. */
export async function compareStorage(a: Place, b: Place): Promise<{ rows: number; sampled: number; mismatches: string[] }> {
  return withEnds(a, b, null, async (source, target, pg, lite) => {
    await target.checkSource();
    const tables = order(await pg.catalog());
    lite.checkColumns(tables);
    return verify(tables, source, target);
  });
}

/**
 * Opens both sides, the source checked first (a refused source leaves no target file behind), and
 * closes them after `fn`. The SQLite side is opened for writing only when it is the target of a copy
 * (`busyTimeoutMs` given).
 */
async function withEnds<T>(
  from: Place,
  to: Place,
  busyTimeoutMs: number | null,
  fn: (source: End, target: End, pg: PostgresEnd, lite: SqliteEnd) => Promise<T>,
): Promise<T> {
  const pgUrl = "postgres" in from ? from.postgres : "postgres" in to ? to.postgres : null;
  const litePath = "sqlite" in from ? from.sqlite : "sqlite" in to ? to.sqlite : null;
  if (!pgUrl || !litePath) throw new CopyError("one side must be PostgreSQL and the other a SQLite data directory");
  const pg = await PostgresEnd.connect(parsePostgresUrl(pgUrl));
  try {
    if ("postgres" in from) await pg.checkSource();
    const lite = "sqlite" in from || busyTimeoutMs === null ? SqliteEnd.openSource(litePath) : SqliteEnd.openTarget(litePath, busyTimeoutMs);
    try {
      if ("sqlite" in from) await lite.checkSource();
      return "sqlite" in from ? await fn(lite, pg, pg, lite) : await fn(pg, lite, pg, lite);
    } finally {
      lite.close();
    }
  } finally {
    await pg.close();
  }
}

/** Tables in foreign-key order: every table after those it refers to. */
function order(catalog: { tables: Table[]; refs: [string, string][] }): Table[] {
  const out: Table[] = [];
  const done = new Set<string>();
  const byName = new Map(catalog.tables.map((t) => [t.name, t]));
  const visit = (t: Table, path: string[]) => {
    if (done.has(t.name)) return;
    if (path.includes(t.name)) throw new CopyError(`foreign keys form a cycle: ${[...path, t.name].join(" → ")}`);
    for (const [from, to] of catalog.refs) if (from === t.name && to !== t.name) visit(byName.get(to)!, [...path, t.name]);
    done.add(t.name);
    out.push(t);
  };
  for (const t of catalog.tables) visit(t, []);
  return out;
}

/** One side of the copy. Rows go in and out in the neutral form. */
interface End {
  name: string;
  /** Refuses a source this binary cannot copy whole: not confab's, or at another schema version. */
  checkSource(): Promise<void>;
  /** "table: n rows" for each table that holds rows. */
  heldRows(): Promise<string[]>;
  migrate(): Promise<string[]>;
  rows(t: Table, size: number): AsyncIterable<Row[]>;
  rowsById(t: Table, ids: number[]): Promise<Row[]>;
  count(t: Table): Promise<number>;
  messageSample(): Promise<number[]>;
  /** The highest id each serial table ever handed out (deleted rows' ids are not handed out again). */
  highestIds(tables: Table[]): Promise<Map<string, number>>;
  write(tables: Table[], source: End, floors: Map<string, number>, o: CopyOptions): Promise<void>;
}

/** A value as comparable text: JSON with its objects' keys sorted (jsonb keeps its own order). */
const sortedJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    typeof x === "bigint"
      ? String(x)
      : x && typeof x === "object" && !Array.isArray(x)
        ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1)))
        : x,
  );

/** Both sides hold the same rows: counts of every table, and sampled messages field by field. */
async function verify(tables: Table[], source: End, target: End) {
  const mismatches: string[] = [];
  let rows = 0;
  for (const t of tables) {
    const [a, b] = await Promise.all([source.count(t), target.count(t)]);
    rows += a;
    if (a !== b) mismatches.push(`${t.name}: ${a} rows in ${source.name}, ${b} in ${target.name}`);
  }
  const messages = tables.find((t) => t.name === "messages")!;
  const ids = await source.messageSample();
  const [mine, theirs] = await Promise.all([source.rowsById(messages, ids), target.rowsById(messages, ids)]);
  const copied = new Map(theirs.map((r) => [r.id, r]));
  for (const m of mine) {
    const c = copied.get(m.id);
    if (!c) {
      mismatches.push(`message ${m.id} is missing from ${target.name}`);
      continue;
    }
    for (const col of messages.columns) if (sortedJson(m[col.name]) !== sortedJson(c[col.name])) mismatches.push(`message ${m.id}: ${col.name} differs`);
  }
  return { rows, mismatches, sampled: mine.length };
}

/** Up to SAMPLE ids spread evenly from the first message to the last, and the last. */
async function spreadIds(first: number, last: number, next: (atLeast: number) => Promise<number | undefined>): Promise<number[]> {
  const ids = new Set<number>([last]);
  for (let i = 0; i < SAMPLE; i++) {
    const id = await next(first + Math.floor(((last - first) * i) / SAMPLE));
    if (id !== undefined) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

class PostgresEnd implements End {
  readonly name: string;
  private constructor(
    private sql: SQL,
    url: string,
  ) {
    this.name = `PostgreSQL (${describePostgresUrl(url)})`;
  }

  static async connect(url: string): Promise<PostgresEnd> {
    const sql = new SQL(url, { max: 1, connectionTimeout: 10 });
    try {
      await sql`SELECT 1`;
    } catch (e) {
      await sql.close();
      throw new CopyError(`cannot connect to ${describePostgresUrl(url)}: ${(e as Error).message}`);
    }
    return new PostgresEnd(sql, url);
  }

  private snapshot = false;

  async close() {
    if (this.snapshot) await this.sql.unsafe("ROLLBACK");
    await this.sql.close();
  }

  private async tableNames(): Promise<string[]> {
    const r: { name: string }[] = await this.sql`SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`;
    return r.map((t) => t.name);
  }

  async checkSource() {
    // One snapshot for the copy and its verification (this client has a single connection).
    await this.sql.unsafe("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    this.snapshot = true;
    const names = await this.tableNames();
    if (!names.includes(LEDGER)) throw new CopyError(`${this.name} holds no confab database`);
    const tags = new Set(((await this.sql.unsafe(`SELECT tag FROM ${LEDGER}`)) as { tag: string }[]).map((r) => r.tag));
    const unknown = [...tags].find((t) => !pgMigrations.some((m) => m.tag === t));
    if (unknown) throw new CopyError(`${this.name} was written by a newer confab (migration ${unknown}); copy it with that version`);
    const pending = pgMigrations.find((m) => !tags.has(m.tag));
    if (pending) throw new CopyError(`${this.name} lacks migration ${pending.tag}; migrate it first (the source is never changed)`);
  }

  async heldRows(): Promise<string[]> {
    const names = await this.tableNames();
    if (names.length && !names.includes(LEDGER)) throw new CopyError(`${this.name} is not a confab database (it has tables but no ${LEDGER} ledger)`);
    const out: string[] = [];
    for (const name of names) {
      if (name === LEDGER) continue;
      const [{ n }] = await this.sql.unsafe(`SELECT count(*)::int AS n FROM ${quote(name)}`);
      if (n) out.push(`${name}: ${plural(n, "row")}`);
    }
    return out;
  }

  migrate = () => migratePostgres(this.sql);

  /** Tables, columns, keys and foreign keys, as this binary's migrations built them. */
  async catalog(): Promise<{ tables: Table[]; refs: [string, string][] }> {
    const cols: { t: string; c: string; type: string; serial: boolean }[] = await this.sql`
      SELECT table_name AS t, column_name AS c, udt_name AS type, COALESCE(column_default LIKE 'nextval(%', false) AS serial
      FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`;
    const keys: { t: string; c: string }[] = await this.sql`
      SELECT t.relname AS t, a.attname AS c FROM pg_index x
      JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace ns ON ns.oid = t.relnamespace
      JOIN LATERAL unnest(x.indkey) WITH ORDINALITY k(attnum, n) ON true
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
      WHERE ns.nspname = current_schema() AND x.indisprimary ORDER BY t.relname, k.n`;
    const refs: { t: string; ref: string }[] = await this.sql`
      SELECT c.conrelid::regclass::text AS t, c.confrelid::regclass::text AS ref FROM pg_constraint c
      JOIN pg_namespace ns ON ns.oid = c.connamespace WHERE c.contype = 'f' AND ns.nspname = current_schema()`;
    const tables = new Map<string, Table>();
    for (const r of cols) {
      if (notData(r.t) || r.type === "tsvector") continue; // the search index is rebuilt, not copied
      const t = tables.get(r.t) ?? { name: r.t, columns: [], key: [], serial: null };
      t.columns.push({ name: r.c, type: r.type });
      if (r.serial) t.serial = r.c;
      tables.set(r.t, t);
    }
    for (const k of keys) tables.get(k.t)?.key.push(k.c);
    return { tables: [...tables.values()], refs: refs.map((r) => [r.t, r.ref]) };
  }

  async *rows(t: Table, size: number): AsyncIterable<Row[]> {
    const cols = t.columns.map((c) => quote(c.name)).join(", ");
    const key = t.key.map(quote).join(", ");
    let after: unknown[] | null = null;
    for (;;) {
      const where = after ? `WHERE (${key}) > (${after.map((_, i) => `$${i + 1}`).join(", ")})` : "";
      const batch: Row[] = await this.sql.unsafe(`SELECT ${cols} FROM ${quote(t.name)} ${where} ORDER BY ${key} LIMIT ${size}`, after ?? []);
      if (!batch.length) return;
      after = t.key.map((k) => batch.at(-1)![k]);
      yield batch.map((r) => this.neutral(t, r));
      if (batch.length < size) return;
    }
  }

  /** PostgreSQL's bigint arrives as a string. */
  private neutral(t: Table, r: Row): Row {
    for (const c of t.columns) {
      const v = r[c.name];
      if (c.type === "int8" && typeof v === "string") r[c.name] = Number.isSafeInteger(Number(v)) ? Number(v) : BigInt(v);
    }
    return r;
  }

  async rowsById(t: Table, ids: number[]): Promise<Row[]> {
    const rows: Row[] = await this.sql.unsafe(
      `SELECT ${t.columns.map((c) => quote(c.name)).join(", ")} FROM ${quote(t.name)} WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)::bigint) ORDER BY id`,
      [ids],
    );
    return rows.map((r) => this.neutral(t, r));
  }

  async count(t: Table): Promise<number> {
    const [{ n }] = await this.sql.unsafe(`SELECT count(*)::int AS n FROM ${quote(t.name)}`);
    return n;
  }

  async messageSample(): Promise<number[]> {
    const [{ first, last }] = await this.sql`SELECT min(id)::float8 AS first, max(id)::float8 AS last FROM messages`;
    if (first === null) return [];
    return spreadIds(first, last, async (n) => {
      const [r] = await this.sql`SELECT id::float8 AS id FROM messages WHERE id >= ${n} ORDER BY id LIMIT 1`;
      return r?.id;
    });
  }

  async highestIds(tables: Table[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const t of tables) {
      if (!t.serial) continue;
      const [{ seq }] = await this.sql.unsafe(`SELECT ${this.sequenceOf(t)}::text AS seq`);
      const [r] = await this.sql.unsafe(`SELECT last_value::float8 AS n, is_called FROM ${seq}`);
      if (r.is_called) out.set(t.name, r.n);
    }
    return out;
  }

  private sequenceOf = (t: Table) => `pg_get_serial_sequence('${quote(t.name)}', '${t.serial}')::regclass`;

  async write(tables: Table[], source: End, floors: Map<string, number>, o: CopyOptions) {
    await this.sql.begin(async (tx) => {
      if (tables.length) await tx.unsafe(`TRUNCATE ${tables.map((t) => quote(t.name)).join(", ")} RESTART IDENTITY`);
      for (const t of tables) {
        const cols = t.columns.map((c) => quote(c.name)).join(", ");
        let n = 0;
        for await (const batch of source.rows(t, o.batch ?? BATCH)) {
          // One parameter per batch; PostgreSQL turns each field into its column's type.
          const json = batch.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? String(v) : v])));
          await tx.unsafe(`INSERT INTO ${quote(t.name)} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${quote(t.name)}, $1::json)`, [json]);
          if (t.name === "messages")
            await tx.unsafe(
              `UPDATE messages m SET search_tsv = to_tsvector('english', v.body)
               FROM json_to_recordset($1::json) AS v(id bigint, body text) WHERE m.id = v.id`,
              [batch.map((r) => ({ id: r.id, body: searchDocument(r.topic as string, o.textForSearch(r.rendered_content as string)) }))],
            );
          n += batch.length;
        }
        if (n) o.log?.(`  ${t.name}: ${plural(n, "row")}`);
        if (t.serial) {
          const [{ max }] = await tx.unsafe(`SELECT COALESCE(max(${quote(t.serial)}), 0)::float8 AS max FROM ${quote(t.name)}`);
          const next = Math.max(max, floors.get(t.name) ?? 0);
          await tx.unsafe(`SELECT setval(${this.sequenceOf(t)}, $1, $2)`, [Math.max(next, 1), next > 0]);
        }
      }
    });
    // The planner's statistics and the visibility map, at once: without them the first server plans
    // its queries blind and reads the table for every row an index already answers (index-only scans
    // need pages marked all-visible), until autovacuum gets round to the new rows, in the middle of
    // serving. Outside the copy's transaction: VACUUM cannot run inside one.
    await this.sql.unsafe("VACUUM (ANALYZE)");
  }
}

class SqliteEnd implements End {
  readonly name: string;
  private constructor(
    private db: Database,
    path: string,
    private target: boolean,
  ) {
    this.name = `SQLite (${path})`;
  }

  static openSource(path: string): SqliteEnd {
    let db: Database;
    try {
      // 64-bit integers as they are stored (neutral() keeps those past 2^53 as bigint).
      db = new Database(path, { readonly: true, safeIntegers: true });
    } catch (e) {
      throw new CopyError(`cannot open ${path}: ${(e as Error).message}`);
    }
    return new SqliteEnd(db, path, false);
  }

  static openTarget(path: string, busyTimeoutMs: number): SqliteEnd {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return new SqliteEnd(openDatabase(path, { synchronous: "full", busyTimeoutMs }).sqlite, path, true);
  }

  close() {
    if (this.db.inTransaction) this.db.run("ROLLBACK");
    this.db.close();
  }

  async checkSource() {
    // One snapshot for the copy and its verification, whatever another connection commits meanwhile.
    this.db.run("BEGIN");
    const kind = inspectDatabase(this.db);
    if (kind !== "confab") throw new CopyError(`${this.name} is not a confab database`);
    const { pending, unknown } = migrationStatus(this.db);
    if (unknown.length) throw new CopyError(`${this.name} was written by a newer confab (migration ${unknown[0]}); copy it with that version`);
    if (pending.length) throw new CopyError(`${this.name} lacks migration ${pending[0]}; run confab migrate first (the source is never changed)`);
  }

  private tableNames = () =>
    this.db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name)
      .filter((n) => !notData(n));

  async heldRows(): Promise<string[]> {
    if (inspectDatabase(this.db) === "foreign") throw new CopyError(`${this.name} is not a confab database`);
    const out: string[] = [];
    for (const name of this.tableNames()) {
      const n = this.db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${quote(name)}`).get()!.n;
      if (n) out.push(`${name}: ${plural(n, "row")}`);
    }
    return out;
  }

  migrate = async () => migrate(this.db);

  /** The twin schemas agree on every table and column (else the copy would drop or miss data). */
  checkColumns(tables: Table[]) {
    const names = this.tableNames();
    const extra = names.filter((n) => !tables.some((t) => t.name === n));
    if (extra.length) throw new CopyError(`${this.name} has tables PostgreSQL's schema lacks: ${extra.join(", ")}`);
    for (const t of tables) {
      const cols = this.db
        .query<{ name: string }, []>(`PRAGMA table_info(${quote(t.name)})`)
        .all()
        .map((c) => c.name)
        .sort();
      const want = t.columns.map((c) => c.name).sort();
      if (cols.join() !== want.join()) throw new CopyError(`table ${t.name} has columns (${cols.join(", ")}) in SQLite but (${want.join(", ")}) in PostgreSQL`);
    }
  }

  private neutral(t: Table, r: Row): Row {
    for (const c of t.columns) {
      const v = r[c.name];
      if (v === null) continue;
      if (typeof v === "bigint") r[c.name] = Number.isSafeInteger(Number(v)) ? Number(v) : v;
      if (c.type === "bool") r[c.name] = r[c.name] !== 0;
      else if (c.type === "jsonb") r[c.name] = JSON.parse(v as string);
    }
    return r;
  }

  private stored(t: Table, r: Row): (string | number | bigint | null)[] {
    return t.columns.map((c) => {
      const v = r[c.name];
      if (v === null || v === undefined) return null;
      if (c.type === "bool") return v ? 1 : 0;
      if (c.type === "jsonb") return JSON.stringify(v);
      return v as string | number | bigint;
    });
  }

  private select = (t: Table) => `SELECT ${t.columns.map((c) => quote(c.name)).join(", ")} FROM ${quote(t.name)}`;

  async *rows(t: Table, size: number): AsyncIterable<Row[]> {
    let batch: Row[] = [];
    for (const r of this.db.query<Row, []>(`${this.select(t)} ORDER BY ${t.key.map(quote).join(", ")}`).iterate()) {
      batch.push(this.neutral(t, r));
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }

  async rowsById(t: Table, ids: number[]): Promise<Row[]> {
    return this.db
      .query<Row, [string]>(`${this.select(t)} WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`)
      .all(JSON.stringify(ids))
      .map((r) => this.neutral(t, r));
  }

  count = async (t: Table) => Number(this.db.query<{ n: number | bigint }, []>(`SELECT count(*) AS n FROM ${quote(t.name)}`).get()!.n);

  async messageSample(): Promise<number[]> {
    const { first, last } = this.db.query<{ first: number | null; last: number }, []>("SELECT min(id) AS first, max(id) AS last FROM messages").get()!;
    if (first === null) return [];
    const next = this.db.query<{ id: number }, [number]>("SELECT id FROM messages WHERE id >= ? ORDER BY id LIMIT 1");
    return spreadIds(Number(first), Number(last), async (n) => {
      const id = next.get(n)?.id;
      return id === undefined ? undefined : Number(id);
    });
  }

  private sequences(): Map<string, number> {
    const has = this.db.query("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get();
    if (!has) return new Map();
    return new Map(
      this.db
        .query<{ name: string; seq: number }, []>("SELECT name, seq FROM sqlite_sequence")
        .all()
        .map((r) => [r.name, Number(r.seq)]),
    );
  }

  highestIds = async () => this.sequences();

  async write(tables: Table[], source: End, floors: Map<string, number>, o: CopyOptions) {
    if (!this.target) throw new CopyError("the source is never written");
    // bun:sqlite's transaction() is synchronous and the rows arrive asynchronously: BEGIN by hand.
    this.db.run("BEGIN IMMEDIATE");
    try {
      for (const t of [...tables].reverse()) this.db.run(`DELETE FROM ${quote(t.name)}`);
      this.db.run("INSERT INTO messages_fts (messages_fts) VALUES ('delete-all')");
      if (this.sequences().size) this.db.run("DELETE FROM sqlite_sequence");
      const fts = this.db.query("INSERT INTO messages_fts (rowid, topic, body) VALUES (?, ?, ?)");
      for (const t of tables) {
        const insert = this.db.query(
          `INSERT INTO ${quote(t.name)} (${t.columns.map((c) => quote(c.name)).join(", ")}) VALUES (${t.columns.map(() => "?").join(", ")})`,
        );
        let n = 0;
        for await (const batch of source.rows(t, o.batch ?? BATCH)) {
          for (const r of batch) {
            insert.run(...this.stored(t, r));
            if (t.name === "messages") fts.run(r.id as number, r.topic as string, o.textForSearch(r.rendered_content as string));
          }
          n += batch.length;
        }
        if (n) o.log?.(`  ${t.name}: ${plural(n, "row")}`);
      }
      // AUTOINCREMENT tables continue past the source's highest id, deleted rows' included.
      for (const [name, floor] of floors) {
        const seq = this.sequences().get(name) ?? null;
        const declared = this.db.query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE name = ?").get(name)?.sql ?? "";
        if (!/AUTOINCREMENT/i.test(declared) || (seq !== null && seq >= floor)) continue;
        if (seq === null) this.db.run("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", [name, floor]);
        else this.db.run("UPDATE sqlite_sequence SET seq = ? WHERE name = ?", [floor, name]);
      }
      this.db.run("COMMIT");
    } catch (e) {
      this.db.run("ROLLBACK");
      throw e;
    }
  }
}
