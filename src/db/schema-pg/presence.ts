// PostgreSQL twin of src/db/schema/presence.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, index, pgTable } from "drizzle-orm/pg-core";
import { realms } from "./realms";
import { users } from "./users";

export const presences = pgTable(
  "presences",
  {
    userId: bigint("user_id", { mode: "number" })
      .primaryKey()
      .references(() => users.id),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    lastConnectedTime: bigint("last_connected_time", { mode: "number" }).notNull(),
    lastActiveTime: bigint("last_active_time", { mode: "number" }),
    lastUpdateId: bigint("last_update_id", { mode: "number" }).notNull(),
  },
  (t) => [index("presences_realm_update").on(t.realmId, t.lastUpdateId)],
);
