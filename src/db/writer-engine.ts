// The writer's statements on each engine (db/tx.ts): its transaction control (BEGIN, SAVEPOINT,
// RELEASE, ROLLBACK TO, COMMIT, ROLLBACK), the Db its actions write through, and what makes a committed
// batch durable. The writer's model is the same on both; only these differ.
import type { Database } from "bun:sqlite";
import type { ReservedSQL, SQL } from "bun";
import { closeSync, fdatasync, openSync } from "node:fs";
import type { Checkpointer } from "./checkpointer";
import type { Db } from "./client";
import type { ServerMetrics } from "../lib/metrics";
import type { Emitted } from "../events/types";

export interface WriterEngine {
  /** The Db an action's `tx.db` is. */
  db: Db;
  /** The statement that opens a batch. */
  begin: string;
  /** Runs one transaction-control statement: at once on SQLite (nothing returned), its promise on PostgreSQL. */
  run(statement: string): Promise<void> | undefined;
  /** Ends the open batch (COMMIT); on PostgreSQL the batch first tells the other nodes what it did, in its transaction. */
  commit(batch: CommittingBatch): Promise<void> | undefined;
  /** After a batch's COMMIT: what its answers and events wait for, or null when COMMIT made it durable. */
  sync(): Promise<void> | null;
  close(): void;
}

/** What a batch that commits did, for the other nodes (db/event-bus.ts). */
export interface CommittingBatch {
  events: Emitted[];
  /** Whether an action of it may have changed cached lookups. */
  lookups: boolean;
}

/**
 * SQLite: the statements the writer always ran, synchronous bun:sqlite calls on the one connection.
 *
 * Durability without blocking: with `walSync`, SQLite commits without fsync (synchronous=NORMAL) and the
 * writer syncs the WAL file (fdatasync) on a worker thread instead. The event loop keeps serving requests
 * (they gather in the next batch) while the disk flushes, and a batch's answers and events are released
 * only once its WAL frames are on disk, in commit order. That is the durability of synchronous=FULL at
 * the price of one fsync per batch, without the 5 ms stall per batch that a synchronous fsync costs.
 */
export function sqliteWriter(
  sqlite: Database,
  db: Db,
  walSync: string | null = null,
  metrics: ServerMetrics | null = null,
  checkpointer: Checkpointer | null = null,
): WriterEngine {
  let walFd: number | null = null;
  return {
    db,
    begin: "BEGIN IMMEDIATE",
    run(statement) {
      sqlite.run(statement);
      return undefined;
    },
    commit() {
      sqlite.run("COMMIT");
      checkpointer?.committed();
      return undefined;
    },
    sync() {
      if (!walSync) return null;
      walFd ??= openSync(walSync, "r");
      const fd = walFd;
      const started = performance.now();
      // fdatasync, as SQLite itself syncs on Linux: the WAL's frames (and its length when it grew) reach the
      // disk without also writing its modification time, which made each batch's sync several times slower.
      return new Promise((resolve, reject) =>
        fdatasync(fd, (err) => {
          metrics?.fsyncSeconds.observe((performance.now() - started) / 1000);
          return err ? reject(err) : resolve();
        }),
      );
    },
    close() {
      checkpointer?.close();
      if (walFd !== null) closeSync(walFd);
      walFd = null;
    },
  };
}

/**
 * Writes, inside the batch's transaction and before its COMMIT, what the other nodes must hear of it
 * (db/event-bus.ts publishBatch), sending its statement before returning; undefined when there is nothing.
 */
export type Publish = (tx: SQL, batch: CommittingBatch) => Promise<void> | undefined;

/** The first key of the writers' transaction lock: apart from leases' (db/lease.ts) and every other advisory lock. */
export const WRITER_LOCK_CLASS = 0x77726974; // "writ"

/**
 * PostgreSQL: the writer's one reserved connection (`client.reserve()`), and `db` over it. The statements
 * queue on that connection in the order the writer sends them, so a batch's BEGIN may follow the previous
 * COMMIT before it answered. COMMIT is durable by itself (the server's synchronous_commit).
 *
 * One writer at a time across nodes (docs/scaling.md, sections 2 and 4): each batch takes a transaction
 * advisory lock at BEGIN, which PostgreSQL holds to its COMMIT or ROLLBACK. Batches of all nodes (and of
 * CLI commands) therefore commit one after another, ids are assigned in commit order, the newest message
 * id a reader sees is one no later commit goes under, and an action's check-then-write is as safe as on
 * SQLite. (Its second key, 0, is the whole cluster: the per-realm lock of the design waits, section 2.)
 */
export function postgresWriter(connection: ReservedSQL, db: Db, publish: Publish | null = null): WriterEngine {
  const ended = (r: { command?: string }) => {
    // COMMIT of a transaction in error (a statement outside any SAVEPOINT failed) answers ROLLBACK, not
    // an error: the batch is lost, and its waiters must hear it.
    if (r.command === "ROLLBACK") throw new Error("PostgreSQL rolled the batch back: a statement outside its actions failed");
  };
  return {
    db,
    begin: "BEGIN",
    async run(statement) {
      if (statement === "BEGIN") {
        // Sent together: the lock's request follows BEGIN on the connection without waiting for its answer.
        await Promise.all([connection.unsafe("BEGIN"), connection.unsafe(`SELECT pg_advisory_xact_lock(${WRITER_LOCK_CLASS}, 0)`)]);
        return;
      }
      const r = (await connection.unsafe(statement)) as { command?: string };
      if (statement === "COMMIT") ended(r);
    },
    async commit(batch) {
      // Sent together: the batch's row for the other nodes, then COMMIT, which a failed row turns into ROLLBACK.
      const [, r] = await Promise.all([publish?.(connection, batch), connection.unsafe("COMMIT") as Promise<{ command?: string }>]);
      ended(r);
    },
    sync: () => null,
    close: () => connection.release(),
  };
}
