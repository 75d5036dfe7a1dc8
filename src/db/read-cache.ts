import type { Database } from "bun:sqlite";
import type { Changed } from "./tx";

/**
 * Lookups made on every request (the realm of a Host header, the user behind an API key), kept while
 * the database is unchanged. Each SQLite read outside a transaction takes and drops the WAL read lock
 * (three system calls); under load these dominated a request's cost.
 *
 * Staleness is impossible within this process: the writer calls `changed()` after every change and
 * every commit or rollback, which drops what the change may have touched. Another process's commit (a
 * CLI command) changes SQLite's data_version, which is read at most once a millisecond (once per
 * event-loop turn cost a tenth of a small request), so its change is seen a millisecond later at most.
 * On PostgreSQL (no `sqlite` given) there is no such counter: this process's changes drop entries as
 * they are made, another node's (or a CLI command's) when this node hears its batch on the event bus
 * (db/event-bus.ts: the batch says whether lookups changed and which memos it forgot).
 */
export class ReadCache {
  private entries = new Map<string, unknown>();
  /** Longer-lived entries (`memo`): kept across changes that do not touch them. */
  private memos = new Map<string, unknown>();
  /**
   * Bumped whenever entries (memos) are dropped: a load that straddled a drop is answered but not kept,
   * as it may have read what the dropping change replaced. Only drops count: a send, which keeps the
   * lookups, must not stop the next lookup from being kept (under concurrent sends one always ends
   * while a load is awaited).
   */
  private entriesDropped = 0;
  private memosDropped = 0;
  private dataVersion = -1;
  private checkedAt = -Infinity;
  private readonly version: { get(): { data_version: number } | null } | null;

  constructor(
    sqlite: Database | null,
    private readonly maxEntries = 10_000,
  ) {
    this.version = sqlite?.prepare<{ data_version: number }, []>("PRAGMA data_version") ?? null;
  }

  /**
   * The cached value for `key`, or undefined, at once: the hot paths of every request (its realm, its
   * user) answer a hit without a promise, since each await of the request's path costs a turn of the
   * microtask queue and a hit is almost every request.
   */
  peek<T>(key: string): T | undefined {
    this.revalidate();
    return this.entries.get(key) as T | undefined;
  }

  /** The cached value for `key`, or `load()`'s (remembered unless it is undefined). */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.peek<T>(key);
    if (hit !== undefined) return hit;
    const dropped = this.entriesDropped;
    const value = await load();
    // A change that ended while the load was awaited may have made it stale: answer it, keep nothing.
    if (value !== undefined && dropped === this.entriesDropped) {
      if (this.entries.size >= this.maxEntries) this.entries.clear(); // bounded, whatever keys clients send
      this.entries.set(key, value);
    }
    return value;
  }

  /**
   * Like `get`, for results that stay valid across unrelated changes (a channel's subscribers, the
   * realm's alert words): their writers `forget` them; every rollback and another process's change
   * drop them all.
   */
  async memo<T>(key: string, load: () => Promise<T>): Promise<T> {
    this.revalidate();
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const dropped = this.memosDropped;
    const value = await load();
    if (dropped !== this.memosDropped) return value;
    if (this.memos.size >= this.maxEntries) this.memos.clear();
    this.memos.set(key, value);
    return value;
  }

  /**
   * Hears every `forget` (PostgreSQL: the writer's next batch tells the other nodes, whose memos the
   * change made stale too).
   */
  onForget: ((prefix: string) => void) | null = null;

  /** Drops the memos whose keys start with `prefix` (called by the change that makes them stale). */
  forget(prefix: string) {
    this.onForget?.(prefix);
    this.forgetHere(prefix);
  }

  /** `forget` in this process only: what another node's change made stale here. */
  forgetHere(prefix: string) {
    this.memosDropped++;
    for (const k of this.memos.keys()) if (k.startsWith(prefix)) this.memos.delete(k);
  }

  /** After a change (db/tx.ts): lookups go unless the change left them alone; a rollback drops everything. */
  changed(c: Changed) {
    if (c.lookups || c.rolledBack) this.dropEntries();
    if (c.rolledBack) this.dropMemos();
  }

  clear() {
    this.dropEntries();
    this.dropMemos();
  }

  private dropEntries() {
    this.entriesDropped++;
    this.entries.clear();
  }

  private dropMemos() {
    this.memosDropped++;
    this.memos.clear();
  }

  private revalidate() {
    if (!this.version) return;
    const now = performance.now();
    if (now - this.checkedAt < 1) return;
    this.checkedAt = now;
    const v = this.version.get()!.data_version;
    if (v !== this.dataVersion) {
      this.dataVersion = v;
      this.clear();
    }
  }
}
