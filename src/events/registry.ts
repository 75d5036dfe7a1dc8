import { randomToken } from "../lib/random";
import type { Logger } from "../lib/log";
import { EventQueue, type QueueOptions } from "./queue";
import type { Emitted } from "./types";

/** Every live queue, indexed by id, user and realm. Queues live in memory: a restart loses them. */
export class QueueRegistry {
  private byId = new Map<string, EventQueue>();
  private byUser = new Map<number, Set<EventQueue>>();
  private byRealm = new Map<number, Set<EventQueue>>();
  /** Queues registered with all_public_streams, by realm. */
  private publicReaders = new Map<number, Set<EventQueue>>();
  private gcTimer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly cfg: { heartbeatSeconds: number; idleQueueTimeoutSeconds: number; gcIntervalSeconds: number },
    private readonly log: Logger,
  ) {}

  get size() {
    return this.byId.size;
  }

  /** Starts collecting idle queues (the server does; the CLI does not). */
  startGc() {
    this.gcTimer ??= setInterval(() => this.collect(Date.now()), this.cfg.gcIntervalSeconds * 1000);
    this.gcTimer.unref?.();
  }

  create(opts: QueueOptions): EventQueue {
    let id: string;
    do id = `${Date.now().toString(36)}:${randomToken(12)}`;
    while (this.byId.has(id));
    const q = new EventQueue(id, opts);
    this.byId.set(id, q);
    if (opts.userId !== null) index(this.byUser, opts.userId, q);
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

  /** Appends each committed event, the same object, to every queue of its audience that accepts it. */
  deliver(batch: Emitted[]) {
    for (const { event, audience } of batch) {
      Object.freeze(event);
      if (audience.kind === "users") {
        for (const uid of audience.userIds) for (const q of this.byUser.get(uid) ?? EMPTY) if (q.accepts(event)) q.push(event);
        const readers = audience.publicStreamOf === undefined ? undefined : this.publicReaders.get(audience.publicStreamOf);
        if (readers) {
          const reached = new Set(audience.userIds);
          for (const q of readers) if (!reached.has(q.opts.userId!) && q.accepts(event)) q.push(event);
        }
      } else {
        for (const q of this.byRealm.get(audience.realmId) ?? EMPTY) if (q.opts.userId !== null && q.accepts(event)) q.push(event);
      }
    }
  }

  heartbeatMs() {
    return this.cfg.heartbeatSeconds * 1000;
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

  close() {
    if (this.gcTimer) clearInterval(this.gcTimer);
    for (const q of [...this.byId.values()]) this.delete(q);
  }
}

const EMPTY: ReadonlySet<EventQueue> = new Set();

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
