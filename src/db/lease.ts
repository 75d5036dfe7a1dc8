// Work that runs on exactly one node of a PostgreSQL cluster (docs/scaling.md, section 7): the plugin
// supervisor, the agent runner, housekeeping. A lease is a session advisory lock held on a connection
// kept for it alone. PostgreSQL ends the lock with the session, so a node that dies (its process, its
// machine, its network) loses its leases without any timeout of ours, and a node waiting in
// `pg_advisory_lock` has it at once (2.4–4.5 ms after the holder's SIGKILL in the probes).
// A holder whose lease connection breaks stops the leased work at once: it can no longer prove it holds it.
import type { SQL } from "bun";

/** The first key of every lease's two-key advisory lock, so that leases never meet other advisory locks. */
export const LEASE_CLASS = 0x6c656173; // "leas"

export interface LeaseOptions {
  /** The PostgreSQL URL; the lease opens a connection of its own. */
  url: string;
  /** Which lease: one number per kind of work (or per plugin install). */
  key: number;
  /** Called when this node holds the lease: start the work. */
  onAcquired: () => void;
  /** Called when this node stops holding it (connection lost or `stop()`): stop the work at once. */
  onLost: (why: string) => void;
  /** How long to wait before trying again after the connection failed (ms). */
  retryMs?: number;
  /**
   * How often the holder checks that its connection still answers (ms). A check that fails, or gets no
   * answer within the same time (a node cut off from PostgreSQL rather than dead), ends the lease here;
   * PostgreSQL ends it on its side when its TCP keepalives give up on this node (docs/scaling.md).
   */
  checkMs?: number;
}

export class Lease {
  private conn: SQL | null = null;
  private stopped = false;
  private holding = false;
  private loop: Promise<void> | null = null;

  constructor(private readonly o: LeaseOptions) {}

  /** Whether this node holds the lease now. */
  get held() {
    return this.holding;
  }

  /** Starts waiting for the lease in the background; it is taken as soon as no other node holds it. */
  start() {
    this.loop ??= this.run();
  }

  /** Gives the lease up (closing its connection ends the lock, or the wait for it) and stops trying. */
  async stop() {
    this.stopped = true;
    await this.conn?.close({ timeout: 0 }).catch(() => {});
    await this.loop;
  }

  private async run() {
    while (!this.stopped) {
      let closed!: (why: string) => void;
      const whenClosed = new Promise<string>((resolve) => (closed = resolve));
      const conn = new Bun.SQL(this.o.url, { max: 1, idleTimeout: 0, onclose: (err) => closed(String(err?.message ?? "connection closed")) });
      this.conn = conn;
      let why: string;
      try {
        // Waits inside PostgreSQL while another session holds the lock; answers the moment it is free.
        await conn`SELECT pg_advisory_lock(${LEASE_CLASS}::int, ${this.o.key}::int)`;
        if (this.stopped) break;
        this.holding = true;
        this.o.onAcquired();
        why = await watch(conn, whenClosed, this.o.checkMs ?? 1000, () => this.stopped);
      } catch (e) {
        why = String((e as Error)?.message ?? e);
      }
      if (this.holding) {
        this.holding = false;
        this.o.onLost(this.stopped ? "stopped" : why);
      }
      await conn.close({ timeout: 0 }).catch(() => {});
      if (!this.stopped) await Bun.sleep(this.o.retryMs ?? 1000);
    }
    if (this.holding) {
      this.holding = false;
      this.o.onLost("stopped");
    }
  }
}

/** Resolves with a reason once the connection closes, fails, or stops answering a trivial query in time. */
async function watch(conn: SQL, whenClosed: Promise<string>, every: number, stopped: () => boolean): Promise<string> {
  const after = (ms: number, why: string | null) => new Promise<string | null>((resolve) => setTimeout(() => resolve(why), ms));
  for (;;) {
    const closed = await Promise.race([whenClosed, after(every, null)]);
    if (closed !== null) return closed;
    if (stopped()) return "stopped";
    const answer = conn`SELECT 1`.then(
      () => null,
      (e: unknown) => `the lease connection failed: ${String((e as Error)?.message ?? e)}`,
    );
    const problem = await Promise.race([answer, whenClosed, after(every, `no answer from PostgreSQL within ${every} ms`)]);
    if (problem !== null) return problem;
  }
}

