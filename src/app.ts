import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config";
import { openDatabase } from "./db/client";
import { migrate } from "./db/migrate";
import { ReadCache } from "./db/read-cache";
import { Writer } from "./db/tx";
import { endAccess } from "./actions/access";
import type { App, Revocation } from "./context";
import { messageEventPayload } from "./actions/message-events";
import { QueueRegistry } from "./events/registry";
import { createLogger, type Logger } from "./lib/log";
import { FailureLimiter } from "./lib/rate-limit";

export interface AppOptions {
  /** Group commit (the server). The CLI commits each change at once instead. */
  batching?: boolean;
  log?: Logger;
  /** Hears every revocation after it took effect in this process. */
  onRevoke?: (r: Revocation) => void;
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
    loginFailures: new FailureLimiter(config.rateLimit.authFailures, config.rateLimit.authWindowSeconds * 1000),
    revoke(r) {
      endAccess(app, r);
      opts.onRevoke?.(r);
    },
    tx: (fn, opts) => writer.run(fn, opts),
    now: () => Math.floor(Date.now() / 1000),
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
