// Runs of the organization's agent: started when someone mentions its bot in a topic or writes to it,
// one turn per request, each with the conversation and the organization's secrets. This module keeps
// the records, the events, the run keys and what the agent says; runtime/agent.ts runs the processes.
import type { App, SentMessage } from "../context";
import type { AgentRunRow, RealmRow, UserRow } from "../db/schema";
import { insufficientPermission, noSuchRun, runAlreadyEnded } from "../domain/errors";
import { realmUrl } from "../domain/realms";
import { isAdmin } from "../domain/roles";
import { isKeptServerVariable, RUN_STATES, toApiRun, type RunState } from "../domain/agent-runs";
import { p, type Args } from "../domain/params";
import { toUsers } from "../events/types";
import { randomToken } from "../lib/random";
import * as store from "../store/agent-runs";
import { findChannel } from "../store/channels";
import { findRealmById } from "../store/realms";
import { listSecrets } from "../store/secrets";
import { findUserById } from "../store/users";
import { agentBot } from "./agent";
import { catchUp } from "./catch-up";
import { sendBotMessageTx } from "./messages";
import { hashKey } from "./run-keys";
import { requireHumanMember, runSecretEnv } from "./secrets";
import { channelReaderIds } from "./workspace-access";
import { canSeeRun, dmParticipants } from "../access/agent-runs";

// ---- Who sees a run: whoever can read its conversation ----

/** Active human users who can read the run's conversation: they hear of it and may list it. */
function runAudience(app: App, run: AgentRunRow): number[] {
  if (run.channelId === null)
    return dmParticipants(app, run)
      .filter((u) => u.isActive && !u.isBot)
      .map((u) => u.id);
  const c = findChannel(app.db, run.channelId);
  return c ? channelReaderIds(app, c) : [];
}

function changeRun(app: App, id: number, patch: Partial<AgentRunRow>, op: "add" | "update" = "update"): AgentRunRow {
  return app.tx((tx) => {
    const run = store.updateRun(tx.db, id, patch);
    tx.emit({ type: "ext_agent_run", op, run: toApiRun(run) }, toUsers(runAudience(app, run)));
    return run;
  });
}

// ---- The running server's control over turns (absent in the CLI) ----

export interface TurnControl {
  /** Stops the run's turn, if one is going, and forgets its pending one. */
  cancel(runId: number): void;
}

const controls = new WeakMap<App, TurnControl>();
export const setTurnControl = (app: App, c: TurnControl | null) => (c ? controls.set(app, c) : controls.delete(app));

// ---- Starting, turns, ending ----

/** A new run for a message that asked the agent; its key lets the agent's bot act while the run lives. */
export function startRun(app: App, m: SentMessage): { run: AgentRunRow; key: string } {
  const key = randomToken(40);
  app.metrics.agentRunsStarted++;
  const run = app.tx((tx) => {
    const row = store.insertRun(tx.db, {
      realmId: m.realmId,
      requestedBy: m.senderId,
      channelId: m.channelId,
      recipientId: m.recipientId,
      topic: m.topic,
      messageId: m.messageId,
      state: "running",
      dateStarted: app.now(),
      keyHash: hashKey(key),
    });
    tx.emit({ type: "ext_agent_run", op: "add", run: toApiRun(row) }, toUsers(runAudience(app, row)));
    return row;
  });
  return { run, key };
}

export interface Turn {
  run: AgentRunRow;
  /** The program's whole environment. */
  env: Record<string, string>;
  /** The conversation so far, written to the program's standard input. */
  input: string;
  /** Secret values, to be masked in whatever the agent posts. */
  secretValues: string[];
}

/**
 * The next turn of a live run, answering `messageId`. Its environment holds every organization secret
 * (read now, so one added since the last turn is there), the EXT_ variables and, of the server's own
 * environment, only PATH, HOME and the locale. The secrets it receives get `date_used`.
 */
export function beginTurn(app: App, runId: number, messageId: number, key: string, workspace: { uuid: string; dir: string } | null): Turn {
  const before = store.findRun(app.db, runId)!;
  const realm = findRealmById(app.db, before.realmId)!;
  const bot = agentBot(app, realm);
  const asking = findUserById(app.db, store.findMessageSender(app.db, messageId) ?? before.requestedBy ?? 0);
  const site = realmUrl(app.config.externalUrl, realm.stringId);
  const { env: secrets } = runSecretEnv(
    app,
    realm.id,
    listSecrets(app.db, realm.id).map((s) => s.name),
  );
  const env: Record<string, string> = { ...secrets };
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && isKeptServerVariable(name)) env[name] = value;
  const run = changeRun(app, runId, { turns: before.turns + 1, turnMessageId: messageId });
  Object.assign(env, {
    EXT_SITE: site,
    EXT_API_URL: `${site}/api/v1`,
    EXT_EMAIL: bot.email,
    EXT_API_KEY: key,
    EXT_RUN_ID: String(run.id),
    EXT_TURN: String(run.turns),
    EXT_MESSAGE_ID: String(messageId),
    EXT_TOPIC: run.channelId === null ? "" : run.topic,
    ...(run.channelId === null ? {} : { EXT_STREAM_ID: String(run.channelId) }),
    ...(workspace ? { EXT_WORKSPACE_UUID: workspace.uuid } : {}),
  });
  const channel = run.channelId === null ? null : findChannel(app.db, run.channelId);
  // Where new subscribers do not see older history, the turn reads only what the asker received.
  const reader = channel && !channel.historyPublicToSubscribers ? asking?.id : undefined;
  if (reader !== undefined) catchUp(app, asking!);
  const person = (u: UserRow | undefined) => (u ? { user_id: u.id, full_name: u.fullName, email: u.email } : null);
  const input = JSON.stringify({
    run: toApiRun(run),
    turn: run.turns,
    message_id: messageId,
    asked_by: person(asking),
    agent: person(bot),
    stream_id: run.channelId,
    stream: channel?.name ?? null,
    topic: run.channelId === null ? null : run.topic,
    participants: run.channelId === null ? dmParticipants(app, run).map(person) : null,
    workspace: workspace ? { workspace_uuid: workspace.uuid, path: workspace.dir } : null,
    messages: store.conversationMessages(
      app.db,
      run.recipientId,
      run.channelId === null ? null : run.topic,
      messageId,
      app.config.agent.historyMessages,
      reader,
    ),
  });
  return { run, env, input, secretValues: Object.values(secrets) };
}

