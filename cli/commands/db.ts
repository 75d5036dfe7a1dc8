import type { Command } from "commander";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { databasePath } from "../../src/app";
import { copyDatabase, migrateFile, restoreProblem } from "../../src/db/backup";
import { runningServer } from "../pidfile";
import { action, CliError, configFrom, openApp, withCommon } from "../common";

export function register(program: Command) {
  withCommon(program.command("migrate").description("apply pending database migrations")).action(
    action((opts) => {
      const config = configFrom(opts);
      mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      const done = migrateFile(databasePath(config), config.storage.busyTimeoutMs);
      console.log(done.length ? `applied ${done.join(", ")}` : "database is up to date");
    }),
  );

  withCommon(program.command("backup").description("write a consistent copy of the database (safe while the server runs), and the uploaded files beside it in <file>.files/").argument("<file>")).action(
    action((file: string, opts) => {
      if (existsSync(file)) throw new CliError(`${file} already exists`);
      if (existsSync(filesOf(file))) throw new CliError(`${filesOf(file)} already exists`);
      const app = openApp(opts);
      let files = 0;
      try {
        copyDatabase(app.db, file); // one snapshot, whatever the server writes meanwhile
        // Then the files it refers to: uploads and images are written before the rows naming them commit,
        // under names never reused, so a copy made after the snapshot holds every file the snapshot names.
        files = copyFiles(app.config.dataDir, filesOf(file));
      } finally {
        app.close();
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
      const problem = restoreProblem(file);
      if (problem) throw new CliError(problem);
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
