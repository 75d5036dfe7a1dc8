// PostgreSQL twin of src/db/schema/devices.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, index, pgTable } from "drizzle-orm/pg-core";
import { users } from "./users";

export const clientDevices = pgTable(
  "client_devices",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: bigint("user_id", { mode: "number" })
      .notNull()
      .references(() => users.id),
    dateCreated: bigint("date_created", { mode: "number" }).notNull(),
  },
  (t) => [index("client_devices_user").on(t.userId)],
);
