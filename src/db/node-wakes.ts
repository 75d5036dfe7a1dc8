// Wake-ups that cross confab nodes (docs/scaling.md, section 7): a change committed on one node may be
// work for a node that holds a lease (the agent hears of a message sent elsewhere; the plugin host hears
// that a plugin it started made its first API call through another node). A NOTIFY after the change's
// COMMIT carries the wake; the nodes LISTEN on one connection each. A wake is a hint, not a record: one
// lost with a node that died after its COMMIT is what a single server loses when it dies there, and the
// workers that keep rows to do (mail, outgoing webhooks, schedules) also poll them.
import type { SQL } from "bun";

export const WAKES_CHANNEL = "confab_wakes";

/** NOTIFY's limit is 8,000 bytes; a wake is a kind and a few ids. */
const MAX_PAYLOAD = 7900;

export interface Wake {
  kind: string;
  arg?: unknown;
}

export class NodeWakes {
  private conn: SQL | null = null;
  /** Tells this node's own wakes from the others' (NOTIFY reaches every listener, its sender's too). */
  private readonly me = crypto.randomUUID();

  constructor(private readonly o: { url: string; onWake: (w: Wake) => void }) {}

  /** Resolves once LISTEN is in place. Bun's client listens again by itself after a reconnection. */
  async start() {
    this.conn = new Bun.SQL(this.o.url, { max: 1, idleTimeout: 0 });
    await this.conn.listen(WAKES_CHANNEL, (payload) => {
      const { from, ...w } = JSON.parse(payload) as Wake & { from: string };
      if (from !== this.me) this.o.onWake(w);
    });
  }

  /** Wakes the other nodes; never throws (a wake is a hint). */
  async send(w: Wake) {
    const payload = JSON.stringify({ from: this.me, ...w });
    if (!this.conn || payload.length > MAX_PAYLOAD) return;
    await this.conn`SELECT pg_notify(${WAKES_CHANNEL}, ${payload})`.catch(() => {});
  }

  async stop() {
    const conn = this.conn;
    this.conn = null;
    await conn?.close({ timeout: 0 }).catch(() => {});
  }
}
