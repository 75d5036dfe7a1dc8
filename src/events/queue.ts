import type { MessageCache } from "./message-cache";
import { present } from "./present";
import type { ServerEvent } from "./types";

export interface QueueOptions {
  /** The queue's own id (set by the registry), for what only the sending client sees (local echo). */
  queueId?: string;
  userId: number | null; // null: a spectator (unauthenticated register)
  realmId: number;
  eventTypes: Set<string> | null; // null: every type
  allPublicStreams: boolean;
  /** Decides whether a message event reaches this queue (built from register's `narrow`). */
  acceptsMessage: ((event: ServerEvent) => boolean) | null;
  capabilities: Record<string, boolean>;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  idleTimeoutSecs: number;
}

type Waiter = { resolve: (events: { id: number; [k: string]: unknown }[]) => void; timer: ReturnType<typeof setTimeout> };

/** One client's queue: the shared event objects it has not yet acknowledged, and at most one held poll. */
export class EventQueue {
  /** Pending events; `flags` is this queue's user's flags for a message event (kept per queue, interned). */
  readonly events: { id: number; event: ServerEvent; flags?: readonly string[] }[] = [];
  private nextId = 0;
  lastActivity = Date.now();
  waiter: Waiter | null = null;

  constructor(
    readonly id: string,
    readonly opts: QueueOptions,
    private readonly messages: MessageCache,
  ) {}

  get lastEventId() {
    return this.nextId - 1;
  }

  accepts(event: ServerEvent): boolean {
    const types = this.opts.eventTypes;
    if (types && !types.has(event.type)) return false;
    if (event.type === "message" && this.opts.acceptsMessage && !this.opts.acceptsMessage(event)) return false;
    return true;
  }

  push(event: ServerEvent, flags?: readonly string[]) {
    this.events.push(flags ? { id: this.nextId++, event, flags } : { id: this.nextId++, event });
    if (this.waiter) this.release();
  }

  /** Drops everything up to and including lastEventId: the client has it. */
  prune(lastEventId: number) {
    let n = 0;
    while (n < this.events.length && this.events[n]!.id <= lastEventId) n++;
    if (n) this.events.splice(0, n);
  }

  /** The pending events as this client sees them (one stored event may become several). */
  pending() {
    const out: { id: number; [k: string]: unknown }[] = [];
    for (const { id, event, flags } of this.events) for (const e of present(event, this.opts, this.messages, flags)) out.push({ ...e, id });
    return out;
  }

  wait(heartbeatMs: number): Promise<{ id: number; [k: string]: unknown }[]> {
    this.cancelWait([]);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.push({ type: "heartbeat" }), heartbeatMs);
      this.waiter = { resolve, timer };
    });
  }

  /** Answers a held poll (e.g. with [] when the queue is deleted or a newer poll replaces it). */
  cancelWait(events: { id: number }[]) {
    const w = this.waiter;
    if (!w) return;
    this.waiter = null;
    clearTimeout(w.timer);
    w.resolve(events as never);
  }

  private release() {
    const w = this.waiter!;
    this.waiter = null;
    clearTimeout(w.timer);
    this.lastActivity = Date.now();
    w.resolve(this.pending());
  }
}
