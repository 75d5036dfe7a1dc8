// At most one event per key per interval, and none lost: the first hit of a quiet key goes at once;
// hits within the interval after it are folded into one trailing call at the interval's end, which
// reads the latest state then. So a burst of changes costs two events, and the last one is current.
// The interval runs from when an event actually left (`sent`, after its commit), not from when it was
// decided, so a slow commit cannot bring two events closer than the interval.
export class Throttle {
  private last = new Map<string, number>();
  private pending = new Map<string, ReturnType<typeof setTimeout>>();
  private takes = 0;

  constructor(
    private readonly intervalMs: number,
    /** Sends the trailing event for a key (reads the state as it is by then) and calls `sent` once it left. */
    private readonly trailing: (key: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether an event for `key` may go now; if not, one is scheduled for the end of the interval. */
  take(key: string): boolean {
    if (++this.takes % 1024 === 0) this.sweep();
    const t = this.now();
    const last = this.last.get(key);
    if (!this.pending.has(key) && (last === undefined || t - last >= this.intervalMs)) {
      this.last.set(key, t);
      return true;
    }
    if (!this.pending.has(key)) this.schedule(key, last! + this.intervalMs - t);
    return false;
  }

  /** The event for `key` left now: the next may follow one interval later. */
  sent(key: string) {
    this.last.set(key, Math.max(this.last.get(key) ?? 0, this.now()));
  }

  private schedule(key: string, ms: number) {
    const timer = setTimeout(() => this.fire(key), Math.max(0, ms));
    timer.unref?.();
    this.pending.set(key, timer);
  }

  private fire(key: string) {
    const wait = (this.last.get(key) ?? 0) + this.intervalMs - this.now();
    if (wait > 0) return this.schedule(key, wait); // the previous event left later than planned
    this.pending.delete(key);
    this.last.set(key, this.now());
    this.trailing(key);
  }

  /** Keys with no event in the last interval and none pending are forgotten (they would go at once anyway). */
  sweep() {
    const t = this.now();
    for (const [key, last] of this.last) if (t - last >= this.intervalMs && !this.pending.has(key)) this.last.delete(key);
  }

  close() {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }
}
