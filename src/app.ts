import { mkdirSync } from "node:fs";
import { databasePath, describePostgresUrl, type Config } from "./config";
import { Checkpointer } from "./db/checkpointer";
import { openDatabase, type Db } from "./db/client";
import { migrateWithBackup } from "./db/backup";
import { checkDatabaseFile, checkSchemaReadable, damaged, isCorruption } from "./db/integrity";
import { ReadCache } from "./db/read-cache";
import { Writer, type Tx, type TxOptions, type WriterEngine } from "./db/tx";
import { sqliteWriter } from "./db/writer-engine";
import { endAccess } from "./actions/access";
import type { App, Revocation } from "./context";
import type { PostgresNode } from "./db/cluster";
import type { Emitted } from "./events/types";
import type { BatchNotes } from "./db/event-bus";
import { messageEventPayload } from "./actions/message-events";
import { QueueRegistry } from "./events/registry";
import { createLogger, type Logger } from "./lib/log";
import { FailureLimiter, type SharedCounter } from "./lib/rate-limit";
import { ServerMetrics } from "./lib/metrics";

export interface AppOptions {
  /** Group commit (the server). The CLI commits each change at once instead. */
  batching?: boolean;
  log?: Logger;
  /** Hears every revocation after it took effect in this process. */
  onRevoke?: (r: Revocation) => void;
  /** The clock `app.now()` reads; only code in this process can pass one (the test server's is settable). */
  now?: () => number;
}

export { databasePath } from "./config";

/**
 * Opens (creating if need be) the data directory and the database (storage.driver: the SQLite file, or
 * PostgreSQL), and applies pending migrations.
 */
export async function createApp(config: Config, opts: AppOptions = {}): Promise<App> {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const log = opts.log ?? createLogger(config.logLevel);
  if (config.storage.driver === "postgres") {
    const store = await openPostgresStore(config, log);
    const app = assemble(config, opts, log, store);
    // A server hears the other nodes before it serves anything (a CLI command only tells them).
    if (opts.batching) await store.node!.hear({ batch: (events, notes) => heard(app, events, notes), lost: (why) => lostHearing(app, why) });
    return app;
  }
  // The server keeps synchronous=FULL's promise by fsyncing the WAL itself, off the event loop (db/tx.ts).
  const walSync = (opts.batching ?? false) && config.storage.synchronous === "full";
  const path = databasePath(config);
  checkDatabaseFile(path);
  let opened: ReturnType<typeof openDatabase>;
  try {
    opened = openDatabase(path, { ...config.storage, synchronous: walSync ? "normal" : config.storage.synchronous });
  } catch (e) {
    throw isCorruption(e) ? damaged(path, String((e as Error).message)) : e;
  }
  const { sqlite, db } = opened;
  try {
    checkSchemaReadable(sqlite);
    const { backup } = migrateWithBackup(sqlite, config.backup.dir);
    if (backup) log.info("backed up before migrating", { backup });
  } catch (e) {
    sqlite.close();
    throw isCorruption(e) ? damaged(path, String((e as Error).message)) : e;
  }
  return assemble(config, opts, log, {
    db,
    reads: new ReadCache(sqlite),
    // A server checkpoints its WAL in a helper process (db/checkpointer.ts); a CLI command as SQLite does.
    writer: (metrics) =>
      sqliteWriter(sqlite, db, walSync ? `${path}-wal` : null, metrics, opts.batching ? new Checkpointer(sqlite, path, log, metrics.checkpointSeconds) : null),
    pooled: false,
    integrity: "pending",
    node: null,
    counters: null,
    close(writer) {
      writer.close();
      sqlite.close();
    },
  });
}

/** What an engine gives the app: the Db reads use, the read cache, the writer's engine, and how to close it. */
interface Store {
  db: Db;
  reads: ReadCache;
  writer: (metrics: ServerMetrics) => WriterEngine;
  /** After `writer.flush()`: closes the writer and the database. */
  close(writer: Writer): void;
  /** Whether `db` is a pool beside the writer's connection (PostgreSQL), not the writer's one connection. */
  pooled: boolean;
  /** What GET /health says of the file check (none on PostgreSQL). */
  integrity: App["health"]["integrity"];
  /** PostgreSQL: this process as a node of the cluster. */
  node: PostgresNode | null;
  /** PostgreSQL: the rate limits' counts every node shares. */
  counters: SharedCounter | null;
}

/**
 * PostgreSQL (storage.url): a pool for reads outside the writer, one reserved connection for the writer,
 * migrated first (refused, as on SQLite, when it records migrations this binary does not know). Loaded
 * only here: a SQLite start never loads Bun's client or the PostgreSQL schema. The database's backups are
 * the operator's (pg_dump, a provider's snapshots): nothing is copied before migrating.
 */
