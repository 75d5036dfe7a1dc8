import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { type UserTopicRow } from "../db/schema";
import { tables } from "../db/engine";
import { all, run } from "../db/query";
import { ofLatestRow } from "../db/dialect";
import { raw } from "../db/raw";

/** Sets a user's policy for a topic; policy 0 (none) removes the row. */
export async function setUserTopic(db: Db, userId: number, channelId: number, topic: string, policy: number, now: number) {
  const { userTopics } = tables(db);
  if (policy === 0) {
    await run(db.delete(userTopics).where(and(eq(userTopics.userId, userId), eq(userTopics.channelId, channelId), eq(userTopics.topic, topic))));
    return;
  }
  await run(
    db
      .insert(userTopics)
      .values({ userId, channelId, topic, visibilityPolicy: policy, lastUpdated: now })
      .onConflictDoUpdate({ target: [userTopics.userId, userTopics.channelId, userTopics.topic], set: { visibilityPolicy: policy, lastUpdated: now, topic } }),
  );
}

export const listUserTopics = async (db: Db, userId: number): Promise<UserTopicRow[]> => {
  const { userTopics } = tables(db);
  return all(db.select().from(userTopics).where(eq(userTopics.userId, userId)));
};

/** Moves every user's policies from one topic to another (a topic rename or move). */
export async function moveUserTopics(db: Db, from: { channelId: number; topic: string }, to: { channelId: number; topic: string }) {
  const { userTopics } = tables(db);
  await run(
    db
      .update(userTopics)
      .set({ channelId: to.channelId, topic: to.topic })
      .where(and(eq(userTopics.channelId, from.channelId), eq(userTopics.topic, from.topic))),
  );
}

/** Whether a channel has a message in a topic other than the empty one. */
export const hasNamedTopics = async (db: Db, recipientId: number): Promise<boolean> =>
  !!(await raw(db).get("SELECT 1 FROM messages WHERE recipient_id = ? AND topic != '' LIMIT 1", recipientId));

/**
 * A channel's topics with their latest message id, newest first: every one (the channel's history is
 * readable), or with `receivedBy`, those of the messages that user received.
 */
export const listTopicsOf = async (db: Db, recipientId: number, receivedBy: number | null): Promise<{ name: string; max_id: number }[]> =>
  receivedBy === null
    ? await raw(db).all<{ name: string; max_id: number }>(
        `SELECT ${ofLatestRow(db, "topic", "id")} AS name, MAX(id) AS max_id FROM messages WHERE recipient_id = ? GROUP BY topic ORDER BY max_id DESC`,
        recipientId,
      )
    : await raw(db).all<{ name: string; max_id: number }>(
        `SELECT ${ofLatestRow(db, "m.topic", "m.id")} AS name, MAX(m.id) AS max_id FROM user_messages um JOIN messages m ON m.id = um.message_id
           WHERE um.user_id = ? AND m.recipient_id = ? GROUP BY m.topic ORDER BY max_id DESC`,
        receivedBy,
        recipientId,
      );

/** A message's topic as it was spelled (topics compare case-insensitively). */
export const topicOfMessage = async (db: Db, id: number): Promise<string | undefined> =>
  (await raw(db).get<{ topic: string }>("SELECT topic FROM messages WHERE id = ?", id))?.topic;
