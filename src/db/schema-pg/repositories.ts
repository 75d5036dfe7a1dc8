// PostgreSQL twin of src/db/schema/repositories.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { sql } from "drizzle-orm";
import { bigint, bigserial, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { realms } from "./realms";
import { users } from "./users";

export const repositories = pgTable(
  "ext_repositories",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    realmId: bigint("realm_id", { mode: "number" })
      .notNull()
      .references(() => realms.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    createdBy: bigint("created_by", { mode: "number" }).references(() => users.id),
    dateCreated: bigint("date_created", { mode: "number" }).notNull(),
    head: text("head").notNull().default(""),
    dateUpdated: bigint("date_updated", { mode: "number" }),
  },
  (t) => [uniqueIndex("ext_repositories_realm_name").on(t.realmId, sql`lower(${t.name})`)],
);
