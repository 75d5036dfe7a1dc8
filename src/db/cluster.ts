// This process as one node of several on one PostgreSQL database (docs/scaling.md, section 3): its name,
// its row in `nodes` (db/nodes.ts), what its batches tell the other nodes and its ear for theirs
// (db/event-bus.ts). Every server and every CLI command on PostgreSQL is a node: a command's changes and
// revocations reach the servers the way a server's do. Only servers listen and record themselves.
import type { SQL } from "bun";
import type { Emitted } from "../events/types";
import { batchKey, EventListener, publishBatch, pruneEvents, type BatchNotes } from "./event-bus";
import { liveNodeAddress, newNodeName, NodePresence, pruneNodes } from "./nodes";
import type { Publish } from "./writer-engine";

/** How often each node prunes event rows and dead nodes' rows (cheap: two indexed deletes). */
const PRUNE_MS = 30_000;

export interface Hearing {
  /** Another node's committed batch, in commit order. */
  batch(events: Emitted[], notes: BatchNotes | null): void;
  /** What other nodes committed from now on until hearing resumes is unknown (drop every event queue). */
  lost(why: string): void;
}

export class PostgresNode {
  readonly name = newNodeName();
  private batches = 0;
  private forgotten = new Set<string>();
  private readonly presence: NodePresence;
  private listener: EventListener | null = null;
  private pruner: ReturnType<typeof setInterval> | null = null;
  private revocations: NonNullable<BatchNotes["revoke"]> = [];

  constructor(
    private readonly client: SQL,
    private readonly url: string,
    private readonly warn: (what: string, e: unknown) => void,
  ) {
    this.presence = new NodePresence(client, this.name, (e) => warn("node heartbeat failed", e));
  }

  /** Keys count this node's batches: the node's own are known by their prefix. */
  private key() {
    return batchKey(this.name, ++this.batches);
  }

  /** A memo this node's change made stale (db/read-cache.ts `onForget`): its batch tells the others. */
  forgot(prefix: string) {
    this.forgotten.add(prefix);
  }

  /** The writer's step before COMMIT (db/writer-engine.ts): the batch's events and notes, one row. */
  readonly publish: Publish = (tx, batch) => {
    const notes: BatchNotes = {};
    if (batch.lookups) notes.lookups = true;
    if (this.forgotten.size) {
      notes.forget = [...this.forgotten];
      this.forgotten.clear();
    }
    if (this.revocations.length) {
      notes.revoke = this.revocations;
      this.revocations = [];
    }
    const noted = notes.lookups || notes.forget || notes.revoke;
    if (!batch.events.length && !noted) return undefined;
    return publishBatch(tx, this.key(), batch.events, noted ? notes : null);
  };

  /** Rights this node revoked: the writer's next batch tells the others (app.ts makes sure one comes). */
  revoked(r: { userId: number } | { realmId: number }) {
    this.revocations.push(r);
  }

  /** Starts hearing the other nodes' batches (resolves once every later commit will be heard) and pruning. */
  async hear(h: Hearing) {
    this.listener = new EventListener({ url: this.url, node: this.name, onBatch: (events, _key, notes) => h.batch(events, notes), onLost: h.lost });
    await this.listener.start();
    this.pruner = setInterval(() => {
      Promise.all([pruneEvents(this.client), pruneNodes(this.client)]).catch((e: unknown) => this.warn("pruning cluster state failed", e));
    }, PRUNE_MS);
    this.pruner.unref?.();
  }

  /** Records this node in `nodes` at `address` and keeps its heartbeat (a server). */
  async join(address: string) {
    await this.presence.join(address);
  }

  /** A clean stop: this node's row goes. */
  async leave() {
    await this.presence.leave();
  }

  async addressOf(name: string) {
    return await liveNodeAddress(this.client, name);
  }

  /** Stops hearing and pruning (before the pool closes). */
  async stop() {
    if (this.pruner) clearInterval(this.pruner);
    await this.listener?.stop();
  }
}
