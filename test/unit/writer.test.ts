// db/tx.ts: asynchronous actions run one at a time, each in its SAVEPOINT of the group-commit
// transaction; a throw undoes exactly its own writes; events wait for COMMIT; one COMMIT serves many.
// Every scenario runs on both engines: SQLite's writer (bun:sqlite, synchronous) and PostgreSQL's (one
// reserved connection, awaited; skipped, saying why, where no PostgreSQL can be started).
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Writer, type WriterEngine } from "../../src/db/tx";
import { postgresWriter, sqliteWriter } from "../../src/db/writer-engine";
import { openPostgres, reservePostgres } from "../../src/db/engine";
import { raw } from "../../src/db/raw";
import type { Db } from "../../src/db/client";
import type { Emitted } from "../../src/events/types";
import { toUsers } from "../../src/events/types";
import { postgresMissing, startPostgres, type Postgres } from "../helpers/postgres";
import { waitFor } from "../helpers/wait";

interface Harness {
  writer: Writer;
  delivered: Emitted[][];
  /** Inserts a row through the action's Db (its connection: inside the batch's transaction). */
  insert(db: Db, v: string): Promise<void>;
  /** The committed rows, read as another connection sees them (PostgreSQL) or from the file (SQLite). */
  rows(): Promise<string[]>;
  commits(): number;
}

/** The engine with its COMMITs counted. */
function counted(engine: WriterEngine): { engine: WriterEngine; commits: () => number } {
  let commits = 0;
  const commit = engine.commit;
  return {
    engine: {
      ...engine,
      commit(batch) {
        commits++;
        return commit(batch);
      },
    },
    commits: () => commits,
  };
}

const insert = async (db: Db, v: string) => void (await raw(db).run("INSERT INTO t (v) VALUES (?)", v));

async function sqliteHarness(): Promise<Harness> {
  const sqlite = new Database(":memory:");
  sqlite.run("CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT)");
  const db = drizzle(sqlite) as unknown as Db;
  const delivered: Emitted[][] = [];
  const { engine, commits } = counted(sqliteWriter(sqlite, db));
  const writer = new Writer(engine, (events) => delivered.push(events), true);
  const rows = async () =>
    sqlite
      .query<{ v: string }, []>("SELECT v FROM t ORDER BY n")
      .all()
      .map((r) => r.v);
  return { writer, delivered, insert, rows, commits };
}

const missing = postgresMissing("writer tests on PostgreSQL");
let pg: Postgres | null = null;
let databases = 0;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  if (!missing) pg = await startPostgres();
});
afterAll(async () => {
  for (const close of closers) await close();
  await pg?.stop();
});

async function postgresHarness(): Promise<Harness> {
  const { client, db: pool } = await openPostgres(await pg!.createDatabase(`w${++databases}`));
  await client.unsafe("CREATE TABLE t (n bigserial PRIMARY KEY, v text)");
  const reserved = await reservePostgres(pool);
  const delivered: Emitted[][] = [];
  const { engine, commits } = counted(postgresWriter(reserved.connection, reserved.db));
  const writer = new Writer(engine, (events) => delivered.push(events), true);
  closers.push(async () => {
    await writer.drain();
    writer.close();
    await client.close();
  });
  const rows = async () => ((await client.unsafe("SELECT v FROM t ORDER BY n")) as { v: string }[]).map((r) => r.v);
  return { writer, delivered, insert, rows, commits };
}

/** What an awaited SQLite store call yields: microtasks, within the event-loop turn. */
const yields = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

