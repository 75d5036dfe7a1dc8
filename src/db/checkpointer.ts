// The server's WAL checkpoints, off its event loop. SQLite's own automatic checkpoint runs inside the
// COMMIT that crosses 1,000 frames of WAL: it copies pages into the database file and fsyncs it on the
// thread that serves requests, and under a burst of sends such a COMMIT took over 100 ms (bench perf2's
// burst). Here the server's connection does not checkpoint (wal_autocheckpoint = 0); after a COMMIT it
// looks at the WAL (PRAGMA wal_checkpoint(NOOP), under a microsecond) and, past CHECKPOINT_FRAMES frames
// not yet copied, asks a helper process for a PASSIVE checkpoint, on a connection of its own, with the
// syncs SQLite makes at synchronous=NORMAL (the WAL before copying, the database file after).
//
// The helper is this executable acting as plain Bun (BUN_BE_BUN=1), as the integrity check is
// (db/integrity.ts): a Worker would keep a second JavaScript VM in the server's memory. It starts on the
// first checkpoint needed and ends after IDLE_MS without one, so an idle server keeps no second process.
// It ends when its input does (the server stopped, or was killed) without closing its connection: as the
// last connection of a killed server, closing would checkpoint and delete the WAL under an exclusive
// lock, refusing whoever opens the file next (SQLITE_BUSY) for that moment.
//
// A WAL restarts (writes start again from its beginning) only when a writer begins while every frame is
// copied. Under sends without a pause the helper never quite catches up, so past VALVE_FRAMES the
// server's connection checkpoints again as SQLite does by itself, which copies only what the helper has
// not and lets the WAL restart; once it has, the helper takes over again. If the helper cannot run, the
// connection checkpoints as SQLite does by itself.
import type { Database } from "bun:sqlite";
import type { Subprocess } from "bun";
import type { Logger } from "../lib/log";
import type { Histogram } from "../lib/metrics";

/** SQLite's own threshold (its default wal_autocheckpoint): ~4 MB of WAL at 4 KB pages. */
export const CHECKPOINT_FRAMES = 1000;
/** Past this many frames (~40 MB) the server's connection checkpoints too, so the WAL can restart. */
const VALVE_FRAMES = 10_000;
const IDLE_MS = 60_000;

const HELPER = `import { Database } from "bun:sqlite";
const db = new Database(process.argv.at(-1), { readwrite: true });
db.run("PRAGMA synchronous = NORMAL");
const checkpoint = db.query("PRAGMA wal_checkpoint(PASSIVE)");
for await (const _ of Bun.stdin.stream()) {
  const t0 = performance.now();
  let out;
  try { out = { ...checkpoint.get(), ms: performance.now() - t0 }; } catch (e) { out = { error: String((e && e.message) || e) }; }
  process.stdout.write(JSON.stringify(out) + "\\n");
}
process.exit(0);`;

type Answer = { busy: number; log: number; checkpointed: number; ms: number } | { error: string };

export class Checkpointer {
  private helper: Subprocess<"pipe", "pipe", "pipe"> | null = null;
  private asking = false;
  private idle: Timer | null = null;
  /** The helper failed: SQLite's own checkpoints from here on. */
  private failed = false;
  private valveOpen = false;
  private readonly look;

  constructor(
    private readonly sqlite: Database,
    private readonly path: string,
    private readonly log: Logger,
    private readonly seconds: Histogram | null = null,
  ) {
    sqlite.run("PRAGMA wal_autocheckpoint = 0");
    this.look = sqlite.query<{ log: number; checkpointed: number }, []>("PRAGMA wal_checkpoint(NOOP)");
  }

  /** After each COMMIT on the server's connection (and after each checkpoint, to see if another is due). */
  committed() {
    if (this.failed || this.asking) return;
    // SQLite refuses the look (SQLITE_LOCKED) while a transaction is open on the connection: the writer's
    // batch, when a checkpoint's answer comes in the middle of it. Its COMMIT looks again.
    if (this.sqlite.inTransaction) return;
    const { log, checkpointed } = this.look.get()!;
    this.valve(log >= VALVE_FRAMES);
    if (log - checkpointed >= CHECKPOINT_FRAMES) this.ask();
  }

  /**
   * At shutdown: ends the helper, and copies the whole WAL into the database file here, so the file alone
   * is complete once the server has stopped (closing may not be last while the helper still ends).
   */
  close() {
    this.end();
    try {
      this.sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
    } catch (e) {
      this.log.warn("the last WAL checkpoint failed; the next start replays the WAL", { error: String((e as Error).message) });
    }
  }

  /** Ends the helper (it exits when its input ends); the next checkpoint needed starts another. */
  private end() {
    if (this.idle) clearTimeout(this.idle);
    this.helper?.stdin.end();
    this.helper = null;
  }

  /** The server's connection checkpoints (inside its COMMITs) while `open`. */
  private valve(open: boolean) {
    if (open === this.valveOpen) return;
    this.valveOpen = open;
    this.sqlite.run(`PRAGMA wal_autocheckpoint = ${open ? CHECKPOINT_FRAMES : 0}`);
  }

  private ask() {
    this.asking = true;
    if (this.idle) clearTimeout(this.idle);
    const helper = (this.helper ??= this.start());
    helper.stdin.write("c");
    helper.stdin.flush();
  }

  private start() {
    const helper = Bun.spawn([process.execPath, "-e", HELPER, this.path], {
      env: { ...process.env, BUN_BE_BUN: "1" },
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    helper.unref();
    void this.read(helper);
    return helper;
  }

  /** The helper's answers, one line each; its end (idle, close, or a failure). */
  private async read(helper: Subprocess<"pipe", "pipe", "pipe">) {
    let rest = "";
    const decoder = new TextDecoder();
    for await (const chunk of helper.stdout) {
      rest += decoder.decode(chunk, { stream: true });
      for (let nl = rest.indexOf("\n"); nl >= 0; nl = rest.indexOf("\n")) {
        try {
          this.answered(JSON.parse(rest.slice(0, nl)) as Answer);
        } catch (e) {
          this.giveUp(String((e as Error).message)); // never the server's crash
        }
        rest = rest.slice(nl + 1);
      }
    }
    const code = await helper.exited;
    if (this.helper !== helper) return; // ended here: idle or closing
    this.helper = null;
    this.giveUp(`the checkpoint process exited (code ${code}): ${(await new Response(helper.stderr).text()).trim().slice(0, 500)}`);
  }

  private answered(a: Answer) {
    this.asking = false;
    if ("error" in a) return this.giveUp(a.error);
    this.seconds?.observe(a.ms / 1000);
    this.committed(); // what was committed while it copied, if that is enough for another
    if (this.asking) return;
    this.idle = setTimeout(() => this.end(), IDLE_MS);
    this.idle.unref();
  }

  private giveUp(why: string) {
    if (this.failed) return;
    this.failed = true;
    this.end();
    this.sqlite.run(`PRAGMA wal_autocheckpoint = ${CHECKPOINT_FRAMES}`);
    this.log.warn("WAL checkpoints run inside COMMIT again", { why });
  }
}
