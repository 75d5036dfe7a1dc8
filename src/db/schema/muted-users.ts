import { integer, primaryKey, sqliteTable } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// Users a user has muted, and when.
export const mutedUsers = sqliteTable(
  "muted_users",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    mutedUserId: integer("muted_user_id")
      .notNull()
      .references(() => users.id),
    dateMuted: integer("date_muted").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.mutedUserId] })],
);
