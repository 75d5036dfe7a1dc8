import { rateLimited } from "../domain/errors";

/**
 * Counts every node shares (db/shared-counters.ts, on PostgreSQL): `add` returns the cluster's count
 * after adding; `read` the cluster's count, null when the key has none in its window.
 */
export interface SharedCounter {
  add(key: string, delta: number, windowMs: number, now?: number): Promise<{ count: number; resetAt: number }>;
  read(key: string, now?: number): Promise<{ count: number; resetAt: number } | null>;
  /** Adds each delta to its key (a key naming its window, which ends at `resetAt`); the cluster's counts in order. */
  addMany(items: { key: string; delta: number; resetAt: number }[]): Promise<number[]>;
  /** Runs `fn` every `ms` until the counters close (with the app). */
  every(ms: number, fn: () => Promise<void>): void;
}

/**
 * Fixed-window failure counter: after `limit` failures for a key within the window, refuse until it ends.
 * Given `shared` (several nodes on PostgreSQL), each failure is also written through to the cluster's
 * count under `prefix`, and a check reads it: failures are rare, so a round trip each costs nothing that
 * matters. Should PostgreSQL not answer, this node's own count still holds.
 */
export class FailureLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();
  /** Attempts still being verified, counted as failures until they are known not to be (see `pending`). */
  private inFlight = new Map<string, number>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly shared: { counter: SharedCounter; prefix: string } | null = null,
  ) {}

  /**
   * Throws RATE_LIMIT_HIT (with Retry-After) while the key is over its limit, here or (shared) across the
   * nodes. The key may be given as a function: it is only worked out while some failure is being counted
   * (the client address costs a lookup on every authenticated request otherwise).
   */
  async check(key: string | (() => string), now = Date.now()) {
    this.checkHere(key, now);
    await this.checkCluster(key, now);
  }

  /**
   * This node's count and the attempts in flight here, synchronously: a caller that goes on to `pending`
   * without awaiting between the two counts a burst of concurrent guesses one by one.
   */
  checkHere(key: string | (() => string), now = Date.now()) {
    const wait = this.localWait(key, now);
    if (wait) throw rateLimited(wait);
  }

  /** The failures every node recorded (nothing to do without `shared`). */
  async checkCluster(key: string | (() => string), now = Date.now()) {
    if (!this.shared) return;
    const wait = await this.clusterWait(typeof key === "string" ? key : key(), now);
    if (wait) throw rateLimited(wait);
  }

  /** Seconds until the key is under its limit again; 0 when it is now. */
  async waitFor(key: string | (() => string), now = Date.now()): Promise<number> {
    const local = this.localWait(key, now);
    if (local || !this.shared) return local;
    return await this.clusterWait(typeof key === "string" ? key : key(), now);
  }

  private async clusterWait(k: string, now: number): Promise<number> {
    const row = await this.shared!.counter.read(`${this.shared!.prefix}:${k}`, now).catch(() => null);
    if (!row || row.count < this.limit) return 0;
    return Math.max(1, Math.ceil((row.resetAt - now) / 1000));
  }

  private localWait(key: string | (() => string), now: number): number {
    if (!this.windows.size && !this.inFlight.size) return 0;
    const k = typeof key === "string" ? key : key();
    const pending = this.inFlight.get(k) ?? 0;
    const w = this.windows.get(k);
    if (w && w.resetAt <= now) this.windows.delete(k);
    const count = (w && w.resetAt > now ? w.count : 0) + pending;
    if (count < this.limit) return 0;
    return w && w.resetAt > now ? Math.max(1, Math.ceil((w.resetAt - now) / 1000)) : 1;
  }

  /**
   * Runs a slow verification (argon2) counted as a failure while it runs: a burst of concurrent guesses
   * from one key cannot all pass `check` before the first of them is recorded as failed.
   */
  async pending<T>(key: string, verify: () => Promise<T>): Promise<T> {
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    try {
      return await verify();
    } finally {
      const n = this.inFlight.get(key)! - 1;
      if (n) this.inFlight.set(key, n);
      else this.inFlight.delete(key);
    }
  }

  async fail(key: string, now = Date.now()) {
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
    else w.count++;
    if (this.windows.size > 100_000) this.sweep(now); // bounded memory under a flood of distinct keys
    await this.shared?.counter.add(`${this.shared.prefix}:${key}`, 1, this.windowMs, now).catch(() => {});
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}

/** "200/60s": at most 200 requests in each 60 seconds. */
export interface RateRule {
  requests: number;
  seconds: number;
}

export function parseRateRule(text: string): RateRule | null {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*s\s*$/.exec(text);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) return null;
  return { requests: Number(m[1]), seconds: Number(m[2]) };
}

/** Where a key stands after a request: the headers' figures for its tightest rule. */
export interface RateState {
  limit: number;
  remaining: number;
  /** UNIX seconds when that rule's window starts afresh. */
  reset: number;
}

/**
 * API request limits per key (a user id, or a client address) under one or more rules, each a fixed
 * window. Each key holds one Float64Array of [window start, count] per rule; a request allocates
 * nothing once its key is known, and `state` is one object reused for every answer.
 */
