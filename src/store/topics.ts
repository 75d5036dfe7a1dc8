import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { userTopics, type UserTopicRow } from "../db/schema";

/** Sets a user's policy for a topic; policy 0 (none) removes the row. */
export function setUserTopic(db: Db, userId: number, channelId: number, topic: string, policy: number, now: number) {
  if (policy === 0) {
    db.delete(userTopics).where(and(eq(userTopics.userId, userId), eq(userTopics.channelId, channelId), eq(userTopics.topic, topic))).run();
    return;
  }
  db.insert(userTopics)
    .values({ userId, channelId, topic, visibilityPolicy: policy, lastUpdated: now })
    .onConflictDoUpdate({ target: [userTopics.userId, userTopics.channelId, userTopics.topic], set: { visibilityPolicy: policy, lastUpdated: now, topic } })
    .run();
}

export const listUserTopics = (db: Db, userId: number): UserTopicRow[] => db.select().from(userTopics).where(eq(userTopics.userId, userId)).all();

/** Moves every user's policies from one topic to another (a topic rename or move). */
export function moveUserTopics(db: Db, from: { channelId: number; topic: string }, to: { channelId: number; topic: string }) {
  db.update(userTopics)
    .set({ channelId: to.channelId, topic: to.topic })
    .where(and(eq(userTopics.channelId, from.channelId), eq(userTopics.topic, from.topic)))
    .run();
}
