// PostgreSQL twin of src/db/schema/realm-playgrounds.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { bigint, bigserial, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { realms } from "./realms";

export const realmPlaygrounds = pgTable(
  "realm_playgrounds",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    pygmentsLanguage: text("pygments_language").notNull(),
    urlTemplate: text("url_template").notNull(),
  },
  (t) => [uniqueIndex("realm_playgrounds_name").on(t.realmId, t.pygmentsLanguage, t.name)],
);
