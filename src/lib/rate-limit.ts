import { rateLimited } from "../domain/errors";

/** Fixed-window failure counter: after `limit` failures for a key within the window, refuse until it ends. */
export class FailureLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Throws RATE_LIMIT_HIT (with Retry-After) while the key is over its limit. */
  check(key: string, now = Date.now()) {
    const w = this.windows.get(key);
    if (!w) return;
    if (w.resetAt <= now) this.windows.delete(key);
    else if (w.count >= this.limit) throw rateLimited(Math.max(1, Math.ceil((w.resetAt - now) / 1000)));
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
