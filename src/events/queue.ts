import type { MessageCache } from "./message-cache";
import { present } from "./present";
import type { QueueOptions, ServerEvent } from "./types";

/**
 * A first-in first-out list in fixed-size chunks. A queue's backlog can reach tens of thousands of
 * entries while its client is away; in one growing array, every append to it makes the garbage
 * collector rescan the whole array at its next young collection. Here only the last chunk changes.
 */
class Backlog<T> {
  private static readonly CHUNK = 256;
  private chunks: T[][] = [];
  private head = 0; // index of the first entry in chunks[0]
  length = 0;

  push(x: T) {
    const last = this.chunks.at(-1);
    if (last && last.length < Backlog.CHUNK) last.push(x);
    else this.chunks.push([x]);
    this.length++;
  }

  at(i: number): T {
    const k = this.head + i;
    return this.chunks[Math.floor(k / Backlog.CHUNK)]![k % Backlog.CHUNK]!;
  }

  /** Removes the first n entries. */
  drop(n: number) {
    this.length -= n;
    this.head += n;
    const whole = Math.floor(this.head / Backlog.CHUNK);
    if (whole) {
      this.chunks.splice(0, whole);
      this.head -= whole * Backlog.CHUNK;
    }
    if (!this.length) {
      this.chunks = [];
      this.head = 0;
    }
  }
}

type Waiter = { resolve: (events: { id: number; [k: string]: unknown }[]) => void; timer: ReturnType<typeof setTimeout>; since: number };

/** One client's queue: the shared event objects it has not yet acknowledged, and at most one held poll. */
export class EventQueue {
  /** Pending events, the i-th with id firstId + i, and for a message event this queue's user's flags. */
  private readonly events = new Backlog<ServerEvent>();
  private readonly flags = new Backlog<readonly string[] | undefined>();
  private firstId = 0;
  lastActivity = Date.now();
  waiter: Waiter | null = null;

  constructor(
    readonly id: string,
    readonly opts: QueueOptions,
    private readonly messages: MessageCache,
  ) {}

  get lastEventId() {
    return this.firstId + this.events.length - 1;
  }

  get size() {
    return this.events.length;
  }

  accepts(event: ServerEvent): boolean {
    const types = this.opts.eventTypes;
    if (types && !types.has(event.type)) return false;
    if (event.type === "message" && this.opts.acceptsMessage && !this.opts.acceptsMessage(event)) return false;
    return true;
  }

  push(event: ServerEvent, flags?: readonly string[]) {
    this.events.push(event);
    this.flags.push(flags);
    if (this.waiter) this.release();
  }

  /** Drops everything up to and including lastEventId: the client has it. */
  prune(lastEventId: number) {
    const n = Math.min(this.events.length, lastEventId - this.firstId + 1);
    if (n <= 0) return;
    this.events.drop(n);
    this.flags.drop(n);
    this.firstId += n;
  }

  /** The pending events as this client sees them (one stored event may become several). */
  pending() {
    const out: { id: number; [k: string]: unknown }[] = [];
    for (let i = 0; i < this.events.length; i++)
      for (const e of present(this.events.at(i), this.opts, this.messages, this.flags.at(i))) out.push({ ...e, id: this.firstId + i });
    return out;
  }

  wait(heartbeatMs: number): Promise<{ id: number; [k: string]: unknown }[]> {
    this.cancelWait([]);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.push({ type: "heartbeat" }), heartbeatMs);
      this.waiter = { resolve, timer, since: performance.now() };
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

  /** Answers a held poll now with a heartbeat (its user holds too many, or the server is stopping). */
  heartbeat() {
    if (this.waiter) this.push({ type: "heartbeat" });
  }

  private release() {
    const w = this.waiter!;
    this.waiter = null;
    clearTimeout(w.timer);
    this.lastActivity = Date.now();
    w.resolve(this.pending());
  }
}
