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
import { mapInOrder, filterInOrder } from "../lib/in-order";

// ---- Who sees a run: whoever can read its conversation ----

/** Active human users who can read the run's conversation: they hear of it and may list it. */
async function runAudience(app: App, run: AgentRunRow): Promise<number[]> {
  if (run.channelId === null) return (await dmParticipants(app, run)).filter((u) => u.isActive && !u.isBot).map((u) => u.id);
  const c = await findChannel(app.db, run.channelId);
  return c ? await channelReaderIds(app, c) : [];
}

async function changeRun(app: App, id: number, patch: Partial<AgentRunRow>, op: "add" | "update" = "update"): Promise<AgentRunRow> {
  return await app.tx(async (tx) => {
    const run = await store.updateRun(tx.db, id, patch);
    tx.emit({ type: "ext_agent_run", op, run: toApiRun(run) }, toUsers(await runAudience(app, run)));
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
/** Stops a run's turn through this server's control, if it has one (on PostgreSQL, the agent's node or a relay to it). */
export const cancelTurn = (app: App, runId: number) => controls.get(app)?.cancel(runId);

// ---- Starting, turns, ending ----

/** A new run for a message that asked the agent; its key lets the agent's bot act while the run lives. */
export async function startRun(app: App, m: SentMessage): Promise<{ run: AgentRunRow; key: string }> {
  const key = randomToken(40);
  app.metrics.agentRunsStarted++;
  const run = await app.tx(async (tx) => {
    const row = await store.insertRun(tx.db, {
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
    tx.emit({ type: "ext_agent_run", op: "add", run: toApiRun(row) }, toUsers(await runAudience(app, row)));
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
export async function beginTurn(app: App, runId: number, messageId: number, key: string, workspace: { uuid: string; dir: string } | null): Promise<Turn> {
  const before = (await store.findRun(app.db, runId))!;
  const realm = (await findRealmById(app.db, before.realmId))!;
  const bot = await agentBot(app, realm);
  const asking = await findUserById(app.db, (await store.findMessageSender(app.db, messageId)) ?? before.requestedBy ?? 0);
  const site = realmUrl(app.config.externalUrl, realm.stringId);
  const { env: secrets } = await runSecretEnv(
    app,
    realm.id,
    (await listSecrets(app.db, realm.id)).map((s) => s.name),
  );
  const env: Record<string, string> = { ...secrets };
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && isKeptServerVariable(name)) env[name] = value;
  const run = await changeRun(app, runId, { turns: before.turns + 1, turnMessageId: messageId });
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
  const channel = run.channelId === null ? null : await findChannel(app.db, run.channelId);
  // Where new subscribers do not see older history, the turn reads only what the asker received.
  const reader = channel && !channel.historyPublicToSubscribers ? asking?.id : undefined;
  if (reader !== undefined) await catchUp(app, asking!);
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
    participants: run.channelId === null ? (await dmParticipants(app, run)).map(person) : null,
    workspace: workspace ? { workspace_uuid: workspace.uuid, path: workspace.dir } : null,
    messages: await store.conversationMessages(
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
export const recordTurnExit = async (app: App, runId: number, exitStatus: number | null) => await changeRun(app, runId, { exitStatus });

/** Ends a live run (its key stops working at once); null when it had already ended. */
export async function endRun(app: App, runId: number, state: Exclude<RunState, "running">, exitStatus?: number | null): Promise<AgentRunRow | null> {
  const run = await store.findRun(app.db, runId);
  if (!run || run.state !== "running") return null;
  return await changeRun(app, runId, { state, dateEnded: app.now(), keyHash: null, ...(exitStatus === undefined ? {} : { exitStatus }) });
}

/** Posts in a run's conversation as the agent's bot. */
export async function postInRun(app: App, started: AgentRunRow, texts: string[]) {
  const run = (await store.findRun(app.db, started.id)) ?? started; // where the conversation is now (its topic may have moved)
  const realm = (await findRealmById(app.db, run.realmId))!;
  const bot = await agentBot(app, realm);
  const channel = run.channelId === null ? null : await findChannel(app.db, run.channelId);
  const to = channel ? { channel, topic: run.topic } : { dmUsers: await dmParticipants(app, run) };
  if (channel?.isArchived) return;
  await app.tx(async (tx) => {
    for (const t of texts) await sendBotMessageTx(app, tx, realm, bot, to, t, "Agent");
  });
}

/** Answers a message that asked the agent, without a run (the agent is off, or the asker may not start one). */
export async function replyAsAgent(app: App, m: SentMessage, text: string) {
  const realm = (await findRealmById(app.db, m.realmId))!;
  const bot = await agentBot(app, realm);
  const channel = m.channelId === null ? null : await findChannel(app.db, m.channelId);
  if (channel?.isArchived) return;
  const to = channel ? { channel, topic: m.topic } : { dmUsers: await mapInOrder(m.participantIds, async (id) => (await findUserById(app.db, id))!) };
  await app.tx(async (tx) => await sendBotMessageTx(app, tx, realm, bot, to, text, "Agent"));
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
export async function listRuns(app: App, realm: RealmRow, user: UserRow, a: Args<typeof listRunsParams>) {
  requireHumanMember(user);
  const rows = await store.listRuns(
    app.db,
    realm.id,
    { channelId: a.stream_id, topic: a.topic, requestedBy: a.requested_by, states: a.state ? [a.state] : undefined },
    Math.max(a.limit * 4, 1000),
  );
  return {
    runs: (await filterInOrder(rows, async (r) => await canSeeRun(app, user, r))).slice(0, a.limit).map(toApiRun),
  };
}

async function visibleRun(app: App, user: UserRow, id: number): Promise<AgentRunRow> {
  const run = await store.findRun(app.db, id);
  if (!run || !(await canSeeRun(app, user, run))) throw noSuchRun();
  return run;
}

/** GET /ext/agent/runs/{run_id}. */
export async function getRun(app: App, user: UserRow, id: number) {
  requireHumanMember(user);
  return { run: toApiRun(await visibleRun(app, user, id)) };
}

/** POST /ext/agent/runs/{run_id}/cancel: by the person who asked, or an administrator. */
export async function cancelRun(app: App, user: UserRow, id: number) {
  requireHumanMember(user);
  const run = await visibleRun(app, user, id);
  if (run.requestedBy !== user.id && !isAdmin(user.role)) throw insufficientPermission();
  if (run.state !== "running") throw runAlreadyEnded();
  cancelTurn(app, run.id);
  const ended = (await endRun(app, run.id, "cancelled")) ?? run;
  await postInRun(app, ended, [`Run ${run.id} was cancelled by @_**${user.fullName}|${user.id}**.`]);
  return { run: toApiRun(ended) };
}
