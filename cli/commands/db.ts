import { Database } from "bun:sqlite";
import type { Command } from "commander";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { databasePath } from "../../src/app";
import { appliedMigrations, inspectDatabase, migrate } from "../../src/db/migrate";
import { migrations } from "../../migrations";
import { runningServer } from "../pidfile";
import { action, CliError, configFrom, openApp, withCommon } from "../common";

export function register(program: Command) {
  withCommon(program.command("migrate").description("apply pending database migrations")).action(
    action((opts) => {
      const config = configFrom(opts);
      mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      const sqlite = new Database(databasePath(config), { create: true });
      try {
        sqlite.run(`PRAGMA busy_timeout = ${config.storage.busyTimeoutMs}`);
        const done = migrate(sqlite);
        console.log(done.length ? `applied ${done.join(", ")}` : "database is up to date");
      } finally {
        sqlite.close();
      }
    }),
  );

  withCommon(program.command("backup").description("write a consistent copy of the database (safe while the server runs), and the uploaded files beside it in <file>.files/").argument("<file>")).action(
    action((file: string, opts) => {
      if (existsSync(file)) throw new CliError(`${file} already exists`);
      if (existsSync(filesOf(file))) throw new CliError(`${filesOf(file)} already exists`);
      const app = openApp(opts);
      let files = 0;
      // Written under other names and renamed into place, the database last: a backup stopped halfway
      // (killed, disk full) leaves only `.partial` names, never a file that looks like a backup.
      const [tmp, tmpFiles] = [`${file}.partial`, `${filesOf(file)}.partial`];
      try {
        for (const leftover of [tmp, `${tmp}-journal`, tmpFiles]) rmSync(leftover, { recursive: true, force: true });
        // VACUUM INTO reads one snapshot of the database, so writes made meanwhile by the server do not tear it.
        app.sqlite.run("VACUUM INTO ?", [tmp]);
        // Then the files it refers to: uploads and images are written before the rows naming them commit,
        // under names never reused, so a copy made after the snapshot holds every file the snapshot names.
        files = copyFiles(app.config.dataDir, tmpFiles);
        if (existsSync(tmpFiles)) renameSync(tmpFiles, filesOf(file));
        renameSync(tmp, file);
      } finally {
        app.close();
        for (const leftover of [tmp, `${tmp}-journal`, tmpFiles]) rmSync(leftover, { recursive: true, force: true });
      }
      console.log(files ? `backup written to ${file}, ${files} uploaded file(s) to ${filesOf(file)}` : `backup written to ${file}`);
    }),
  );

  withCommon(program.command("restore").description("replace the database (and the uploaded files, from <file>.files/) with a backup (the server must be stopped)").argument("<file>")).action(
    action((file: string, opts) => {
      const config = configFrom(opts);
      const pid = runningServer(config.dataDir);
      if (pid !== null) throw new CliError(`the server is running (pid ${pid}); stop it before restoring`);
      if (!existsSync(file)) throw new CliError(`${file} does not exist`);
      checkBackup(file);
      mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      const target = databasePath(config);
      const tmp = `${target}.restoring`;
      copyFileSync(file, tmp);
      for (const suffix of ["-wal", "-shm"]) rmSync(target + suffix, { force: true });
      renameSync(tmp, target);
      // The files go back with the database they belong to (a database-only backup leaves them as they are).
      let files = 0;
      if (existsSync(filesOf(file))) {
        for (const dir of FILE_DIRS) rmSync(join(config.dataDir, dir), { recursive: true, force: true });
        files = copyFiles(filesOf(file), config.dataDir);
      }
      console.log(files ? `restored ${file} and ${files} uploaded file(s) into ${config.dataDir}` : `restored ${file} into ${target}`);
    }),
  );
}

/** The data directory's folders of files the database refers to (uploads, avatars, custom emoji). */
const FILE_DIRS = ["uploads", "avatars", "emoji"];
/** Where a backup keeps them: a folder beside the database copy. */
const filesOf = (backup: string) => `${backup}.files`;

/** Copies FILE_DIRS from one directory to another; returns how many files were copied. */
function copyFiles(from: string, to: string): number {
  let n = 0;
  for (const dir of FILE_DIRS) {
    const src = join(from, dir);
    if (!existsSync(src)) continue;
    const count = readdirSync(src, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    if (count) cpSync(src, join(to, dir), { recursive: true });
    n += count;
  }
  return n;
}

/** A restorable file is an intact SQLite database that this confab's migrations wrote. */
function checkBackup(file: string) {
  let db: Database;
  try {
    db = new Database(file, { readonly: true });
  } catch {
    throw new CliError(`${file} is not a confab database`);
  }
  try {
    let kind: string;
    try {
      kind = inspectDatabase(db);
    } catch {
      throw new CliError(`${file} is not a confab database`);
    }
    if (kind !== "confab") throw new CliError(`${file} is not a confab database`);
    const ok = db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get();
    if (ok?.integrity_check !== "ok") throw new CliError(`${file} is damaged: ${ok?.integrity_check}`);
    const known = new Set(migrations.map((m) => m.tag));
    const newer = appliedMigrations(db).find((t) => !known.has(t));
    if (newer) throw new CliError(`${file} was written by a newer confab (migration ${newer})`);
  } finally {
    db.close();
  }
}
