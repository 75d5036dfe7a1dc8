// PostgreSQL twin of src/db/schema/reactions.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";

export const reactions = pgTable(
  "reactions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    messageId: bigint("message_id", { mode: "number" }).notNull(),
    userId: bigint("user_id", { mode: "number" }).notNull(),
    emojiName: text("emoji_name").notNull(),
    emojiCode: text("emoji_code").notNull(),
    reactionType: text("reaction_type").notNull(),
  },
  (t) => [uniqueIndex("reactions_unique").on(t.messageId, t.userId, t.reactionType, t.emojiCode)],
);
