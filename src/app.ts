import { mkdirSync } from "node:fs";
import { databasePath, describePostgresUrl, type Config } from "./config";
import { openDatabase, type Db } from "./db/client";
import { migrateWithBackup } from "./db/backup";
import { checkDatabaseFile, checkSchemaReadable, damaged, isCorruption } from "./db/integrity";
import { ReadCache } from "./db/read-cache";
import { Writer, type Tx, type TxOptions, type WriterEngine } from "./db/tx";
import { sqliteWriter } from "./db/writer-engine";
import { endAccess } from "./actions/access";
import type { App, ClusterNode, Revocation } from "./context";
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
  if (config.storage.driver === "postgres") return assemble(config, opts, log, await openPostgresStore(config, log));
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
    writer: (metrics) => sqliteWriter(sqlite, db, walSync ? `${path}-wal` : null, metrics),
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
  node: ClusterNode | null;
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
  const [{ openPostgres, reservePostgres }, { migratePostgres }, { postgresWriter }, nodes, { SharedCounters }] = await Promise.all([
    import("./db/engine"),
    import("./db/migrate-pg"),
    import("./db/writer-engine"),
    import("./db/nodes"),
    import("./db/shared-counters"),
  ]);
  const { client, db } = await openPostgres(config.storage.url);
  try {
    const applied = await migratePostgres(client);
    if (applied.length) log.info("migrated", { database: describePostgresUrl(config.storage.url), applied: applied.join(", ") });
    const reserved = await reservePostgres(db);
    const presence = new nodes.NodePresence(client, nodes.newNodeName(), (e) =>
      log.warn("node heartbeat failed", { error: String((e as Error)?.message ?? e) }),
    );
    const node: ClusterNode = {
      name: presence.name,
      join: async (address) => await presence.join(address),
      leave: async () => await presence.leave(),
      addressOf: async (name) => await nodes.liveNodeAddress(client, name),
    };
    const counters = new SharedCounters(client, (e) => log.warn("shared rate-limit counts failed", { error: String((e as Error)?.message ?? e) }));
    return {
      db,
      reads: new ReadCache(null),
      writer: () => postgresWriter(reserved.connection, reserved.db),
      // The COMMIT under way finishes first, then the writer's connection goes back and the pool closes.
      close(writer) {
        counters.close(); // its timers first: they would use the pool
        void writer
          .drain()
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
  const queues = new QueueRegistry(config.events, log);
  const metrics = new ServerMetrics();
  const writer = new Writer(
    store.writer(metrics),
    (events) => queues.deliver(events),
    opts.batching ?? false,
    (c) => reads.changed(c),
    metrics,
    (e) => log.error("after-commit work failed", { error: String((e as Error)?.stack ?? e) }),
  );
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
      // PostgreSQL: told by another process (the CLI) of a change this cache cannot see (SQLite's data_version does).
      if (store.pooled) reads.clear();
      endAccess(app, r);
      opts.onRevoke?.(r);
    },
    tx: store.pooled ? (fn, o) => txCommitted(writer, fn, o) : async (fn, opts) => await writer.run(fn, opts),
    now: opts.now ?? (() => Math.floor(Date.now() / 1000)),
    close() {
      writer.flush();
      queues.close();
      store.close(writer);
    },
  };
  // PostgreSQL: inside an action, `app.db` is the action's connection, as on SQLite, where the one
  // connection makes a helper that reads `app.db` during `app.tx` see the action's own writes (a pool
  // connection would not, being outside the batch's transaction). On SQLite the property stays plain.
  if (store.pooled) Object.defineProperty(app, "db", { get: () => writer.actionDb() ?? db, enumerable: true });
  queues.messages.load = async (id) => await messageEventPayload(app, id);
  return app;
}
