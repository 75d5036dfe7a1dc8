// PostgreSQL twin of src/db/schema/scheduled-messages.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, boolean, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { realms } from "./realms";
import { users } from "./users";

export const scheduledMessages = pgTable(
  "scheduled_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    senderId: bigint("sender_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    kind: text("kind").$type<"send_later" | "remind">().notNull(),
    type: text("type").$type<"stream" | "private">().notNull(),
    to: jsonb("to").$type<number[]>().notNull(),
    topic: text("topic").notNull(),
    content: text("content").notNull(),
    renderedContent: text("rendered_content").notNull(),
    scheduledAt: bigint("scheduled_at", { mode: "number" }).notNull(),
    readBySender: boolean("read_by_sender").notNull(),
    client: text("client").notNull(),
    reminderTargetMessageId: bigint("reminder_target_message_id", { mode: "number" }),
    reminderNote: text("reminder_note"),
    delivered: boolean("delivered").notNull().default(false),
    deliveredMessageId: bigint("delivered_message_id", { mode: "number" }),
    failed: boolean("failed").notNull().default(false),
    failureMessage: text("failure_message"),
  },
  (t) => [index("scheduled_messages_due").on(t.delivered, t.failed, t.scheduledAt), index("scheduled_messages_sender").on(t.senderId)],
);
