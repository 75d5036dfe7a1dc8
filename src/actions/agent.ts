// The organization's agent: its embedded bot (one per realm, made on first need) and whether this
// server runs it. Runs themselves are in agent-runs.ts; the processes in runtime/agent.ts.
import type { App } from "../app";
import type { RealmRow, UserRow } from "../db/schema";
import type { Tx } from "../db/tx";
import { BOT_TYPE } from "../domain/bots";
import { avatarUrl } from "../domain/users";
import { findAgentBot } from "../store/agent-runs";
import { findUserByEmail } from "../store/users";
import { botAudience, botEvent } from "./bots";
import { requireHumanMember } from "./secrets";
import { insertUserTx } from "./users";

/** Beside the notification bot's address: POST /bots makes `<name>-bot@<realm host>`, so it cannot take this one. */
const AGENT_BOT_EMAIL = "agent-bot@confab.localhost";
const AGENT_BOT_NAME = "Agent";

/** Whether this server has an agent program configured. */
export const agentEnabled = (app: App) => app.config.agent.command.length > 0;

/** The realm's agent bot, made now if the realm has none yet (the bot is a member everyone can mention). */
export function agentBotTx(app: App, tx: Tx, realm: RealmRow): UserRow {
  const found = findAgentBot(tx.db, realm.id);
  if (found) return found;
  const email = findUserByEmail(tx.db, realm.id, AGENT_BOT_EMAIL) ? `agent-bot-${realm.id}@confab.localhost` : AGENT_BOT_EMAIL;
  const bot = insertUserTx(app, tx, realm, { email, fullName: AGENT_BOT_NAME, isBot: true, botType: BOT_TYPE.embedded, botOwnerId: null }, null);
  tx.emit(botEvent("add", bot, app.config.externalUrl, tx.db), botAudience(tx, bot));
  return bot;
}

export const agentBot = (app: App, realm: RealmRow): UserRow => findAgentBot(app.db, realm.id) ?? app.tx((tx) => agentBotTx(app, tx, realm));

/** GET /ext/agent: the agent's bot (to mention it or write to it) and whether it is on. */
export function getAgent(app: App, realm: RealmRow, user: UserRow) {
  requireHumanMember(user);
  const bot = agentBot(app, realm);
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
