// PostgreSQL twin of src/db/schema/submessages.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users";

export const submessages = pgTable(
  "submessages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    messageId: bigint("message_id", { mode: "number" }).notNull(),
    senderId: bigint("sender_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    msgType: text("msg_type").notNull(),
    content: text("content").notNull(),
  },
  (t) => [index("submessages_message").on(t.messageId)],
);
