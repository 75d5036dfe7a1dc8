// The start's cheap damage check (db/integrity.ts, checkSchemaReadable): one statement reads the first
// row of every table, so a table whose root page is damaged stops the start, whichever table it is.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, openSync, rmSync, writeSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkSchemaReadable } from "../../src/db/integrity";

const dir = mkdtempSync(join(tmpdir(), "confab-readable-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file with three tables of a few rows each; returns its path and each table's root page. */
function threeTables(name: string) {
  const path = join(dir, name);
  const db = new Database(path, { create: true });
  for (const t of ["alpha", "beta", "gamma"]) {
    db.run(`CREATE TABLE ${t} (id INTEGER PRIMARY KEY, body TEXT)`);
    for (let i = 0; i < 5; i++) db.run(`INSERT INTO ${t} (body) VALUES (?)`, [`${t} ${i}`]);
  }
  const roots = Object.fromEntries(
    db
      .query<{ name: string; rootpage: number }, []>("SELECT name, rootpage FROM sqlite_master")
      .all()
      .map((r) => [r.name, r.rootpage]),
  );
  const pageSize = db.query<{ page_size: number }, []>("PRAGMA page_size").get()!.page_size;
  db.close();
  return { path, roots, pageSize };
}

test("a sound file passes, and so does an empty one", () => {
  const { path } = threeTables("sound.db");
  const db = new Database(path);
  expect(() => checkSchemaReadable(db)).not.toThrow();
  db.close();
  const empty = new Database(join(dir, "empty.db"), { create: true });
  expect(() => checkSchemaReadable(empty)).not.toThrow();
  empty.close();
});

test.each(["alpha", "beta", "gamma"])("garbage over %s's root page stops the check", (table) => {
  const { path, roots, pageSize } = threeTables(`bad-${table}.db`);
  const fd = openSync(path, "r+");
  writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (roots[table]! - 1) * pageSize);
  closeSync(fd);
  const db = new Database(path);
  expect(() => checkSchemaReadable(db)).toThrow(/malformed|corrupt/i);
  db.close();
});
