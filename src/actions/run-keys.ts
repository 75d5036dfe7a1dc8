// Run keys: each agent run gets an API key of its own for its bot, valid while the run is live. The
// auth path (auth.ts) accepts one as the bot's key; the run's own endpoints require one.
import type { App } from "../context";
import type { AgentRunRow, UserRow } from "../db/schema";
import { agentRunOnly } from "../domain/errors";
import { BOT_TYPE } from "../domain/bots";
import * as store from "../store/agent-runs";

export const hashKey = (key: string) => new Bun.CryptoHasher("sha256").update(key).digest("hex");

/** Whether `key` is the key of a live run of this (agent) bot: the auth path accepts it as the bot's API key. */
export async function isLiveRunKey(app: App, user: UserRow, key: string): Promise<boolean> {
  return user.isBot && user.botType === BOT_TYPE.embedded && !!(await store.findRunByKeyHash(app.db, user.realmId, hashKey(key)));
}

/** The live run a request authenticated with a run key acts for; anyone else (the bot's own key included) is refused. */
export async function requireRun(app: App, user: UserRow, key: string | undefined): Promise<AgentRunRow> {
  const run = key !== undefined && (await isLiveRunKey(app, user, key)) ? await store.findRunByKeyHash(app.db, user.realmId, hashKey(key)) : undefined;
  if (!run) throw agentRunOnly();
  return run;
}
