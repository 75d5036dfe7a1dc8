// PostgreSQL twin of src/db/schema/linkifiers.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { realms } from "./realms";

export const linkifiers = pgTable(
  "linkifiers",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    pattern: text("pattern").notNull(),
    urlTemplate: text("url_template").notNull(),
    order: bigint("order", { mode: "number" }).notNull().default(0),
  },
  (t) => [uniqueIndex("linkifiers_realm_pattern").on(t.realmId, t.pattern), index("linkifiers_realm").on(t.realmId)],
);
