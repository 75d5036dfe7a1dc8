/**
 * A clock for `app.now()` that tests move instead of ageing rows by hand. It reaches the app only
 * through `createApp`'s `now` option (the test server passes it), so no API user can touch it.
 */
export class TestClock {
  private offset = 0;
  private fixed: number | null = null;
  /** UNIX seconds, as `app.now()` answers them: the real time moved by `advance`, or the one `set`. */
  readonly now = () => this.fixed ?? Math.floor(Date.now() / 1000) + this.offset;
  /** Moves the clock forward (negative: back) by `seconds` and leaves it there. */
  advance(seconds: number) {
    if (this.fixed === null) this.offset += seconds;
    else this.fixed += seconds;
  }
  /** Stops the clock at `unixSeconds` until the next `set` or `reset`. */
  set(unixSeconds: number) {
    this.fixed = unixSeconds;
  }
  /** Back to the real time. */
  reset() {
    this.offset = 0;
    this.fixed = null;
  }
  /** Runs `fn` with the clock `seconds` ahead, then moves it back. */
  async during<T>(seconds: number, fn: () => Promise<T> | T): Promise<T> {
    this.advance(seconds);
    try {
      return await fn();
    } finally {
      this.advance(-seconds);
    }
  }
}
