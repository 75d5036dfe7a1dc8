import { AsyncLocalStorage } from "node:async_hooks";
import type { Db } from "./client";
import type { WriterEngine } from "./writer-engine";
import type { Audience, Emitted, ServerEvent } from "../events/types";
import type { ServerMetrics } from "../lib/metrics";

export type { WriterEngine } from "./writer-engine";

/** What a change may have made stale in the in-memory read caches (db/read-cache.ts). */
export interface Changed {
  /** Some change was undone (a failed action or COMMIT): anything read during it may be wrong. */
  rolledBack: boolean;
  /** Users, realms or their settings may have changed (false for actions declared `keepsLookups`). */
  lookups: boolean;
}

export interface TxOptions {
  /** The action changes no user, realm, API key or profile (sending a message, flags): cached lookups stay. */
  keepsLookups?: boolean;
}

export interface Tx {
  db: Db;
  /** Records an event; it is delivered only after the surrounding batch commits. */
  emit(event: ServerEvent, audience: Audience): void;
  /**
   * Runs `fn` once the change is committed (and durable), after its events are delivered; never if it
   * rolls back. The one way to tell anything outside the database of a change (a worker to wake, an
   * observer, a throttle); a throw from `fn` is reported and goes no further.
   */
  afterCommit(fn: () => void): void;
}

/**
 * The one writer. Every change runs inside `run`, in its own SAVEPOINT, so a throw undoes exactly that
 * action. Actions are asynchronous (the store is awaited, so that a store answering over the network can
 * serve the same code) but run **one at a time**: an action waits for the one before it to finish, so
 * its SAVEPOINT holds only its own writes. With batching on, the first write of an event-loop turn opens
 * a transaction that commits on a later turn, once no action is running: concurrent sends share one
 * COMMIT (one fsync) instead of paying one each. Events wait for that COMMIT and are dropped if it fails;
 * HTTP answers wait for `settled()`.
 *
 * The statements go through its engine (db/writer-engine.ts), the one place the two engines differ: on
 * SQLite they are bun:sqlite calls answered at once (the writer awaits nothing of its own), on PostgreSQL
 * they run, awaited, on one reserved connection, over which `tx.db` is a Db of its own. A batch's
 * answers and events are released once the engine's post-COMMIT step (SQLite's WAL fsync; nothing on
 * PostgreSQL, whose COMMIT is durable) is done, in commit order.
 */
export class Writer {
  private open = false;
  private waiting: (() => void)[] = [];
  /**
   * The batch's turn to commit came while an action was running: it commits when that action and the
   * `dueAfter` actions then waiting have run (on PostgreSQL every action spans turns of the event loop,
   * so without them a batch would hold one action; on SQLite an action rarely spans one).
   */
  private commitDue = false;
  private dueAfter = 0;
  /**
   * The running action's own mark, seen by everything it awaits: a change it makes through `run` is part
   * of it (a nested SAVEPOINT). A mark per action, because a timer or promise an action leaves behind
   * carries the mark on; when it later runs beside another action, it must wait its turn instead.
   * While an action runs (`running` is its mark), the next one waits in `waiting` and COMMIT waits too.
   */
  private readonly inAction = new AsyncLocalStorage<object>();
  private running: object | null = null;
  private nested = 0;
  private events: Emitted[] = [];
  private hooks: (() => void)[] = [];
  private batch: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | null = null;
  /** PostgreSQL: the batch whose COMMIT was sent and has not answered (a later batch's settles after it). */
  private committing: Promise<void> | null = null;
  /** Settles when every committed batch is durable: batches are released in commit order. */
  private durable: Promise<void> = Promise.resolve();
  /** Whether an action of the open batch may have changed cached lookups. */
  private batchLookups = false;
  /** Actions run in the open batch (metrics: group-commit batch sizes). */
  private batchActions = 0;
  /** Set when writes are off (a damaged database): every change throws what it makes. */
  private refusal: (() => Error) | null = null;

  private readonly db: Db;

