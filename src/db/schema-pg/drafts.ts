// PostgreSQL twin of src/db/schema/drafts.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users";

export const drafts = pgTable(
  "drafts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    type: text("type").notNull(),
    to: jsonb("to").$type<number[]>().notNull(),
    topic: text("topic").notNull(),
    content: text("content").notNull(),
    timestamp: bigint("timestamp", { mode: "number" }).notNull(),
  },
  (t) => [index("drafts_user").on(t.userId)],
);
