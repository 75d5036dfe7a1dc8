// The agent's processes. A message that mentions the agent's bot in a topic, or is written to it,
// starts a run there or asks the run going there for another turn. Each turn starts agent.command in
// a process group of its own, with the conversation on standard input; what it writes to standard
// output is posted by the bot. A turn past agent.turn_timeout_seconds is stopped; after a turn that
// ended well the run waits agent.run_idle_seconds for the next one. On shutdown every turn is
// stopped and no process of it is left behind; the groups of live turns are on record in the data
// directory, so a server that was killed outright ends them on its next start.
import { mkdirSync, rmSync } from "node:fs";
import { GroupLedger, signalGroup } from "./process-groups";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { App, SentMessage } from "../context";
import { agentEnabled, agentBot } from "../actions/agent";
import { beginTurn, endRun, postInRun, recordTurnExit, replyAsAgent, setTurnControl, startRun, type Turn } from "../actions/agent-runs";
import { outputMessages } from "../domain/agent-runs";
import { isGuest } from "../domain/roles";
import { flushReadme, syncReadmeFromFile } from "../actions/readme";
import { topicWorkspace } from "../actions/workspace-access";
import { failStaleRuns, findAgentBot, findLiveRun, findRun } from "../store/agent-runs";
import { listRealms } from "../store/realms";
import { findUserById } from "../store/users";
import { detached, logFailure } from "../lib/detached";

/** How long a stopped turn gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 3000;
/** Output kept from one turn: standard output to post, the end of standard error for a failure notice. */
const MAX_OUTPUT_BYTES = 1 << 20;
const STDERR_TAIL_BYTES = 2000;
/** A turn posts at most this many messages. */
const MAX_OUTPUT_MESSAGES = 10;
/** Secret values this short are not masked: masking them would garble ordinary text. */
const MIN_MASKED_LENGTH = 4;

const OFF_TEXT = "The agent is off: this server has no `agent.command` configured. The server's operator can set one in its configuration file.";
const GUEST_TEXT = "Guests cannot ask the agent for a run.";

interface ActiveTurn {
  proc: Subprocess<Blob, "pipe", "pipe">;
  /** Stopped on purpose (cancel, shutdown): its end is not reported in the conversation. */
  stopped: boolean;
  timedOut: boolean;
  timer: Timer;
  exited: Promise<unknown>;
}

interface LiveRun {
  key: string;
  /** The working directory of runs without a workspace, removed when the run ends. */
  scratch: string;
  active: ActiveTurn | null;
  /** The message the next turn answers, asked for while a turn was going. */
  pending: number | null;
  idle: Timer | null;
}

/** Keeps the first `max` bytes (or, with `tail`, the last), reading to the end so the writer never blocks. */
async function readStream(stream: ReadableStream<Uint8Array>, max: number, tail = false): Promise<string> {
  let chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (!tail && size >= max) continue;
    chunks.push(chunk);
    size += chunk.length;
    if (tail) while (size - chunks[0]!.length >= max) size -= chunks.shift()!.length;
  }
  const bytes = Buffer.concat(chunks);
  return (tail ? bytes.subarray(Math.max(0, bytes.length - max)) : bytes.subarray(0, max)).toString("utf8");
}

function mask(text: string, secrets: string[]): string {
  for (const v of [...secrets].sort((a, b) => b.length - a.length)) if (v.length >= MIN_MASKED_LENGTH) text = text.replaceAll(v, "***");
  return text;
}

export class AgentRuntime {
  private readonly runs = new Map<number, LiveRun>();
  private stopping = false;
  private readonly groups: GroupLedger;

  /** When this server started, in the seconds of `app.now()`: older open runs are a stopped server's. */
  private readonly startedAt: number;

  constructor(private readonly app: App) {
    this.startedAt = app.now();
    this.groups = new GroupLedger(join(app.config.dataDir, "agent", "process-groups.json"), "EXT_RUN_ID");
  }

  /** Ends the processes a stopped server left and hears every message sent from now on (before any request). */
  listen() {
    mkdirSync(join(this.app.config.dataDir, "agent"), { recursive: true, mode: 0o700 });
    this.groups.endLeftovers();
    this.app.listeners.messageSent = (m) => this.safely(() => this.onMessage(m));
    setTurnControl(this.app, { cancel: (id) => this.safely(() => this.forget(id)) });
  }

