import { integer, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { nocaseText } from "./channels";

/** A user's visibility policy for one topic (1 muted, 2 unmuted, 3 followed); rows with 0 are deleted. */
export const userTopics = sqliteTable(
  "user_topics",
  {
    userId: integer("user_id").notNull(),
    channelId: integer("channel_id").notNull(),
    topic: nocaseText("topic").notNull(),
    visibilityPolicy: integer("visibility_policy").notNull(),
    lastUpdated: integer("last_updated").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.channelId, t.topic] })],
);

export type UserTopicRow = typeof userTopics.$inferSelect;
