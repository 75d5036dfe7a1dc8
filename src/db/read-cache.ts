import type { Database } from "bun:sqlite";

/**
 * Lookups made on every request (the realm of a Host header, the user behind an API key), kept while
 * the database is unchanged. Each SQLite read outside a transaction takes and drops the WAL read lock
 * (three system calls); under load these dominated a request's cost.
 *
 * Staleness is impossible within this process: the writer calls `clear()` before every change and
 * after every commit. Another process's commit (a CLI command) changes SQLite's data_version, which
 * is read at most once per event-loop turn, so its change is seen from the next turn on.
 */
export class ReadCache {
  private entries = new Map<string, unknown>();
  private dataVersion = -1;
  private checkedThisTurn = false;
  private readonly version: { get(): { data_version: number } | null };

  constructor(
    sqlite: Database,
    private readonly maxEntries = 10_000,
  ) {
    this.version = sqlite.prepare<{ data_version: number }, []>("PRAGMA data_version");
  }

  /** The cached value for `key`, or `load()`'s (remembered unless it is undefined). */
  get<T>(key: string, load: () => T): T {
    this.revalidate();
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit as T;
    const value = load();
    if (value !== undefined) {
      if (this.entries.size >= this.maxEntries) this.entries.clear(); // bounded, whatever keys clients send
      this.entries.set(key, value);
    }
    return value;
  }

  clear() {
    this.entries.clear();
  }

  private revalidate() {
    if (this.checkedThisTurn) return;
    this.checkedThisTurn = true;
    setImmediate(() => (this.checkedThisTurn = false));
    const v = this.version.get()!.data_version;
    if (v !== this.dataVersion) {
      this.dataVersion = v;
      this.entries.clear();
    }
  }
}
