import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { nocaseText } from "./channels";

export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id").notNull(),
    senderId: integer("sender_id").notNull(),
    recipientId: integer("recipient_id").notNull(),
    topic: nocaseText("topic").notNull().default(""), // "" for direct messages and the general-chat topic
    content: text("content").notNull(),
    renderedContent: text("rendered_content").notNull(),
    dateSent: integer("date_sent").notNull(),
    client: text("client").notNull().default("API"),
    // Zulip's edit history entries, most recent first (JSON text); null when never edited or moved.
    editHistory: text("edit_history"),
    lastEditTime: integer("last_edit_time"),
    lastMovedTime: integer("last_moved_time"),
    hasLink: integer("has_link", { mode: "boolean" }).notNull().default(false),
    hasImage: integer("has_image", { mode: "boolean" }).notNull().default(false),
    hasAttachment: integer("has_attachment", { mode: "boolean" }).notNull().default(false),
    isMeMessage: integer("is_me_message", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    index("messages_recipient_topic").on(t.recipientId, t.topic, t.id),
    index("messages_recipient").on(t.recipientId, t.id),
    index("messages_sender").on(t.senderId, t.id),
  ],
);

// user_messages (one row per recipient: user_id, message_id, flags bitmask) and the messages_fts
// search index are created by the hand-written migration NNNN_messages_fts_user_messages.sql: drizzle-kit
// cannot declare WITHOUT ROWID tables (which halve that table's size and write cost) or FTS5 tables.
// Their queries live in src/store/messages.ts and src/store/message-flags.ts.

export type MessageRow = typeof messages.$inferSelect;
