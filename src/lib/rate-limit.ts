import { rateLimited } from "../domain/errors";

/** Fixed-window failure counter: after `limit` failures for a key within the window, refuse until it ends. */
export class FailureLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Throws RATE_LIMIT_HIT (with Retry-After) while the key is over its limit. The key may be given as
   * a function: it is only worked out while some failure is being counted (the client address costs a
   * lookup on every authenticated request otherwise).
   */
  check(key: string | (() => string), now = Date.now()) {
    const wait = this.waitFor(key, now);
    if (wait) throw rateLimited(wait);
  }

  /** Seconds until the key is under its limit again; 0 when it is now. */
  waitFor(key: string | (() => string), now = Date.now()): number {
    if (!this.windows.size) return 0;
    const k = typeof key === "string" ? key : key();
    const w = this.windows.get(k);
    if (!w) return 0;
    if (w.resetAt <= now) this.windows.delete(k);
    else if (w.count >= this.limit) return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
    return 0;
  }

  fail(key: string, now = Date.now()) {
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
    else w.count++;
    if (this.windows.size > 100_000) this.sweep(now); // bounded memory under a flood of distinct keys
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}
