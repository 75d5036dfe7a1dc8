import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./users";

/**
 * Browser sessions (the web client's cookie). Only a hash of the cookie's token is kept, so the table
 * alone opens no account; the CSRF token is the one the page reads from its own cookie anyway.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    tokenHash: text("token_hash").notNull().unique(), // sha256 hex of the cookie's value
    csrfToken: text("csrf_token").notNull(),
    dateCreated: integer("date_created").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

export type SessionRow = typeof sessions.$inferSelect;
