import type { Database } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { closeSync, fdatasync, openSync } from "node:fs";
import type { Db } from "./client";
import type { Audience, Emitted, ServerEvent } from "../events/types";
import type { ServerMetrics } from "../lib/metrics";

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
 * Durability without blocking: with `walSync`, SQLite commits without fsync (synchronous=NORMAL) and the
 * writer syncs the WAL file (fdatasync) on a worker thread instead. The event loop keeps serving requests (they
 * gather in the next batch) while the disk flushes, and a batch's answers and events are released only
 * once its WAL frames are on disk, in commit order. That is the durability of synchronous=FULL at the
 * price of one fsync per batch, without the 5 ms stall per batch that a synchronous fsync costs.
 */
export class Writer {
  private open = false;
  private waiting: (() => void)[] = [];
  /** The batch's turn to commit came while an action was running: it commits when that action ends. */
  private commitDue = false;
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
  /** Settles when every committed batch is durable: batches are released in commit order. */
  private durable: Promise<void> = Promise.resolve();
  private walFd: number | null = null;
  /** Whether an action of the open batch may have changed cached lookups. */
  private batchLookups = false;
  /** Actions run in the open batch (metrics: group-commit batch sizes). */
  private batchActions = 0;
  /** Set when writes are off (a damaged database): every change throws what it makes. */
  private refusal: (() => Error) | null = null;

  constructor(
    private readonly sqlite: Database,
    private readonly db: Db,
    private readonly deliver: (events: Emitted[]) => void,
    private readonly batching: boolean,
    /** Called after every change and every commit or rollback: what was read before may be stale. */
    private readonly changed: (c: Changed) => void = () => {},
    /** The WAL file to fsync after each batch's COMMIT (see above); null when SQLite syncs by itself. */
    private readonly walSync: string | null = null,
    private readonly metrics: ServerMetrics | null = null,
    /** Hears a throw from an afterCommit function. */
    private readonly hookFailed: (e: unknown) => void = () => {},
  ) {}

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
    let rolledBack = false;
    try {
      if (this.refusal) throw this.refusal();
      if (!this.open) this.begin();
      this.batchActions++;
      if (lookups) this.batchLookups = true;
      const mark = this.events.length;
      const hookMark = this.hooks.length;
      this.sqlite.run("SAVEPOINT action");
      try {
        const result = await this.inAction.run(token, () => fn(this.tx()));
        this.sqlite.run("RELEASE action");
        return result;
      } catch (e) {
        this.sqlite.run("ROLLBACK TO action");
        this.sqlite.run("RELEASE action");
        this.events.length = mark;
        this.hooks.length = hookMark;
        rolledBack = true;
        throw e;
      } finally {
        this.changed({ rolledBack, lookups });
      }
    } finally {
      this.running = null;
      try {
        if (!this.batching || this.commitDue) this.commit();
      } finally {
        this.waiting.shift()?.();
      }
    }
  }

  /** A change made by the running action (an action calling another): its own SAVEPOINT inside the action's. */
  private async runNested<T>(fn: (tx: Tx) => T | Promise<T>, opts: TxOptions): Promise<T> {
    const lookups = !opts.keepsLookups;
    if (lookups) this.batchLookups = true;
    const name = `nested${++this.nested}`;
    const mark = this.events.length;
    const hookMark = this.hooks.length;
    let rolledBack = false;
    this.sqlite.run(`SAVEPOINT ${name}`);
    try {
      const result = await fn(this.tx());
      this.sqlite.run(`RELEASE ${name}`);
      return result;
    } catch (e) {
      this.sqlite.run(`ROLLBACK TO ${name}`);
      this.sqlite.run(`RELEASE ${name}`);
      this.events.length = mark;
      this.hooks.length = hookMark;
      rolledBack = true;
      throw e;
    } finally {
      this.nested--;
      this.changed({ rolledBack, lookups });
    }
  }

  private tx(): Tx {
    return { db: this.db, emit: (event, audience) => this.events.push({ event, audience }), afterCommit: (f) => this.hooks.push(f) };
  }

  /** Whether writes wait for their COMMIT (`settled()` has something to wait for). */
  get pending(): boolean {
    return this.batch !== null;
  }

  /** Resolves once every write made so far is committed (rejects if its COMMIT failed). */
  settled(): Promise<void> {
    return this.batch ? this.batch.promise : Promise.resolve();
  }

  /** Commits now; used at shutdown and by the CLI. */
  flush() {
    if (this.open && this.running === null) this.commit();
  }

  /** Waits until everything committed is durable (at shutdown, before closing the database). */
  async drain() {
    this.flush();
    await this.durable.catch(() => {});
  }

  close() {
    if (this.walFd !== null) closeSync(this.walFd);
    this.walFd = null;
  }

  private begin() {
    this.sqlite.run("BEGIN IMMEDIATE");
    this.open = true;
    if (this.batching) {
      let resolve!: () => void, reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      promise.catch(() => {}); // a failed batch is reported to each waiter, never as an unhandled rejection
      this.batch = { promise, resolve, reject };
      setImmediate(() => (this.running !== null ? (this.commitDue = true) : this.commit()));
    }
  }

  private commit() {
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
    try {
      this.sqlite.run("COMMIT");
      this.metrics?.commitSeconds.observe((performance.now() - started) / 1000);
    } catch (e) {
      try {
        this.sqlite.run("ROLLBACK");
      } catch {}
      this.changed({ rolledBack: true, lookups: true });
      batch?.reject(e);
      if (!batch) throw e;
      return;
    }
    this.changed({ rolledBack: false, lookups });
    const release = () => {
      batch?.resolve();
      if (events.length) this.deliver(events);
      // On a later microtask, as a promise callback would: a hook may start a change of its own.
      if (hooks.length) queueMicrotask(() => this.runHooks(hooks));
    };
    if (!this.walSync || !batch) return release();
    const synced = this.fsyncWal();
    this.durable = this.durable
      .catch(() => {})
      .then(() => synced)
      .then(release, (e) => batch.reject(e));
  }

  private runHooks(hooks: (() => void)[]) {
    for (const fn of hooks)
      try {
        fn();
      } catch (e) {
        this.hookFailed(e);
      }
  }

  private fsyncWal(): Promise<void> {
    this.walFd ??= openSync(this.walSync!, "r");
    const fd = this.walFd;
    const started = performance.now();
    // fdatasync, as SQLite itself syncs on Linux: the WAL's frames (and its length when it grew) reach the
    // disk without also writing its modification time, which made each batch's sync several times slower.
    return new Promise((resolve, reject) =>
      fdatasync(fd, (err) => {
        this.metrics?.fsyncSeconds.observe((performance.now() - started) / 1000);
        return err ? reject(err) : resolve();
      }),
    );
  }
}