  /**
   * What can wait until the server answers (a start spent 3–5 ms here): ends the runs a stopped server
   * left open — only those started before this one, since a message may already have started a new run —
   * and gives every realm its agent bot. A message to the agent meanwhile ends such a run itself (onMessage).
   */
  async settle() {
    await this.app.tx(async (tx) => await failStaleRuns(tx.db, this.app.now(), this.startedAt));
    for (const realm of await listRealms(this.app.db)) if (!realm.deactivated) await agentBot(this.app, realm);
  }

  /** Stops every turn (SIGTERM, then SIGKILL after a grace period) and ends the runs. */
  async stop() {
    this.stopping = true;
    delete this.app.listeners.messageSent;
    setTurnControl(this.app, null);
    const waits: Promise<unknown>[] = [];
    for (const [id, r] of [...this.runs]) {
      const state = r.active ? "failed" : "done";
      waits.push(this.forget(id));
      // Awaited: the run's end is written when stop() returns (on PostgreSQL it takes round trips).
      waits.push(endRun(this.app, id, state).catch(logFailure(this.app.log, "agent runtime")));
    }
    await Promise.all(waits);
  }

  private async onMessage(m: SentMessage) {
    if (this.stopping) return;
    // Only a mention (in a channel) or a direct message with others can address the agent.
    if (m.channelId !== null ? !m.mentionedUserIds.length : m.participantIds.length < 2) return;
    const bot = await findAgentBot(this.app.db, m.realmId);
    if (!bot?.isActive || m.senderId === bot.id) return;
    const addressed = m.channelId === null ? m.participantIds.includes(bot.id) : m.mentionedUserIds.includes(bot.id);
    const sender = addressed ? await findUserById(this.app.db, m.senderId) : undefined;
    if (!sender || sender.isBot) return; // bots do not start runs: two bots could answer each other forever
    if (!agentEnabled(this.app)) return this.safely(async () => await replyAsAgent(this.app, m, OFF_TEXT));
    if (isGuest(sender.role)) return this.safely(async () => await replyAsAgent(this.app, m, GUEST_TEXT));
    const live = await findLiveRun(this.app.db, m.recipientId, m.topic);
    if (live && this.runs.has(live.id)) return this.request(live.id, m.messageId);
    if (live) await endRun(this.app, live.id, "failed"); // a record no process of this server holds
    const { run, key } = await startRun(this.app, m);
    const scratch = join(this.app.config.dataDir, "agent", "runs", String(run.id));
    mkdirSync(scratch, { recursive: true, mode: 0o700 });
    this.runs.set(run.id, { key, scratch, active: null, pending: null, idle: null });
    this.request(run.id, m.messageId);
  }

  private request(runId: number, messageId: number) {
    const r = this.runs.get(runId)!;
    if (r.active) {
      r.pending = messageId;
      return;
    }
    if (r.idle) clearTimeout(r.idle);
    r.idle = null;
    this.safely(() => this.turn(runId, r, messageId));
  }

  private async turn(runId: number, r: LiveRun, messageId: number) {
    await this.app.writer.settled().catch(() => {}); // the run (and its key) is committed before the program can use it
    if (this.runs.get(runId) !== r) return; // cancelled meanwhile
    let t: Turn;
    let proc: ActiveTurn["proc"];
    const run = (await findRun(this.app.db, runId))!;
    // A topic's workspace is where its runs work; the README's pending edits are written there first.
    const workspace = run.channelId === null ? null : await topicWorkspace(this.app, run.channelId, run.topic);
    if (workspace) flushReadme(this.app, workspace.uuid);
    try {
      t = await beginTurn(this.app, runId, messageId, r.key, workspace);
      proc = Bun.spawn(this.app.config.agent.command, {
        cwd: workspace?.dir ?? r.scratch,
        env: t.env,
        stdin: new Blob([t.input]),
        stdout: "pipe",
        stderr: "pipe",
        detached: true, // its own process group, so a stop reaches whatever it started
      });
    } catch (e) {
      this.app.log.warn("agent turn could not start", { run: runId, error: String((e as Error).message ?? e) });
      const run = await this.close(runId, "failed");
      if (run) this.safely(async () => await postInRun(this.app, run, [`The agent could not start: ${(e as Error).message ?? e}`]));
      return;
    }
    const out = readStream(proc.stdout, MAX_OUTPUT_BYTES);
    const err = readStream(proc.stderr, STDERR_TAIL_BYTES, true);
    const active: ActiveTurn = { proc, stopped: false, timedOut: false, timer: undefined as unknown as Timer, exited: proc.exited };
    active.timer = setTimeout(() => {
      active.timedOut = true;
      this.safely(() => this.stopTurn(active));
    }, this.app.config.agent.turnTimeoutSeconds * 1000);
    r.active = active;
    this.recordGroups();
    const code = await proc.exited;
    clearTimeout(active.timer);
    signalGroup(proc.pid, "SIGKILL"); // the turn is over: nothing it started outlives it (and holds its output open)
    const [stdout, stderr] = await Promise.all([out, err]);
    r.active = null;
    this.recordGroups();
    if (workspace) this.safely(async () => syncReadmeFromFile(this.app, workspace.uuid)); // what the turn wrote reaches the editors
    if (active.stopped && !active.timedOut) return; // cancelled, or the server is stopping
    this.safely(async () => await this.report(runId, r, t, active, code, mask(stdout, t.secretValues), mask(stderr, t.secretValues)));
  }