export class RequestLimiter<K> {
  private readonly windows = new Map<K, Float64Array>();
  readonly state: RateState = { limit: 0, remaining: 0, reset: 0 };
  /**
   * Several nodes (`share`): per key and rule, [aligned window, this node's requests sent for it, the
   * other nodes' count in it], as the last `sync` left them.
   */
  private shared: Map<K, Float64Array> | null = null;
  /** Requests allowed here since the last `sync`, per key. */
  private readonly unsynced = new Map<K, number>();

  constructor(private readonly rules: readonly RateRule[]) {}

  get enabled() {
    return this.rules.length > 0;
  }

  /** Counts one request for `key`: the key's state, or RATE_LIMIT_HIT (with Retry-After) when over a rule. */
  take(key: K, now = Date.now()): RateState {
    let w = this.windows.get(key);
    if (!w) {
      if (this.windows.size >= 100_000) this.sweep(now);
      this.windows.set(key, (w = new Float64Array(this.rules.length * 2)));
    }
    let tightest = -1;
    let least = Infinity;
    let wait = 0;
    for (let i = 0; i < this.rules.length; i++) {
      const r = this.rules[i]!;
      const ms = r.seconds * 1000;
      if (now - w[2 * i]! >= ms) {
        w[2 * i] = now; // a window starts with the first request after the last one ended
        w[2 * i + 1] = 0;
      }
      const left = r.requests - w[2 * i + 1]! - (this.shared ? this.others(key, i, ms, now) : 0);
      if (left <= 0) wait = Math.max(wait, w[2 * i]! + ms - now);
      if (left < least) (least = left), (tightest = i);
    }
    const r = this.rules[tightest]!;
    this.state.limit = r.requests;
    this.state.reset = Math.ceil((w[2 * tightest]! + r.seconds * 1000) / 1000);
    if (wait > 0) {
      this.state.remaining = 0;
      throw rateLimited(Math.max(1, Math.ceil(wait / 1000)), this.state);
    }
    for (let i = 0; i < this.rules.length; i++) w[2 * i + 1]!++;
    if (this.shared) this.unsynced.set(key, (this.unsynced.get(key) ?? 0) + 1);
    this.state.remaining = least - 1;
    return this.state;
  }

  /**
   * From now on the other nodes' requests count against each key's limits: `sync` (every second) adds
   * this node's requests to the cluster's count of the key's aligned window (`now / window`, the same on
   * every node) and keeps what the others counted there. A key's allowance here is its limit less this
   * node's count less the others' last known count, so the cluster exceeds a limit by at most a second
   * of the other nodes' requests for that key.
   */
  share() {
    this.shared ??= new Map();
  }

  private others(key: K, rule: number, ms: number, now: number): number {
    const s = this.shared!.get(key);
    return s && s[3 * rule] === Math.floor(now / ms) ? s[3 * rule + 2]! : 0;
  }

  /** Sends the requests counted since the last sync under `prefix` and learns the others' counts. */
  async sync(counter: SharedCounter, prefix: string, now = Date.now()) {
    if (!this.shared) return;
    // The keys counted since the last sync, and those with a window still open, to learn the others' counts.
    const counted = new Map(this.unsynced);
    this.unsynced.clear();
    for (const [key, s] of this.shared)
      if (!counted.has(key) && this.rules.some((r, i) => s[3 * i] === Math.floor(now / (r.seconds * 1000)))) counted.set(key, 0);
    if (!counted.size) return;
    const batch = [...counted];
    const items: { key: string; delta: number; resetAt: number }[] = [];
    for (const [key, n] of batch)
      this.rules.forEach((r, i) => {
        const ms = r.seconds * 1000;
        const win = Math.floor(now / ms);
        items.push({ key: `${prefix}:${String(key)}:${i}:${win}`, delta: n, resetAt: (win + 1) * ms });
      });
    const counts = await counter.addMany(items);
    let j = 0;
    for (const [key, n] of batch) {
      let s = this.shared.get(key);
      if (!s) this.shared.set(key, (s = new Float64Array(this.rules.length * 3)));
      for (let i = 0; i < this.rules.length; i++) {
        const win = Math.floor(now / (this.rules[i]!.seconds * 1000));
        if (s[3 * i] !== win) (s[3 * i] = win), (s[3 * i + 1] = 0);
        s[3 * i + 1]! += n;
        s[3 * i + 2] = Math.max(0, counts[j++]! - s[3 * i + 1]!);
      }
    }
  }

  private sweep(now: number) {
    const longest = Math.max(...this.rules.map((r) => r.seconds)) * 1000;
    for (const [k, w] of this.windows) {
      let live = false;
      for (let i = 0; i < w.length; i += 2) if (now - w[i]! < longest) live = true;
      if (!live) {
        this.windows.delete(k);
        this.shared?.delete(k);
      }
    }
  }
}

/** Zulip's rate-limit headers, on every answer to a limited request. */
export function rateHeaders(headers: Headers, limit: number, remaining: number, reset: number) {
  headers.set("X-RateLimit-Limit", String(limit));
  headers.set("X-RateLimit-Remaining", String(remaining));
  headers.set("X-RateLimit-Reset", String(reset));
}
