// The confab nodes serving one PostgreSQL database (docs/scaling.md, section 3). Each records itself in
// `nodes` (migrations/pg/0004_nodes.sql) with the address other nodes reach it at, and keeps a heartbeat
// there; its row goes when it stops cleanly. A node whose heartbeat is older than STALE_MS died: the event
// queues it held are gone, and a poll for one of them, wherever it arrives, is told so.
import type { SQL } from "bun";
import { randomToken } from "../lib/random";

/** How often a node says it is alive. */
export const HEARTBEAT_MS = 2000;
/** A heartbeat older than this (three missed) is a node that died. */
export const STALE_MS = 6000;

/**
 * A node's name: new at every start (its batch keys and queue ids must never meet those of its earlier
 * life), with no ':' (it prefixes queue ids and batch keys, cut at the first or last ':').
 */
export const newNodeName = () => randomToken(10);

/** This node's row in `nodes`, kept fresh while it serves. */
export class NodePresence {
  private timer: ReturnType<typeof setInterval> | null = null;
  private address = "";

  constructor(
    private readonly sql: SQL,
    readonly name: string,
    /** Hears a heartbeat that failed (PostgreSQL unreachable: other nodes will take this one for dead). */
    private readonly failed: (e: unknown) => void,
  ) {}

  /** Records this node at `address` and beats every HEARTBEAT_MS until `leave()`. */
  async join(address: string) {
    this.address = address;
    await this.beat();
    this.timer = setInterval(() => void this.beat().catch(this.failed), HEARTBEAT_MS);
    this.timer.unref?.();
  }

  /**
   * One heartbeat. An upsert: a node paused past STALE_MS whose row another node pruned comes back (its
   * clients were told their queues were gone and registered again; the queues it kept are merely idle).
   */
  private async beat() {
    await this.sql`INSERT INTO nodes (name, address) VALUES (${this.name}, ${this.address})
      ON CONFLICT (name) DO UPDATE SET heartbeat_at = now(), address = EXCLUDED.address`;
  }

  /** A clean stop: the row goes at once (its queues went with the shutdown). */
  async leave() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sql`DELETE FROM nodes WHERE name = ${this.name}`;
  }
}

/** Where node `name` is reached, if it is alive (its heartbeat fresh); null when it is unknown or dead. */
export async function liveNodeAddress(sql: SQL, name: string): Promise<string | null> {
  const [row] = await sql`SELECT address FROM nodes WHERE name = ${name}
    AND heartbeat_at > now() - make_interval(secs => ${STALE_MS / 1000})`;
  return (row?.address as string | undefined) ?? null;
}

/** The live nodes, oldest first (tests, `confab doctor`). */
export async function liveNodes(sql: SQL): Promise<{ name: string; address: string }[]> {
  return (await sql`SELECT name, address FROM nodes WHERE heartbeat_at > now() - make_interval(secs => ${STALE_MS / 1000})
    ORDER BY started_at, name`) as { name: string; address: string }[];
}

/** Rows of nodes dead for longer than `seconds` (killed, not stopped): nobody will ask for them again. */
export async function pruneNodes(sql: SQL, seconds = 60): Promise<number> {
  const rows = await sql`DELETE FROM nodes WHERE heartbeat_at < now() - make_interval(secs => ${seconds}) RETURNING 1`;
  return rows.length;
}