  constructor(
    private readonly engine: WriterEngine,
    private readonly deliver: (events: Emitted[]) => void,
    private readonly batching: boolean,
    /** Called after every change and every commit or rollback: what was read before may be stale. */
    private readonly changed: (c: Changed) => void = () => {},
    private readonly metrics: ServerMetrics | null = null,
    /** Hears a throw from an afterCommit function. */
    private readonly hookFailed: (e: unknown) => void = () => {},
  ) {
    this.db = engine.db;
  }

  /** Turns every later change into the error `refusal` makes (reads go on). */
  refuse(refusal: () => Error) {
    this.refusal = refusal;
  }

  get refusing(): boolean {
    return this.refusal !== null;
  }

  /** Runs `fn` as one action once the actions before it are done; a throw rolls back exactly its writes. */
  run<T>(fn: (tx: Tx) => T | Promise<T>, opts: TxOptions = {}): Promise<T> {
    if (this.running === null) return this.runNow(fn, opts);
    if (this.inAction.getStore() === this.running) return this.runNested(fn, opts);
    return new Promise<T>((resolve, reject) => this.waiting.push(() => this.runNow(fn, opts).then(resolve, reject)));
  }

  private async runNow<T>(fn: (tx: Tx) => T | Promise<T>, opts: TxOptions): Promise<T> {
    const token = (this.running = {});
    const lookups = !opts.keepsLookups;
    try {
      if (this.refusal) throw this.refusal();
      // A PostgreSQL round trip; on SQLite the statement ran and there is nothing to wait for.
      if (!this.open) {
        const pending = this.begin();
        if (pending !== undefined) await pending;
      }
      this.batchActions++;
      if (lookups) this.batchLookups = true;
      return await this.inSavepoint("action", lookups, () => this.inAction.run(token, () => fn(this.tx())));
    } finally {
      this.running = null;
      let committed: Promise<void> | undefined;
      try {
        if (!this.batching || (this.commitDue && this.dueAfter-- === 0)) committed = this.commit();
      } finally {
        this.waiting.shift()?.();
      }
      // Unbatched (the CLI) on PostgreSQL: the change is answered once its COMMIT is.
      if (committed && !this.batching) await committed;
    }
  }

  /** A change made by the running action (an action calling another): its own SAVEPOINT inside the action's. */
  private async runNested<T>(fn: (tx: Tx) => T | Promise<T>, opts: TxOptions): Promise<T> {
    const lookups = !opts.keepsLookups;
    if (lookups) this.batchLookups = true;
    try {
      return await this.inSavepoint(`nested${++this.nested}`, lookups, () => fn(this.tx()));
    } finally {
      this.nested--;
    }
  }

  /**
   * Runs `fn` in SAVEPOINT `name`: released when it returns; when it throws, rolled back with the events
   * and afterCommit work it added. Each `pending` is a PostgreSQL round trip; on SQLite the statement ran.
   */
  private async inSavepoint<T>(name: string, lookups: boolean, fn: () => T | Promise<T>): Promise<T> {
    const mark = this.events.length;
    const hookMark = this.hooks.length;
    let rolledBack = false;
    const saved = this.engine.run(`SAVEPOINT ${name}`);
    if (saved !== undefined) await saved;
    try {
      const result = await fn();
      const released = this.engine.run(`RELEASE ${name}`);
      if (released !== undefined) await released;
      return result;
    } catch (e) {
      const undone = this.engine.run(`ROLLBACK TO ${name}`);
      if (undone !== undefined) await undone;
      const released = this.engine.run(`RELEASE ${name}`);
      if (released !== undefined) await released;
      this.events.length = mark;
      this.hooks.length = hookMark;
      rolledBack = true;
      throw e;
    } finally {
      this.changed({ rolledBack, lookups });
    }
  }

  /** The Db of the action running in this async context (its transaction's connection), or null outside one. */
  actionDb(): Db | null {
    return this.running !== null && this.inAction.getStore() === this.running ? this.db : null;
  }

  private tx(): Tx {
    return { db: this.db, emit: (event, audience) => this.events.push({ event, audience }), afterCommit: (f) => this.hooks.push(f) };
  }

  /** Whether writes wait for their COMMIT (`settled()` has something to wait for). */
  get pending(): boolean {
    return this.batch !== null || this.committing !== null;
  }

