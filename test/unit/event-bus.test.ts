// Events across nodes (src/db/event-bus.ts, docs/scaling.md section 3) on a real, migrated PostgreSQL:
// a committed batch reaches every other node once, in commit order, never the node that sent it; a batch
// that rolls back reaches nobody; a node whose LISTEN connection breaks is told so, the others go on.
// Skipped, saying why, without PostgreSQL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { batchKey, EventListener, EVENTS_CHANNEL, publishBatch, pruneEvents } from "../../src/db/event-bus";
import { migratePostgres } from "../../src/db/migrate-pg";
import type { Emitted } from "../../src/events/types";
import { postgresMissing, startPostgres, type Postgres } from "../helpers/postgres";
import { waitFor } from "../helpers/wait";

const missing = postgresMissing("event bus tests");
let pg: Postgres;
let sql: SQL;
beforeAll(async () => {
  if (missing) return;
  pg = await startPostgres();
  sql = new SQL(pg.url, { max: 4 });
  await migratePostgres(sql);
});
afterAll(async () => {
  await sql?.close();
  await pg?.stop();
});

const emitted = (n: number): Emitted => ({
  event: { type: "message", id: n, content: `<p>message ${n}</p>` },
  audience: { kind: "users", userIds: [1, 2, n] },
});

/** A node's listener with what it heard. */
async function listener(node: string) {
  const heard: { key: string; events: Emitted[]; at: number }[] = [];
  const lost: string[] = [];
  const l = new EventListener({
    url: pg.url,
    node,
    onBatch: (events, key) => heard.push({ key, events, at: performance.now() }),
    onLost: (why) => lost.push(why),
  });
  await l.start();
  return { l, heard, lost };
}

test.skipIf(missing !== null)(
  "a committed batch reaches every other node once, with its events in order; not its sender; a rolled-back one reaches nobody",
  async () => {
    const [a, b, c] = await Promise.all([listener("A"), listener("B"), listener("C")]);
    try {
      await sql.begin(async (tx) => await publishBatch(tx, batchKey("A", 1), [emitted(1), emitted(2)]));
      await expect(
        sql.begin(async (tx) => {
          await publishBatch(tx, batchKey("A", 2), [emitted(3)]);
          throw new Error("the action failed");
        }),
      ).rejects.toThrow("the action failed");
      await sql.begin(async (tx) => await publishBatch(tx, batchKey("A", 3), [emitted(4)]));
      await waitFor("B and C to hear both committed batches", () => b.heard.length === 2 && c.heard.length === 2, 5_000);
      for (const n of [b, c])
        expect(n.heard.map((h) => [h.key, h.events])).toEqual([
          ["A:1", [emitted(1), emitted(2)]],
          ["A:3", [emitted(4)]],
        ]);
      // The row holds the events as JSON (an array), not as a JSON string of their text.
      expect((await sql`SELECT jsonb_typeof(events) AS t FROM node_events WHERE batch = 'A:1'`)[0].t).toBe("array");
      await Bun.sleep(200);
      expect({ a: a.heard.length, b: b.heard.length, c: c.heard.length }).toEqual({ a: 0, b: 2, c: 2 });
      expect([...a.lost, ...b.lost, ...c.lost]).toEqual([]);
    } finally {
      await Promise.all([a.l.stop(), b.l.stop(), c.l.stop()]);
    }
  },
);

test.skipIf(missing !== null)("two nodes committing at once: every listener hears every batch, all in the same (commit) order", async () => {
  const [b, c] = await Promise.all([listener("B2"), listener("C2")]);
  const committed: Record<string, number> = {};
  try {
    const node = async (name: string) => {
      for (let i = 1; i <= 100; i++) {
        await sql.begin(async (tx) => {
          await tx`SELECT pg_sleep(${Math.random() * 0.002})`; // the batch's other work
          await publishBatch(tx, batchKey(name, i), [emitted(i)]);
        });
        committed[batchKey(name, i)] = performance.now();
      }
    };
    await Promise.all([node("A2"), node("D2")]);
    await waitFor("every batch at B and C", () => b.heard.length === 200 && c.heard.length === 200, 10_000);
    expect(c.heard.map((h) => h.key)).toEqual(b.heard.map((h) => h.key));
    for (const name of ["A2", "D2"]) {
      const own = b.heard.filter((h) => h.key.startsWith(`${name}:`)).map((h) => Number(h.key.split(":")[1]));
      expect(own).toEqual([...Array(100).keys()].map((i) => i + 1));
    }
    const lags = b.heard.map((h) => h.at - committed[h.key]!).sort((x, y) => x - y);
    console.log(`batch heard after its COMMIT answered: p50 ${lags[100]!.toFixed(2)} ms, p99 ${lags[197]!.toFixed(2)} ms (200 batches, two senders)`);
  } finally {
    await Promise.all([b.l.stop(), c.l.stop()]);
  }
});

test.skipIf(missing !== null)("a node whose LISTEN connection breaks is told; the other nodes go on hearing", async () => {
  const [b, c] = await Promise.all([listener("B3"), listener("C3")]);
  try {
    const [row] = await sql`SELECT pid FROM pg_stat_activity WHERE query LIKE ${`LISTEN%${EVENTS_CHANNEL}%`} ORDER BY backend_start LIMIT 1`;
    expect(row).toBeDefined();
    await sql`SELECT pg_terminate_backend(${row.pid})`;
    await waitFor("one listener to learn it lost its connection", () => b.lost.length + c.lost.length === 1, 5_000);
    const [gone, kept] = b.lost.length ? [b, c] : [c, b];
    expect(gone.lost[0]).toContain("terminating connection");
    await sql.begin(async (tx) => await publishBatch(tx, batchKey("A3", 1), [emitted(10)]));
    await waitFor("the other node to hear the next batch", () => kept.heard.some((h) => h.key === "A3:1"), 5_000);
    expect(kept.lost).toEqual([]);
    // The listener listens again and says so (queues registered meanwhile missed batches); it hears later batches.
    await waitFor("the node to listen again", () => gone.lost.length === 2, 5_000);
    expect(gone.lost[1]).toContain("listening again");
    await sql.begin(async (tx) => await publishBatch(tx, batchKey("A3", 2), [emitted(11)]));
    await waitFor("the node to hear again", () => gone.heard.some((h) => h.key === "A3:2"), 5_000);
    expect(kept.lost).toEqual([]);
  } finally {
    await Promise.all([b.l.stop(), c.l.stop()]);
  }
});

test.skipIf(missing !== null)("rows past their minute are pruned, newer ones kept", async () => {
  await sql`DELETE FROM node_events`;
  for (const i of [1, 2, 3]) await sql.begin(async (tx) => await publishBatch(tx, batchKey("P", i), [emitted(i)]));
  await sql`UPDATE node_events SET created_at = now() - interval '2 minutes' WHERE batch IN ('P:1', 'P:2')`;
  expect(await pruneEvents(sql, 60)).toBe(2);
  expect((await sql`SELECT batch FROM node_events`).map((r: { batch: string }) => r.batch)).toEqual(["P:3"]);
});
