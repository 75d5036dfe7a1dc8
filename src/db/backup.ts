// Backups that prove themselves: a consistent copy of the database (VACUUM INTO) and of the files it
// refers to, then checked: the copy passes integrity_check, holds as many rows per table as the source
// did at that moment, and has every uploaded file its rows name, at the size they record.
import { Database } from "bun:sqlite";
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { sqliteOf, type Db } from "./client";
import { checkIntegrity, databaseFileProblem, NOT_SQLITE } from "./integrity";
import { inspectDatabase, migrate, migrationStatus, upToDate } from "./migrate";
import { migrations } from "../../migrations";

export class BackupError extends Error {}

/** The data directory's folders of files the database refers to (uploads, avatars, custom emoji). */
export const FILE_DIRS = ["uploads", "avatars", "emoji"];
/** Where a backup keeps them: a folder beside the database copy. */
export const filesOf = (backup: string) => `${backup}.files`;

export interface BackupReport {
  tables: number;
  rows: number;
  files: number;
  bytes: number;
  /** Whether the row counts were compared with the source at the very moment of the copy (no other writer meanwhile). */
  exact: boolean;
}

type Counts = Map<string, number>;

function countRows(sqlite: Database): Counts {
  const tables = sqlite
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'")
    .all();
  return new Map(tables.map((t) => [t.name, sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM "${t.name.replace(/"/g, '""')}"`).get()!.n]));
}

const dataVersion = (sqlite: Database) => sqlite.query<{ data_version: number }, []>("PRAGMA data_version").get()!.data_version;

/**
 * Copies the database `sqlite` is connected to into `dest` and checks the copy. VACUUM INTO reads one
 * snapshot, but cannot run inside the transaction that counts rows; so the source is counted just
 * before and after, and PRAGMA data_version tells whether another connection committed meanwhile. If
 * none did (the usual case, and always in the server, whose writer is this connection) the counts must
 * match exactly; if writes kept coming, after a few tries each table's count must lie between them.
 */
export function copyDatabase(sqlite: Database, dest: string): { tables: number; rows: number; exact: boolean } {
  for (let attempt = 1; ; attempt++) {
    const version = dataVersion(sqlite);
    const before = countRows(sqlite);
    sqlite.run("VACUUM INTO ?", [dest]);
    const quiet = dataVersion(sqlite) === version;
    const after = quiet ? before : countRows(sqlite);
    if (!quiet && attempt < 4) {
      rmSync(dest, { force: true });
      Bun.sleepSync(50 * attempt);
      continue;
    }
    const copy = new Database(dest, { readonly: true });
    try {
      const problems = checkIntegrity(copy, true);
      if (problems[0] !== "ok") throw new BackupError(`the copy failed its integrity check: ${problems.slice(0, 2).join("; ")}`);
      const copied = countRows(copy);
      for (const [table, n] of before) {
        const m = after.get(table) ?? n;
        const got = copied.get(table);
        if (got === undefined || got < Math.min(n, m) || got > Math.max(n, m))
          throw new BackupError(`the copy's table ${table} has ${got ?? "no"} rows where the database had ${n === m ? n : `${n} to ${m}`}`);
      }
      return { tables: copied.size, rows: [...copied.values()].reduce((a, b) => a + b, 0), exact: quiet };
    } finally {
      copy.close();
    }
  }
}

/** Every file under `dir`, by path relative to it, with its size. */
function listFiles(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) {
      const full = join(e.parentPath, e.name);
      out.set(full.slice(dir.length + 1), statSync(full).size);
    }
  return out;
}

/**
 * Copies FILE_DIRS from `from` to `to` and checks the copy: every file there at its source's size, and
 * every upload the copied database (`db`, when given) names present at its recorded size.
 */
export function copyFiles(from: string, to: string, db?: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const dir of FILE_DIRS) {
    const src = join(from, dir);
    const source = listFiles(src);
    if (!source.size) continue;
    cpSync(src, join(to, dir), { recursive: true });
    const copied = listFiles(join(to, dir));
    for (const [path, size] of source) {
      // A file deleted meanwhile (housekeeping) is no loss: nothing names it any more.
      if (copied.get(path) !== size && existsSync(join(src, path))) throw new BackupError(`${join(to, dir, path)} was not copied whole`);
      files++;
      bytes += size;
    }
  }
  if (db) checkUploads(db, to);
  return { files, bytes };
}

