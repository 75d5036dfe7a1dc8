// PostgreSQL twin of src/db/schema/outgoing-webhooks.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users";

export const outgoingWebhookCalls = pgTable(
  "outgoing_webhook_calls",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    botId: bigint("bot_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    messageId: bigint("message_id", { mode: "number" }).notNull(),
    trigger: text("trigger").notNull(),
    message: jsonb("message").$type<Record<string, unknown>>().notNull(),
    attempts: bigint("attempts", { mode: "number" }).notNull().default(0),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }).notNull(),
  },
  (t) => [index("outgoing_webhook_calls_due").on(t.nextAttemptAt)],
);
