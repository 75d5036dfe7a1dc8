import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// Words that alert a user when they appear in a message.
export const alertWords = sqliteTable(
  "alert_words",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    word: text("word").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.word] })],
);
