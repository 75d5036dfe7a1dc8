// How events cross confab nodes on PostgreSQL (docs/scaling.md, section 3). A batch's events are written
// as one `node_events` row inside the batch's own transaction, with a NOTIFY of the row's key: PostgreSQL
// sends notifications only on COMMIT and in commit order, so every node hears every committed batch once,
// in the order the batches committed, and never one that rolled back. The key travels, not the events: a
// payload is refused past 8,000 bytes, and a message event with its rendered content passes that.
// A node's LISTEN connection is its only proof that it heard everything: when it breaks, the node cannot
// know what it missed, so it must drop its event queues (`onLost`); their clients register again. The
// listener connects and listens again, and says so (`onLost` once more: a queue registered in between
// missed what was committed meanwhile); batches committed while it was not listening are never heard.
import type { SQL } from "bun";
import type { Emitted } from "../events/types";

export const EVENTS_CHANNEL = "confab_events";
/** How long a node whose LISTEN connection ended waits before each try to listen again. */
const RELISTEN_MS = 200;

/** PostgreSQL's tables of cluster state: not data (migrate-storage never copies them), no SQLite twin. */
export const CLUSTER_STATE_TABLES: readonly string[] = ["node_events", "nodes", "rate_counters", "widget_event_marks"];

/**
 * A batch's key: the node that committed it and its own count, so that a node knows its own batches.
 * A node's name is new at every start (a restarted node must not meet the rows of its earlier life).
 */
export const batchKey = (node: string, n: number) => `${node}:${n}`;
const nodeOf = (key: string) => key.slice(0, key.lastIndexOf(":"));

/**
 * What a batch tells the other nodes besides its events (null: nothing): that cached lookups may have
 * changed (db/read-cache.ts `changed`), which memos it made stale (`forget` prefixes), whose rights it
 * revoked (a user's or realm's queues and long-polls end on every node).
 */
export interface BatchNotes {
  lookups?: true;
  forget?: string[];
  revoke?: ({ userId: number } | { realmId: number })[];
}

/**
 * Inside the batch's transaction: its events and notes for the other nodes, heard by them once it
 * commits (or at once on an autocommit connection). One statement, sent as soon as this is called, so
 * that a COMMIT sent right after it follows it on the connection without waiting for its answer.
 */
export async function publishBatch(tx: SQL, key: string, events: readonly Emitted[], notes: BatchNotes | null = null): Promise<void> {
  if (!events.length && !notes) return;
  await tx`WITH row AS (INSERT INTO node_events (batch, events, notes) VALUES (${key}, ${JSON.stringify(events)}::text::jsonb, ${notes && JSON.stringify(notes)}::text::jsonb))
    SELECT pg_notify(${EVENTS_CHANNEL}, ${key})`;
}

/** Rows older than `seconds`: every node read them long ago (the housekeeping node prunes). */
export async function pruneEvents(sql: SQL, seconds = 60): Promise<number> {
  const rows = await sql`DELETE FROM node_events WHERE created_at < now() - make_interval(secs => ${seconds}) RETURNING 1`;
  return rows.length;
}

export interface ListenerOptions {
  url: string;
  /** This node's name: its own batches are skipped (it delivered them itself, at COMMIT). */
  node: string;
  /** The events (and notes) of another node's committed batch, batch after batch in commit order. */
  onBatch: (events: Emitted[], key: string, notes: BatchNotes | null) => void;
  /** The LISTEN connection broke: what was committed meanwhile is unknown (drop every event queue). */
  onLost: (why: string) => void;
}

/** One node's ear: a LISTEN connection, and a connection that reads the batches it hears of. */
export class EventListener {
  private listenConn: SQL | null = null;
  private reader: SQL | null = null;
  /** Reads run one after another, so batches are handed on in the order they were heard. */
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly o: ListenerOptions) {}

  /** Resolves once LISTEN is in place: every batch committed from then on is heard. */
  async start(): Promise<void> {
    this.reader = new Bun.SQL(this.o.url, { max: 1 });
    await this.listen();
  }

  /** A new LISTEN connection; it becomes the listener's once LISTEN is in place. */
  private async listen() {
    const conn: SQL = new Bun.SQL(this.o.url, { max: 1, idleTimeout: 0, onclose: (err) => this.closed(conn, String(err?.message ?? "connection closed")) });
    try {
      await conn.listen(EVENTS_CHANNEL, (key) => {
        if (nodeOf(key) === this.o.node) return;
        this.chain = this.chain.then(
          async () => await this.read(key),
          () => {},
        );
      });
    } catch (e) {
      void conn.close().catch(() => {}); // no reconnecting of its own in the background
      throw e;
    }
    if (this.stopped) void conn.close().catch(() => {});
    else this.listenConn = conn;
  }

  /**
   * The LISTEN connection ended: the node is told at once, and again once a new connection listens,
   * since queues registered in between missed what was committed meanwhile. (Bun's client would connect
   * again by itself, but would not say when it listens again.)
   */
  private closed(conn: SQL, why: string) {
    if (this.stopped || conn !== this.listenConn) return; // not the listening one (a try that failed, or an old one)
    this.listenConn = null;
    this.o.onLost(why);
    void conn.close().catch(() => {});
    void (async () => {
      while (!this.stopped && this.listenConn === null) {
        await Bun.sleep(RELISTEN_MS);
        try {
          await this.listen();
          if (this.listenConn) this.o.onLost("listening again: queues registered while not listening missed what was committed meanwhile");
        } catch {} // not yet: PostgreSQL is still out of reach
      }
    })();
  }

  private async read(key: string) {
    if (this.stopped) return;
    try {
      const [row] = await this.reader!`SELECT events, notes FROM node_events WHERE batch = ${key}`;
      // A pruned row: this node fell a minute behind; it cannot know what the row held.
      if (!row) return this.o.onLost(`the events of batch ${key} were pruned before they were read`);
      this.o.onBatch(row.events as Emitted[], key, (row.notes as BatchNotes | null) ?? null);
    } catch (e) {
      this.o.onLost(`reading batch ${key} failed: ${String((e as Error)?.message ?? e)}`);
    }
  }

  async stop() {
    this.stopped = true;
    await this.chain;
    await Promise.all([this.listenConn?.close().catch(() => {}), this.reader?.close().catch(() => {})]);
  }
}
