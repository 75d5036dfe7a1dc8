// Leases (src/db/lease.ts, docs/scaling.md section 7) on a real PostgreSQL: exactly one node holds a
// lease; when the holder stops, dies (SIGKILL) or has its session ended by PostgreSQL, another node has it
// within moments and the old holder is told to stop its work; a node still waiting stops at once; a
// LeaseSet holds many leases on one connection. Skipped, saying why, without PostgreSQL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { join } from "node:path";
import { Lease, LEASE_CLASS, LeaseSet, PRESENCE_CLASS } from "../../src/db/lease";
import { postgresMissing, startPostgres, type Postgres } from "../helpers/postgres";
import { waitFor } from "../helpers/wait";

const missing = postgresMissing("lease tests");
let pg: Postgres;
beforeAll(async () => {
  if (!missing) pg = await startPostgres();
});
afterAll(async () => await pg?.stop());

/** A node's lease with a log of what it was told. */
function node(key: number) {
  const log: string[] = [];
  const lease = new Lease({ url: pg.url, key, retryMs: 50, checkMs: 200, onAcquired: () => log.push("acquired"), onLost: (why) => log.push(`lost: ${why}`) });
  lease.start();
  return { lease, log };
}

test.skipIf(missing !== null)("one of two nodes holds a lease; when it stops, the other has it", async () => {
  const a = node(1);
  const b = node(1);
  await waitFor("a holder", () => a.lease.held || b.lease.held, 10_000);
  await Bun.sleep(300);
  expect([a.lease.held, b.lease.held].filter(Boolean).length).toBe(1);
  const [holder, other] = a.lease.held ? [a, b] : [b, a];
  const t0 = performance.now();
  await holder.lease.stop();
  expect(holder.log).toEqual(["acquired", "lost: stopped"]);
  await waitFor("the other node to take over", () => other.lease.held, 5_000, 1);
  console.log(`lease taken over ${(performance.now() - t0).toFixed(1)} ms after the holder stopped`);
  expect(other.log).toEqual(["acquired"]);
  await other.lease.stop();
});

test.skipIf(missing !== null)("leases with different keys are held at once", async () => {
  const a = node(2);
  const b = node(3);
  await waitFor("both", () => a.lease.held && b.lease.held, 10_000);
  await Promise.all([a.lease.stop(), b.lease.stop()]);
});

test.skipIf(missing !== null)("a holder SIGKILLed: another node has the lease at once", async () => {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "..", "fixtures", "lease-holder.ts"), pg.url, "4"], { stdout: "pipe", stderr: "inherit" });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toBe("held\n");
  const waiting = node(4);
  await Bun.sleep(300);
  expect(waiting.lease.held).toBe(false);
  const t0 = performance.now();
  child.kill("SIGKILL");
  await waitFor("the waiting node to take over", () => waiting.lease.held, 5_000, 1);
  console.log(`lease taken over ${(performance.now() - t0).toFixed(1)} ms after the holder's SIGKILL`);
  await child.exited;
  await waiting.lease.stop();
});

test.skipIf(missing !== null)("PostgreSQL ends the holder's session: the holder is told to stop, the other node takes over", async () => {
  const a = node(5);
  await waitFor("a holds", () => a.lease.held, 10_000);
  const b = node(5);
  await Bun.sleep(300);
  const admin = new SQL(pg.url, { max: 1 });
  try {
    const [row] = await admin`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = ${LEASE_CLASS} AND objid = 5 AND granted`;
    expect(row).toBeDefined();
    await admin`SELECT pg_terminate_backend(${row.pid})`;
  } finally {
    await admin.close();
  }
  await waitFor("the holder to learn it lost the lease", () => a.log.length === 2, 5_000);
  expect(a.log[1]).toStartWith("lost: ");
  await waitFor("the other node to take over", () => b.lease.held, 5_000);
  // The old holder tries again and waits behind the new one.
  await Bun.sleep(300);
  expect(a.lease.held).toBe(false);
  await Promise.all([a.lease.stop(), b.lease.stop()]);
  expect(b.log).toEqual(["acquired", "lost: stopped"]);
});

test.skipIf(missing !== null)("PostgreSQL stops answering the holder (a node cut off): it stops its work; the lease moves once the session ends", async () => {
  const a = node(6);
  await waitFor("a holds", () => a.lease.held, 10_000);
  const b = node(6);
  const admin = new SQL(pg.url, { max: 1 });
  try {
    const [row] = await admin`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = ${LEASE_CLASS} AND objid = 6 AND granted`;
    process.kill(row.pid, "SIGSTOP"); // the holder's session: its connection stays open but nothing answers
    try {
      await waitFor("the holder to give the lease up", () => a.log.length === 2, 5_000);
      expect(a.log[1]).toMatch(/^lost: no answer from PostgreSQL within 200 ms/);
      expect(b.lease.held).toBe(false); // PostgreSQL still counts the stopped session as the holder
    } finally {
      process.kill(row.pid, "SIGCONT");
    }
  } finally {
    await admin.close();
  }
  await waitFor("the other node to take over once that session ended", () => b.lease.held, 10_000);
  await Promise.all([a.lease.stop(), b.lease.stop()]);
});

test.skipIf(missing !== null)("a node still waiting for a lease stops at once", async () => {
  const a = node(7);
  await waitFor("a holds", () => a.lease.held, 10_000);
  const b = node(7);
  await Bun.sleep(200);
  const t0 = performance.now();
  await b.lease.stop(); // its pg_advisory_lock never answers: closing must not wait for it
  expect(performance.now() - t0).toBeLessThan(1000);
  expect(b.log).toEqual([]);
  await a.lease.stop();
});

test.skipIf(missing !== null)("a LeaseSet: many leases on one connection, taken only when free, counted nodes, all lost with the session", async () => {
  const lost: string[] = [];
  const a = new LeaseSet({ url: pg.url, checkMs: 200, onLost: (why) => lost.push(`a: ${why}`) });
  const b = new LeaseSet({ url: pg.url, checkMs: 200, onLost: (why) => lost.push(`b: ${why}`) });
  expect(await a.take(101)).toBe(true);
  expect(await a.take(102)).toBe(true);
  expect(await b.take(101)).toBe(false);
  expect(await b.take(103)).toBe(true);
  expect([await a.liveNodes(), await b.liveNodes()]).toEqual([2, 2]);
  await a.release(101);
  expect(await b.take(101)).toBe(true);
  expect([...a.held]).toEqual([102]);
  // PostgreSQL ends b's session: b loses every lease at once, and a can take them.
  const admin = new SQL(pg.url, { max: 1 });
  try {
    const [row] = await admin`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = ${LEASE_CLASS} AND objid = 103 AND granted`;
    await admin`SELECT pg_terminate_backend(${row.pid})`;
    await waitFor("b to learn it lost its leases", () => lost.length === 1, 5_000);
    expect(lost[0]).toStartWith("b: ");
    expect(b.held.size).toBe(0);
    expect([await a.take(101), await a.take(103)]).toEqual([true, true]);
    const [presence] = await admin`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = ${PRESENCE_CLASS} AND granted`;
    expect(presence.n).toBe(1);
  } finally {
    await admin.close();
  }
  await Promise.all([a.stop(), b.stop()]);
  expect(lost).toHaveLength(1); // giving leases up is not losing them
});
