// PostgreSQL twin of src/db/schema/user-status.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, boolean, pgTable, text } from "drizzle-orm/pg-core";
import { users } from "./users";

export const userStatuses = pgTable("user_statuses", {
  userId: bigint("user_id", { mode: "number" })
    .primaryKey()
    .references(() => users.id),
  away: boolean("away").notNull().default(false),
  statusText: text("status_text").notNull().default(""),
  emojiName: text("emoji_name").notNull().default(""),
  emojiCode: text("emoji_code").notNull().default(""),
  reactionType: text("reaction_type").notNull().default(""),
  timestamp: bigint("timestamp", { mode: "number" }).notNull(),
});