/** The whole backup: database, then files (written before the rows naming them commit, so the later copy has them all). */
export function writeBackup(db: Db, dataDir: string, dest: string): BackupReport {
  const sqlite = sqliteOf(db);
  if (existsSync(dest)) throw new BackupError(`${dest} already exists`);
  if (existsSync(filesOf(dest))) throw new BackupError(`${filesOf(dest)} already exists`);
  // The database is written under another name and renamed into place once it and the files are proved:
  // a backup stopped halfway (killed, disk full) leaves no file that looks like a backup (VACUUM INTO
  // killed early leaves an empty file, which reads as an empty, intact database).
  const tmp = `${dest}.partial`;
  const leftovers = () => [tmp, `${tmp}-journal`].forEach((f) => rmSync(f, { force: true }));
  leftovers();
  try {
    const copied = copyDatabase(sqlite, tmp);
    const f = copyFiles(dataDir, filesOf(dest), tmp);
    renameSync(tmp, dest);
    return { ...copied, ...f };
  } catch (e) {
    rmSync(filesOf(dest), { recursive: true, force: true });
    throw e;
  } finally {
    leftovers();
  }
}

/**
 * Before a restore replaces anything: the file is an intact confab database this binary's migrations
 * wrote (none it does not know), and its files folder, when it has one, holds every upload it names.
 */
export function checkBackup(file: string) {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  const why = databaseFileProblem(file);
  if (why === NOT_SQLITE) throw new BackupError(`${file} is not a confab database`);
  if (why) throw new BackupError(`${file} is damaged: ${why}`);
  let db: Database;
  try {
    db = new Database(file, { readonly: true });
  } catch {
    throw new BackupError(`${file} is not a confab database`);
  }
  try {
    let kind: string;
    try {
      kind = inspectDatabase(db);
    } catch {
      throw new BackupError(`${file} is not a confab database`);
    }
    if (kind !== "confab") throw new BackupError(`${file} is not a confab database`);
    const problems = checkIntegrity(db, true);
    if (problems[0] !== "ok") throw new BackupError(`${file} is damaged: ${problems.slice(0, 2).join("; ")}`);
    const newer = migrationStatus(db).unknown[0];
    if (newer) throw new BackupError(`${file} was written by a newer confab (migration ${newer}); restore it with that version`);
  } finally {
    db.close();
  }
  if (existsSync(filesOf(file))) checkUploads(file, filesOf(file));
}

/** Every upload the database file `db` names is in `dir`/uploads at its recorded size. */
function checkUploads(db: string, dir: string) {
  const copy = new Database(db, { readonly: true });
  try {
    const uploads = listFiles(join(dir, "uploads"));
    const missing = copy
      .query<{ path_id: string; size: number }, []>("SELECT path_id, size FROM attachments")
      .all()
      .filter((r) => uploads.get(r.path_id) !== r.size);
    if (missing.length) throw new BackupError(`${dir} lacks ${missing.length} uploaded file(s) the database names, e.g. uploads/${missing[0]!.path_id}`);
  } finally {
    copy.close();
  }
}

/**
 * Applies pending migrations, first copying a database that has data (verified, into `backupDir`) so an
 * upgrade can be undone; returns the migrations applied and the copy's path. migrate() applies them all
 * in one transaction, so a failure leaves the file as it was.
 */
export function migrateWithBackup(sqlite: Database, backupDir: string, list = migrations): { applied: string[]; backup: string | null } {
  if (upToDate(sqlite, list)) return { applied: [], backup: null }; // the usual start: one query
  let backup: string | null = null;
  if (inspectDatabase(sqlite) === "confab") {
    const { pending } = migrationStatus(sqlite, list);
    if (pending.length) {
      mkdirSync(backupDir, { recursive: true, mode: 0o700 });
      backup = join(backupDir, `confab-before-${pending[0]}-${stamp(new Date())}.db`);
      copyDatabase(sqlite, backup);
    }
  }
  return { applied: migrate(sqlite, list), backup };
}

/** 20260125-031500: file names that sort by time. */
export const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);

/** `confab migrate`: the database file (created if missing) migrated without opening the app, after a copy as above. */
export function migrateFile(path: string, busyTimeoutMs: number, backupDir: string): { applied: string[]; backup: string | null } {
  const sqlite = new Database(path, { create: true });
  try {
    sqlite.run(`PRAGMA busy_timeout = ${busyTimeoutMs}`);
    return migrateWithBackup(sqlite, backupDir);
  } finally {
    sqlite.close();
  }
}