/** A turn ended well; the run stays open for the next one. */
export const recordTurnExit = (app: App, runId: number, exitStatus: number | null) => changeRun(app, runId, { exitStatus });

/** Ends a live run (its key stops working at once); null when it had already ended. */
export function endRun(app: App, runId: number, state: Exclude<RunState, "running">, exitStatus?: number | null): AgentRunRow | null {
  const run = store.findRun(app.db, runId);
  if (!run || run.state !== "running") return null;
  return changeRun(app, runId, { state, dateEnded: app.now(), keyHash: null, ...(exitStatus === undefined ? {} : { exitStatus }) });
}

/** Posts in a run's conversation as the agent's bot. */
export function postInRun(app: App, started: AgentRunRow, texts: string[]) {
  const run = store.findRun(app.db, started.id) ?? started; // where the conversation is now (its topic may have moved)
  const realm = findRealmById(app.db, run.realmId)!;
  const bot = agentBot(app, realm);
  const channel = run.channelId === null ? null : findChannel(app.db, run.channelId);
  const to = channel ? { channel, topic: run.topic } : { dmUsers: dmParticipants(app, run) };
  if (channel?.isArchived) return;
  app.tx((tx) => texts.forEach((t) => sendBotMessageTx(app, tx, realm, bot, to, t, "Agent")));
}

/** Answers a message that asked the agent, without a run (the agent is off, or the asker may not start one). */
export function replyAsAgent(app: App, m: SentMessage, text: string) {
  const realm = findRealmById(app.db, m.realmId)!;
  const bot = agentBot(app, realm);
  const channel = m.channelId === null ? null : findChannel(app.db, m.channelId);
  if (channel?.isArchived) return;
  const to = channel ? { channel, topic: m.topic } : { dmUsers: m.participantIds.map((id) => findUserById(app.db, id)!) };
  app.tx((tx) => sendBotMessageTx(app, tx, realm, bot, to, text, "Agent"));
}

// ---- The API ----

export const listRunsParams = {
  stream_id: p.int().optional(),
  topic: p.str().optional(),
  requested_by: p.int().optional(),
  state: p.enum(RUN_STATES).optional(),
  limit: p.int({ min: 1, max: 1000 }).optional(100),
};

/** GET /ext/agent/runs: the runs of conversations the caller can read, newest first. */
export function listRuns(app: App, realm: RealmRow, user: UserRow, a: Args<typeof listRunsParams>) {
  requireHumanMember(user);
  const rows = store.listRuns(
    app.db,
    realm.id,
    { channelId: a.stream_id, topic: a.topic, requestedBy: a.requested_by, states: a.state ? [a.state] : undefined },
    Math.max(a.limit * 4, 1000),
  );
  return {
    runs: rows
      .filter((r) => canSeeRun(app, user, r))
      .slice(0, a.limit)
      .map(toApiRun),
  };
}

function visibleRun(app: App, user: UserRow, id: number): AgentRunRow {
  const run = store.findRun(app.db, id);
  if (!run || !canSeeRun(app, user, run)) throw noSuchRun();
  return run;
}

/** GET /ext/agent/runs/{run_id}. */
export function getRun(app: App, user: UserRow, id: number) {
  requireHumanMember(user);
  return { run: toApiRun(visibleRun(app, user, id)) };
}

/** POST /ext/agent/runs/{run_id}/cancel: by the person who asked, or an administrator. */
export function cancelRun(app: App, user: UserRow, id: number) {
  requireHumanMember(user);
  const run = visibleRun(app, user, id);
  if (run.requestedBy !== user.id && !isAdmin(user.role)) throw insufficientPermission();
  if (run.state !== "running") throw runAlreadyEnded();
  controls.get(app)?.cancel(run.id);
  const ended = endRun(app, run.id, "cancelled") ?? run;
  postInRun(app, ended, [`Run ${run.id} was cancelled by @_**${user.fullName}|${user.id}**.`]);
  return { run: toApiRun(ended) };
}
