// PostgreSQL twin of src/db/schema/saved-snippets.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, index, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users";

export const savedSnippets = pgTable(
  "saved_snippets",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    content: text("content").notNull(),
    dateCreated: bigint("date_created", { mode: "number" }).notNull(),
  },
  (t) => [index("saved_snippets_user").on(t.userId)],
);