/** The first key of the lock that marks a node present among the plugin lease holders (see `LeaseSet`). */
export const PRESENCE_CLASS = 0x6e6f6465; // "node"

/**
 * Many leases on one connection (the plugin supervisor's, one per install): each is taken with
 * `pg_try_advisory_lock`, never waited for, so a node asks for as many as its share and no more, and a
 * hundred installs cost one connection, not a hundred. While the connection lives it also holds a
 * presence lock, so that the nodes taking such leases can be counted (`liveNodes`). When the connection
 * closes, fails or stops answering every lease goes at once (`onLost`); the next `take` opens a new one.
 */
export class LeaseSet {
  private conn: SQL | null = null;
  private opening: Promise<SQL> | null = null;
  private readonly keys = new Set<number>();
  private stopped = false;

  constructor(private readonly o: { url: string; onLost: (why: string) => void; checkMs?: number }) {}

  /** The leases this node holds now. */
  get held(): ReadonlySet<number> {
    return this.keys;
  }

  /** Takes the lease `key` if no node holds it; whether this node holds it now. */
  async take(key: number): Promise<boolean> {
    if (this.keys.has(key)) return true;
    const conn = await this.connection();
    const [row] = await conn`SELECT pg_try_advisory_lock(${LEASE_CLASS}::int, ${key}::int) AS ok`;
    if (!row?.ok || this.conn !== conn) return false;
    this.keys.add(key);
    return true;
  }

  /** Gives one lease up, for another node to take. */
  async release(key: number) {
    if (!this.keys.delete(key) || !this.conn) return;
    await this.conn`SELECT pg_advisory_unlock(${LEASE_CLASS}::int, ${key}::int)`;
  }

  /** How many nodes hold a LeaseSet's connection now (this one included once it has taken any). */
  async liveNodes(): Promise<number> {
    const conn = await this.connection();
    // pg_locks shows every database's locks; advisory locks are each database's own.
    const [row] = await conn`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = ${PRESENCE_CLASS} AND granted
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
    return Math.max(1, Number(row?.n ?? 1));
  }

  /** Gives every lease up (closing the connection ends the locks). */
  async stop() {
    this.stopped = true;
    const conn = this.conn;
    this.conn = null;
    this.keys.clear();
    await conn?.close({ timeout: 0 }).catch(() => {});
  }

  private async connection(): Promise<SQL> {
    if (this.stopped) throw new Error("the leases were given up");
    if (this.conn) return this.conn;
    this.opening ??= this.open().finally(() => (this.opening = null));
    return await this.opening;
  }

  private async open(): Promise<SQL> {
    let closed!: (why: string) => void;
    const whenClosed = new Promise<string>((resolve) => (closed = resolve));
    const conn = new Bun.SQL(this.o.url, { max: 1, idleTimeout: 0, onclose: (err) => closed(String(err?.message ?? "connection closed")) });
    try {
      await conn`SELECT pg_advisory_lock(${PRESENCE_CLASS}::int, pg_backend_pid())`;
    } catch (e) {
      await conn.close({ timeout: 0 }).catch(() => {});
      throw e;
    }
    this.conn = conn;
    void watch(conn, whenClosed, this.o.checkMs ?? 1000, () => this.stopped).then(async (why) => {
      if (this.conn !== conn) return;
      this.conn = null;
      const had = this.keys.size > 0;
      this.keys.clear();
      await conn.close({ timeout: 0 }).catch(() => {});
      if (had && !this.stopped) this.o.onLost(why);
    });
    return conn;
  }
}