  /** Resolves once every write made so far is committed (rejects if its COMMIT failed). */
  settled(): Promise<void> {
    return this.batch ? this.batch.promise : (this.committing ?? Promise.resolve());
  }

  /** Commits now; used at shutdown and by the CLI. On PostgreSQL the COMMIT is under way on return (`drain` waits). */
  flush() {
    if (this.open && this.running === null) void this.commit()?.catch(() => {}); // a failure reaches the batch's waiters
  }

  /** Waits until everything committed is durable (at shutdown, before closing the database). */
  async drain() {
    this.flush();
    await this.durable.catch(() => {});
  }

  /** Gives the engine's resources back (after `drain`; SQLite's WAL file handle, PostgreSQL's connection). */
  close() {
    this.engine.close();
  }

  private begin(): Promise<void> | undefined {
    const pending = this.engine.run(this.engine.begin);
    this.open = true;
    if (this.batching) {
      let resolve!: () => void, reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      promise.catch(() => {}); // a failed batch is reported to each waiter, never as an unhandled rejection
      this.batch = { promise, resolve, reject };
      setImmediate(() => {
        if (this.running === null)
          void this.commit(); // a failure reaches the batch's waiters
        else {
          this.commitDue = true;
          this.dueAfter = this.waiting.length;
        }
      });
    }
    // PostgreSQL: a BEGIN that failed opened nothing; its batch ends with it (no action ran in it yet).
    return pending?.catch((e: unknown) => {
      this.open = false;
      this.batch?.reject(e);
      this.batch = null;
      throw e;
    });
  }

  /**
   * Ends the open batch. On SQLite, COMMIT has run when this returns (its failure thrown at once when no
   * batch waits for it); on PostgreSQL the returned promise settles with the COMMIT (rejecting as the
   * batch does). Either way the batch's answers, events and hooks wait for the engine's durability step.
   */
  private commit(): Promise<void> | undefined {
    this.commitDue = false;
    if (!this.open) return;
    const events = this.events;
    const hooks = this.hooks;
    const batch = this.batch;
    const lookups = this.batchLookups;
    this.events = [];
    this.hooks = [];
    this.batch = null;
    this.open = false;
    this.batchLookups = false;
    this.metrics?.batchSize.observe(this.batchActions);
    this.batchActions = 0;
    const started = performance.now();
    const failed = (e: unknown) => {
      this.changed({ rolledBack: true, lookups: true });
      batch?.reject(e);
    };
    const committed = () => {
      this.metrics?.commitSeconds.observe((performance.now() - started) / 1000);
      this.changed({ rolledBack: false, lookups });
      const release = () => {
        batch?.resolve();
        if (events.length) this.deliver(events);
        // On a later microtask, as a promise callback would: a hook may start a change of its own.
        if (hooks.length) queueMicrotask(() => this.runHooks(hooks));
      };
      const synced = batch ? this.engine.sync() : null;
      if (!synced) return release();
      this.durable = this.durable
        .catch(() => {})
        .then(() => synced)
        .then(release, (e) => batch!.reject(e));
    };
    let pending: Promise<void> | undefined;
    try {
      pending = this.engine.commit({ events, lookups });
    } catch (e) {
      try {
        void this.engine.run("ROLLBACK")?.catch(() => {}); // SQLite's: COMMIT's failure left the transaction open
      } catch {}
      failed(e);
      if (!batch) throw e;
      return;
    }
    if (!pending) {
      committed();
      return;
    }
    // PostgreSQL: a failed COMMIT has ended the transaction already (nothing to roll back). The promise
    // rejects only when no batch takes the failure (unbatched: the action's caller hears it).
    const done = pending.then(committed, (e: unknown) => {
      failed(e);
      if (!batch) throw e;
    });
    const before = this.durable;
    this.durable = done.catch(() => {}).then(() => before); // `drain` waits for a COMMIT under way too
    if (batch) {
      const mine = (this.committing = batch.promise);
      void done.finally(() => {
        if (this.committing === mine) this.committing = null;
      });
    }
    return done;
  }

  private runHooks(hooks: (() => void)[]) {
    for (const fn of hooks)
      try {
        fn();
      } catch (e) {
        this.hookFailed(e);
      }
  }
}
