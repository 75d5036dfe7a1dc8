// Agent runs, the agent's bot, and the conversation a turn reads.
import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { preparedPerDb } from "../db/prepared";
import { type agentRuns, type AgentRunRow, type UserRow } from "../db/schema";
import { tables } from "../db/engine";
import { first, all, run } from "../db/query";
import { raw } from "../db/raw";
import { BOT_TYPE } from "../domain/bots";

// Every message sent asks whether it addresses the agent: prepared once per connection.
const agentBotOf = preparedPerDb((db) => {
  const { users } = tables(db);
  return db
    .select()
    .from(users)
    .where(and(eq(users.realmId, sql.placeholder("realmId")), eq(users.isBot, true), eq(users.botType, BOT_TYPE.embedded)))
    .orderBy(users.id);
});

/** The realm's agent bot: its one embedded bot (POST /bots cannot make embedded bots). */
export const findAgentBot = async (db: Db, realmId: number): Promise<UserRow | undefined> => agentBotOf(db).get({ realmId });

export const insertRun = async (db: Db, row: typeof agentRuns.$inferInsert): Promise<AgentRunRow> => {
  const { agentRuns } = tables(db);
  return first(db.insert(agentRuns).values(row).returning());
};

export const updateRun = async (db: Db, id: number, patch: Partial<typeof agentRuns.$inferInsert>): Promise<AgentRunRow> => {
  const { agentRuns } = tables(db);
  return (await first(db.update(agentRuns).set(patch).where(eq(agentRuns.id, id)).returning()))!;
};

export const findRun = async (db: Db, id: number): Promise<AgentRunRow | undefined> => {
  const { agentRuns } = tables(db);
  return first(db.select().from(agentRuns).where(eq(agentRuns.id, id)));
};

/** The run going in a conversation (topics compare case-insensitively, like message topics). */
export const findLiveRun = async (db: Db, recipientId: number, topic: string): Promise<AgentRunRow | undefined> => {
  const { agentRuns } = tables(db);
  return first(
    db
      .select()
      .from(agentRuns)
      .where(and(eq(agentRuns.recipientId, recipientId), eq(agentRuns.topic, topic), eq(agentRuns.state, "running"))),
  );
};

/** Running runs of a topic follow it when the topic moves (renamed, or to another channel). */
export const moveLiveRuns = async (db: Db, from: { recipientId: number; topic: string }, to: { channelId: number; recipientId: number; topic: string }) => {
  const { agentRuns } = tables(db);
  return run(
    db
      .update(agentRuns)
      .set({ channelId: to.channelId, recipientId: to.recipientId, topic: to.topic })
      .where(and(eq(agentRuns.recipientId, from.recipientId), eq(agentRuns.topic, from.topic), eq(agentRuns.state, "running"))),
  );
};

export const listLiveRuns = async (db: Db, realmId?: number): Promise<AgentRunRow[]> => {
  const { agentRuns } = tables(db);
  return all(
    db
      .select()
      .from(agentRuns)
      .where(and(eq(agentRuns.state, "running"), realmId === undefined ? undefined : eq(agentRuns.realmId, realmId))),
  );
};

/** The live run whose key hashes to `keyHash`, in the realm. */
export const findRunByKeyHash = async (db: Db, realmId: number, keyHash: string): Promise<AgentRunRow | undefined> => {
  const { agentRuns } = tables(db);
  return first(
    db
      .select()
      .from(agentRuns)
      .where(and(eq(agentRuns.keyHash, keyHash), eq(agentRuns.realmId, realmId), eq(agentRuns.state, "running"))),
  );
};

export interface RunFilter {
  channelId?: number;
  topic?: string;
  requestedBy?: number;
  states?: string[];
}

/** A realm's runs, newest first. */
export async function listRuns(db: Db, realmId: number, f: RunFilter, limit: number): Promise<AgentRunRow[]> {
  const { agentRuns } = tables(db);
  const where: (SQL | undefined)[] = [eq(agentRuns.realmId, realmId)];
  if (f.channelId !== undefined) where.push(eq(agentRuns.channelId, f.channelId));
  if (f.topic !== undefined) where.push(eq(agentRuns.topic, f.topic));
  if (f.requestedBy !== undefined) where.push(eq(agentRuns.requestedBy, f.requestedBy));
  if (f.states?.length) where.push(inArray(agentRuns.state, f.states));
  return all(
    db
      .select()
      .from(agentRuns)
      .where(and(...where))
      .orderBy(desc(agentRuns.id))
      .limit(limit),
  );
}

export interface ConversationMessage {
  id: number;
  sender_id: number;
  sender_full_name: string;
  sender_email: string;
  content: string;
  timestamp: number;
  is_agent_message: boolean;
}

/**
 * The latest `limit` messages of a conversation up to `throughId`, oldest first. With `readerId`, only
 * those that user received (a private channel whose history is not shared with new subscribers).
 */
export async function conversationMessages(
  db: Db,
  recipientId: number,
  topic: string | null,
  throughId: number,
  limit: number,
  readerId?: number,
): Promise<ConversationMessage[]> {
  const rows = await raw(db).all<ConversationMessage & { bot_type: number | null }>(
    `SELECT * FROM (
         SELECT m.id, m.sender_id, u.full_name AS sender_full_name, u.email AS sender_email, m.content,
                m.date_sent AS timestamp, u.bot_type
         FROM messages m JOIN users u ON u.id = m.sender_id
         ${readerId === undefined ? "" : "JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?"}
         WHERE m.recipient_id = ? ${topic === null ? "" : "AND m.topic = ?"} AND m.id <= ?
         ORDER BY m.id DESC LIMIT ?
       ) AS latest ORDER BY id`,
    ...[...(readerId === undefined ? [] : [readerId]), recipientId, ...(topic === null ? [] : [topic]), throughId, limit],
  );
  return rows.map(({ bot_type, ...m }) => ({ ...m, is_agent_message: bot_type === BOT_TYPE.embedded }));
}

export const findMessageSender = async (db: Db, messageId: number): Promise<number | undefined> =>
  (await raw(db).get<{ sender_id: number }>("SELECT sender_id FROM messages WHERE id = ?", messageId))?.sender_id;

/** Runs left `running` by a server that stopped without ending them. */
/** Ends the runs a stopped server left running: those started before this server (`startedBefore`). */
export const failStaleRuns = async (db: Db, at: number, startedBefore: number) => {
  const { agentRuns } = tables(db);
  return run(
    db
      .update(agentRuns)
      .set({ state: "failed", dateEnded: at, keyHash: null })
      .where(and(eq(agentRuns.state, "running"), lt(agentRuns.dateStarted, startedBefore))),
  );
};

/** Runs per state across realms (GET /metrics). */
export const countAgentRunsByState = async (db: Db): Promise<{ state: string; n: number }[]> => {
  const { agentRuns } = tables(db);
  return all(
    db
      .select({ state: agentRuns.state, n: sql<number>`count(*)`.mapWith(Number) })
      .from(agentRuns)
      .groupBy(agentRuns.state),
  );
};
