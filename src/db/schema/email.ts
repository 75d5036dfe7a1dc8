import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * Mail waiting to go out, written in the transaction of the change that causes it and sent by the
 * runtime worker (runtime/email.ts); rows stay after sending, so administrators can see what went out
 * and what was given up.
 */
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    realmId: integer("realm_id"), // null: mail about the server itself (confab email test)
    kind: text("kind").notNull(), // invitation, password_reset, email_change, email_changed, missed_messages
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    /** Extra headers (List-Unsubscribe), as a JSON object. */
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>(),
    status: text("status").notNull().default("pending"), // pending, sent, failed (given up)
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
  },
  (t) => [index("email_outbox_due").on(t.status, t.nextAttemptAt)],
);

export type EmailOutboxRow = typeof emailOutbox.$inferSelect;

/**
 * Single-use links sent by mail (password reset, confirming a new email address). Only a hash of the
 * secret is kept: reading the database gives no working link.
 */
export const emailTokens = sqliteTable(
  "email_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind").notNull(), // password_reset, email_change
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    tokenHash: text("token_hash").notNull(),
    newEmail: text("new_email"), // email_change: the address being confirmed
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [uniqueIndex("email_tokens_hash").on(t.tokenHash), index("email_tokens_user").on(t.userId, t.kind)],
);

export type EmailTokenRow = typeof emailTokens.$inferSelect;

/**
 * A message that may be mailed to a user who missed it (Zulip's scheduled missed-message emails): why
 * (`trigger`) and when its batch is due. The worker mails what is still unread, grouped per conversation.
 */
export const missedMessages = sqliteTable(
  "missed_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull(),
    messageId: integer("message_id").notNull(),
    trigger: text("trigger").notNull(), // direct_message, mentioned, wildcard_mentioned, followed_topic, channel
    mentionedGroupId: integer("mentioned_group_id"),
    scheduledAt: integer("scheduled_at").notNull(),
  },
  (t) => [index("missed_messages_due").on(t.scheduledAt), index("missed_messages_user").on(t.userId)],
);

export type MissedMessageRow = typeof missedMessages.$inferSelect;
