// PostgreSQL twin of src/db/schema/bot-storage.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { users } from "./users";

export const botStorage = pgTable(
  "bot_storage",
  {
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    key: text("key").notNull(),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
