// Is the database file sound? Cheap checks before it is opened (the header and the size it declares,
// the schema readable), and SQLite's quick_check off the event loop once the server listens: a full
// check of a large file takes seconds, which start-up cannot afford.
import { Database } from "bun:sqlite";
import { inspectDatabase, migrationStatus } from "./migrate";
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";

export class DatabaseDamaged extends Error {}

/** What the operator reads: the file, what is wrong, and what to do; the file itself is left as it is. */
export const damaged = (path: string, why: string) =>
  new DatabaseDamaged(
    `the database file ${path} is damaged (${why}); it was left untouched. Stop confab and restore a backup: confab restore <backup file> (confab doctor checks the file again)`,
  );

/** SQLite's way of saying a file is damaged or no database at all. */
export function isCorruption(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  if (!err || typeof err !== "object") return false;
  return err.code === "SQLITE_CORRUPT" || err.code === "SQLITE_NOTADB" || /malformed|not a database|file is encrypted/i.test(String(err.message));
}

const MAGIC = "SQLite format 3\0";

/** What is wrong with the file's header: not SQLite, an impossible page size, or pages missing; null when nothing. */
export function databaseFileProblem(path: string): string | null {
  if (!existsSync(path)) return null;
  const size = statSync(path).size;
  if (size === 0) return null; // a new file
  const header = Buffer.alloc(100);
  const fd = openSync(path, "r");
  let read: number;
  try {
    read = readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (read < 100 || header.toString("latin1", 0, 16) !== MAGIC) return NOT_SQLITE;
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return "its header names an impossible page size";
  // A write-ahead log with frames holds pages newer than the file's, and a checkpoint cut off midway (a
  // crash) leaves the file with the header it copied first and the pages after it still to come; opening
  // it finishes the checkpoint from the log. The file's size says something only without such a log.
  if (walFrames(path)) return null;
  const pages = header.readUInt32BE(28);
  const current = header.readUInt32BE(92) === header.readUInt32BE(24);
  if (current && pages > 0 && pages * pageSize > size) return `it is cut short: ${size} bytes where its header counts ${pages * pageSize}`;
  if (size % pageSize !== 0) return "its size is not a whole number of pages";
  return null;
}

/** Whether the database's write-ahead log holds frames (more than its 32-byte header). */
const walFrames = (path: string): boolean => {
  try {
    return statSync(`${path}-wal`).size > 32;
  } catch {
    return false;
  }
};

export const NOT_SQLITE = "it does not start with an SQLite header";

/** Throws `damaged` when the header shows a problem (before the file is opened). */
export function checkDatabaseFile(path: string) {
  const why = databaseFileProblem(path);
  if (why) throw damaged(path, why);
}

/**
 * Reads the schema and the first row of every table: damage at any table's root shows here, cheaply.
 * One statement for all the tables (a statement per table cost a millisecond of every start).
 */
export function checkSchemaReadable(sqlite: Database) {
  const tables = sqlite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table'").all();
  if (!tables.length) return;
  sqlite.query(`SELECT ${tables.map((t) => `(SELECT 1 FROM "${t.name.replace(/"/g, '""')}" LIMIT 1)`).join(", ")}`).get();
}

// The check runs in a child process, this executable acting as plain Bun (BUN_BE_BUN=1; under `bun` it
// is bun itself), with its own read-only connection: quick_check reads the whole file while the server
// answers. A Worker would do the same on a thread, but its second JavaScript VM leaves about 7 MB in
// the idle server's resident memory; the child leaves nothing.
const CHECK = `import { Database } from "bun:sqlite";
let out;
try {
  const db = new Database(process.argv.at(-1), { readonly: true });
  try { out = db.query("PRAGMA quick_check(20)").all().map((r) => r.quick_check); } finally { db.close(); }
} catch (err) { out = [String((err && err.message) || err)]; }
process.stdout.write(JSON.stringify(out));`;

/** PRAGMA quick_check in another process: "ok", or the first problems SQLite found. `stop` ends it early. */
export function quickCheckInBackground(path: string): { result: Promise<string[]>; stop(): void } {
  const proc = Bun.spawn([process.execPath, "-e", CHECK, path], {
    env: { ...process.env, BUN_BE_BUN: "1" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  proc.unref();
  let stopped = false;
  const result = (async () => {
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (stopped) return new Promise<string[]>(() => {}); // stopped at shutdown: no verdict
    if (code !== 0) throw new Error(err.trim() || `the check exited with code ${code}`);
    return JSON.parse(out) as string[];
  })();
  return {
    result,
    stop() {
      stopped = true;
      proc.kill();
    },
  };
}

/** PRAGMA quick_check (or the slower, thorough integrity_check): ["ok"], or the first problems found. */
export function checkIntegrity(sqlite: Database, thorough = false): string[] {
  return sqlite
    .query<Record<string, string>, []>(`PRAGMA ${thorough ? "integrity_check" : "quick_check"}(20)`)
    .all()
    .map((r) => Object.values(r)[0]!);
}

export type FileReport =
  | { kind: "damaged"; why: string }
  | { kind: "foreign" }
  | { kind: "confab" | "empty"; problems: string[]; pending: string[]; unknown: string[] };

/** `confab doctor`'s look at the database file, read-only: its header, quick_check, and its migrations. */
export function inspectDatabaseFile(path: string): FileReport {
  const why = databaseFileProblem(path);
  if (why) return { kind: "damaged", why };
  let db: Database;
  try {
    db = new Database(path, { readonly: true });
  } catch (e) {
    return { kind: "damaged", why: (e as Error).message };
  }
  try {
    const kind = inspectDatabase(db);
    if (kind === "foreign") return { kind };
    return { kind, problems: checkIntegrity(db), ...migrationStatus(db) };
  } catch (e) {
    return { kind: "damaged", why: (e as Error).message };
  } finally {
    db.close();
  }
}
