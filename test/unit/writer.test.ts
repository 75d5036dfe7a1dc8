// db/tx.ts: asynchronous actions run one at a time, each in its SAVEPOINT of the group-commit
// transaction; a throw undoes exactly its own writes; events wait for COMMIT; one COMMIT serves many.
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { expect, test } from "bun:test";
import { Writer } from "../../src/db/tx";
import type { Db } from "../../src/db/client";
import type { Emitted } from "../../src/events/types";
import { toUsers } from "../../src/events/types";

function setUp() {
  const sqlite = new Database(":memory:");
  sqlite.run("CREATE TABLE t (v TEXT)");
  const delivered: Emitted[][] = [];
  let commits = 0;
  const run = sqlite.run.bind(sqlite);
  sqlite.run = ((q: string, ...rest: unknown[]) => {
    if (q === "COMMIT") commits++;
    return (run as (...a: unknown[]) => unknown)(q, ...rest);
  }) as typeof sqlite.run;
  const writer = new Writer(sqlite, drizzle(sqlite) as unknown as Db, (events) => delivered.push(events), true);
  const rows = () =>
    sqlite
      .query<{ v: string }, []>("SELECT v FROM t ORDER BY rowid")
      .all()
      .map((r) => r.v);
  return { sqlite, writer, delivered, rows, commits: () => commits };
}

/** What an awaited SQLite store call yields: microtasks, within the event-loop turn. */
const yields = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

test("actions run one at a time, share one COMMIT, and a throw undoes only its own writes", async () => {
  const { sqlite, writer, delivered, rows, commits } = setUp();
  const log: string[] = [];
  const action = (name: string, fail = false) =>
    writer.run(async (tx) => {
      log.push(`${name} start`);
      sqlite.run("INSERT INTO t VALUES (?)", [`${name} 1`]);
      await yields(); // another action waiting must not run here
      sqlite.run("INSERT INTO t VALUES (?)", [`${name} 2`]);
      tx.emit({ type: "heartbeat" } as never, toUsers([1]));
      log.push(`${name} end`);
      if (fail) throw new Error(`${name} failed`);
      return name;
    });
  const results = await Promise.allSettled([action("a"), action("b", true), action("c")]);
  expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual(["a", "b failed", "c"]);
  expect(log).toEqual(["a start", "a end", "b start", "b end", "c start", "c end"]);
  expect(delivered).toEqual([]); // nothing before COMMIT
  await writer.settled();
  expect(rows()).toEqual(["a 1", "a 2", "c 1", "c 2"]);
  expect(commits()).toBe(1);
  expect(delivered).toHaveLength(1);
  expect(delivered[0]).toHaveLength(2); // a's and c's events; b's went with its rollback
});

test("a batch's COMMIT waits for the action running when its turn comes", async () => {
  const { sqlite, writer, rows, commits } = setUp();
  const slow = writer.run(async () => {
    sqlite.run("INSERT INTO t VALUES ('slow 1')");
    await new Promise((r) => setTimeout(r, 20)); // several event-loop turns
    sqlite.run("INSERT INTO t VALUES ('slow 2')");
  });
  await slow;
  await writer.settled();
  expect(rows()).toEqual(["slow 1", "slow 2"]);
  expect(commits()).toBe(1);
});

test("an action that calls another runs it inside its own SAVEPOINT, not after itself", async () => {
  const { sqlite, writer, rows } = setUp();
  const inner = () =>
    writer.run(async () => {
      sqlite.run("INSERT INTO t VALUES ('inner')");
      await yields();
    });
  await writer.run(async () => {
    sqlite.run("INSERT INTO t VALUES ('outer 1')");
    await inner();
    await expect(writer.run(async () => Promise.reject(new Error("inner failed")))).rejects.toThrow("inner failed");
    sqlite.run("INSERT INTO t VALUES ('outer 2')");
  });
  await writer.settled();
  expect(rows()).toEqual(["outer 1", "inner", "outer 2"]);
});

test("a timer an action left behind waits its turn beside a later action, instead of joining it", async () => {
  const { sqlite, writer, rows } = setUp();
  let later!: Promise<void>;
  const fired = new Promise<void>((resolve) => {
    void writer.run(async () => {
      sqlite.run("INSERT INTO t VALUES ('first')");
      // Runs after `first` ended, while `second` is running: it carries first's async context along.
      setTimeout(() => {
        later = writer.run(async () => {
          sqlite.run("INSERT INTO t VALUES ('timer')");
        });
        resolve();
      }, 5);
    });
  });
  const second = writer.run(async () => {
    sqlite.run("INSERT INTO t VALUES ('second 1')");
    await fired;
    await new Promise((r) => setTimeout(r, 5));
    sqlite.run("INSERT INTO t VALUES ('second 2')");
    throw new Error("second failed"); // takes only its own writes with it
  });
  await expect(second).rejects.toThrow("second failed");
  await later;
  await writer.settled();
  expect(rows()).toEqual(["first", "timer"]);
});
