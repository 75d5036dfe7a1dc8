import { index, integer, sqliteTable } from "drizzle-orm/sqlite-core";
import { realms } from "./realms";
import { users } from "./users";

/** Zulip's modern presence model: when a user last had a client connected, and was last active. */
export const presences = sqliteTable(
  "presences",
  {
    userId: integer("user_id")
      .primaryKey()
      .references(() => users.id),
    realmId: integer("realm_id")
      .notNull()
      .references(() => realms.id),
    lastConnectedTime: integer("last_connected_time").notNull(),
    lastActiveTime: integer("last_active_time"),
    // Realm-wide increasing counter, so clients can ask for "changes since update N".
    lastUpdateId: integer("last_update_id").notNull(),
  },
  (t) => [index("presences_realm_update").on(t.realmId, t.lastUpdateId)],
);

export type PresenceRow = typeof presences.$inferSelect;
