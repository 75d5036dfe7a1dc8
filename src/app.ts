import { mkdirSync } from "node:fs";
import { databasePath, type Config } from "./config";
import { openDatabase } from "./db/client";
import { migrateWithBackup } from "./db/backup";
import { checkDatabaseFile, checkSchemaReadable, damaged, isCorruption } from "./db/integrity";
import { ReadCache } from "./db/read-cache";
import { Writer } from "./db/tx";
import { sqliteWriter } from "./db/writer-engine";
import { endAccess } from "./actions/access";
import type { App, Revocation } from "./context";
import { messageEventPayload } from "./actions/message-events";
import { QueueRegistry } from "./events/registry";
import { createLogger, type Logger } from "./lib/log";
import { FailureLimiter } from "./lib/rate-limit";
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

/** Opens (creating if need be) the data directory and database, and applies pending migrations. */
export function createApp(config: Config, opts: AppOptions = {}): App {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
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
    if (backup) (opts.log ?? createLogger(config.logLevel)).info("backed up before migrating", { backup });
  } catch (e) {
    sqlite.close();
    throw isCorruption(e) ? damaged(path, String((e as Error).message)) : e;
  }
  const log = opts.log ?? createLogger(config.logLevel);
  const queues = new QueueRegistry(config.events, log);
  const reads = new ReadCache(sqlite);
  const metrics = new ServerMetrics();
  const writer = new Writer(
    sqliteWriter(sqlite, db, walSync ? `${path}-wal` : null, metrics),
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
    log,
    listeners: {},
    metrics,
    health: { integrity: "pending" },
    loginFailures: new FailureLimiter(config.rateLimit.authFailures, config.rateLimit.authWindowSeconds * 1000),
    revoke(r) {
      endAccess(app, r);
      opts.onRevoke?.(r);
    },
    tx: async (fn, opts) => await writer.run(fn, opts),
    now: opts.now ?? (() => Math.floor(Date.now() / 1000)),
    close() {
      writer.flush();
      queues.close();
      writer.close();
      sqlite.close();
    },
  };
  queues.messages.load = async (id) => await messageEventPayload(app, id);
  return app;
}