async function openPostgresStore(config: Config, log: Logger): Promise<Store> {
  const [{ openPostgres, reservePostgres }, { migratePostgres }, { postgresWriter }, { PostgresNode }, { SharedCounters }] = await Promise.all([
    import("./db/engine"),
    import("./db/migrate-pg"),
    import("./db/writer-engine"),
    import("./db/cluster"),
    import("./db/shared-counters"),
  ]);
  const { client, db } = await openPostgres(config.storage.url);
  try {
    const applied = await migratePostgres(client);
    if (applied.length) log.info("migrated", { database: describePostgresUrl(config.storage.url), applied: applied.join(", ") });
    const reserved = await reservePostgres(db);
    const node = new PostgresNode(client, config.storage.url, (what, e) => log.warn(what, { error: String((e as Error)?.message ?? e) }));
    const reads = new ReadCache(null);
    reads.onForget = (prefix) => node.forgot(prefix);
    const counters = new SharedCounters(client, (e) => log.warn("shared rate-limit counts failed", { error: String((e as Error)?.message ?? e) }));
    return {
      db,
      reads,
      writer: () => postgresWriter(reserved.connection, reserved.db, node.publish),
      // The COMMIT under way finishes first, then the node stops hearing, then the connections close.
      close(writer) {
        counters.close(); // its timers first: they would use the pool
        void writer
          .drain()
          .then(async () => await node.stop())
          .then(() => {
            writer.close();
            return client.close();
          })
          .catch((e: unknown) => log.warn("closing PostgreSQL failed", { error: String((e as Error)?.message ?? e) }));
      },
      pooled: true,
      integrity: "none",
      node,
      counters,
    };
  } catch (e) {
    await client.close();
    throw e;
  }
}

/**
 * PostgreSQL's `app.tx`: returns once the change is committed, so that what its caller reads next
 * through `app.db` (the pool, which sees only committed rows) holds it, as SQLite's one connection
 * does at once. Its batch still gathers other actions meanwhile. A change made inside another action
 * is part of that action and returns at once.
 */
async function txCommitted<T>(writer: Writer, fn: (tx: Tx) => T | Promise<T>, opts?: TxOptions): Promise<T> {
  const result = await writer.run(fn, opts);
  if (!writer.actionDb()) await writer.settled();
  return result;
}

function assemble(config: Config, opts: AppOptions, log: Logger, store: Store): App {
  const { db, reads } = store;
  const queues = new QueueRegistry(config.events, log, store.node?.name ?? null);
  const metrics = new ServerMetrics();
  const writer = new Writer(
    store.writer(metrics),
    (events) => queues.deliver(events),
    opts.batching ?? false,
    (c) => reads.changed(c),
    metrics,
    (e) => log.error("after-commit work failed", { error: String((e as Error)?.stack ?? e) }),
  );
  /** PostgreSQL: revocations on their way to the other nodes (app.close waits for them). */
  const telling = new Set<Promise<void>>();
  /**
   * PostgreSQL: a revocation reaches every node with the next batch: the running action's, or an empty
   * action's (not a change nested in the running one, which would race it for the connection). The
   * request that revoked answers once that batch committed.
   */
  const tellNodes = (node: PostgresNode, r: Revocation) => {
    node.revoked(r);
    if (writer.actionDb()) return;
    const told: Promise<void> = writer
      .run(() => undefined, { keepsLookups: true })
      .catch((e: unknown) => log.warn("telling the other nodes of a revocation failed", { error: String(e) }))
      .finally(() => telling.delete(told));
    telling.add(told);
  };
  const app: App = {
    config,
    db,
    writer,
    reads,
    queues,
    node: store.node,
    log,
    listeners: {},
    metrics,
    health: { integrity: store.integrity },
    loginFailures: new FailureLimiter(
      config.rateLimit.authFailures,
      config.rateLimit.authWindowSeconds * 1000,
      store.counters && { counter: store.counters, prefix: "login" },
    ),
    sharedCounters: store.counters,
    revoke(r) {
      if (store.pooled) reads.clear();
      endAccess(app, r);
      if (store.node) tellNodes(store.node, r);
      opts.onRevoke?.(r);
    },
    tx: store.pooled ? (fn, o) => txCommitted(writer, fn, o) : async (fn, opts) => await writer.run(fn, opts),
    now: opts.now ?? (() => Math.floor(Date.now() / 1000)),
    close() {
      writer.flush();
      queues.close();
      // PostgreSQL: the batches telling other nodes of revocations go first (a CLI command closes at once).
      if (telling.size) void Promise.all([...telling]).then(() => store.close(writer));
      else store.close(writer);
    },
  };
  // PostgreSQL: inside an action, `app.db` is the action's connection, as on SQLite, where the one
  // connection makes a helper that reads `app.db` during `app.tx` see the action's own writes (a pool
  // connection would not, being outside the batch's transaction). On SQLite the property stays plain.
  if (store.pooled) Object.defineProperty(app, "db", { get: () => writer.actionDb() ?? db, enumerable: true });
  // A message evicted from the cache is read back through `app.db`: outside an action that is the pool,
  // which on PostgreSQL sees committed rows only, so a queue of any node rebuilds what was sent.
  queues.messages.load = async (id) => await messageEventPayload(app, id);
  return app;
}

/**
 * Another node's committed batch, applied here as this node applies its own at COMMIT: what it made
 * stale in the caches goes first, then the rights it revoked, then its events reach this node's queues.
 */
function heard(app: App, events: Emitted[], notes: BatchNotes | null) {
  if (notes?.lookups) app.reads.changed({ rolledBack: false, lookups: true });
  for (const prefix of notes?.forget ?? []) app.reads.forgetHere(prefix);
  for (const r of notes?.revoke ?? []) endAccess(app, r);
  if (events.length) app.queues.deliver(events);
}

/** This node may have missed other nodes' batches: every queue goes, and their clients register again. */
function lostHearing(app: App, why: string) {
  app.log.warn("lost the other nodes' events: dropping every event queue", { why, queues: app.queues.size });
  app.queues.dropAll();
  app.reads.clear();
}
