import { Database } from "bun:sqlite";
import type { Command } from "commander";
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
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

  withCommon(program.command("backup").description("write a consistent copy of the database (safe while the server runs)").argument("<file>")).action(
    action((file: string, opts) => {
      if (existsSync(file)) throw new CliError(`${file} already exists`);
      const app = openApp(opts);
      try {
        // VACUUM INTO reads one snapshot of the database, so writes made meanwhile by the server do not tear it.
        app.sqlite.run("VACUUM INTO ?", [file]);
      } finally {
        app.close();
      }
      console.log(`backup written to ${file}`);
    }),
  );

  withCommon(program.command("restore").description("replace the database with a backup (the server must be stopped)").argument("<file>")).action(
    action((file: string, opts) => {
      const config = configFrom(opts);
      const pid = runningServer(config.dataDir);
      if (pid !== null) throw new CliError(`the server is running (pid ${pid}); stop it before restoring`);
      if (!existsSync(file)) throw new CliError(`${file} does not exist`);
      checkBackup(file);
      const target = databasePath(config);
      const tmp = `${target}.restoring`;
      copyFileSync(file, tmp);
      for (const suffix of ["-wal", "-shm"]) rmSync(target + suffix, { force: true });
      renameSync(tmp, target);
      console.log(`restored ${file} into ${target}`);
    }),
  );
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
