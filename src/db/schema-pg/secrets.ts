// PostgreSQL twin of src/db/schema/secrets.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { realms } from "./realms";
import { users } from "./users";

export const secrets = pgTable(
  "ext_secrets",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    sealed: text("sealed").notNull(),
    hint: text("hint").notNull(),
    note: text("note").notNull().default(""),
    addedBy: bigint("added_by", { mode: "number" }).references(() => users.id),
    dateAdded: bigint("date_added", { mode: "number" }).notNull(),
    replacedBy: bigint("replaced_by", { mode: "number" }).references(() => users.id),
    dateReplaced: bigint("date_replaced", { mode: "number" }),
    dateUsed: bigint("date_used", { mode: "number" }),
  },
  (t) => [uniqueIndex("ext_secrets_realm_name").on(t.realmId, t.name)],
);
