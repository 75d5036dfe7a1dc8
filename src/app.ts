import type { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config";
import { openDatabase, type Db } from "./db/client";
import { migrate } from "./db/migrate";
import { ReadCache } from "./db/read-cache";
import { Writer, type Tx, type TxOptions } from "./db/tx";
import { endAccess, type Revocation } from "./actions/access";
import { messageEventPayload } from "./actions/message-events";
import { QueueRegistry } from "./events/registry";
import { createLogger, type Logger } from "./lib/log";
import { FailureLimiter } from "./lib/rate-limit";

/** The one context object every action, route and runtime helper receives. */
export interface App {
  config: Config;
  sqlite: Database;
  db: Db;
  writer: Writer;
  /** Hot lookups (realm by host, user by email) kept while the database is unchanged; not for use inside tx. */
  reads: ReadCache;
  queues: QueueRegistry;
  log: Logger;
  /** Failed logins per client address and per account (HTTP Basic, password, dev login). */
  loginFailures: FailureLimiter;
  /**
   * A user or realm lost its rights: ends their queues and long-polls here (actions/access.ts), then
   * tells `onRevoke` (the CLI forwards it to the running server).
   */
  revoke(r: Revocation): void;
  /** Runs one change: checks, writes and emits synchronously; events are delivered after COMMIT. */
  tx<T>(fn: (tx: Tx) => T, opts?: TxOptions): T;
  /** The one clock actions read (UNIX seconds); fixed at creation (tests hand in a settable one). */
  readonly now: () => number;
  close(): void;
}

export interface AppOptions {
  /** Group commit (the server). The CLI commits each change at once instead. */
  batching?: boolean;
  log?: Logger;
  /** Hears every revocation after it took effect in this process. */
  onRevoke?: (r: Revocation) => void;
  /** The clock `app.now()` reads; only code in this process can pass one (the test server's is settable). */
  now?: () => number;
}

export const databasePath = (config: Config) => join(config.dataDir, "confab.db");

/** Opens (creating if need be) the data directory and database, and applies pending migrations. */
export function createApp(config: Config, opts: AppOptions = {}): App {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // The server keeps synchronous=FULL's promise by fsyncing the WAL itself, off the event loop (db/tx.ts).
  const walSync = (opts.batching ?? false) && config.storage.synchronous === "full";
  const { sqlite, db } = openDatabase(databasePath(config), { ...config.storage, synchronous: walSync ? "normal" : config.storage.synchronous });
  try {
    migrate(sqlite);
  } catch (e) {
    sqlite.close();
    throw e;
  }
  const log = opts.log ?? createLogger(config.logLevel);
  const queues = new QueueRegistry(config.events, log);
  const reads = new ReadCache(sqlite);
  const writer = new Writer(
    sqlite,
    db,
    (events) => queues.deliver(events),
    opts.batching ?? false,
    (c) => reads.changed(c),
    walSync ? `${databasePath(config)}-wal` : null,
  );
  const app: App = {
    config,
    sqlite,
    db,
    writer,
    reads,
    queues,
    log,
    loginFailures: new FailureLimiter(config.rateLimit.authFailures, config.rateLimit.authWindowSeconds * 1000),
    revoke(r) {
      endAccess(app, r);
      opts.onRevoke?.(r);
    },
    tx: (fn, opts) => writer.run(fn, opts),
    now: opts.now ?? (() => Math.floor(Date.now() / 1000)),
    close() {
      writer.flush();
      queues.close();
      writer.close();
      sqlite.close();
    },
  };
  queues.messages.load = (id) => messageEventPayload(app, id);
  return app;
}
