import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// The outbox of outgoing webhook calls: written in the transaction of the message that triggered
// them, drained by runtime/outgoing-webhooks.ts (with retries), so a restart loses none.
export const outgoingWebhookCalls = sqliteTable(
  "outgoing_webhook_calls",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    botId: integer("bot_id")
      .notNull()
      .references(() => users.id),
    messageId: integer("message_id").notNull(),
    trigger: text("trigger").notNull(), // "mention" or "direct_message" (Zulip's names)
    /** The triggering message as the service receives it (Zulip's message object, raw and rendered content). */
    message: text("message", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(), // UNIX milliseconds
  },
  (t) => [index("outgoing_webhook_calls_due").on(t.nextAttemptAt)],
);

export type OutgoingWebhookCallRow = typeof outgoingWebhookCalls.$inferSelect;
