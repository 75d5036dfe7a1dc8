import { index, integer, sqliteTable } from "drizzle-orm/sqlite-core";
import { users } from "./users";

// A mobile client's device record (POST /register_client_device), removed at logout (level 470).
export const clientDevices = sqliteTable(
  "client_devices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    dateCreated: integer("date_created").notNull(),
  },
  (t) => [index("client_devices_user").on(t.userId)],
);