const scenarios = (setUp: () => Promise<Harness>) => {
  test("actions run one at a time, share one COMMIT, and a throw undoes only its own writes", async () => {
    const { writer, delivered, insert, rows, commits } = await setUp();
    const log: string[] = [];
    const action = (name: string, fail = false) =>
      writer.run(async (tx) => {
        log.push(`${name} start`);
        await insert(tx.db, `${name} 1`);
        await yields(); // another action waiting must not run here
        await insert(tx.db, `${name} 2`);
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
    expect(await rows()).toEqual(["a 1", "a 2", "c 1", "c 2"]);
    expect(commits()).toBe(1);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toHaveLength(2); // a's and c's events; b's went with its rollback
  });

  test("a batch's COMMIT waits for the action running when its turn comes", async () => {
    const { writer, insert, rows, commits } = await setUp();
    const slow = writer.run(async (tx) => {
      await insert(tx.db, "slow 1");
      await new Promise((r) => setTimeout(r, 20)); // several event-loop turns
      await insert(tx.db, "slow 2");
    });
    await slow;
    await writer.settled();
    expect(await rows()).toEqual(["slow 1", "slow 2"]);
    expect(commits()).toBe(1);
  });

  test("an action that calls another runs it inside its own SAVEPOINT, not after itself", async () => {
    const { writer, insert, rows } = await setUp();
    const inner = () =>
      writer.run(async (tx) => {
        await insert(tx.db, "inner");
        await yields();
      });
    await writer.run(async (tx) => {
      await insert(tx.db, "outer 1");
      await inner();
      const failing = writer.run(async (t) => {
        await insert(t.db, "undone");
        throw new Error("inner failed");
      });
      await expect(failing).rejects.toThrow("inner failed");
      await insert(tx.db, "outer 2");
    });
    await writer.settled();
    expect(await rows()).toEqual(["outer 1", "inner", "outer 2"]);
  });

  test("a timer an action left behind waits its turn beside a later action, instead of joining it", async () => {
    const { writer, insert, rows } = await setUp();
    let later!: Promise<void>;
    const fired = new Promise<void>((resolve) => {
      void writer.run(async (tx) => {
        await insert(tx.db, "first");
        // Runs after `first` ended, while `second` is running: it carries first's async context along.
        setTimeout(() => {
          later = writer.run(async (t) => {
            await insert(t.db, "timer");
          });
          resolve();
        }, 5);
      });
    });
    const second = writer.run(async (tx) => {
      await insert(tx.db, "second 1");
      await fired;
      await new Promise((r) => setTimeout(r, 5));
      await insert(tx.db, "second 2");
      throw new Error("second failed"); // takes only its own writes with it
    });
    await expect(second).rejects.toThrow("second failed");
    await later;
    await writer.settled();
    expect(await rows()).toEqual(["first", "timer"]);
  });

  test("a failed statement inside an action is undone with it; the batch goes on", async () => {
    const { writer, insert, rows } = await setUp();
    const ok = writer.run(async (tx) => await insert(tx.db, "kept"));
    const bad = writer.run(async (tx) => {
      await insert(tx.db, "undone");
      await raw(tx.db).run("INSERT INTO missing_table (v) VALUES (?)", "x"); // PostgreSQL: the transaction is in error until ROLLBACK TO
    });
    const after = writer.run(async (tx) => await insert(tx.db, "after"));
    await ok;
    await expect(bad).rejects.toThrow();
    await after;
    await writer.settled();
    expect(await rows()).toEqual(["kept", "after"]);
  });
};

describe("SQLite", () => scenarios(sqliteHarness));

test.skipIf(missing !== null)("PostgreSQL: a batch whose transaction failed outside its actions is reported failed, not committed", async () => {
  const { writer, insert, rows } = await postgresHarness();
  const action = writer.run(async (tx) => {
    await insert(tx.db, "lost");
    // A failure outside the action's SAVEPOINT (here by releasing it early): the transaction is in error.
    await raw(tx.db).run("RELEASE action");
    try {
      await raw(tx.db).run("SELECT 1/0");
    } catch {}
  });
  await expect(action).rejects.toThrow(); // its RELEASE finds the transaction in error
  await expect(writer.settled()).rejects.toThrow("PostgreSQL rolled the batch back");
  expect(await rows()).toEqual([]);
});
describe.skipIf(missing !== null)("PostgreSQL", () => scenarios(postgresHarness));

test.skipIf(missing !== null)(
  "PostgreSQL: the writers of two nodes on one database commit one batch at a time (a batch begins once the other committed)",
  async () => {
    const url = await pg!.createDatabase(`w${++databases}`);
    const nodes = await Promise.all(
      [1, 2].map(async () => {
        const { client, db: pool } = await openPostgres(url);
        const reserved = await reservePostgres(pool);
        const writer = new Writer(postgresWriter(reserved.connection, reserved.db), () => {}, true);
        closers.push(async () => {
          await writer.drain();
          writer.close();
          await client.close();
        });
        return { client, writer };
      }),
    );
    const [a, b] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    await a.client.unsafe("CREATE TABLE t (n bigserial PRIMARY KEY, v text)");
    // While A's batch is open, B's cannot begin: its action starts only once A committed.
    const log: string[] = [];
    let finish!: () => void;
    const gate = new Promise<void>((r) => (finish = r));
    const first = a.writer.run(async (tx) => {
      await insert(tx.db, "a");
      log.push("a wrote");
      await gate;
    });
    await waitFor("A's action to write", () => log.length === 1, 5_000);
    const second = b.writer.run(async (tx) => {
      log.push("b began");
      await insert(tx.db, "b");
    });
    await Bun.sleep(100);
    expect(log).toEqual(["a wrote"]);
    finish();
    await first;
    await a.writer.settled();
    await second;
    await b.writer.settled();
    expect(log).toEqual(["a wrote", "b began"]);
  },
  30_000,
);
