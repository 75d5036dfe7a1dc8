// Migrations take a verified backup first and apply all-or-nothing; backup schedules.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../migrations";
import { checkBackup, migrateWithBackup } from "../../src/db/backup";
import { appliedMigrations, migrate } from "../../src/db/migrate";
import { nextRun, parseSchedule } from "../../src/lib/schedule";

const dir = mkdtempSync(join(tmpdir(), "confab-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const hash = (file: string) => new Bun.CryptoHasher("sha256").update(readFileSync(file)).digest("hex");

test("a database with data is copied (verified) before pending migrations; a failing migration leaves the file as it was", () => {
  const path = join(dir, "confab.db");
  const backups = join(dir, "backups");
  const db = new Database(path);
  expect(migrateWithBackup(db, backups).backup).toBeNull(); // a new, empty database: nothing to keep
  db.run("INSERT INTO realms (string_id, name, date_created) VALUES ('acme', 'Acme', 0)");

  const good = { tag: "9000_add_notes", sql: "CREATE TABLE notes (x TEXT);\n--> statement-breakpoint\nINSERT INTO notes VALUES ('n')" };
  const r = migrateWithBackup(db, backups, [...migrations, good]);
  expect(r.applied).toEqual(["9000_add_notes"]);
  expect(r.backup).toMatch(/backups\/confab-before-9000_add_notes-\d{8}-\d{6}\.db$/);
  checkBackup(r.backup!); // intact, and written by this version
  const copy = new Database(r.backup!, { readonly: true });
  expect(copy.query("SELECT name FROM realms").all()).toEqual([{ name: "Acme" }]);
  expect(copy.query("SELECT name FROM sqlite_master WHERE name = 'notes'").all()).toEqual([]);
  copy.close();

  // Two pending migrations, the second failing: neither is applied, and the file's contents are unchanged.
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  const before = hash(path);
  const second = { tag: "9001_more", sql: "CREATE TABLE more (x)" };
  const broken = { tag: "9002_broken", sql: "CREATE TABLE notes (x)" };
  expect(() => migrateWithBackup(db, backups, [...migrations, good, second, broken])).toThrow("table notes already exists");
  expect(appliedMigrations(db)).not.toContain("9001_more");
  expect(db.query("SELECT name FROM sqlite_master WHERE name = 'more'").all()).toEqual([]);
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  expect(hash(path)).toBe(before);
  expect(readdirSync(backups).filter((n) => n.startsWith("confab-before-9001_more"))).toHaveLength(1);
  // Without a backup directory's help, migrate alone is all-or-nothing too.
  expect(() => migrate(db, [...migrations, good, second, broken])).toThrow();
  expect(appliedMigrations(db)).not.toContain("9001_more");
  db.close();
});

test("backup schedules: hourly, daily at 03:00, or a time of day", () => {
  expect(parseSchedule("nightly")).toBeNull();
  expect(parseSchedule("25:00")).toBeNull();
  const at = (h: number, m: number) => new Date(2026, 0, 10, h, m).getTime();
  expect(nextRun(parseSchedule("hourly")!, at(10, 20))).toBe(at(11, 0));
  expect(nextRun(parseSchedule("daily")!, at(2, 59))).toBe(at(3, 0));
  expect(nextRun(parseSchedule("daily")!, at(3, 0))).toBe(new Date(2026, 0, 11, 3, 0).getTime());
  expect(nextRun(parseSchedule("22:30")!, at(10, 0))).toBe(at(22, 30));
});
