import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// Zulip's submessages: the widget protocol's state changes (poll votes, todo tasks) attached to a message;
// deleted with their message (store/messages.ts), like reactions.
export const submessages = sqliteTable(
  "submessages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    messageId: integer("message_id").notNull(),
    senderId: integer("sender_id")
      .notNull()
      .references(() => users.id),
    msgType: text("msg_type").notNull(),
    content: text("content").notNull(), // JSON text, as the client sent it
  },
  (t) => [index("submessages_message").on(t.messageId)],
);

export type SubmessageRow = typeof submessages.$inferSelect;
