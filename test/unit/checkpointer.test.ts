// The WAL checkpoint helper (src/db/checkpointer.ts) on a real SQLite file: it copies the log in its own
// process, and its answer arriving while the connection holds a transaction (the writer's batch, open
// across awaits) is taken without touching the connection: the COMMIT that follows looks again.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHECKPOINT_FRAMES, Checkpointer } from "../../src/db/checkpointer";
import { createLogger } from "../../src/lib/log";
import { Histogram } from "../../src/lib/metrics";

const dir = mkdtempSync(join(tmpdir(), "confab-checkpointer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("checkpoints in its helper; an answer during an open transaction waits for the next COMMIT", async () => {
  const file = join(dir, "c.db");
  const db = new Database(file, { create: true });
  db.run("PRAGMA journal_mode = WAL");
  db.run("CREATE TABLE t (x BLOB)");
  const warnings: string[] = [];
  const seconds = new Histogram();
  const c = new Checkpointer(
    db,
    file,
    createLogger("warn", (l) => warnings.push(l)),
    seconds,
  );
  const look = () => db.query<{ log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(NOOP)").get()!;
  const commit = (rows: number) => {
    db.run("BEGIN IMMEDIATE");
    for (let i = 0; i < rows; i++) db.run("INSERT INTO t VALUES (randomblob(3000))");
    db.run("COMMIT");
    c.committed();
  };

  commit(CHECKPOINT_FRAMES + 200); // past the mark: the helper is asked
  db.run("BEGIN IMMEDIATE"); // and answers while this transaction is open
  db.run("INSERT INTO t VALUES (1)");
  const deadline = Date.now() + 10_000;
  while (seconds.lines("h").every((l) => !/^h_count [1-9]/.test(l)) && Date.now() < deadline) await Bun.sleep(10);
  expect(seconds.lines("h").some((l) => /^h_count [1-9]/.test(l))).toBe(true);
  db.run("COMMIT");
  const after = look();
  expect(after.checkpointed).toBeGreaterThanOrEqual(CHECKPOINT_FRAMES); // copied by the helper, not here
  c.committed(); // the look the answer could not take
  expect(warnings).toEqual([]);
  c.close();
  expect(look().log).toBe(0); // the stop copied and truncated the whole log
  db.close();
});

test("past 10,000 frames the connection checkpoints too, until the WAL has started over", async () => {
  const file = join(dir, "valve.db");
  const db = new Database(file, { create: true });
  db.run("PRAGMA journal_mode = WAL");
  db.run("CREATE TABLE t (x BLOB)");
  const seconds = new Histogram();
  const c = new Checkpointer(
    db,
    file,
    createLogger("warn", () => {}),
    seconds,
  );
  const autocheckpoint = () => db.query<{ wal_autocheckpoint: number }, []>("PRAGMA wal_autocheckpoint").get()!.wal_autocheckpoint;
  const answers = () => Number(/^h_count (\d+)/m.exec(seconds.lines("h").join("\n"))?.[1] ?? 0);
  expect(autocheckpoint()).toBe(0);

  db.run("BEGIN IMMEDIATE");
  for (let i = 0; i < 11_000; i++) db.run("INSERT INTO t VALUES (randomblob(3000))");
  db.run("COMMIT");
  c.committed();
  expect(autocheckpoint()).toBe(CHECKPOINT_FRAMES); // the valve: SQLite's own checkpoints again

  // Once the helper has copied everything, the next write starts the WAL over; its look closes the valve.
  const deadline = Date.now() + 20_000;
  while (answers() < 1 && Date.now() < deadline) await Bun.sleep(10);
  db.run("INSERT INTO t VALUES (1)");
  c.committed();
  expect(db.query<{ log: number }, []>("PRAGMA wal_checkpoint(NOOP)").get()!.log).toBeLessThan(CHECKPOINT_FRAMES);
  expect(autocheckpoint()).toBe(0);
  c.close();
  db.close();
});
