import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// Reusable message texts a user keeps (level 297).
export const savedSnippets = sqliteTable(
  "saved_snippets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    title: text("title").notNull(),
    content: text("content").notNull(),
    dateCreated: integer("date_created").notNull(),
  },
  (t) => [index("saved_snippets_user").on(t.userId)],
);

export type SavedSnippetRow = typeof savedSnippets.$inferSelect;
