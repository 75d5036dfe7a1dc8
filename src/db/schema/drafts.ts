import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// Drafts kept on the server for a user's other clients (contract: "Draft").
export const drafts = sqliteTable(
  "drafts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    type: text("type").notNull(), // "" (unaddressed), "stream", "private"
    to: text("to", { mode: "json" }).$type<number[]>().notNull(), // channel id, or recipient user ids
    topic: text("topic").notNull(),
    content: text("content").notNull(),
    timestamp: integer("timestamp").notNull(), // last edit, UNIX seconds
  },
  (t) => [index("drafts_user").on(t.userId)],
);

export type DraftRow = typeof drafts.$inferSelect;
