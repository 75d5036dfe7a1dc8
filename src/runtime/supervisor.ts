// The plugin host: keeps a child process running for each live install (or, for a remote plugin, a
// health check), restarts it with a growing delay, and gives up after five failures in a row. Every
// state change goes through the actions (setPluginState), so it is stored and evented like any other.
//
// A process "answers" when its bot makes its first authenticated API call (noted in actions/auth.ts):
// until then the install is `starting`; a crash, a non-zero exit, or no answer within the start timeout
// is a failure. A run that stays up long enough after answering resets the count.
//
// Each child runs in its own session and process group (setsid), so stopping it signals the whole
// group: SIGTERM, then SIGKILL after the grace period, and nothing it started is left behind. The groups
// are recorded in the data directory, so a server that was killed outright ends them on its next start.
//
// On PostgreSQL several nodes run a host each, and an install runs on the node holding its lease (one per
// install, `pg_try_advisory_lock` on one connection per node: db/lease.ts `LeaseSet`). Each node takes
// leases up to its share, ceil(live installs / live nodes), and gives back what is beyond it, so installs
// spread; a node that dies loses its leases with its connection and the others take them at their next
// look (plugins.poll_ms). Before starting an install whose lease it just took, a node ends what a dead
// node on this machine left of it (the ledger file is one node's, so it is not kept there).
import { appendFileSync, existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import { endStrays, GroupLedger, killGroup, signalGroup } from "./process-groups";
import { LeaseSet } from "../db/lease";
import { findUserById } from "../store/users";
import { onWake, sendWake } from "./wakes";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { findPluginRow, listHostedPlugins, pluginCheckout, pluginDir, pluginOutputFile, pluginRunEnv } from "../actions/plugin-processes";
import { finalizeRemovals } from "../actions/plugin-removal";
import { confirmStartable, reviewWaitingPlugin, setPluginState } from "../actions/plugin-states";
import type { App } from "../context";
import { detached, logFailure } from "../lib/detached";
import type { PluginRow } from "../db/schema";
import { FAILURES_BEFORE_FAILED, isLive } from "../domain/plugins";

/** Lines of output kept in memory per plugin; `detail` of a failed one shows the last DETAIL_LINES. */
const KEPT_LINES = 200;
const DETAIL_LINES = 20;
/** The output file is rotated (one old copy kept) beyond this size. */
const OUTPUT_FILE_MAX = 1 << 20;
/** How often removals older than a week are made final. */
const FINALIZE_EVERY_MS = 3600_000;
/** A bot's call heard on a node that does not run its plugin is told to the others at most this often. */
const RELAY_CALL_EVERY_MS = 1000;

/** One try at running an install: a process, or a remote health check loop. */
interface Run {
  proc: Subprocess | null;
  answered: boolean;
  /** Stopped by the host (a restart, a removal, shutdown): its end is not a failure. */
  stopping: boolean;
  exited: Promise<void>;
  timers: ReturnType<typeof setTimeout>[];
}

/** What the host keeps per live install, across restarts. */
interface Slot {
  id: number;
  botUserId: number;
  revision: number;
  remote: boolean;
  failures: number;
  lines: string[];
  run: Run | null;
  /** A restart waits for the delay. */
  retry: ReturnType<typeof setTimeout> | null;
  /** Start again once the current run has ended (its revision changed). */
  relaunch: boolean;
}

export class PluginSupervisor {
  private slots = new Map<number, Slot>();
  private byBot = new Map<number, Slot>();
  private poll: ReturnType<typeof setInterval> | null = null;
  private finalize: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private reconciling = false;
  private again = false;
  private readonly cfg;
  /** SQLite's one server: the groups on record. PostgreSQL: null, and an install's lease instead. */
  private readonly groups: GroupLedger | null;
  private readonly leases: LeaseSet | null;
  private readonly relayed = new Map<number, number>();

  constructor(private readonly app: App) {
    this.cfg = app.config.plugins;
    const clustered = app.config.storage.driver === "postgres";
    this.groups = clustered ? null : new GroupLedger(join(app.config.dataDir, "plugins", "process-groups.json"), "EXT_INSTALL_ID");
    this.leases = clustered
      ? new LeaseSet({
          url: app.config.storage.url,
          onLost: (why) => {
            this.app.log.warn("plugin leases lost: stopping this node's plugins", { why });
            for (const slot of this.slots.values()) this.unawaited(() => this.drop(slot));
          },
        })
      : null;
  }

  async start() {
    mkdirSync(join(this.app.config.dataDir, "plugins"), { recursive: true });
    this.groups?.endLeftovers();
    this.app.listeners.pluginsChanged = this.detached(() => this.reconcile());
    this.app.listeners.botCalled = (botUserId) => this.botCalled(botUserId, true);
    onWake(this.app, "botCalled", (id) => this.botCalled(id as number, false));
    await finalizeRemovals(this.app);
    this.poll = setInterval(
      this.detached(() => this.reconcile()),
      this.cfg.pollMs,
    );
    this.finalize = setInterval(
      this.detached(() => finalizeRemovals(this.app)),
      FINALIZE_EVERY_MS,
    );
    await this.reconcile();
  }

  /** Stops every child (SIGTERM, then SIGKILL after the grace period) and waits until none is left. */
  async stop() {
    if (this.stopped) return;
    this.stopped = true;
    delete this.app.listeners.pluginsChanged;
    delete this.app.listeners.botCalled;
    onWake(this.app, "botCalled", null);
    if (this.poll) clearInterval(this.poll);
    if (this.finalize) clearInterval(this.finalize);
    await Promise.all([...this.slots.values()].map((s) => this.drop(s)));
    this.recordGroups();
    await this.leases?.stop();
  }

  /**
   * A bot made an authenticated call: the first of its plugin's run here means it answers. Heard on a
   * node that does not run the plugin (a proxy sent the call elsewhere), it is told to the other nodes.
   */
  private botCalled(botUserId: number, here: boolean) {
    const slot = this.byBot.get(botUserId);
    if (slot?.run && !slot.run.answered && !slot.run.stopping) queueMicrotask(this.detached(() => this.answered(slot, slot.run!)));
    else if (here && !slot && this.leases) {
      const now = Date.now();
      if (now - (this.relayed.get(botUserId) ?? 0) < RELAY_CALL_EVERY_MS) return;
      if (this.relayed.size > 10_000) this.relayed.clear();
      this.relayed.set(botUserId, now);
      sendWake(this.app, "botCalled", botUserId);
    }
  }

  /**
   * Of the live installs, those this node runs: all of them on SQLite; on PostgreSQL those whose lease it
   * holds, taking free ones up to its share and giving back what is beyond it (the highest ids first).
   */
  private async claim(rows: PluginRow[]): Promise<Set<number>> {
    if (!this.leases) return new Set(rows.map((r) => r.id));
    const live = new Set(rows.map((r) => r.id));
    for (const id of [...this.leases.held]) if (!live.has(id)) await this.leases.release(id);
    const share = Math.ceil(rows.length / (await this.leases.liveNodes()));
    const mine = rows.map((r) => r.id).filter((id) => this.leases!.held.has(id));
    for (const id of mine.splice(share).reverse()) await this.leases.release(id);
    for (const row of rows) {
      if (mine.length >= share) break;
      if (this.leases.held.has(row.id) || !(await this.leases.take(row.id))) continue;
      mine.push(row.id);
      // What a node that died on this machine left of this install ends before it starts here.
      const bot = await findUserById(this.app.db, row.botUserId);
      if (bot) await endStrays("EXT_INSTALL_ID", String(row.id), `EXT_API_KEY=${bot.apiKey}`, this.cfg.shutdownGraceMs);
    }
    return new Set(mine);
  }

  /** How many installs have a process or health check going (for the benchmark and the memory report). */
  get running() {
    let n = 0;
    for (const s of this.slots.values()) if (s.run && !s.run.stopping) n++;
    return n;
  }

  // ---- Keeping processes in line with the installs ----

  /** Compares the installs with what runs, and starts, restarts or stops. */
  private async reconcile() {
    if (this.stopped) return;
    if (this.reconciling) {
      this.again = true;
      return;
    }
    this.reconciling = true;
    try {
      do {
        this.again = false;
        const rows = await listHostedPlugins(this.app);
        const live = new Set<number>();
        const candidates: PluginRow[] = [];
        for (const row of rows) {
          if (row.state === "waiting" && !row.disabled) await reviewWaitingPlugin(this.app, row);
          if (isLive(row.state) && !row.disabled && row.dateRemoved === null) candidates.push(row);
        }
        const mine = await this.claim(candidates);
        for (const row of candidates) {
          if (!mine.has(row.id)) continue;
          live.add(row.id);
          const slot = this.slots.get(row.id);
          if (!slot) await this.launch(this.newSlot(row));
          else if (slot.revision !== row.revision) {
            // Given something new (settings, secrets, enabled again): start afresh.
            slot.revision = row.revision;
            slot.failures = 0;
            slot.lines = [];
            if (slot.retry) {
              clearTimeout(slot.retry);
              slot.retry = null;
            }
            if (slot.run) {
              slot.relaunch = true;
              this.unawaited(() => this.end(slot.run!));
            } else await this.launch(slot);
          }
        }
        for (const slot of this.slots.values()) if (!live.has(slot.id)) this.unawaited(() => this.drop(slot));
      } while (this.again);
    } catch (e) {
      if (!this.stopped) this.app.log.error("plugin host", { error: String((e as Error)?.stack ?? e) }); // stopping closes the leases under it
    } finally {
      this.reconciling = false;
    }
  }

  private newSlot(row: PluginRow): Slot {
    const slot: Slot = {
      id: row.id,
      botUserId: row.botUserId,
      revision: row.revision,
      remote: row.sourceKind === "remote",
      failures: 0,
      lines: [],
      run: null,
      retry: null,
      relaunch: false,
    };
    this.slots.set(row.id, slot);
    this.byBot.set(row.botUserId, slot);
    return slot;
  }

  /** Forgets an install: its run is ended and no restart is pending. */
  private async drop(slot: Slot) {
    this.slots.delete(slot.id);
    this.byBot.delete(slot.botUserId);
    if (slot.retry) clearTimeout(slot.retry);
    slot.retry = null;
    slot.relaunch = false;
    if (slot.run) await this.end(slot.run);
  }

  private async launch(slot: Slot) {
    if (this.stopped || this.slots.get(slot.id) !== slot) return;
    slot.retry = null;
    slot.relaunch = false;
    if (!(await confirmStartable(this.app, slot.id))) return this.unawaited(() => this.drop(slot));
    const row = await findPluginRow(this.app, slot.id);
    // A look that read the install before it failed (or was turned off) meanwhile starts nothing.
    if (!row || !isLive(row.state) || row.disabled || row.dateRemoved !== null) return this.unawaited(() => this.drop(slot));
    // A restart after a failure, or after a change, is `starting` again until it answers.
    await setPluginState(this.app, slot.id, "starting", "", { from: ["running", "starting"] });
    if (slot.remote) this.checkHealth(slot, row);
    else await this.spawn(slot, row);
  }

  // ---- Processes ----

  private async spawn(slot: Slot, row: PluginRow) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && (k === "PATH" || k === "HOME" || k === "LANG" || k === "LANGUAGE" || k.startsWith("LC_"))) env[k] = v;
    let proc: Subprocess<"ignore", "pipe", "pipe">;
    try {
      Object.assign(env, await pluginRunEnv(this.app, row));
      const cwd = pluginCheckout(this.app, row);
      if (!existsSync(cwd)) throw new Error(`its checkout ${cwd} is missing`);
      proc = Bun.spawn(row.manifest.run!.command, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe", detached: true });
    } catch (e) {
      this.note(slot, `[confab] could not start: ${(e as Error).message}`);
      return await this.failed(slot, null);
    }
    const run: Run = { proc, answered: false, stopping: false, exited: Promise.resolve(), timers: [] };
    slot.run = run;
    this.recordGroups();
    this.note(slot, `[confab] started pid ${proc.pid}`, false);
    const pumped = Promise.all([this.pump(slot, proc.stdout), this.pump(slot, proc.stderr)]);
    run.exited = proc.exited
      .then(async (code) => {
        await pumped;
        await killGroup(proc.pid, this.cfg.shutdownGraceMs, run.stopping); // what it left behind goes too
        await this.ended(slot, run, code, proc.signalCode);
      })
      .catch(logFailure(this.app.log, "plugin host")); // never rejects: end() and stop() wait for it
    run.timers.push(
      setTimeout(() => {
        if (run.answered || run.stopping) return;
        this.note(slot, `[confab] no API call within ${this.cfg.startTimeoutMs} ms`, false);
        run.stopping = true; // ended by the host, but counted: it never answered
        this.unawaited(async () => {
          await this.end(run);
          await this.failed(slot, run);
        });
      }, this.cfg.startTimeoutMs),
    );
  }

  /** Keeps the process's lines (in memory and in its output file), each as it completes. */
  private async pump(slot: Slot, stream: ReadableStream<Uint8Array>) {
    const decoder = new TextDecoder();
    let partial = "";
    for await (const chunk of stream) {
      const text = partial + decoder.decode(chunk, { stream: true });
      const lines = text.split("\n");
      partial = lines.pop()!;
      for (const l of lines) this.note(slot, l);
    }
    if (partial) this.note(slot, partial);
  }

  private note(slot: Slot, line: string, kept = true) {
    if (kept) {
      slot.lines.push(line);
      if (slot.lines.length > KEPT_LINES) slot.lines.splice(0, slot.lines.length - KEPT_LINES);
    }
    const file = pluginOutputFile(this.app, slot.id);
    try {
      if (existsSync(file) && statSync(file).size > OUTPUT_FILE_MAX) renameSync(file, `${file}.1`);
      mkdirSync(pluginDir(this.app, slot.id), { recursive: true });
      appendFileSync(file, line + "\n");
    } catch {
      // The output file is for people reading logs; the plugin runs on without it.
    }
  }

  private async ended(slot: Slot, run: Run, code: number | null, signal: NodeJS.Signals | number | null) {
    run.timers.forEach(clearTimeout);
    if (slot.run === run) slot.run = null;
    this.recordGroups();
    if (run.stopping) {
      if (slot.relaunch && this.slots.get(slot.id) === slot) await this.launch(slot);
      return;
    }
    this.note(slot, `[confab] exited ${signal ? `on ${signal}` : `with code ${code}`}`, false);
    await this.failed(slot, run);
  }

  /** The process answered: running, and after a long enough run its failures are forgiven. */
  private async answered(slot: Slot, run: Run) {
    if (run.answered || run.stopping || slot.run !== run) return;
    run.answered = true;
    await setPluginState(this.app, slot.id, "running", "", { from: ["starting"] });
    run.timers.push(setTimeout(() => (slot.failures = 0), this.cfg.healthyRunMs));
  }

  /** A failure: try again after a growing delay, or after five in a row, `failed` with the last lines. */
  private async failed(slot: Slot, run: Run | null) {
    if (this.stopped || this.slots.get(slot.id) !== slot) return;
    if (run && slot.run === run) slot.run = null;
    slot.failures++;
    if (slot.failures >= FAILURES_BEFORE_FAILED) {
      await setPluginState(this.app, slot.id, "failed", slot.lines.slice(-DETAIL_LINES).join("\n"), { from: ["starting", "running"] });
      this.unawaited(() => this.drop(slot));
      return;
    }
    await setPluginState(this.app, slot.id, "starting", "", { from: ["running", "starting"] });
    this.app.metrics.pluginRestarts++;
    const delay = Math.min(this.cfg.maxRestartDelayMs, this.cfg.restartDelayMs * 2 ** (slot.failures - 1));
    slot.retry = setTimeout(
      this.detached(() => this.launch(slot)),
      delay,
    );
  }

  /** Ends a run: its process group gets SIGTERM, then SIGKILL after the grace period. */
  private async end(run: Run) {
    run.stopping = true;
    run.timers.forEach(clearTimeout);
    if (run.proc) {
      signalGroup(run.proc.pid, "SIGTERM");
      const kill = setTimeout(() => signalGroup(run.proc!.pid, "SIGKILL"), this.cfg.shutdownGraceMs);
      await run.exited;
      clearTimeout(kill);
    }
  }

  // ---- Remote plugins ----

  /** A remote plugin is running while `<address>/health` answers 2xx; each miss is a failure. */
  private checkHealth(slot: Slot, row: PluginRow) {
    const run: Run = { proc: null, answered: false, stopping: false, exited: Promise.resolve(), timers: [] };
    slot.run = run;
    const check = async () => {
      if (run.stopping) return;
      let problem: string | null = null;
      try {
        const res = await fetch(`${row.source}/health`, { signal: AbortSignal.timeout(Math.min(5000, this.cfg.healthIntervalMs)) });
        await res.arrayBuffer();
        if (!res.ok) problem = `HTTP ${res.status}`;
      } catch (e) {
        problem = (e as Error).message;
      }
      if (run.stopping || slot.run !== run) return;
      if (!problem) {
        slot.failures = 0;
        if (!run.answered) await this.answered(slot, run);
      } else {
        this.note(slot, `health check of ${row.source}: ${problem}`);
        slot.failures++;
        if (slot.failures >= FAILURES_BEFORE_FAILED) {
          run.stopping = true;
          await setPluginState(this.app, slot.id, "failed", slot.lines.slice(-DETAIL_LINES).join("\n"), { from: ["starting", "running"] });
          return this.unawaited(() => this.drop(slot));
        }
        if (run.answered) {
          run.answered = false;
          await setPluginState(this.app, slot.id, "starting", "", { from: ["running"] });
        }
      }
      run.timers.push(setTimeout(this.detached(check), this.cfg.healthIntervalMs));
    };
    this.unawaited(check);
  }

  // ---- Process groups on record ----

  /** `fn` for a timer or a listener: its failure is logged, as the plugin host's. */
  private detached<A extends unknown[]>(fn: (...args: A) => Promise<unknown>): (...args: A) => void {
    return detached(this.app.log, "plugin host", fn);
  }

  /** Starts `fn` without waiting for it; its failure is logged. */
  private unawaited(fn: () => Promise<unknown>) {
    this.detached(fn)();
  }

  private recordGroups() {
    if (!this.groups) return;
    const groups: Record<string, number> = {};
    for (const s of this.slots.values()) if (s.run?.proc && s.run.proc.exitCode === null) groups[s.id] = s.run.proc.pid;
    this.groups.record(groups);
  }
}

/** Starts the plugin host for a server; `stop()` at shutdown. */
export async function startPluginHost(app: App): Promise<PluginSupervisor> {
  const host = new PluginSupervisor(app);
  await host.start();
  return host;
}
