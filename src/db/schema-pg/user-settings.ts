// PostgreSQL twin of src/db/schema/user-settings.ts (docs/scaling.md, section 10): the same tables, columns, keys and
// indexes in PostgreSQL's types; what each means is said there. test/unit/schema-parity.test.ts keeps them in step.
import { sql } from "drizzle-orm";
import { bigint, jsonb, pgTable } from "drizzle-orm/pg-core";
import { realms } from "./realms";

export const realmUserDefaults = pgTable("realm_user_defaults", {
  realmId: bigint("realm_id", { mode: "number" })
    .primaryKey()
    .references(() => realms.id),
  settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
});
