// PostgreSQL twin of src/db/schema/muted-users.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { users } from "./users";

export const mutedUsers = pgTable(
  "muted_users",
  {
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    mutedUserId: bigint("muted_user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    dateMuted: bigint("date_muted", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.mutedUserId] })],
);
