import { randomToken } from "../lib/random";
import type { Logger } from "../lib/log";
import { MessageCache, type MessagePayload } from "./message-cache";
import { EventQueue, plainMessageId } from "./queue";
import type { Emitted, QueueOptions, ServerEvent } from "./types";

/** How many messages the shared cache keeps for queues that have not fetched them yet. */
const MESSAGE_CACHE_SIZE = 2000;

/** How long a client should wait for a held GET /events: the heartbeat plus slack for the network. */
export const longpollTimeoutSeconds = (cfg: { heartbeatSeconds: number }) => cfg.heartbeatSeconds + 30;

/** Every live queue, indexed by id, user and realm. Queues live in memory: a restart loses them. */
export class QueueRegistry {
  private byId = new Map<string, EventQueue>();
  private byUser = new Map<number, Set<EventQueue>>();
  private byRealm = new Map<number, Set<EventQueue>>();
  /** Queues registered with all_public_streams, by realm. */
  private publicReaders = new Map<number, Set<EventQueue>>();
  /** Spectators' queues (unauthenticated register), by realm. */
  private spectators = new Map<number, Set<EventQueue>>();
  /** Set at shutdown: every poll is answered at once. */
  private closing = false;
  private gcTimer: ReturnType<typeof setInterval> | null = null;
  /** Messages of undelivered message events; set `messages.load` to read evicted ones back. */
  readonly messages = new MessageCache(MESSAGE_CACHE_SIZE);

  constructor(
    private readonly cfg: {
      heartbeatSeconds: number;
      idleQueueTimeoutSeconds: number;
      gcIntervalSeconds: number;
      maxQueuesPerUser: number;
      maxHeldPollsPerUser: number;
      maxQueueEvents: number;
    },
    private readonly log: Logger,
    /** PostgreSQL: this node's name, which starts each queue id (`<node>:<id>`) so any node knows the owner. */
    private readonly node: string | null = null,
  ) {}

  get size() {
    return this.byId.size;
  }

  /** How many queues, waiting polls and undelivered events there are. */
  stats() {
    let waiting = 0;
    let events = 0;
    let largest = 0;
    for (const q of this.byId.values()) {
      if (q.waiter) waiting++;
      events += q.size;
      largest = Math.max(largest, q.size);
    }
    return { queues: this.byId.size, waiting_polls: waiting, queued_events: events, largest_queue: largest };
  }

  /** Starts collecting idle queues (the server does; the CLI does not). */
  startGc() {
    this.gcTimer ??= setInterval(() => this.collect(Date.now()), this.cfg.gcIntervalSeconds * 1000);
    this.gcTimer.unref?.();
  }

  /**
   * A new queue. A user holds at most maxQueuesPerUser (a realm's spectators together ten times that):
   * past it, the least recently used one goes, as when a client that lost its queue registers again.
   */
  create(opts: QueueOptions): EventQueue {
    const own = opts.userId !== null ? this.byUser.get(opts.userId) : this.spectators.get(opts.realmId);
    const max = opts.userId !== null ? this.cfg.maxQueuesPerUser : this.cfg.maxQueuesPerUser * 10;
    while (own && own.size >= max) {
      let oldest: EventQueue | undefined;
      for (const q of own) if (!oldest || q.lastActivity < oldest.lastActivity) oldest = q;
      this.delete(oldest!);
    }
    let id: string;
    do id = `${this.node === null ? "" : `${this.node}:`}${Date.now().toString(36)}:${randomToken(12)}`;
    while (this.byId.has(id));
    const q = new EventQueue(id, { ...opts, queueId: id }, this.messages);
    this.byId.set(id, q);
    if (opts.userId !== null) index(this.byUser, opts.userId, q);
    else index(this.spectators, opts.realmId, q);
    index(this.byRealm, opts.realmId, q);
    if (opts.allPublicStreams && opts.userId !== null) index(this.publicReaders, opts.realmId, q);
    return q;
  }

  get(id: string): EventQueue | undefined {
    return this.byId.get(id);
  }

  delete(q: EventQueue) {
    if (!this.byId.delete(q.id)) return;
    q.cancelWait([]);
    if (q.opts.userId !== null) unindex(this.byUser, q.opts.userId, q);
    else unindex(this.spectators, q.opts.realmId, q);
    unindex(this.byRealm, q.opts.realmId, q);
    if (q.opts.allPublicStreams) unindex(this.publicReaders, q.opts.realmId, q);
  }

  /** A deactivated user, or one whose API key changed, keeps no queues. */
  dropUser(userId: number) {
    for (const q of [...(this.byUser.get(userId) ?? [])]) this.delete(q);
  }

  /** A deactivated realm keeps no queues. */
  dropRealm(realmId: number) {
    for (const q of [...(this.byRealm.get(realmId) ?? [])]) this.delete(q);
  }

