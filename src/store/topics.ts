import { and, eq } from "drizzle-orm";
import { sqliteOf, type Db } from "../db/client";
import { userTopics, type UserTopicRow } from "../db/schema";

/** Sets a user's policy for a topic; policy 0 (none) removes the row. */
export async function setUserTopic(db: Db, userId: number, channelId: number, topic: string, policy: number, now: number) {
  if (policy === 0) {
    db.delete(userTopics)
      .where(and(eq(userTopics.userId, userId), eq(userTopics.channelId, channelId), eq(userTopics.topic, topic)))
      .run();
    return;
  }
  db.insert(userTopics)
    .values({ userId, channelId, topic, visibilityPolicy: policy, lastUpdated: now })
    .onConflictDoUpdate({ target: [userTopics.userId, userTopics.channelId, userTopics.topic], set: { visibilityPolicy: policy, lastUpdated: now, topic } })
    .run();
}

export const listUserTopics = async (db: Db, userId: number): Promise<UserTopicRow[]> =>
  db.select().from(userTopics).where(eq(userTopics.userId, userId)).all();

/** Moves every user's policies from one topic to another (a topic rename or move). */
export async function moveUserTopics(db: Db, from: { channelId: number; topic: string }, to: { channelId: number; topic: string }) {
  db.update(userTopics)
    .set({ channelId: to.channelId, topic: to.topic })
    .where(and(eq(userTopics.channelId, from.channelId), eq(userTopics.topic, from.topic)))
    .run();
}

/** Whether a channel has a message in a topic other than the empty one. */
export const hasNamedTopics = async (db: Db, recipientId: number): Promise<boolean> =>
  !!sqliteOf(db).query("SELECT 1 FROM messages WHERE recipient_id = ? AND topic != '' LIMIT 1").get(recipientId);

/**
 * A channel's topics with their latest message id, newest first: every one (the channel's history is
 * readable), or with `receivedBy`, those of the messages that user received.
 */
export const listTopicsOf = async (db: Db, recipientId: number, receivedBy: number | null): Promise<{ name: string; max_id: number }[]> =>
  receivedBy === null
    ? sqliteOf(db)
        .query<{ name: string; max_id: number }, [number]>(
          "SELECT topic AS name, MAX(id) AS max_id FROM messages WHERE recipient_id = ? GROUP BY topic ORDER BY max_id DESC",
        )
        .all(recipientId)
    : sqliteOf(db)
        .query<{ name: string; max_id: number }, [number, number]>(
          `SELECT m.topic AS name, MAX(m.id) AS max_id FROM user_messages um JOIN messages m ON m.id = um.message_id
           WHERE um.user_id = ? AND m.recipient_id = ? GROUP BY m.topic ORDER BY max_id DESC`,
        )
        .all(receivedBy, recipientId);

/** A message's topic as it was spelled (topics compare case-insensitively). */
export const topicOfMessage = async (db: Db, id: number): Promise<string | undefined> =>
  sqliteOf(db).query<{ topic: string }, [number]>("SELECT topic FROM messages WHERE id = ?").get(id)?.topic;
