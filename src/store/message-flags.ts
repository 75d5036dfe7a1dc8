// Per-user flags on user_messages (domain/message-flags.ts has the bits). Statements are raw SQL written to
// use the partial indexes: their conditions repeat the index conditions verbatim.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { type UserRow } from "../db/schema";
import { tables } from "../db/engine";
import { all } from "../db/query";
import { type Param, raw } from "../db/raw";
import { joinInOrder } from "../db/dialect";
import { idsTable, idsValue } from "../db/in-ids";
import { FLAG } from "../domain/message-flags";
import { deliverForMessages } from "./lazy-delivery";

export interface UnreadRow {
  id: number;
  flags: number;
  senderId: number;
  recipientId: number;
  topic: string;
  channelId: number | null;
  dmKey: string | null;
}

/** Sets or clears a flag on the user's rows among these ids; returns the ids that changed. */
export async function changeFlag(db: Db, userId: number, ids: number[], bit: number, add: boolean): Promise<number[]> {
  if (!ids.length) return [];
  const sql = add
    ? `UPDATE user_messages SET flags = flags | ?1 WHERE user_id = ?2 AND message_id IN (SELECT value FROM ${idsTable(db, "?3")}) AND (flags & ?1) = 0 RETURNING message_id AS id`
    : `UPDATE user_messages SET flags = flags & ~?1 WHERE user_id = ?2 AND message_id IN (SELECT value FROM ${idsTable(db, "?3")}) AND (flags & ?1) != 0 RETURNING message_id AS id`;
  return (await raw(db).all<{ id: number }>(sql, bit, userId, idsValue(db, ids))).map((r) => r.id).sort((a, b) => a - b);
}

/** Which of these ids the user has rows for. */
export const receivedIds = async (db: Db, userId: number, ids: number[]): Promise<Set<number>> =>
  new Set(
    (
      await raw(db).all<{ id: number }>(
        `SELECT message_id AS id FROM user_messages WHERE user_id = ? AND message_id IN (SELECT value FROM ${idsTable(db, "?")})`,
        userId,
        idsValue(db, ids),
      )
    ).map((r) => r.id),
  );

