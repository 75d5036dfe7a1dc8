import type { Command } from "commander";
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { databasePath } from "../../src/app";
import { describePostgresUrl, type Config } from "../../src/config";
import { checkBackup, copyFiles, FILE_DIRS, filesOf, migrateFile, writeBackup, type BackupReport } from "../../src/db/backup";
import type { CopyReport } from "../../src/db/copy-storage";
import { KEY_FILE } from "../../src/lib/crypto";
import { plural } from "../../src/lib/text";
import { textForSearch } from "../../src/render";
import { runningServer } from "../pidfile";
import { action, CliError, configFrom, openApp, withCommon } from "../common";

export function register(program: Command) {
  withCommon(program.command("migrate").description("apply pending database migrations (to the SQLite file, or to PostgreSQL: storage.driver)")).action(
    action(async (opts) => {
      const config = configFrom(opts);
      if (config.storage.driver === "postgres") {
        const where = describePostgresUrl(config.storage.url);
        const applied = await migratePostgresAt(config.storage.url);
        console.log(applied.length ? `applied ${applied.join(", ")} to ${where}` : `${where} is up to date`);
        if (applied.length) console.log(PG_BACKUPS);
        return;
      }
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
    action(async (file: string, opts) => {
      sqliteOnly(configFrom(opts), "backup");
      const app = await openApp(opts);
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
      sqliteOnly(config, "restore");
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

  registerMigrateStorage(program);
}

/** What an operator of a PostgreSQL installation is told of backups (confab's own copy only the SQLite file). */
const PG_BACKUPS = "PostgreSQL's backups are yours to take (pg_dump, your provider's snapshots); confab backup and restore copy only a SQLite file";

/** `confab backup` and `restore` work on the SQLite file; on PostgreSQL they say whose backups those are. */
function sqliteOnly(config: Config, command: string) {
  if (config.storage.driver === "postgres") throw new CliError(`confab ${command} works on the SQLite file; storage.driver is postgres: ${PG_BACKUPS}`);
}

/** Migrates the PostgreSQL database at `url` (db/migrate-pg.ts), over a connection of its own. */
async function migratePostgresAt(url: string): Promise<string[]> {
  const [{ SQL }, { migratePostgres }] = await Promise.all([import("bun"), import("../../src/db/migrate-pg")]);
  const sql = new SQL(url, { max: 1 });
  try {
    return await migratePostgres(sql);
  } finally {
    await sql.close();
  }
}

/** `confab migrate-storage`: the data directory's SQLite database into PostgreSQL, or (--from) back into a data directory. */
function registerMigrateStorage(program: Command) {
  withCommon(
    program
      .command("migrate-storage")
      .description(
        "copy the whole database from this data directory's SQLite file into PostgreSQL, or with --from back into a data directory, then verify the copy (the server must be stopped; the source is never changed)",
      )
      .requiredOption("--to <target>", "postgres://user:password@host:port/database, or with --from the data directory to fill")
      .option("--from <url>", "copy from this PostgreSQL database (postgres://…) instead of the data directory")
      .option("--replace", "replace what the target already holds instead of refusing"),
  ).action(
    action(async (opts) => {
      // Loaded here, not at every start: Bun's PostgreSQL client and the PostgreSQL schema cost 5–7 ms to load.
      const { copyStorage, parsePostgresUrl } = await import("../../src/db/copy-storage");
      const config = configFrom(opts);
      const options = { replace: opts.replace === true, textForSearch, busyTimeoutMs: config.storage.busyTimeoutMs, log: (l: string) => console.log(l) };
      let r: CopyReport;
      let files: string;
      if (opts.from !== undefined) {
        const from = parsePostgresUrl(opts.from);
        if (/^postgres(ql)?:/i.test(opts.to)) throw new CliError("--from and --to are both PostgreSQL; one side must be a data directory");
        const dir = resolve(opts.to);
        const pid = runningServer(dir);
        if (pid !== null) throw new CliError(`a server is running on ${dir} (pid ${pid}); stop it before copying into it`);
        r = await copyStorage({ postgres: from }, { sqlite: databasePath({ ...config, dataDir: dir }) }, options);
        const present = filesBeside(dir, config);
        files = present.length
          ? `the files beside the database are not copied: ${dir} has ${present.join(", ")}`
          : `the files beside the database (uploads, avatars, emoji, repositories, plugins, workspaces, ${KEY_FILE}) are not copied: ` +
            `copy them from the data directory the PostgreSQL nodes share into ${dir} before starting confab on it`;
      } else {
        const to = parsePostgresUrl(opts.to);
        const pid = runningServer(config.dataDir);
        if (pid !== null) throw new CliError(`the server is running on ${config.dataDir} (pid ${pid}); stop it before copying its database`);
        const source = databasePath(config);
        if (!existsSync(source)) throw new CliError(`there is no database at ${source}`);
        r = await copyStorage({ sqlite: source }, { postgres: to }, options);
        const present = filesBeside(config.dataDir, config);
        files =
          `the files beside the database are not copied: they stay in ${config.dataDir}${present.length ? ` (${present.join(", ")})` : ""}; ` +
          "confab nodes on PostgreSQL share that directory, mounted at the same path on every node (docs/scaling.md, section 9)\n" +
          "to serve from it: storage.driver postgres and storage.url (CONFAB_STORAGE_URL) naming this database; one node for now";
      }
      console.log(`copied ${plural(r.rows, "row")} in ${plural(r.tables, "table")} from ${r.from} to ${r.to}`);
      if (r.mismatches.length) {
        for (const m of r.mismatches.slice(0, 20)) console.error(`mismatch: ${m}`);
        throw new CliError(`the copy does not match its source (${r.mismatches.length} difference(s)); do not use ${r.to}`);
      }
      console.log(`verified: every table's row count is equal on both sides, and ${plural(r.sampled, "sampled message")} equal field by field`);
      console.log(files);
    }),
  );
}

/**
 * What a data directory holds besides the database and the running server's own files: uploads,
 * avatars, emoji, repositories, plugins, workspaces, the secrets key... Files, which a copy of the
 * database leaves where they are.
 */
function filesBeside(dir: string, config: Config): string[] {
  if (!existsSync(dir)) return [];
  const db = basename(databasePath(config));
  const own = new Set([db, `${db}-wal`, `${db}-shm`, "confab.pid", "control.sock"]);
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => !own.has(e.name))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
}

/** One line: where the backup went and what was proved about it. */
export const describeBackup = (file: string, r: BackupReport) =>
  `backup written to ${file} and verified: integrity ok, ${r.rows} rows in ${r.tables} tables match the database${r.exact ? "" : " (written to meanwhile: counts within the change)"}` +
  (r.files ? `, ${r.files} uploaded file(s) (${Math.ceil(r.bytes / 1024)} KiB) checked in ${filesOf(file)}` : "");
