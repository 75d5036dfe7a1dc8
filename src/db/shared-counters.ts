// Counters every confab node on one PostgreSQL shares (docs/scaling.md, section 6), in the UNLOGGED
// `rate_counters` table: the rate limits' counts, so that a client cannot multiply its allowance by the
// number of nodes. One upsert per change, answered with the cluster's count.
import type { SQL } from "bun";

export interface SharedCount {
  count: number;
  /** UNIX milliseconds when the count's window ends. */
  resetAt: number;
}

export class SharedCounters {
  private readonly timers: ReturnType<typeof setInterval>[] = [];

  constructor(
    private readonly sql: SQL,
    private readonly failed: (e: unknown) => void,
  ) {
    this.every(60_000, async () => await this.prune());
  }

  /** Runs `fn` every `ms` (one run at a time) until `close`; a failure is told to `failed`. */
  every(ms: number, fn: () => Promise<void>) {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      fn()
        .catch(this.failed)
        .finally(() => (running = false));
    }, ms);
    timer.unref?.();
    this.timers.push(timer);
  }

  /** Before the connections close. */
  close() {
    this.timers.forEach(clearInterval);
    this.timers.length = 0;
  }

  /**
   * Adds `delta` to `key`'s count; a key whose window ended starts a new one of `windowMs` with it.
   * Returns the cluster's count and when its window ends.
   */
  async add(key: string, delta: number, windowMs: number, now = Date.now()): Promise<SharedCount> {
    const [row] = await this.sql`INSERT INTO rate_counters (key, reset_at, count) VALUES (${key}, ${now + windowMs}, ${delta})
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN rate_counters.reset_at <= ${now} THEN EXCLUDED.count ELSE rate_counters.count + EXCLUDED.count END,
        reset_at = CASE WHEN rate_counters.reset_at <= ${now} THEN EXCLUDED.reset_at ELSE rate_counters.reset_at END
      RETURNING count, reset_at`;
    return { count: Number(row.count), resetAt: Number(row.reset_at) };
  }

  /** The cluster's count for `key` in its current window; null when it has none. */
  async read(key: string, now = Date.now()): Promise<SharedCount | null> {
    const [row] = await this.sql`SELECT count, reset_at FROM rate_counters WHERE key = ${key} AND reset_at > ${now}`;
    return row ? { count: Number(row.count), resetAt: Number(row.reset_at) } : null;
  }

  /**
   * Adds each delta to its key's count in a window that ends at `resetAt` (keys that name their window:
   * the API limits' aligned windows), all in one statement; returns the cluster's counts in order.
   */
  async addMany(items: { key: string; delta: number; resetAt: number }[]): Promise<number[]> {
    if (!items.length) return [];
    const rows = await this.sql`INSERT INTO rate_counters (key, reset_at, count)
      SELECT x.key, x.reset_at, x.delta FROM jsonb_to_recordset(${JSON.stringify(items.map((i) => ({ key: i.key, reset_at: i.resetAt, delta: i.delta })))}::text::jsonb)
        AS x(key text, reset_at bigint, delta int)
      ON CONFLICT (key) DO UPDATE SET count = rate_counters.count + EXCLUDED.count
      RETURNING key, count`;
    const counts = new Map((rows as { key: string; count: number }[]).map((r) => [r.key, Number(r.count)]));
    return items.map((i) => counts.get(i.key) ?? i.delta);
  }

  /** Counts whose window ended a minute ago: nobody reads them again. */
  async prune(now = Date.now()): Promise<void> {
    await this.sql`DELETE FROM rate_counters WHERE reset_at < ${now - 60_000}`;
  }
}
