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
 */
export class ReadCache {
  private entries = new Map<string, unknown>();
  /** Longer-lived entries (`memo`): kept across changes that do not touch them. */
  private memos = new Map<string, unknown>();
  /** Bumped by every change, forget and clear: a load that straddled one is answered but not kept. */
  private generation = 0;
  private dataVersion = -1;
  private checkedAt = -Infinity;
  private readonly version: { get(): { data_version: number } | null };

  constructor(
    sqlite: Database,
    private readonly maxEntries = 10_000,
  ) {
    this.version = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  }

  /** The cached value for `key`, or `load()`'s (remembered unless it is undefined). */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    this.revalidate();
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit as T;
    const generation = this.generation;
    const value = await load();
    // A change that ended while the load was awaited may have made it stale: answer it, keep nothing.
    if (value !== undefined && generation === this.generation) {
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
    const generation = this.generation;
    const value = await load();
    if (generation !== this.generation) return value;
    if (this.memos.size >= this.maxEntries) this.memos.clear();
    this.memos.set(key, value);
    return value;
  }

  /** Drops the memos whose keys start with `prefix` (called by the change that makes them stale). */
  forget(prefix: string) {
    this.generation++;
    for (const k of this.memos.keys()) if (k.startsWith(prefix)) this.memos.delete(k);
  }

  /** After a change (db/tx.ts): lookups go unless the change left them alone; a rollback drops everything. */
  changed(c: Changed) {
    this.generation++;
    if (c.lookups || c.rolledBack) this.entries.clear();
    if (c.rolledBack) this.memos.clear();
  }

  clear() {
    this.generation++;
    this.entries.clear();
    this.memos.clear();
  }

  private revalidate() {
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
