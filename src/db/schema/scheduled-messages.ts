import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";
import { users } from "./users";

// Messages to send later and reminders: one table and one scheduler (runtime/scheduler.ts), as in Zulip.
export const scheduledMessages = sqliteTable(
  "scheduled_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    senderId: integer("sender_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<"send_later" | "remind">().notNull(),
    type: text("type").$type<"stream" | "private">().notNull(),
    to: text("to", { mode: "json" }).$type<number[]>().notNull(), // [channel id], or the direct-message recipients
    topic: text("topic").notNull(),
    content: text("content").notNull(),
    renderedContent: text("rendered_content").notNull(),
    scheduledAt: integer("scheduled_at").notNull(), // UNIX seconds
    readBySender: integer("read_by_sender", { mode: "boolean" }).notNull(),
    client: text("client").notNull(),
    reminderTargetMessageId: integer("reminder_target_message_id"),
    reminderNote: text("reminder_note"),
    delivered: integer("delivered", { mode: "boolean" }).notNull().default(false),
    deliveredMessageId: integer("delivered_message_id"),
    failed: integer("failed", { mode: "boolean" }).notNull().default(false),
    failureMessage: text("failure_message"),
  },
  (t) => [index("scheduled_messages_due").on(t.delivered, t.failed, t.scheduledAt), index("scheduled_messages_sender").on(t.senderId)],
);

export type ScheduledMessageRow = typeof scheduledMessages.$inferSelect;