  queuesOfUser(userId: number): ReadonlySet<EventQueue> {
    return this.byUser.get(userId) ?? EMPTY;
  }

  /**
   * Appends each committed event, the same object, to every queue of its audience that accepts it. A
   * queue nobody polls that passes maxQueueEvents is dropped, as Zulip drops a queue too far behind:
   * its client hears BAD_EVENT_QUEUE_ID at its next poll and registers again.
   */
  deliver(batch: Emitted[]) {
    const overfull = new Set<EventQueue>();
    for (const { event: full, audience } of batch) {
      // Queues test the event as emitted but keep its compact form (see compact()).
      const event = Object.freeze(this.compact(full));
      const messageId = plainMessageId(event); // asked once, not per queue
      // A message's flags per user: flagNames() shares one frozen array per combination.
      const byUser = full.type === "message" ? (full.flags_by_user as Record<number, readonly string[]> | undefined) : undefined;
      const defaultFlags = byUser && ((full.default_flags as readonly string[] | undefined) ?? NO_FLAGS);
      const push = (q: EventQueue, flags = defaultFlags) => {
        if (!q.accepts(full)) return;
        q.push(event, byUser && (byUser[q.opts.userId!] ?? flags), messageId);
        if (q.size > this.cfg.maxQueueEvents && !q.waiter) overfull.add(q);
      };
      if (audience.kind === "users") {
        for (const uid of audience.userIds) for (const q of this.byUser.get(uid) ?? EMPTY) push(q);
        const readers = audience.publicStreamOf === undefined ? undefined : this.publicReaders.get(audience.publicStreamOf);
        if (readers) {
          const reached = new Set(audience.userIds);
          for (const q of readers) if (!reached.has(q.opts.userId!)) push(q, NO_FLAGS); // not a recipient
        }
      } else {
        for (const q of this.byRealm.get(audience.realmId) ?? EMPTY) if (q.opts.userId !== null) push(q);
      }
    }
    for (const q of overfull) {
      this.delete(q);
      this.log.info("event queue dropped: too far behind", { queue_id: q.id, user: q.opts.userId ?? "-", events: q.size });
    }
  }

  /** A message event keeps only the message id in queues; the message goes to the shared cache. */
  private compact(event: ServerEvent): ServerEvent {
    if (event.type !== "message" || !event.message) return event;
    const { message, raw_content, avatar_gravatar, flags_by_user, default_flags, ...rest } = event as ServerEvent & MessagePayload;
    this.messages.put({ message, raw_content, avatar_gravatar });
    return { ...rest, message_id: message.id };
  }

  /**
   * Holds a GET /events on `q` until an event or the heartbeat. A user holds at most
   * maxHeldPollsPerUser polls: past it, their longest-waiting one is answered with a heartbeat.
   */
  hold(q: EventQueue) {
    if (q.opts.userId !== null) {
      let waiting = 0;
      let oldest: EventQueue | undefined;
      for (const x of this.queuesOfUser(q.opts.userId))
        if (x.waiter && x !== q) {
          waiting++;
          if (!oldest || x.waiter.since < oldest.waiter!.since) oldest = x;
        }
      if (waiting >= this.cfg.maxHeldPollsPerUser) oldest!.heartbeat();
    }
    const events = q.wait(this.cfg.heartbeatSeconds * 1000);
    if (this.closing) q.heartbeat();
    return events;
  }

  /** At shutdown: every held poll is answered with a heartbeat, and so is any later one at once. */
  releaseAll() {
    this.closing = true;
    for (const q of this.byId.values()) q.heartbeat();
  }

  /** Drops queues idle longer than their timeout that no client is waiting on. */
  collect(now: number) {
    for (const q of this.byId.values()) {
      if (!q.waiter && now - q.lastActivity > q.opts.idleTimeoutSecs * 1000) {
        this.delete(q);
        this.log.debug("event queue collected", { queue_id: q.id });
      }
    }
  }

  /**
   * Every queue goes (their held polls answered): on PostgreSQL, when this node may have missed another
   * node's events. Each client hears BAD_EVENT_QUEUE_ID at its next poll and registers again.
   */
  dropAll() {
    for (const q of [...this.byId.values()]) this.delete(q);
  }

  close() {
    if (this.gcTimer) clearInterval(this.gcTimer);
    this.dropAll();
  }
}

const EMPTY: ReadonlySet<EventQueue> = new Set();

const NO_FLAGS: readonly string[] = Object.freeze([]);

function index(map: Map<number, Set<EventQueue>>, key: number, q: EventQueue) {
  let s = map.get(key);
  if (!s) map.set(key, (s = new Set()));
  s.add(q);
}

function unindex(map: Map<number, Set<EventQueue>>, key: number, q: EventQueue) {
  const s = map.get(key);
  s?.delete(q);
  if (s && !s.size) map.delete(key);
}
