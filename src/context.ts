// The one context object every action, route and runtime helper receives. Its type sits below the
// actions so that they can name it; src/app.ts assembles it (and may import actions to do so).
import type { Config } from "./config";
import type { Db } from "./db/client";
import type { ReadCache } from "./db/read-cache";
import type { Tx, TxOptions, Writer } from "./db/tx";
import type { QueueRegistry } from "./events/registry";
import type { Logger } from "./lib/log";
import type { FailureLimiter, SharedCounter } from "./lib/rate-limit";
import type { ServerMetrics } from "./lib/metrics";

/** Rights lost: a user's credentials changed or they were deactivated, or a realm was deactivated. */
export type Revocation = { userId: number } | { realmId: number };

/** A message someone sent, as long-lived helpers (the agent) hear of it after COMMIT. */
export interface SentMessage {
  realmId: number;
  messageId: number;
  senderId: number;
  /** The conversation: a channel's recipient, or the direct-message group's. */
  recipientId: number;
  /** Null for a direct message. */
  channelId: number | null;
  topic: string;
  /** Everyone in a direct-message conversation, the sender included; empty for a channel message. */
  participantIds: readonly number[];
  /** Users the content mentions by name (not silently, not through groups or wildcards). */
  mentionedUserIds: readonly number[];
}

/**
 * The long-lived helpers of this process that hear of committed changes (set by src/runtime when the
 * server starts; unset in the CLI). Actions reach them only through `tx.afterCommit`.
 */
export interface Listeners {
  /** The agent: a message was sent. */
  messageSent?: (m: SentMessage) => void;
  /** The email worker: mail waits in the outbox. */
  mailQueued?: () => void;
  /** The outgoing-webhook worker: calls wait in the outbox. */
  outgoingWebhookQueued?: () => void;
  /** The plugin host: something about some install changed (look again). */
  pluginsChanged?: () => void;
  /** The plugin host: a bot made an authenticated API call (a plugin's process answers with its first). */
  botCalled?: (botUserId: number) => void;
}

/** This process as one node of several on one PostgreSQL database (docs/scaling.md, section 3). */
export interface ClusterNode {
  /** New at every start, with no ':': it prefixes this node's event queue ids and event batch keys. */
  readonly name: string;
  /** Records this node in `nodes` at `address` (where the other nodes reach it) and keeps its heartbeat. */
  join(address: string): Promise<void>;
  /** A clean stop: this node's row goes. */
  leave(): Promise<void>;
  /** Where live node `name` is reached; null when it is unknown or its heartbeat is stale (it died). */
  addressOf(name: string): Promise<string | null>;
}

export interface App {
  config: Config;
  /** The store-facing handle: actions pass it (or tx.db) to src/store, which alone queries. */
  db: Db;
  writer: Writer;
  /** Hot lookups (realm by host, user by email) kept while the database is unchanged; not for use inside tx. */
  reads: ReadCache;
  queues: QueueRegistry;
  /** On PostgreSQL, this node of the cluster (every server and CLI process is one); null on SQLite. */
  node: ClusterNode | null;
  log: Logger;
  listeners: Listeners;
  /** Counters for GET /metrics. */
  metrics: ServerMetrics;
  /**
   * What GET /health reports: the background integrity check's verdict (runtime/integrity.ts); "none"
   * on PostgreSQL, whose files are the server's to check, not confab's.
   */
  health: { integrity: "pending" | "ok" | "failed" | "none" };
  /** Failed logins per client address and per account (HTTP Basic, password, dev login). */
  loginFailures: FailureLimiter;
  /** PostgreSQL: the rate limits' counts every node shares (db/shared-counters.ts); null on SQLite. */
  sharedCounters: SharedCounter | null;
  /**
   * A user or realm lost its rights: ends their queues and long-polls here (actions/access.ts), then
   * tells `onRevoke` (the CLI forwards it to the running server).
   */
  revoke(r: Revocation): void;
  /**
   * Runs one change (checks, writes, emits) in the writer, after the changes before it; a throw undoes it.
   * Events are delivered after COMMIT.
   */
  tx<T>(fn: (tx: Tx) => T | Promise<T>, opts?: TxOptions): Promise<T>;
  /** The one clock actions read (UNIX seconds); fixed at creation (tests hand in a settable one). */
  readonly now: () => number;
  close(): void;
}
