import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const reactions = sqliteTable(
  "reactions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    messageId: integer("message_id").notNull(),
    userId: integer("user_id").notNull(),
    emojiName: text("emoji_name").notNull(),
    emojiCode: text("emoji_code").notNull(),
    reactionType: text("reaction_type").notNull(), // unicode_emoji, realm_emoji, zulip_extra_emoji
  },
  (t) => [uniqueIndex("reactions_unique").on(t.messageId, t.userId, t.reactionType, t.emojiCode)],
);

export type ReactionRow = typeof reactions.$inferSelect;
