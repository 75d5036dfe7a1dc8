import type { MessageCache } from "./message-cache";
import { present } from "./present";
import type { QueueOptions, ServerEvent } from "./types";

/**
 * The flag sets message events carry, each stored once: a queue entry keeps a 2-byte index, not a
 * reference. Index 0 is "no flags given" (every event but a message). Flags are a handful of names, so
 * the table stays small for the life of the process.
 */
const flagSets: (readonly string[] | undefined)[] = [undefined];
const flagSetIds = new Map<string, number>();
/** The same frozen arrays come back for every queue of a send (flagNames() shares them): found by reference first. */
const idsByArray = new WeakMap<readonly string[], number>();

function flagSetId(flags: readonly string[] | undefined): number {
  if (!flags) return 0;
  let id = idsByArray.get(flags);
  if (id !== undefined) return id;
  const key = flags.join(",");
  id = flagSetIds.get(key);
  if (id === undefined) {
    if (flagSets.length > 0xffff) throw new Error("too many distinct message flag sets");
    flagSetIds.set(key, (id = flagSets.length));
    flagSets.push(Object.freeze([...flags]));
  }
  if (Object.isFrozen(flags)) idsByArray.set(flags, id);
  return id;
}

/** The queues' compact form of a message event with nothing but its id: one number, no object. */
const messageEvent = (id: number): ServerEvent => ({ type: "message", message_id: id });

/**
 * The id to keep for `event` when it is a plain message event ({ type, message_id }, as queues keep one
 * without a local echo), else 0: that event is kept as an object.
 */
export function plainMessageId(event: ServerEvent): number {
  if (event.type !== "message" || "local_echo" in event) return 0;
  const id = (event as { message_id?: unknown }).message_id;
  return typeof id === "number" && id > 0 && id <= 0xffffffff ? id : 0;
}

/**
 * A queue's pending events, first in first out, in fixed-size chunks. Per entry: a plain message event
 * is its message id in a Uint32Array (4 bytes), anything else a reference to the shared, frozen event
 * in an array the chunk holds only when it needs one (id 0 there); and its flag set's index in a
 * Uint16Array (2 bytes). A backlog can reach tens of thousands of entries while its client is away, in
 * every queue of a busy channel: typed arrays are memory the garbage collector never scans, where a
 * reference per entry made a full collection after a burst visit millions of slots (perf2: a full
 * collection's pauses of 4.8 and 3.8 ms in the catch-up). In one growing array every append would also
 * make the collector rescan the whole array, and a per-entry object would cost more than the entry.
 */
class Backlog {
  private static readonly CHUNK = 1024;
  private ids: Uint32Array[] = [];
  private objects: (ServerEvent[] | undefined)[] = [];
  private flags: Uint16Array[] = [];
  private head = 0; // index of the first entry in chunks[0]
  private fill = Backlog.CHUNK; // entries in the last chunk
  length = 0;

  push(event: ServerEvent, flags: readonly string[] | undefined, messageId = plainMessageId(event)) {
    if (this.fill === Backlog.CHUNK) {
      // The first chunk grows as needed (a queue holding a few events stays small); once a queue holds
      // more, each chunk is allocated whole, with no spare room from growing.
      const first = !this.ids.length;
      this.ids.push(new Uint32Array(first ? 8 : Backlog.CHUNK));
      this.flags.push(new Uint16Array(first ? 8 : Backlog.CHUNK));
      this.objects.push(undefined);
      this.fill = 0;
    }
    const last = this.ids.length - 1;
    if (this.ids[last]!.length === this.fill) {
      const size = Math.min(Backlog.CHUNK, this.fill * 4);
      this.ids[last] = grow(this.ids[last]!, new Uint32Array(size));
      this.flags[last] = grow(this.flags[last]!, new Uint16Array(size));
    }
    this.flags[last]![this.fill] = flagSetId(flags);
    if (messageId) this.ids[last]![this.fill] = messageId;
    else (this.objects[last] ??= [])[this.fill] = event;
    this.fill++;
    this.length++;
  }

  event(i: number): ServerEvent {
    const k = this.head + i;
    const c = Math.floor(k / Backlog.CHUNK);
    const id = this.ids[c]![k % Backlog.CHUNK]!;
    return id ? messageEvent(id) : this.objects[c]![k % Backlog.CHUNK]!;
  }

  flagsOf(i: number): readonly string[] | undefined {
    const k = this.head + i;
    return flagSets[this.flags[Math.floor(k / Backlog.CHUNK)]![k % Backlog.CHUNK]!];
  }

  /** Removes the first n entries. */
  drop(n: number) {
    this.length -= n;
    this.head += n;
    if (!this.length) {
      this.ids = [];
      this.objects = [];
      this.flags = [];
      this.head = 0;
      this.fill = Backlog.CHUNK;
      return;
    }
    const whole = Math.floor(this.head / Backlog.CHUNK);
    if (whole) {
      this.ids.splice(0, whole);
      this.objects.splice(0, whole);
      this.flags.splice(0, whole);
      this.head -= whole * Backlog.CHUNK;
    }
  }
}

function grow<T extends Uint32Array | Uint16Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

type Waiter = {
  resolve: (events: { id: number; [k: string]: unknown }[]) => void;
  reject: (e: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
  since: number;
};

/** One client's queue: the shared event objects it has not yet acknowledged, and at most one held poll. */
export class EventQueue {
  /** Pending events, the i-th with id firstId + i, and for a message event this queue's user's flags. */
  private readonly events = new Backlog();
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

  push(event: ServerEvent, flags?: readonly string[], messageId?: number) {
    this.events.push(event, flags, messageId);
    if (this.waiter) this.release();
  }

  /** Drops everything up to and including lastEventId: the client has it. */
  prune(lastEventId: number) {
    const n = Math.min(this.events.length, lastEventId - this.firstId + 1);
    if (n <= 0) return;
    this.events.drop(n);
    this.firstId += n;
  }

  /** The pending events as this client sees them (one stored event may become several). */
  async pending() {
    const ids: number[] = [];
    for (let i = 0; i < this.events.length; i++) {
      const e = this.events.event(i);
      if (e.type === "message") ids.push((e as unknown as { message_id: number }).message_id);
    }
    const read = await this.messages.read(ids);
    // Events that arrived during the reads have their message in the cache, just put there.
    const messages = { get: (id: number) => (read.has(id) ? read.get(id) : this.messages.get(id)) };
    const out: { id: number; [k: string]: unknown }[] = [];
    for (let i = 0; i < this.events.length; i++)
      for (const e of present(this.events.event(i), this.opts, messages, this.events.flagsOf(i))) out.push({ ...e, id: this.firstId + i });
    return out;
  }

  wait(heartbeatMs: number): Promise<{ id: number; [k: string]: unknown }[]> {
    this.cancelWait([]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.push({ type: "heartbeat" }), heartbeatMs);
      this.waiter = { resolve, reject, timer, since: performance.now() };
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
    this.pending().then(w.resolve, w.reject); // a failed read fails the held poll, which is logged and answered as any failure
  }
}