  /** After a turn: its output in the conversation, then the next turn, the idle wait, or the run's end. */
  private async report(runId: number, r: LiveRun, t: Turn, active: ActiveTurn, code: number, stdout: string, stderr: string) {
    const texts = stdout.trim() ? outputMessages(stdout, this.app.config.limits.maxMessageLength, MAX_OUTPUT_MESSAGES) : [];
    if (active.timedOut) {
      texts.push(`The agent's turn took longer than ${this.app.config.agent.turnTimeoutSeconds} seconds and was stopped.`);
      await postInRun(this.app, t.run, texts);
      await this.close(runId, "failed", null);
      return;
    }
    if (code !== 0) {
      const tail = stderr.trim() ? `\n\`\`\`text\n${stderr.trim().replaceAll("```", "'''")}\n\`\`\`` : "";
      texts.push(`The agent's turn failed (exit status ${code}).${tail}`);
      await postInRun(this.app, t.run, texts);
      await this.close(runId, "failed", code);
      return;
    }
    if (texts.length) await postInRun(this.app, t.run, texts);
    await recordTurnExit(this.app, runId, 0);
    if (r.pending !== null) {
      const next = r.pending;
      r.pending = null;
      this.safely(() => this.turn(runId, r, next));
      return;
    }
    r.idle = setTimeout(() => this.safely(async () => await this.close(runId, "done")), this.app.config.agent.runIdleSeconds * 1000);
  }

  /** SIGTERM to the turn's group, SIGKILL after the grace period; resolves when the program has exited. */
  private stopTurn(a: ActiveTurn): Promise<unknown> {
    a.stopped = true;
    signalGroup(a.proc.pid, "SIGTERM");
    const kill = setTimeout(() => signalGroup(a.proc.pid, "SIGKILL"), KILL_GRACE_MS);
    return a.exited.finally(() => {
      clearTimeout(kill);
      signalGroup(a.proc.pid, "SIGKILL");
    });
  }

  /** Forgets a run (its turn stopped, its pending turn dropped); the caller ends the record. Resolves once its processes are gone. */
  private async forget(runId: number): Promise<void> {
    const r = this.runs.get(runId);
    if (!r) return;
    this.runs.delete(runId);
    if (r.idle) clearTimeout(r.idle);
    if (r.active) await this.stopTurn(r.active);
    rmSync(r.scratch, { recursive: true, force: true });
  }

  private async close(runId: number, state: "done" | "failed", exitStatus?: number | null) {
    this.safely(() => this.forget(runId));
    return await endRun(this.app, runId, state, exitStatus);
  }

  /** The process groups of the turns going now, by run id. */
  private recordGroups() {
    const groups: Record<number, number> = {};
    for (const [id, r] of this.runs) if (r.active) groups[id] = r.active.proc.pid;
    const failed = this.groups.record(groups);
    if (failed) this.app.log.warn("agent process groups not recorded", { error: failed.message });
  }

  /** Starts `fn` without waiting for it and without letting its failure (a throw or a rejection) escape: it is logged. */
  private safely(fn: () => Promise<unknown>) {
    detached(this.app.log, "agent runtime", fn)();
  }
}

/** Starts the agent runtime of a serving app (the CLI's commands have none). */
export async function startAgent(app: App): Promise<AgentRuntime> {
  const rt = new AgentRuntime(app);
  rt.listen();
  await rt.settle();
  return rt;
}
