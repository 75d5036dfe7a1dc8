// Scheduled backups (backup.schedule, backup.keep, backup.dir): the running server copies itself, proves
// the copy like `confab backup` does, then prunes the oldest scheduled copies down to `keep`.
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { App } from "../context";
import { filesOf, stamp, writeBackup, type BackupReport } from "../db/backup";
import { nextRun, parseSchedule } from "../lib/schedule";

/** Names of scheduled backups (pre-migration copies are named otherwise and never pruned). */
const SCHEDULED = /^confab-\d{8}-\d{6}\.db$/;

/**
 * One scheduled backup, now. It runs on the server's own connection between batches: VACUUM INTO
 * cannot run inside the open batch, and with no other writer in this process the row counts it
 * compares are exact. The event loop waits for the copy (about a second per 100 MB).
 */
export function takeScheduledBackup(app: App, at = new Date()): { file: string; report: BackupReport; pruned: string[] } {
  const dir = app.config.backup.dir;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, `confab-${stamp(at)}.db`);
  app.writer.flush();
  const report = writeBackup(app.db, app.config.dataDir, file);
  const kept = readdirSync(dir)
    .filter((n) => SCHEDULED.test(n))
    .sort();
  const pruned = kept.slice(0, Math.max(0, kept.length - app.config.backup.keep)).map((n) => join(dir, n));
  for (const old of pruned) {
    rmSync(old, { force: true });
    rmSync(filesOf(old), { recursive: true, force: true });
  }
  return { file, report, pruned };
}

/** Arms the schedule, if any; returns the function that disarms it. */
export function startBackups(app: App): () => void {
  const schedule = parseSchedule(app.config.backup.schedule);
  if (!schedule) return () => {};
  let timer: ReturnType<typeof setTimeout>;
  const arm = () => {
    timer = setTimeout(run, Math.max(1000, nextRun(schedule, Date.now()) - Date.now()));
    timer.unref?.();
  };
  const run = () => {
    try {
      const { file, report, pruned } = takeScheduledBackup(app);
      app.log.info("backup written and verified", { file, rows: report.rows, files: report.files, pruned: pruned.length });
    } catch (e) {
      app.log.error("scheduled backup failed", {
        error: String((e as Error)?.message ?? e),
        todo: "see the error; run confab backup <file> by hand meanwhile",
      });
    }
    arm();
  };
  arm();
  return () => clearTimeout(timer);
}
