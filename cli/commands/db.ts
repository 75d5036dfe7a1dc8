import type { Command } from "commander";
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { databasePath } from "../../src/app";
import { checkBackup, copyFiles, FILE_DIRS, filesOf, migrateFile, writeBackup, type BackupReport } from "../../src/db/backup";
import { runningServer } from "../pidfile";
import { action, CliError, configFrom, openApp, withCommon } from "../common";

export function register(program: Command) {
  withCommon(program.command("migrate").description("apply pending database migrations")).action(
    action((opts) => {
      const config = configFrom(opts);
      mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      const { applied, backup } = migrateFile(databasePath(config), config.storage.busyTimeoutMs, config.backup.dir);
      if (backup) console.log(`backed up to ${backup}`);
      console.log(applied.length ? `applied ${applied.join(", ")}` : "database is up to date");
    }),
  );

  withCommon(
    program
      .command("backup")
      .description("write a consistent copy of the database (safe while the server runs) and the uploaded files beside it in <file>.files/, then verify both")
      .argument("<file>"),
  ).action(
    action((file: string, opts) => {
      const app = openApp(opts);
      let r: BackupReport;
      try {
        r = writeBackup(app.db, app.config.dataDir, resolve(file));
      } finally {
        app.close();
      }
      console.log(describeBackup(file, r));
    }),
  );

  withCommon(
    program
      .command("restore")
      .description("replace the database (and the uploaded files, from <file>.files/) with a verified backup (the server must be stopped)")
      .argument("<file>"),
  ).action(
    action((file: string, opts) => {
      const config = configFrom(opts);
      const pid = runningServer(config.dataDir);
      if (pid !== null) throw new CliError(`the server is running (pid ${pid}); stop it before restoring`);
      checkBackup(file); // before anything is replaced
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
        files = copyFiles(filesOf(file), config.dataDir).files;
      }
      console.log(files ? `restored ${file} and ${files} uploaded file(s) into ${config.dataDir}` : `restored ${file} into ${target}`);
    }),
  );
}

/** One line: where the backup went and what was proved about it. */
export const describeBackup = (file: string, r: BackupReport) =>
  `backup written to ${file} and verified: integrity ok, ${r.rows} rows in ${r.tables} tables match the database${r.exact ? "" : " (written to meanwhile: counts within the change)"}` +
  (r.files ? `, ${r.files} uploaded file(s) (${Math.ceil(r.bytes / 1024)} KiB) checked in ${filesOf(file)}` : "");
