// The organization's agent: its embedded bot (one per realm, made on first need) and whether this
// server runs it. Runs themselves are in agent-runs.ts; the processes in runtime/agent.ts.
import type { App } from "../context";
import type { AgentRunRow, RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { BOT_TYPE } from "../domain/bots";
import { avatarUrl } from "../domain/users";
import { p, t, type Args } from "../domain/params";
import { findAgentBot, findMessageSender } from "../store/agent-runs";
import { findUserByEmail, findUserById } from "../store/users";
import { botAudience, botEvent } from "../serializers/bots";
import { installPlugin } from "./plugins";
import { requireRun } from "./run-keys";
import { requireHumanMember } from "./secrets";
import { insertUserTx } from "./users";

/** Beside the notification bot's address: POST /bots makes `<name>-bot@<realm host>`, so it cannot take this one. */
const AGENT_BOT_EMAIL = "agent-bot@confab.localhost";
const AGENT_BOT_NAME = "Agent";

/** Whether this server has an agent program configured. */
export const agentEnabled = (app: App) => app.config.agent.command.length > 0;

/** The realm's agent bot, made now if the realm has none yet (the bot is a member everyone can mention). */
export async function agentBotTx(app: App, tx: Tx, realm: RealmRow): Promise<UserRow> {
  const found = await findAgentBot(tx.db, realm.id);
  if (found) return found;
  const email = (await findUserByEmail(tx.db, realm.id, AGENT_BOT_EMAIL)) ? `agent-bot-${realm.id}@confab.localhost` : AGENT_BOT_EMAIL;
  const bot = await insertUserTx(app, tx, realm, { email, fullName: AGENT_BOT_NAME, isBot: true, botType: BOT_TYPE.embedded, botOwnerId: null }, null);
  tx.emit(await botEvent("add", bot, app.config.externalUrl, tx.db), await botAudience(tx, bot));
  return bot;
}

export const agentBot = async (app: App, realm: RealmRow): Promise<UserRow> =>
  (await findAgentBot(app.db, realm.id)) ?? (await app.tx(async (tx) => await agentBotTx(app, tx, realm)));

/** GET /ext/agent: the agent's bot (to mention it or write to it) and whether it is on. */
export async function getAgent(app: App, realm: RealmRow, user: UserRow) {
  requireHumanMember(user);
  const bot = await agentBot(app, realm);
  return {
    agent: {
      user_id: bot.id,
      email: bot.email,
      full_name: bot.fullName,
      avatar_url: avatarUrl(bot, app.config.externalUrl),
      is_active: bot.isActive,
      enabled: agentEnabled(app) && bot.isActive,
    },
  };
}

export const draftPluginParams = {
  source_repository_id: p.int(),
  source_path: p.str().optional(""),
  sha: p.str().optional(),
  settings: p.json(t.dict(t.any())).optional({}),
};

/**
 * POST /ext/agent/plugins: during a run, the agent's bot makes a plugin from a repository kept by this
 * server (e.g. what it committed in the topic's workspace). It is a `draft` that only the person who
 * asked for the turn sees, recording the run, channel, topic and message; they install or discard it.
 */
export async function makeDraftPlugin(app: App, realm: RealmRow, user: UserRow, key: string | undefined, a: Args<typeof draftPluginParams>) {
  const run = await requireRun(app, user, key);
  const messageId = run.turnMessageId ?? run.messageId;
  const madeBy =
    (await findUserById(app.db, (await findMessageSender(app.db, messageId)) ?? run.requestedBy ?? 0)) ?? (await findUserById(app.db, run.requestedBy ?? 0))!;
  return installPlugin(
    app,
    realm,
    null,
    { source_kind: "local", source_repository_id: a.source_repository_id, source_path: a.source_path, sha: a.sha, settings: a.settings },
    { madeBy, runId: run.id, streamId: run.channelId, topic: run.channelId === null ? null : run.topic, messageId },
  );
}