/** Rows for messages the user reads without having received them (Zulip's historical rows). */
export async function insertHistorical(db: Db, userId: number, ids: number[], flags: number) {
  const insert = raw(db).batch("INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
  for (const id of ids) insert.add(userId, id, flags | FLAG.historical);
  await insert.done();
}

/** The user's unread messages, newest first, with what unread counts group them by. */
export const unreadRows = async (db: Db, userId: number, limit: number): Promise<UnreadRow[]> =>
  await raw(db).all<UnreadRow>(
    `SELECT um.message_id AS id, um.flags AS flags, m.sender_id AS "senderId", m.recipient_id AS "recipientId", m.topic AS topic,
              r.channel_id AS "channelId", r.dm_key AS "dmKey"
       FROM user_messages um ${joinInOrder(db)} messages m ON m.id = um.message_id JOIN recipients r ON r.id = m.recipient_id
       WHERE um.user_id = ? AND (um.flags & 1) = 0 ORDER BY um.message_id DESC LIMIT ?`,
    userId,
    limit,
  );

/** Ids of the user's unread messages in one conversation (and topic, when given). */
export async function unreadIn(db: Db, userId: number, recipientId: number | null, topic?: string): Promise<number[]> {
  const conds = ["um.user_id = ?", "(um.flags & 1) = 0"];
  const params: Param[] = [userId];
  if (recipientId !== null) {
    conds.push("m.recipient_id = ?");
    params.push(recipientId);
  }
  if (topic !== undefined) {
    conds.push("m.topic = ?");
    params.push(topic);
  }
  return (
    await raw(db).all<{ id: number }>(
      `SELECT um.message_id AS id FROM user_messages um ${joinInOrder(db)} messages m ON m.id = um.message_id WHERE ${conds.join(" AND ")} ORDER BY um.message_id`,
      ...params,
    )
  ).map((r) => r.id);
}

export const starredIds = async (db: Db, userId: number): Promise<number[]> =>
  (await raw(db).all<{ id: number }>("SELECT message_id AS id FROM user_messages WHERE user_id = ? AND (flags & 2) != 0 ORDER BY message_id", userId)).map(
    (r) => r.id,
  );

/** The user's direct-message conversations with their latest message, newest first. */
export const recentConversations = async (db: Db, userId: number, limit: number) =>
  await raw(db).all<{ key: string; max_id: number }>(
    `SELECT r.dm_key AS key, MAX(um.message_id) AS max_id FROM user_messages um ${joinInOrder(db)} messages m ON m.id = um.message_id
       JOIN recipients r ON r.id = m.recipient_id WHERE um.user_id = ? AND (um.flags & 256) != 0
       GROUP BY m.recipient_id, r.dm_key ORDER BY max_id DESC LIMIT ?`,
    userId,
    limit,
  );

/** Active users who have read a message (read receipts), in id order. */
export const readers = async (db: Db, messageId: number): Promise<UserRow[]> => {
  const { users } = tables(db);
  return all(
    db
      .select()
      .from(users)
      .where(sql`${users.isActive} = true AND ${users.id} IN (SELECT user_id FROM user_messages WHERE message_id = ${messageId} AND (flags & 1) != 0)`)
      .orderBy(users.id),
  );
};

/** Users with a row for the message, with their flags (the audience of its updates); inside a transaction. */
export async function messageRecipients(db: Db, messageId: number): Promise<{ userId: number; flags: number }[]> {
  await deliverForMessages(db, [messageId]);
  return await raw(db).all<{ userId: number; flags: number }>(`SELECT user_id AS "userId", flags FROM user_messages WHERE message_id = ?`, messageId);
}

/** Users with a row for any of these messages; inside a transaction. */
export async function messageHolders(db: Db, ids: number[]): Promise<number[]> {
  await deliverForMessages(db, ids);
  return (
    await raw(db).all<{ id: number }>(
      `SELECT DISTINCT user_id AS id FROM user_messages WHERE message_id IN (SELECT value FROM ${idsTable(db, "?")})`,
      idsValue(db, ids),
    )
  ).map((r) => r.id);
}

/** One user's flags on one message, replaced. */
export const setFlags = async (db: Db, userId: number, messageId: number, flags: number) =>
  await raw(db).run("UPDATE user_messages SET flags = ? WHERE user_id = ? AND message_id = ?", flags, userId, messageId);

/** Every one of the users receives every one of the messages (with `flags`), unless they already had it. */
export const addReceived = async (db: Db, userIds: number[], messageIds: number[], flags: number) =>
  await raw(db).run(
    `INSERT INTO user_messages (user_id, message_id, flags) SELECT u.value, m.value, ? FROM ${idsTable(db, "?", "u")}, ${idsTable(db, "?", "m")}
       WHERE true ON CONFLICT DO NOTHING`,
    flags,
    idsValue(db, userIds),
    idsValue(db, messageIds),
  );

/** The users no longer have the messages. */
export const removeReceived = async (db: Db, userIds: number[], messageIds: number[]) =>
  await raw(db).run(
    `DELETE FROM user_messages WHERE user_id IN (SELECT value FROM ${idsTable(db, "?")}) AND message_id IN (SELECT value FROM ${idsTable(db, "?")})`,
    idsValue(db, userIds),
    idsValue(db, messageIds),
  );

/** A user's rows of these messages, with what clients need to count one as unread again. */
export const flagDetails = async (db: Db, userId: number, ids: number[]) =>
  await raw(db).all<{ id: number; flags: number; topic: string; channel_id: number | null; dm_key: string | null }>(
    `SELECT m.id, um.flags, m.topic, r.channel_id, r.dm_key FROM user_messages um JOIN messages m ON m.id = um.message_id
       JOIN recipients r ON r.id = m.recipient_id WHERE um.user_id = ? AND um.message_id IN (SELECT value FROM ${idsTable(db, "?")})`,
    userId,
    idsValue(db, ids),
  );

/** A user's row of one message, if they received it. */
export const flagsOf = async (db: Db, userId: number, messageId: number): Promise<{ flags: number } | null> =>
  await raw(db).get<{ flags: number }>("SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?", userId, messageId);

/** The newest message a user received, if any. */
export const newestReceivedId = async (db: Db, userId: number): Promise<number | null> =>
  (await raw(db).get<{ id: number | null }>("SELECT MAX(message_id) AS id FROM user_messages WHERE user_id = ?", userId))?.id ?? null;
