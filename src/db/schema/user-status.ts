import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// A user's status: a short text, an emoji, and the deprecated away flag. No row: no status.
export const userStatuses = sqliteTable("user_statuses", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  away: integer("away", { mode: "boolean" }).notNull().default(false),
  statusText: text("status_text").notNull().default(""),
  emojiName: text("emoji_name").notNull().default(""),
  emojiCode: text("emoji_code").notNull().default(""),
  reactionType: text("reaction_type").notNull().default(""),
  timestamp: integer("timestamp").notNull(),
});

export type UserStatusRow = typeof userStatuses.$inferSelect;
