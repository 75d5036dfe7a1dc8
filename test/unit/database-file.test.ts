// The header check before the SQLite file is opened (db/integrity.ts): a file shorter than its header
// says is damaged, unless a write-ahead log holds frames: a checkpoint cut off by a crash leaves the
// file's header copied and its later pages still in the log, which opening the database replays.
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, truncateSync, writeFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { databaseFileProblem } from "../../src/db/integrity";

const dir = mkdtempSync(join(tmpdir(), "confab-dbfile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database of several pages, closed cleanly (no log left). */
function database(name: string): string {
  const path = join(dir, name);
  const db = new Database(path, { create: true });
  db.run("CREATE TABLE t (x TEXT)");
  for (let i = 0; i < 50; i++) db.run("INSERT INTO t VALUES (?)", ["x".repeat(500)]);
  db.close();
  return path;
}

test("a file cut short is damaged when no log holds its missing pages", () => {
  const path = database("cut.db");
  expect(databaseFileProblem(path)).toBeNull();
  truncateSync(path, statSync(path).size - 4096);
  expect(databaseFileProblem(path)).toMatch(/^it is cut short: \d+ bytes where its header counts \d+$/);
  writeFileSync(`${path}-wal`, Buffer.alloc(32)); // a log with its header only: nothing to replay
  expect(databaseFileProblem(path)).toMatch(/^it is cut short/);
});

test("the same file beside a log with frames is a checkpoint cut off midway, not damage", () => {
  const path = database("checkpoint.db");
  truncateSync(path, statSync(path).size - 4096);
  writeFileSync(`${path}-wal`, Buffer.alloc(32 + 24 + 4096)); // a header and one frame
  expect(databaseFileProblem(path)).toBeNull();
});
